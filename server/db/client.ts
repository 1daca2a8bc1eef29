// Opens the database: embedded PGlite in DATA_DIR/pg by default, PostgreSQL when DATABASE_URL
// is set. Both speak the same Drizzle schema and apply the same migrations.
// Each driver is loaded only when it is used, which keeps start-up short.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PGlite } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import * as schema from './schema';
import { lockDirectory } from './lock';

export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface DatabaseHandle {
  db: Database;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
}

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

/** Wraps an open PGlite instance (used directly by tests restoring a snapshot). */
export async function fromPglite(client: PGlite, onClose?: () => void): Promise<DatabaseHandle> {
  const [{ drizzle }, { preparedPglite }] = await Promise.all([import('drizzle-orm/pglite'), import('./pglite-prepared')]);
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

export async function openPglite(directory: string): Promise<DatabaseHandle> {
  fs.mkdirSync(path.dirname(directory), { recursive: true });
  const lock = lockDirectory(directory);
  try {
    const [{ PGlite }, { migrate }] = await Promise.all([
      import('@electric-sql/pglite'),
      import('drizzle-orm/pglite/migrator'),
    ]);
    const client = await PGlite.create(directory, { startParams: [...PGlite.defaultStartParams, '-c', 'wal_init_zero=off'] });
    const handle = await fromPglite(client, () => lock.release());
    await migrate(handle.db as never, { migrationsFolder: MIGRATIONS_DIR });
    return handle;
  } catch (error) {
    lock.release();
    throw error;
  }
}

export async function openPostgres(url: string): Promise<DatabaseHandle> {
  const [{ default: pg }, { drizzle }, { migrate }] = await Promise.all([
    import('pg'),
    import('drizzle-orm/node-postgres'),
    import('drizzle-orm/node-postgres/migrator'),
  ]);
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  try {
    // Several API nodes may start together: one migrates, the others wait for it.
    const connection = await pool.connect();
    try {
      await connection.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
      await migrate(drizzle({ client: connection, schema }), { migrationsFolder: MIGRATIONS_DIR });
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
  };
}

export function openDatabase(options: {
  databaseUrl: string | undefined;
  pgliteDir: string;
}): Promise<DatabaseHandle> {
  return options.databaseUrl ? openPostgres(options.databaseUrl) : openPglite(options.pgliteDir);
}
