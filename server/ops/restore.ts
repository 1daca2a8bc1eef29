// `npm run restore -- <file>`: brings a backup (backup.ts) back into an empty DATA_DIR, and on
// PostgreSQL into an empty database too. Nothing of the target is touched until all of the
// backup has been checked:
// 1. DATA_DIR must be empty or absent, and the backup's manifest must be one this code reads
//    (format, kind against DATABASE_URL, a migration level this code knows); on PostgreSQL the
//    database must be empty and pg_restore new enough.
// 2. Every entry is read, checked against the manifest and written to a directory beside the
//    target (inside it when DATA_DIR is a mount point, where a rename cannot cross).
// 3. The embedded database is opened there and must hold the migrations the manifest says; a
//    PostgreSQL dump is restored by pg_restore in one transaction.
// 4. Only then does the directory take DATA_DIR's place, by rename.
// A refusal at any step leaves DATA_DIR as it was and removes what was written beside it.
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config/env';
import { MIGRATIONS_DIR, pgliteOptions } from '../db/client';
import { appliedMigrations, levelProblem } from '../db/migration-level';
import { BackupRefused, DATA_PREFIX, PGLITE_ENTRY, POSTGRES_ENTRY, readManifest, verifyArchive, type Manifest } from './backup-archive';
import { databaseContents, pgRestore, postgresMajor, toolVersion } from './postgres-tools';

export interface RestoreOptions {
  config: Config;
  file: string;
  /** The environment pg_restore runs in (PATH finds it). */
  env?: NodeJS.ProcessEnv;
  say?: (line: string) => void;
}

/** Entries a fresh volume may hold that are not data. */
const IGNORED_IN_TARGET = new Set(['lost+found']);

function refuse(message: string): BackupRefused {
  return new BackupRefused('unusable', message);
}

/** Why `target` cannot take a restore, or null when it is absent or empty. */
function targetProblem(target: string, staging?: string): string | null {
  const stat = fs.statSync(target, { throwIfNoEntry: false });
  if (!stat) return null;
  if (!stat.isDirectory()) return `DATA_DIR (${target}) is a file, not a directory.`;
  const names = fs.readdirSync(target).filter((name) => !IGNORED_IN_TARGET.has(name) && path.join(target, name) !== staging);
  if (names.length === 0) return null;
  const shown = names.slice(0, 3).join(', ') + (names.length > 3 ? ', …' : '');
  return `DATA_DIR (${target}) is not empty (it holds ${shown}). A restore goes only into an empty or new directory: point DATA_DIR at one.`;
}

function isMountPoint(directory: string): boolean {
  return fs.statSync(directory).dev !== fs.statSync(path.dirname(directory)).dev;
}

/** Opens the restored PGlite directory (PGlite replays what it must) and checks its migrations. */
async function loadEmbedded(directory: string, dump: string, manifest: Manifest, file: string): Promise<void> {
  const { PGlite } = await import('@electric-sql/pglite');
  let client: InstanceType<typeof PGlite>;
  try {
    client = await PGlite.create(directory, { ...pgliteOptions(PGlite.defaultStartParams), loadDataDir: new Blob([fs.readFileSync(dump)]) });
  } catch (error) {
    throw new BackupRefused('damaged', `${file} holds a database that does not open (${(error as Error).message}).`);
  }
  try {
    const applied = await appliedMigrations((text) => client.query(text));
    const expected = manifest.migrations;
    const same = applied && expected ? applied.count === expected.count && applied.last_hash === expected.last_hash : applied === expected;
    if (!same) throw new BackupRefused('damaged', `${file} holds a database whose migrations are not the ones its manifest records.`);
  } finally {
    await client.close();
  }
}

/** Moves the checked data directory into place: one rename, or one per entry into a mount point. */
function moveIntoPlace(data: string, target: string, inside: boolean): void {
  if (!inside) {
    // rename(2) replaces an empty directory; one that filled meanwhile makes it fail, untouched.
    fs.renameSync(data, target);
    return;
  }
  for (const name of fs.readdirSync(data)) fs.renameSync(path.join(data, name), path.join(target, name));
}

export async function restoreBackup({ config, file, env = process.env, say = () => {} }: RestoreOptions): Promise<Manifest> {
  const source = path.resolve(file);
  if (!fs.statSync(source, { throwIfNoEntry: false })?.isFile()) throw refuse(`${source} does not exist or is not a file.`);
  const target = config.dataDir;
  const problem = targetProblem(target);
  if (problem) throw refuse(problem);

  const read = await readManifest(source);
  const { manifest } = read;
  if (manifest.kind === 'embedded' && config.databaseUrl) {
    throw refuse(`${source} holds an embedded database, and DATABASE_URL is set: unset DATABASE_URL to restore it into DATA_DIR.`);
  }
  if (manifest.kind === 'postgres' && !config.databaseUrl) {
    throw refuse(`${source} holds a PostgreSQL database: set DATABASE_URL to a new, empty database to restore it into.`);
  }
  if (manifest.migrations) {
    const tooNew = levelProblem(manifest.migrations, MIGRATIONS_DIR);
    if (tooNew) throw refuse(`${source} cannot be restored by this SoleStudio: ${tooNew}`);
  }
  const databaseUrl = config.databaseUrl;
  const emptyDatabase = async () => {
    const contents = await databaseContents(databaseUrl!);
    if (contents.length > 0) {
      throw refuse(`The database at DATABASE_URL is not empty (it holds ${contents.join(', ')}). Restore into a new, empty database (createdb).`);
    }
  };
  if (manifest.kind === 'postgres') {
    await emptyDatabase();
    await toolVersion('pg_restore', env, postgresMajor(manifest.postgres?.pg_dump_version ?? '0'));
  }
  if (manifest.storage.kind === 's3') {
    say(`This backup's files are in the S3 bucket ${manifest.storage.bucket} (not in the backup); the restored server must use that bucket (S3_BUCKET).`);
    if (!config.s3) say('Warning: S3_BUCKET is not set here: the restored server would look for its files in DATA_DIR/files, where there are none.');
  } else if (config.s3) {
    say(`Warning: this backup's files are restored into ${config.filesDir}, but S3_BUCKET is set: the server will look for them in the bucket.`);
  }
  say(`Restoring ${manifest.kind === 'embedded' ? 'an embedded' : 'a PostgreSQL'} backup of SoleStudio ${manifest.app_version}, made ${manifest.created_at}, into ${target}.`);

  fs.mkdirSync(path.dirname(target), { recursive: true });
  const inside = fs.existsSync(target) && isMountPoint(target);
  const staging = fs.mkdtempSync(inside ? path.join(target, '.restore-') : path.join(path.dirname(target), `.${path.basename(target)}.restore-`));
  let keepStaging = false;
  try {
    const data = path.join(staging, 'data');
    const dump = path.join(staging, 'database');
    fs.mkdirSync(data, { mode: 0o700 });
    await verifyArchive(source, read, (entry) => {
      if (entry.path === PGLITE_ENTRY || entry.path === POSTGRES_ENTRY) return dump;
      const destination = path.join(data, ...entry.path.slice(DATA_PREFIX.length).split('/'));
      fs.mkdirSync(path.dirname(destination), { recursive: true });
      return destination;
    });
    say('Every entry matches its checksum.');
    if (manifest.kind === 'embedded') {
      await loadEmbedded(path.join(data, 'pg'), dump, manifest, source);
      say('The database opens and holds the migrations the backup records.');
    } else {
      await emptyDatabase();
      await pgRestore(databaseUrl!, dump, env);
      say('pg_restore restored the database.');
    }
    fs.rmSync(dump);
    const late = targetProblem(target, staging);
    if (late) {
      keepStaging = manifest.kind === 'postgres';
      throw refuse(`${late}${keepStaging ? ` The database was restored; the files are in ${data}.` : ''}`);
    }
    moveIntoPlace(data, target, inside);
    say(`Restored into ${target}. Start the server with DATA_DIR=${target}${databaseUrl ? ' and this DATABASE_URL' : ''}.`);
    return manifest;
  } finally {
    if (!keepStaging) fs.rmSync(staging, { recursive: true, force: true });
  }
}
