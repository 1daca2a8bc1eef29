// A fresh, migrated database for one test file: a copy of the PGlite snapshot, or a PostgreSQL
// database cloned from the template (see database-global-setup.ts).
import fs from 'node:fs';
import crypto from 'node:crypto';
import { inject } from 'vitest';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { fromPglite, openPostgres, type DatabaseHandle } from '../../server/db/client';
import { databaseUrl } from './database-global-setup';

/**
 * Drops a test database once its pool has let go. A pool's last connection may still be saying
 * goodbye: it is waited for rather than killed, since a killed connection reports an error nobody
 * is listening for any more.
 */
export async function dropDatabase(base: string, name: string): Promise<void> {
  const cleanup = new pg.Client({ connectionString: base });
  await cleanup.connect();
  try {
    for (let attempt = 0; ; attempt += 1) {
      try {
        await cleanup.query(`DROP DATABASE IF EXISTS ${name}`);
        return;
      } catch (error) {
        if (attempt >= 50) {
          await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
          return;
        }
        if ((error as { code?: string }).code !== '55006') throw error; // object in use
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  } finally {
    await cleanup.end();
  }
}

/** The handle, and for PostgreSQL the URL other processes (a worker) can reach it at. */
export async function openTestDatabase(): Promise<DatabaseHandle & { url?: string }> {
  if (process.env.TEST_DATABASE_KIND === 'postgres') {
    const base = process.env.TEST_DATABASE_URL!;
    const name = `solestudio_test_${crypto.randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${inject('postgresTemplate')}`);
    await admin.end();
    const url = databaseUrl(base, name);
    const handle = await openPostgres(url);
    return {
      ...handle,
      url,
      async close() {
        await handle.close();
        await dropDatabase(base, name);
      },
    };
  }
  const snapshot = fs.readFileSync(inject('pgliteSnapshot'));
  const client = await PGlite.create({ loadDataDir: new Blob([snapshot]) });
  return fromPglite(client);
}
