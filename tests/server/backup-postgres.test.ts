// Backups on PostgreSQL (server/ops/backup.ts, restore.ts), with the files in DATA_DIR: a busy
// server (tests/support/backups.ts) backed up by `npm run backup`, which runs pg_dump, while a
// seller keeps uploading and deleting photos; restored by pg_restore into a new, empty database
// and an empty DATA_DIR, where a second server serves every seller all they had. A database that
// is not empty is refused and left as it was; a pg_dump older than the server, or none at all, is
// refused with what to install.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { loadConfig } from '../../server/config/env';
import { openPostgres } from '../../server/db/client';
import { BackupRefused, readManifest } from '../../server/ops/backup-archive';
import { createBackup } from '../../server/ops/backup';
import { PostgresToolProblem } from '../../server/ops/postgres-tools';
import { restoreBackup } from '../../server/ops/restore';
import { backupTool, expectRestored, freePort, keepBusyUntil, listing, makeBusy, type BusyInstall, type Served } from '../support/backups';
import { databaseUrl } from '../support/database-global-setup';
import { dropDatabase } from '../support/test-database';
import { listeningTestApp } from '../support/listening-app';

const base = process.env.TEST_DATABASE_URL!;
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'solestudio-backup-pg-'));
const env = { LOG_LEVEL: 'silent', PAYMENTS_SANDBOX: 'true', SIGN_UP_BONUS_TOKENS: '100', RUN_JOBS: 'false' };

let a: Served;
let busy: BusyInstall;
let archive: string;
let backupRun: Awaited<ReturnType<typeof backupTool>>;

async function admin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: base });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  const t = await listeningTestApp(env);
  a = { ...t, base: `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}` };
  busy = await makeBusy(a);
  archive = path.join(root, 'busy.tar.gz');
  const backup = backupTool('backup', archive, { DATA_DIR: a.dataDir, DATABASE_URL: a.databaseUrl! });
  await keepBusyUntil(a, busy, backup);
  backupRun = await backup;
}, 120_000);

afterAll(async () => {
  await a?.close();
  fs.rmSync(root, { recursive: true, force: true });
});

describe('npm run backup on PostgreSQL', () => {
  it('dumps the database with pg_dump and copies the files of DATA_DIR', async () => {
    expect(backupRun.code, backupRun.stderr).toBe(0);
    expect(backupRun.stdout).toMatch(/Dumping the PostgreSQL \d+\.\d+ database with pg_dump \d+\.\d+\./);
    const { manifest } = await readManifest(archive);
    expect(manifest).toMatchObject({ kind: 'postgres', storage: { kind: 'local' } });
    expect(manifest.postgres?.server_version).toMatch(/^\d+\.\d+/);
    const paths = manifest.entries.map((entry) => entry.path);
    expect(paths[0]).toBe('database/postgres.dump');
    expect(paths).toContain('data/secrets.key');
    expect(paths.filter((entry) => entry.startsWith('data/files/')).length).toBeGreaterThan(5);
  });
});

describe('npm run restore on PostgreSQL', () => {
  it('restores into a new, empty database and DATA_DIR, and a second server serves every seller all they had', async () => {
    const name = `solestudio_restore_${crypto.randomBytes(4).toString('hex')}`;
    await admin((client) => client.query(`CREATE DATABASE ${name}`));
    const url = databaseUrl(base, name);
    const dataDir = path.join(root, 'b');
    try {
      const restored = await restoreBackup({ config: loadConfig({ DATA_DIR: dataDir, DATABASE_URL: url }), file: archive });
      expect(restored.kind).toBe('postgres');
      const port = await freePort();
      const config = loadConfig({ ...env, DATA_DIR: dataDir, DATABASE_URL: url, STATIC_DIR: path.join(root, 'no-web-build'), PUBLIC_URL: `http://127.0.0.1:${port}` });
      const app = await buildApp({ config, database: await openPostgres(url) });
      await app.listen({ port, host: '127.0.0.1' });
      try {
        await expectRestored({ app, dataDir, base: `http://127.0.0.1:${port}`, close: () => app.close() }, busy);
      } finally {
        await app.close();
      }
    } finally {
      await dropDatabase(base, name);
    }
  }, 60_000);

  it('refuses a database that is not empty, leaving it and DATA_DIR as they were', async () => {
    const parent = fs.mkdtempSync(path.join(root, 'target-'));
    const dataDir = path.join(parent, 'data');
    const users = () => countUsers(a.databaseUrl!);
    const before = await users();
    const error = await restoreBackup({ config: loadConfig({ DATA_DIR: dataDir, DATABASE_URL: a.databaseUrl! }), file: archive }).catch((problem: unknown) => problem);
    expect(error).toBeInstanceOf(BackupRefused);
    expect((error as Error).message).toMatch(/^The database at DATABASE_URL is not empty \(it holds .+\)\. Restore into a new, empty database \(createdb\)\.$/);
    expect(listing(parent)).toEqual([]);
    expect(await users()).toBe(before);
  });
});

async function countUsers(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return Number((await client.query('SELECT count(*) AS n FROM users')).rows[0].n);
  } finally {
    await client.end();
  }
}

describe('pg_dump', () => {
  it('older than the server, or missing, is refused with what to install, and no file is written', async () => {
    const bin = fs.mkdtempSync(path.join(root, 'bin-'));
    fs.writeFileSync(path.join(bin, 'pg_dump'), '#!/bin/sh\necho "pg_dump (PostgreSQL) 9.6.24"\n', { mode: 0o755 });
    const config = loadConfig({ DATA_DIR: a.dataDir, DATABASE_URL: a.databaseUrl! });
    const major = Number(/^(\d+)/.exec((await readManifest(archive)).manifest.postgres!.server_version)![1]);
    const file = path.join(root, 'old-pg-dump.tar.gz');
    const was = listing(root);
    const old = await createBackup({ config, file, env: { ...process.env, PATH: `${bin}:${process.env.PATH}` } }).catch((problem: unknown) => problem);
    expect(old).toBeInstanceOf(PostgresToolProblem);
    expect((old as Error).message).toBe(
      `pg_dump is version 9.6.24, older than the ${major} it needs here. Install PostgreSQL's client tools, version ${major} or newer ` +
        `(e.g. apt install postgresql-client-${major}), and put pg_dump on PATH.`,
    );
    const missing = await createBackup({ config, file, env: { ...process.env, PATH: path.join(root, 'nothing-here') } }).catch((problem: unknown) => problem);
    expect((missing as Error).message).toMatch(/^pg_dump was not found on PATH\. Install PostgreSQL's client tools/);
    expect(listing(root)).toEqual(was);
    expect(fs.existsSync(path.join(a.dataDir, 'backup.hold'))).toBe(false);
  });
});
