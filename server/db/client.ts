// Opens the database: embedded PGlite in DATA_DIR/pg by default, PostgreSQL when DATABASE_URL
// is set. Both speak the same Drizzle schema and apply the same migrations.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import * as schema from './schema';
import { lockDirectory } from './lock';

export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface DatabaseHandle {
  db: Database;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
}

export const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

/** Any number; it only has to be the same for every SoleStudio node migrating one database. */
const MIGRATION_LOCK_KEY = 727_001;

/** Wraps an open PGlite instance (used directly by tests restoring a snapshot). */
export function fromPglite(client: PGlite, onClose?: () => void): DatabaseHandle {
  return {
    db: drizzlePglite({ client, schema }) as unknown as Database,
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
    const client = await PGlite.create(directory);
    const handle = fromPglite(client, () => lock.release());
    await migratePglite(handle.db as never, { migrationsFolder: MIGRATIONS_DIR });
    return handle;
  } catch (error) {
    lock.release();
    throw error;
  }
}

export async function openPostgres(url: string): Promise<DatabaseHandle> {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  try {
    // Several API nodes may start together: one migrates, the others wait for it.
    const connection = await pool.connect();
    try {
      await connection.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
      await migratePg(drizzlePg({ client: connection, schema }), { migrationsFolder: MIGRATIONS_DIR });
    } finally {
      await connection.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => {});
      connection.release();
    }
  } catch (error) {
    await pool.end();
    throw error;
  }
  return {
    db: drizzlePg({ client: pool, schema }) as unknown as Database,
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
