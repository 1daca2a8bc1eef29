// Opens the database: embedded PGlite in DATA_DIR/pg by default, PostgreSQL when DATABASE_URL
// is set. Both speak the same Drizzle schema and apply the same migrations.
// Each driver is loaded only when it is used, which keeps start-up short.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { PGlite } from '@electric-sql/pglite';
import type { Client as PgClient } from 'pg';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import * as schema from './schema';
import { lockDirectory } from './lock';
import { pgliteSnapshot, type DatabaseSnapshot } from './snapshot';
import { retryDelayMs } from '../../contract/backoff';

export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface DatabaseHandle {
  db: Database;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
  /**
   * PostgreSQL only: LISTEN on `channel` over a dedicated connection that reconnects when it
   * drops. `onNotice` gets each NOTIFY's payload; `onResume` is told when a dropped connection is
   * back (notices sent meanwhile are lost). Returns a function that stops listening.
   */
  listen?(channel: string, onNotice: (payload: string) => void, onResume: (droppedAt: Date) => void): () => Promise<void>;
  /** The embedded database in DATA_DIR only: a consistent copy of it, taken while it serves (for backups). */
  snapshot?(): Promise<DatabaseSnapshot>;
  /** PostgreSQL only: the connection pool as it stands (the metrics read it at each scrape). */
  poolUse?(): PoolUse;
}

export interface PoolUse {
  /** Connections open, busy or idle. */
  total: number;
  idle: number;
  /** Queries waiting for a connection: the pool is exhausted while this stays above 0. */
  waiting: number;
  max: number;
}

/** Connections one process opens to PostgreSQL at most. */
const POOL_MAX = 10;

/** Beside this module: server/db/migrations in the sources, dist-server/migrations when built. */
export const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

/** Any number; it only has to be the same for every SoleStudio node migrating one database. */
const MIGRATION_LOCK_KEY = 727_001;

const localWrites = new WeakMap<Database, () => number>();

/**
 * On the embedded database, a count that moves whenever anything may have been written (this
 * process is its only writer); null on PostgreSQL, which other processes write too.
 */
export function localWriteCount(db: Database): number | null {
  return localWrites.get(db)?.() ?? null;
}

/** drizzle's PGlite driver and the prepared-statement client, loaded once (only PGlite needs them). */
const loadPgliteWrappers = () => Promise.all([import('drizzle-orm/pglite'), import('./pglite-prepared')]);
let pgliteWrapping: ReturnType<typeof loadPgliteWrappers> | undefined;
const pgliteWrappers = () => (pgliteWrapping ??= loadPgliteWrappers());

/** Wraps an open PGlite instance (used directly by tests restoring a snapshot). */
export async function fromPglite(client: PGlite, onClose?: () => void): Promise<DatabaseHandle> {
  const [{ drizzle }, { preparedPglite }] = await pgliteWrappers();
  const prepared = preparedPglite(client);
  const db = drizzle({ client: prepared as unknown as PGlite, schema }) as unknown as Database;
  localWrites.set(db, prepared.writes);
  return {
    db,
    kind: 'pglite',
    async close() {
      try {
        await client.close();
      } finally {
        onClose?.();
      }
    },
  };
}

/**
 * Creates a PGlite data directory (initdb) in a child process. Creating one grows an instance's
 * memory to ~800 MB, which a WebAssembly memory never gives back, while opening an existing one
 * takes ~370 MB; closing and reopening in this process still left ~500 MB resident.
 */
async function createPgliteDirectory(directory: string, options: object): Promise<void> {
  const code = `const { PGlite } = await import('@electric-sql/pglite');
    const [directory, options] = process.argv.slice(1);
    await (await PGlite.create(directory, JSON.parse(options))).close();`;
  // From beside this module, so the child finds the same node_modules.
  const cwd = path.dirname(fileURLToPath(import.meta.url));
  await promisify(execFile)(process.execPath, ['--input-type=module', '--eval', code, directory, JSON.stringify(options)], { cwd });
}

/** How the embedded database is started, wherever it is opened. */
export function pgliteOptions(defaultStartParams: readonly string[]) {
  return { startParams: [...defaultStartParams, '-c', 'wal_init_zero=off'] };
}

/** `migrationsFolder`: another folder than the shipped migrations (a bench seeding an older schema). */
export async function openPglite(directory: string, migrationsFolder = MIGRATIONS_DIR): Promise<DatabaseHandle> {
  fs.mkdirSync(path.dirname(directory), { recursive: true });
  const fresh = !fs.existsSync(path.join(directory, 'PG_VERSION'));
  const lock = lockDirectory(directory);
  try {
    // Loaded while the database starts, not after it.
    void pgliteWrappers().catch(() => {});
    const [{ PGlite }, { migrate }] = await Promise.all([
      import('@electric-sql/pglite'),
      import('drizzle-orm/pglite/migrator'),
    ]);
    const options = pgliteOptions(PGlite.defaultStartParams);
    if (fresh) await createPgliteDirectory(directory, options);
    const client = await PGlite.create(directory, options);
    const handle = await fromPglite(client, () => lock.release());
    await migrate(handle.db as never, { migrationsFolder });
    handle.snapshot = () => pgliteSnapshot(client);
    return handle;
  } catch (error) {
    lock.release();
    throw error;
  }
}

export async function openPostgres(url: string, migrationsFolder = MIGRATIONS_DIR): Promise<DatabaseHandle> {
  const [{ default: pg }, { drizzle }, { migrate }] = await Promise.all([
    import('pg'),
    import('drizzle-orm/node-postgres'),
    import('drizzle-orm/node-postgres/migrator'),
  ]);
  const pool = new pg.Pool({ connectionString: url, max: POOL_MAX });
  try {
    // Several API nodes may start together: one migrates, the others wait for it.
    const connection = await pool.connect();
    try {
      await connection.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
      await migrate(drizzle({ client: connection, schema }), { migrationsFolder });
    } finally {
      await connection.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => {});
      connection.release();
    }
  } catch (error) {
    await pool.end();
    throw error;
  }
  return {
    db: drizzle({ client: pool, schema }) as unknown as Database,
    kind: 'postgres',
    close: () => pool.end(),
    listen: (channel, onNotice, onResume) => listenOn(pg.Client, url, channel, onNotice, onResume),
    poolUse: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: POOL_MAX }),
  };
}

const RECONNECT = { firstMs: 250, longestMs: 10_000, jitter: 0.2 };

function listenOn(
  Client: typeof PgClient,
  url: string,
  channel: string,
  onNotice: (payload: string) => void,
  onResume: (droppedAt: Date) => void,
): () => Promise<void> {
  if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`not a channel name: ${channel}`);
  let current: PgClient | null = null;
  let stopped = false;
  let droppedAt: Date | null = null;
  let failures = 0;
  let retry: NodeJS.Timeout | undefined;

  const drop = (client: PgClient) => {
    if (current !== client) return;
    current = null;
    droppedAt ??= new Date();
    client.end().catch(() => {});
    if (stopped) return;
    failures += 1;
    retry = setTimeout(connect, retryDelayMs(failures, RECONNECT));
    retry.unref();
  };
  const connect = () => {
    const client = new Client({ connectionString: url });
    current = client;
    client.on('notification', (message) => {
      if (message.channel === channel && message.payload) onNotice(message.payload);
    });
    client.on('error', () => drop(client));
    client.on('end', () => drop(client));
    client
      .connect()
      .then(() => client.query(`LISTEN ${channel}`))
      .then(() => {
        failures = 0;
        if (droppedAt) onResume(droppedAt);
        droppedAt = null;
      })
      .catch(() => drop(client));
  };
  connect();
  return async () => {
    stopped = true;
    clearTimeout(retry);
    const client = current;
    current = null;
    await client?.end().catch(() => {});
  };
}

export function openDatabase(options: {
  databaseUrl: string | undefined;
  pgliteDir: string;
}): Promise<DatabaseHandle> {
  return options.databaseUrl ? openPostgres(options.databaseUrl) : openPglite(options.pgliteDir);
}
