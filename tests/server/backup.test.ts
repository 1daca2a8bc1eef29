// Backups of the embedded install (server/ops/backup.ts, restore.ts): a real server on PGlite in
// its DATA_DIR, made busy (tests/support/backups.ts), backed up by `npm run backup` in a process
// of its own while a seller keeps uploading and deleting photos, restored into an empty DATA_DIR
// and served by a second server on another port, which serves every seller all they had. Then
// what a restore refuses (a truncated copy, a flipped byte, another tar, a random file, a newer
// schema, a full DATA_DIR), each time leaving the target exactly as it was; deletes held while a
// backup copies files; and a bucket's versioning reported where the files are in S3.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import * as tar from 'tar';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildApp } from '../../server/app';
import { loadConfig } from '../../server/config/env';
import { MIGRATIONS_DIR, openPglite } from '../../server/db/client';
import { shippedMigrations } from '../../server/db/migration-level';
import { ArchiveWriter, BackupRefused, MANIFEST_PATH, readManifest, type Manifest } from '../../server/ops/backup-archive';
import { bucketReport, createBackup } from '../../server/ops/backup';
import { restoreBackup } from '../../server/ops/restore';
import { BackupRunningError, HeldDeletes, holdDeletes, holdFileOf } from '../../server/storage/delete-hold';
import { LocalStorage } from '../../server/storage/local';
import { backupTool, expectRestored, freePort, keepBusyUntil, listing, makeBusy, type BusyInstall, type Served } from '../support/backups';
import { startBucket } from '../support/fakes/s3';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'solestudio-backup-'));
const running: Served[] = [];

/** The server as server.ts starts it: PGlite in DATA_DIR/pg (locked to it), the app, a port. */
async function embeddedServer(dataDir: string): Promise<Served> {
  const port = await freePort();
  const config = loadConfig({
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    STATIC_DIR: path.join(root, 'no-web-build'),
    LOG_LEVEL: 'silent',
    PAYMENTS_SANDBOX: 'true',
    SIGN_UP_BONUS_TOKENS: '100',
    // The task stays with the runner that holds it; this server makes nothing itself.
    RUN_JOBS: 'false',
  });
  const app = await buildApp({ config, database: await openPglite(config.pgliteDir) });
  await app.listen({ port, host: '127.0.0.1' });
  const served: Served = { app, dataDir, base: `http://127.0.0.1:${port}`, close: () => app.close() };
  running.push(served);
  return served;
}

let a: Served;
let busy: BusyInstall;
let archive: string;
let backupRun: Awaited<ReturnType<typeof backupTool>>;
let busyRounds = 0;

beforeAll(async () => {
  // The run's migrated database (database-global-setup.ts) as DATA_DIR/pg, so the first start
  // does not create one (12 s); from there on the server is the real one.
  const aDir = path.join(root, 'a');
  fs.mkdirSync(aDir);
  const seed = await PGlite.create(path.join(aDir, 'pg'), { loadDataDir: new Blob([fs.readFileSync(inject('pgliteSnapshot'))]) });
  await seed.close();
  a = await embeddedServer(aDir);
  busy = await makeBusy(a);
  archive = path.join(root, 'busy.tar.gz');
  const backup = backupTool('backup', archive, { DATA_DIR: aDir });
  busyRounds = await keepBusyUntil(a, busy, backup);
  backupRun = await backup;
}, 120_000);

afterAll(async () => {
  for (const server of running) await server.close().catch(() => {});
  fs.rmSync(root, { recursive: true, force: true });
});

describe('npm run backup on a busy embedded server', () => {
  it('copies the database from the running server, and every file of DATA_DIR with its checksum', async () => {
    expect(backupRun.code, backupRun.stderr).toBe(0);
    expect(backupRun.stdout).toContain(`The server (pid ${process.pid}) is running: it copies its database for the backup.`);
    expect(busyRounds).toBeGreaterThan(1);
    const { manifest } = await readManifest(archive);
    const newest = shippedMigrations(MIGRATIONS_DIR).at(-1)!;
    expect(manifest).toMatchObject({ format: 'solestudio-backup', format_version: 1, app_version: '2.0.0', kind: 'embedded', storage: { kind: 'local' } });
    expect(manifest.migrations).toMatchObject({ count: shippedMigrations(MIGRATIONS_DIR).length, last_tag: newest.tag, last_hash: newest.hash });
    const paths = manifest.entries.map((entry) => entry.path);
    expect(paths[0]).toBe('database/pglite.tar');
    expect(paths).toContain('data/secrets.key');
    expect(paths.filter((entry) => entry.startsWith('data/mail/')).length).toBeGreaterThanOrEqual(2);
    // The running server's own (its lock, its socket, the hold) are not data.
    expect(paths.filter((entry) => /^data\/(pg|pg\.lock|backup\.sock|backup\.hold)(\/|$)/.test(entry))).toEqual([]);
    const secrets = manifest.entries.find((entry) => entry.path === 'data/secrets.key')!;
    expect(secrets.sha256).toBe(crypto.createHash('sha256').update(fs.readFileSync(path.join(a.dataDir, 'secrets.key'))).digest('hex'));
    expect(fs.existsSync(holdFileOf(a.dataDir))).toBe(false);
  });
});

describe('npm run restore', () => {
  it('brings it back into an empty DATA_DIR, and a second server serves every seller all they had', async () => {
    const bDir = path.join(root, 'b');
    const restored = await restoreBackup({ config: loadConfig({ DATA_DIR: bDir }), file: archive });
    expect(restored.kind).toBe('embedded');
    expect(fs.readFileSync(path.join(bDir, 'secrets.key'))).toEqual(fs.readFileSync(path.join(a.dataDir, 'secrets.key')));
    const b = await embeddedServer(bDir);
    try {
      await expectRestored(b, busy);
    } finally {
      await b.close();
    }
  }, 60_000);
});

describe('a restore refuses', () => {
  /** Restores `file` into a new target (absent, or an empty directory) and expects a refusal that changed nothing. */
  async function refused(file: string, target: 'absent' | 'empty' = 'absent'): Promise<BackupRefused> {
    const parent = fs.mkdtempSync(path.join(root, 'target-'));
    const dataDir = path.join(parent, 'data');
    if (target === 'empty') fs.mkdirSync(dataDir);
    const was = listing(parent);
    const error = await restoreBackup({ config: loadConfig({ DATA_DIR: dataDir }), file }).then(
      () => null,
      (problem: unknown) => problem,
    );
    expect(error).toBeInstanceOf(BackupRefused);
    expect(listing(parent)).toEqual(was);
    return error as BackupRefused;
  }

  function copyOf(name: string, change: (bytes: Buffer) => Buffer): string {
    const file = path.join(root, name);
    fs.writeFileSync(file, change(fs.readFileSync(archive)));
    return file;
  }

  it('a truncated copy, saying so from the command line too', async () => {
    const file = copyOf('truncated.tar.gz', (bytes) => bytes.subarray(0, Math.floor(bytes.length * 0.6)));
    expect((await refused(file)).message).toBe(
      `${file} is truncated: it ends in the middle of its compressed data. It was cut short when it was copied or written; use a complete copy.`,
    );
    const target = path.join(root, 'cli-target');
    const run = await backupTool('restore', file, { DATA_DIR: target });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`Restore refused: ${file} is truncated`);
    expect(fs.existsSync(target)).toBe(false);
  }, 30_000);

  it('a copy with one byte flipped', async () => {
    const file = copyOf('flipped.tar.gz', (bytes) => {
      const copy = Buffer.from(bytes);
      copy[Math.floor(copy.length / 2)]! ^= 0xff;
      return copy;
    });
    expect((await refused(file, 'empty')).message).toMatch(new RegExp(`^${file} is damaged: .+ Its contents changed after it was written; use another copy\\.$`));
  });

  it('another tar archive, compressed or not', async () => {
    const other = fs.mkdtempSync(path.join(root, 'other-'));
    fs.writeFileSync(path.join(other, 'notes.txt'), 'not a backup');
    const gzipped = path.join(root, 'other.tar.gz');
    const plain = path.join(root, 'other.tar');
    await tar.c({ gzip: true, file: gzipped, cwd: other }, ['notes.txt']);
    await tar.c({ file: plain, cwd: other }, ['notes.txt']);
    expect((await refused(gzipped)).message).toBe(`${gzipped} is not a SoleStudio backup: it begins with notes.txt, not with the ${MANIFEST_PATH} a backup begins with.`);
    expect((await refused(plain, 'empty')).message).toBe(
      `${plain} is not a SoleStudio backup: it is an uncompressed tar archive, and a backup is a .tar.gz made by npm run backup.`,
    );
  });

  it('a file of random bytes', async () => {
    const file = path.join(root, 'random.bin');
    const bytes = crypto.randomBytes(64 * 1024);
    bytes[0] = 0x52; // never gzip's first byte
    fs.writeFileSync(file, bytes);
    expect((await refused(file)).message).toBe(`${file} is not a SoleStudio backup: it is not a gzip-compressed tar archive.`);
  });

  it('a backup of a database migrated further than this code knows', async () => {
    const { manifest } = await readManifest(archive);
    const newest = shippedMigrations(MIGRATIONS_DIR).at(-1)!;
    const future: Manifest = {
      ...manifest,
      migrations: { count: manifest.migrations!.count + 1, last_created_at: newest.when + 1000, last_hash: 'f'.repeat(64), last_tag: '9999_future' },
      entries: [],
    };
    const file = path.join(root, 'future.tar.gz');
    const writer = new ArchiveWriter(file);
    const bytes = Buffer.from(JSON.stringify(future));
    await writer.add(MANIFEST_PATH, bytes.length, bytes);
    await writer.finish();
    expect((await refused(file)).message).toBe(
      `${file} cannot be restored by this SoleStudio: it was made by a newer SoleStudio: its database is migrated to 9999_future, and this code ` +
        `knows migrations up to ${newest.tag}. Restore it with that version or a later one.`,
    );
  });

  it('a DATA_DIR that is not empty', async () => {
    const parent = fs.mkdtempSync(path.join(root, 'full-'));
    fs.writeFileSync(path.join(parent, 'secrets.key'), 'the one this install has');
    const was = listing(parent);
    await expect(restoreBackup({ config: loadConfig({ DATA_DIR: parent }), file: archive })).rejects.toThrow(
      `DATA_DIR (${parent}) is not empty (it holds secrets.key). A restore goes only into an empty or new directory: point DATA_DIR at one.`,
    );
    expect(listing(parent)).toEqual(was);
  });
});

describe('deletes while a backup copies files', () => {
  it('wait until the backup is over, and a file written again meanwhile is kept', async () => {
    const dataDir = fs.mkdtempSync(path.join(root, 'hold-'));
    const filesDir = path.join(dataDir, 'files');
    const held = new HeldDeletes(holdFileOf(dataDir));
    const storage = new LocalStorage(filesDir, crypto.randomBytes(32), held);
    await storage.put('photos/a.jpg', Buffer.from('a'));
    await storage.put('photos/b.jpg', Buffer.from('b'));
    const hold = holdDeletes(dataDir);
    try {
      expect(() => holdDeletes(dataDir)).toThrow(BackupRunningError);
      await storage.delete('photos/a.jpg');
      await storage.delete('photos/b.jpg');
      await storage.put('photos/b.jpg', Buffer.from('b again'));
      expect(fs.readFileSync(path.join(filesDir, 'photos/a.jpg'), 'utf8')).toBe('a');
      expect(held.pending).toBe(1);
    } finally {
      hold.release();
    }
    expect(await held.settle()).toBe(0);
    expect(fs.existsSync(path.join(filesDir, 'photos/a.jpg'))).toBe(false);
    expect(fs.readFileSync(path.join(filesDir, 'photos/b.jpg'), 'utf8')).toBe('b again');
    // With no backup, a delete is immediate.
    await storage.delete('photos/b.jpg');
    expect(fs.existsSync(path.join(filesDir, 'photos/b.jpg'))).toBe(false);
  });
});

describe('files in an S3 bucket', () => {
  it('are not copied; the backup says whether the bucket keeps versions, and warns when it does not', async () => {
    const bucket = await startBucket();
    try {
      bucket.versioning = 'Suspended';
      const warning = (status: string) =>
        `versioning is ${status} for the bucket ${bucket.name}: a file deleted or overwritten there is gone for good, and a restored database may ` +
        'name files the bucket no longer has. Turn it on (aws s3api put-bucket-versioning --versioning-configuration Status=Enabled).';
      const said: string[] = [];
      const backup = await createBackup({ config: loadConfig({ DATA_DIR: a.dataDir, ...bucket.env }), file: path.join(root, 's3.tar.gz'), say: (line) => said.push(line) });
      expect(said).toContain(`Files are in the S3 bucket ${bucket.name}: this backup does not copy them; the bucket's versioning keeps them.`);
      expect(backup.warnings).toEqual([warning('Suspended')]);
      expect(backup.manifest.storage).toEqual({ kind: 's3', bucket: bucket.name, versioning: 'Suspended' });
      // DATA_DIR/files (this server's own, from before) is not the bucket's, and not copied.
      expect(fs.readdirSync(path.join(a.dataDir, 'files')).length).toBeGreaterThan(0);
      expect(backup.manifest.entries.filter((entry) => entry.path.startsWith('data/files/'))).toEqual([]);

      const s3 = loadConfig(bucket.env).s3!;
      bucket.versioning = 'Enabled';
      expect(await bucketReport(s3)).toEqual({
        versioning: 'Enabled',
        lines: [
          `Files are in the S3 bucket ${bucket.name}: this backup does not copy them; the bucket's versioning keeps them.`,
          `Versioning is on for ${bucket.name}: the bucket keeps every version of its files.`,
        ],
        warning: null,
      });
      bucket.versioning = null;
      expect((await bucketReport(s3)).warning).toBe(warning('Off'));
    } finally {
      await bucket.close();
    }
  });
});
