// `npm run backup -- <file>`: one file that brings an install back (backup-archive.ts has its
// format), made while the server serves; nothing is stopped for it.
//
// What it holds and how it stays consistent:
// - The database first. Embedded: when a server holds DATA_DIR, that server copies its PGlite
//   database at a moment no transaction is open and sends it over DATA_DIR/backup.sock
//   (snapshot-socket.ts); with no server running, this process opens the directory itself (taking
//   its lock, so no server starts on it meanwhile). PostgreSQL: pg_dump, which reads one snapshot.
// - Then everything else in DATA_DIR (the files under files/, the store-keys key secrets.key, the
//   mail outbox), read after the database. Files are only ever added under new keys, and from
//   before the database is read until the last file is copied the backup holds deletes
//   (storage/delete-hold.ts), so every file a row of the copied database names is in the backup.
//   A file added after the database was read may be in it too, named by no row: harmless.
// - Files in an S3 bucket are not copied (a bucket is backed up by its versioning, which is
//   checked and reported), nor are SECRETS_KEY and AUTH_SECRET when they are set in the
//   environment: the operator keeps those beside the backup.
//
// The archive is written beside the target under a temporary name and renamed when complete, so
// a file with the backup's name is always a whole backup.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config/env';
import { MIGRATIONS_DIR, pgliteOptions } from '../db/client';
import { DataDirLockedError, lockDirectory } from '../db/lock';
import { appliedMigrations, levelOf, type AppliedMigrations } from '../db/migration-level';
import { pgliteSnapshot } from '../db/snapshot';
import { HOLD_FILE, holdDeletes } from '../storage/delete-hold';
import { ArchiveWriter, BACKUP_FORMAT, BACKUP_FORMAT_VERSION, DATA_PREFIX, isSafeDataPath, MANIFEST_PATH, PGLITE_ENTRY, POSTGRES_ENTRY, type Manifest, type ManifestEntry } from './backup-archive';
import { pgDump, postgresMajor, serverVersion, toolVersion, withClient } from './postgres-tools';
import { requestSnapshot, SOCKET_FILE } from './snapshot-socket';
import pkg from '../../package.json' with { type: 'json' };

export class BackupFailed extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BackupFailed';
  }
}

export interface BackupOptions {
  config: Config;
  file: string;
  /** The environment pg_dump runs in (PATH finds it). */
  env?: NodeJS.ProcessEnv;
  /** Progress and warnings, one line each, for the operator. */
  say?: (line: string) => void;
}

export interface BackupResult {
  file: string;
  manifest: Manifest;
  bytes: number;
  warnings: string[];
}

interface DumpedDatabase {
  entry: string;
  size: number;
  sha256: string;
  migrations: AppliedMigrations | null;
  postgres?: Manifest['postgres'];
}

/** Top-level names in DATA_DIR that are not copied as files: the database and the running server's own. */
const NOT_FILES = new Set(['pg', 'pg.lock', SOCKET_FILE, HOLD_FILE]);

function within(child: string, parent: string): boolean {
  const relative = path.relative(parent, child);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

async function sha256Of(file: string): Promise<string> {
  const hash = crypto.createHash('sha256');
  for await (const chunk of fs.createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

async function dumpEmbedded(config: Config, target: string, say: (line: string) => void): Promise<DumpedDatabase> {
  if (!fs.existsSync(path.join(config.pgliteDir, 'PG_VERSION'))) {
    throw new BackupFailed(`${config.dataDir} holds no database (${config.pgliteDir} is missing or empty): nothing to back up. Is DATA_DIR the server's?`);
  }
  let lock: { release(): void };
  try {
    lock = lockDirectory(config.pgliteDir);
  } catch (error) {
    if (!(error instanceof DataDirLockedError)) throw error;
    say(`The server (pid ${error.ownerPid}) is running: it copies its database for the backup.`);
    const received = await requestSnapshot(config.dataDir, target, error.ownerPid);
    return { entry: PGLITE_ENTRY, size: received.bytes, sha256: received.sha256, migrations: received.migrations };
  }
  try {
    say('No server is running on this DATA_DIR: reading its database directly.');
    const { PGlite } = await import('@electric-sql/pglite');
    const client = await PGlite.create(config.pgliteDir, pgliteOptions(PGlite.defaultStartParams));
    try {
      const snapshot = await pgliteSnapshot(client);
      const bytes = Buffer.from(await snapshot.data.arrayBuffer());
      fs.writeFileSync(target, bytes, { mode: 0o600 });
      return { entry: PGLITE_ENTRY, size: bytes.length, sha256: crypto.createHash('sha256').update(bytes).digest('hex'), migrations: snapshot.migrations };
    } finally {
      await client.close();
    }
  } finally {
    lock.release();
  }
}

async function dumpPostgres(url: string, target: string, env: NodeJS.ProcessEnv, say: (line: string) => void): Promise<DumpedDatabase> {
  const version = await serverVersion(url);
  const tool = await toolVersion('pg_dump', env, postgresMajor(version));
  const migrations = await withClient(url, (client) => appliedMigrations((text) => client.query(text)));
  say(`Dumping the PostgreSQL ${version} database with pg_dump ${tool.text}.`);
  await pgDump(url, target, env);
  return {
    entry: POSTGRES_ENTRY,
    size: fs.statSync(target).size,
    sha256: await sha256Of(target),
    migrations,
    postgres: { server_version: version, pg_dump_version: tool.text },
  };
}

/** DATA_DIR's files to copy, each with its size and hash as read now. */
async function listDataFiles(config: Config, say: (line: string) => void): Promise<(ManifestEntry & { source: string; mtime: Date })[]> {
  if (!fs.existsSync(config.dataDir)) return [];
  const skipped = new Set<string>(NOT_FILES);
  if (config.s3) skipped.add('files');
  if (config.databaseUrl && fs.existsSync(config.pgliteDir)) {
    say(`${config.pgliteDir} (an embedded database this server no longer uses, with DATABASE_URL set) is not backed up.`);
  }
  if (config.s3 && fs.existsSync(config.filesDir)) say(`${config.filesDir} is not backed up: with S3_BUCKET set, the server's files are in the bucket.`);
  const found: (ManifestEntry & { source: string; mtime: Date })[] = [];
  const walk = async (directory: string, relative: string) => {
    const names = fs.readdirSync(directory).sort();
    for (const name of names) {
      if (!relative && skipped.has(name)) continue;
      // A file being written (the storage and the mail outbox write beside, then rename).
      if (name.endsWith('.part')) continue;
      const source = path.join(directory, name);
      const entry = relative ? `${relative}/${name}` : name;
      const stat = fs.lstatSync(source, { throwIfNoEntry: false });
      if (!stat) continue; // gone since it was listed: a file being renamed into place
      if (!isSafeDataPath(`${DATA_PREFIX}${entry}`)) {
        say(`${source} has a name a restore would not write, and is not backed up.`);
      } else if (stat.isDirectory()) {
        await walk(source, entry);
      } else if (stat.isFile()) {
        const sha256 = await sha256Of(source).catch((error: NodeJS.ErrnoException) => {
          if (error.code === 'ENOENT') return null; // renamed into place since it was listed
          throw error;
        });
        if (sha256) found.push({ path: `${DATA_PREFIX}${entry}`, size: stat.size, sha256, mode: stat.mode & 0o777, source, mtime: stat.mtime });
      } else {
        say(`${source} is not a regular file and is not backed up.`);
      }
    }
  };
  await walk(config.dataDir, '');
  return found;
}

/**
 * What a backup says of the S3 bucket the files are in: that it is not copied, and whether its
 * versioning is on (S3's GetBucketVersioning), with a warning when it is not or cannot be told.
 */
export async function bucketReport(s3: NonNullable<Config['s3']>): Promise<{ versioning: string; lines: string[]; warning: string | null }> {
  const { S3Storage } = await import('../storage/s3');
  const storage = await S3Storage.create(s3);
  let versioning: string;
  try {
    versioning = await storage.versioning();
  } catch (error) {
    versioning = `unknown (${(error as Error).name}: ${(error as Error).message})`;
  } finally {
    storage.close();
  }
  const lines = [`Files are in the S3 bucket ${s3.bucket}: this backup does not copy them; the bucket's versioning keeps them.`];
  if (versioning === 'Enabled') {
    lines.push(`Versioning is on for ${s3.bucket}: the bucket keeps every version of its files.`);
    return { versioning, lines, warning: null };
  }
  return {
    versioning,
    lines,
    warning:
      `versioning is ${versioning} for the bucket ${s3.bucket}: a file deleted or overwritten there is gone for good, and a restored ` +
      'database may name files the bucket no longer has. Turn it on (aws s3api put-bucket-versioning --versioning-configuration Status=Enabled).',
  };
}

export async function createBackup({ config, file, env = process.env, say = () => {} }: BackupOptions): Promise<BackupResult> {
  const out = path.resolve(file);
  const warnings: string[] = [];
  const warn = (line: string) => {
    warnings.push(line);
    say(`Warning: ${line}`);
  };
  if (fs.existsSync(out)) throw new BackupFailed(`${out} already exists: name a new file (a backup never overwrites one).`);
  if (within(out, config.dataDir)) throw new BackupFailed(`${out} is inside DATA_DIR (${config.dataDir}): write the backup somewhere else.`);
  if (!fs.existsSync(path.dirname(out))) throw new BackupFailed(`${path.dirname(out)} does not exist: make it first, or name a file in another directory.`);

  const storage: Manifest['storage'] = config.s3 ? { kind: 's3', bucket: config.s3.bucket } : { kind: 'local' };
  if (config.s3) {
    const bucket = await bucketReport(config.s3);
    storage.versioning = bucket.versioning;
    bucket.lines.forEach(say);
    if (bucket.warning) warn(bucket.warning);
  }
  if (config.publisher.secretsKey) say('SECRETS_KEY is set: keep it with this backup; without it the connected stores\' keys cannot be read.');
  if (config.authSecret) say('AUTH_SECRET is set: keep it with this backup, or sellers sign in again after a restore.');

  const workspace = fs.mkdtempSync(path.join(path.dirname(out), `.${path.basename(out)}.partial-`));
  const hold = fs.existsSync(config.dataDir) ? holdDeletes(config.dataDir) : null;
  let writer: ArchiveWriter | null = null;
  try {
    const dumpFile = path.join(workspace, 'database');
    const database = config.databaseUrl ? await dumpPostgres(config.databaseUrl, dumpFile, env, say) : await dumpEmbedded(config, dumpFile, say);
    if (database.migrations === null) warn('the database was never migrated (no server has started on it).');
    const files = await listDataFiles(config, say);
    const manifest: Manifest = {
      format: BACKUP_FORMAT,
      format_version: BACKUP_FORMAT_VERSION,
      app_version: pkg.version,
      created_at: new Date().toISOString(),
      kind: config.databaseUrl ? 'postgres' : 'embedded',
      migrations: database.migrations && levelOf(database.migrations, MIGRATIONS_DIR),
      ...(database.postgres ? { postgres: database.postgres } : {}),
      storage,
      entries: [
        { path: database.entry, size: database.size, sha256: database.sha256, mode: 0o600 },
        ...files.map(({ path: entry, size, sha256, mode }) => ({ path: entry, size, sha256, mode })),
      ],
    };

    const archive = path.join(workspace, 'archive');
    writer = new ArchiveWriter(archive);
    const manifestBytes = Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`);
    await writer.add(MANIFEST_PATH, manifestBytes.length, manifestBytes, { mode: 0o600 });
    if ((await writer.add(database.entry, database.size, fs.createReadStream(dumpFile), { mode: 0o600 })) !== database.sha256) {
      throw new BackupFailed('The database copy changed on disk while it was archived; run the backup again.');
    }
    for (const file of files) {
      const sha256 = await writer.add(file.path, file.size, fs.createReadStream(file.source), { mode: file.mode, mtime: file.mtime }).catch((error: unknown) => {
        throw new BackupFailed(`${file.source} could not be copied (${(error as Error).message}); run the backup again.`);
      });
      if (sha256 !== file.sha256) throw new BackupFailed(`${file.source} changed while it was backed up; run the backup again.`);
    }
    await writer.finish();
    writer = null;
    hold?.release();
    fs.renameSync(archive, out);
    const bytes = fs.statSync(out).size;
    const filesBytes = files.reduce((sum, entry) => sum + entry.size, 0);
    const level = manifest.migrations ? (manifest.migrations.last_tag ?? `${manifest.migrations.count} migrations`) : 'never migrated';
    say(
      `Backup written to ${out} (${megabytes(bytes)}): the ${manifest.kind} database (${megabytes(database.size)}, at ${level}) and ` +
        `${files.length} ${files.length === 1 ? 'file' : 'files'} from DATA_DIR (${megabytes(filesBytes)}).`,
    );
    return { file: out, manifest, bytes, warnings };
  } finally {
    writer?.abort();
    hold?.release();
    fs.rmSync(workspace, { recursive: true, force: true });
  }
}
