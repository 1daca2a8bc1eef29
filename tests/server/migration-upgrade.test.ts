// Every database ends with the same schema, whichever copy of a migration it once applied: 0005
// shipped three times (0c6d933, then edited in 96bee7f and 84d2e64) before it was restored to its
// first text and the later changes moved to 0006. A database migrated with each of those copies,
// then started with today's migrations, equals one built fresh — on the test's database kind.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate as migratePostgres } from 'drizzle-orm/node-postgres/migrator';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { MIGRATIONS_DIR, fromPglite, openPostgres, type Database, type DatabaseHandle } from '../../server/db/client';
import { databaseUrl } from '../support/database-global-setup';
import { dropDatabase, openTestDatabase } from '../support/test-database';
import { migrationsUpTo } from '../support/migrations-folder';

const FIXTURES = path.resolve(import.meta.dirname, '../fixtures/migrations');
const CONTENT_VERSIONS = '0005_content_versions';

/** The migrations folder as a database that shipped with `text` as 0005 saw it: 0000–0005. */
const folderWithOld0005 = (text: string) => migrationsUpTo(CONTENT_VERSIONS, (tag) => (tag === CONTENT_VERSIONS ? text : undefined));

/** A new database migrated with `oldFolder`, then opened as the server opens it (migrating). */
async function upgraded(oldFolder: string): Promise<DatabaseHandle> {
  if (process.env.TEST_DATABASE_KIND === 'postgres') {
    const base = process.env.TEST_DATABASE_URL!;
    const name = `solestudio_upgrade_${crypto.randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const old = new pg.Client({ connectionString: databaseUrl(base, name) });
    await old.connect();
    await migratePostgres(drizzle({ client: old }), { migrationsFolder: oldFolder });
    await old.end();
    const handle = await openPostgres(databaseUrl(base, name));
    return {
      ...handle,
      async close() {
        await handle.close();
        await dropDatabase(base, name);
      },
    };
  }
  const handle = await fromPglite(await PGlite.create());
  await migratePglite(handle.db as never, { migrationsFolder: oldFolder });
  await migratePglite(handle.db as never, { migrationsFolder: MIGRATIONS_DIR });
  return handle;
}

/** Each kind of schema object, described by the database itself, in a stable order. */
const CATALOG: Record<string, string> = {
  columns: `SELECT concat_ws(' ', table_name, column_name, data_type, is_nullable, column_default, is_generated,
      generation_expression, ordinal_position) AS d FROM information_schema.columns WHERE table_schema = 'public'`,
  indexes: `SELECT indexdef AS d FROM pg_indexes WHERE schemaname = 'public'`,
  constraints: `SELECT concat_ws(' ', c.relname, k.conname, pg_get_constraintdef(k.oid)) AS d
    FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = 'public'`,
  triggers: `SELECT pg_get_triggerdef(t.oid) AS d FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
    JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public' AND NOT t.tgisinternal`,
  functions: `SELECT pg_get_functiondef(p.oid) AS d FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
    WHERE n.nspname = 'public'`,
  sequences: `SELECT concat_ws(' ', sequence_name, data_type, increment) AS d FROM information_schema.sequences
    WHERE sequence_schema = 'public'`,
  types: `SELECT concat_ws(' ', t.typname, t.typtype) AS d FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace
    WHERE n.nspname = 'public' AND t.typtype IN ('e', 'd', 'c') AND t.typrelid = 0`,
  views: `SELECT concat_ws(' ', viewname, definition) AS d FROM pg_views WHERE schemaname = 'public'`,
  migrations: `SELECT created_at::text AS d FROM drizzle.__drizzle_migrations`,
};

async function schemaOf(db: Database): Promise<Record<string, string[]>> {
  const described: Record<string, string[]> = {};
  for (const [kind, query] of Object.entries(CATALOG)) {
    const { rows } = (await db.execute(sql.raw(query))) as unknown as { rows: { d: string }[] };
    described[kind] = rows.map((row) => row.d).sort();
  }
  return described;
}

let fresh: Record<string, string[]>;

beforeAll(async () => {
  const database = await openTestDatabase();
  try {
    fresh = await schemaOf(database.db);
  } finally {
    await database.close();
  }
}, 60_000);

const shipped: [string, string][] = [
  ['0c6d933 (the first copy, kept as 0005)', fs.readFileSync(path.join(MIGRATIONS_DIR, `${CONTENT_VERSIONS}.sql`), 'utf8')],
  ['96bee7f', fs.readFileSync(path.join(FIXTURES, `${CONTENT_VERSIONS}.96bee7f.sql`), 'utf8')],
  ['84d2e64', fs.readFileSync(path.join(FIXTURES, `${CONTENT_VERSIONS}.84d2e64.sql`), 'utf8')],
];
const folders: string[] = [];

afterAll(() => {
  for (const folder of folders) fs.rmSync(folder, { recursive: true, force: true });
});

describe('a database migrated by an earlier copy of 0005, upgraded', () => {
  it.each(shipped)('from 0005 as shipped in %s equals one built fresh', async (_, text) => {
    const folder = folderWithOld0005(text);
    folders.push(folder);
    const database = await upgraded(folder);
    try {
      const schema = await schemaOf(database.db);
      expect(schema).toEqual(fresh);
      // What the comparison is about: a new task or output moves the version by its statement.
      expect(schema.triggers!.some((trigger) => trigger.includes('tasks_inserted_version'))).toBe(false);
      expect(schema.triggers!.some((trigger) => trigger.includes('AFTER UPDATE ON public.task_outputs'))).toBe(true);
    } finally {
      await database.close();
    }
  });
});
