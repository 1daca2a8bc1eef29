// Prepares one migrated database image per run, so each server test file starts from a fresh
// copy instead of creating and migrating a database again: a PGlite data-directory dump, or,
// on PostgreSQL, a template database.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { MIGRATIONS_DIR, fromPglite, openPostgres } from '../../server/db/client';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteSnapshot: string;
    postgresTemplate: string;
    networkCacheDir: string;
  }
}

export const TEMPLATE_DATABASE = 'solestudio_test_template';

function databaseUrl(base: string, database: string): string {
  const url = new URL(base);
  url.pathname = `/${database}`;
  return url.toString();
}

/**
 * One place for the networks' answers during this run (server/studio/networks.ts): many server
 * test files, on both databases, segment the same photos, each run taking seconds of both cores.
 * Handed to the test files (tests/support/server-setup.ts); the first server project makes it and
 * removes it at the end, unless the caller named a place to keep answers between runs.
 */
function shareNetworkAnswers(project: TestProject): () => void {
  const named = process.env.NETWORK_CACHE_DIR;
  const dir = named ?? fs.mkdtempSync(path.join(os.tmpdir(), 'solestudio-networks-'));
  process.env.NETWORK_CACHE_DIR = dir;
  project.provide('networkCacheDir', dir);
  return named ? () => {} : () => fs.rmSync(dir, { recursive: true, force: true });
}

export default async function setup(project: TestProject) {
  const dropNetworkAnswers = shareNetworkAnswers(project);
  // Runs in the main process, where the project's `env` is not applied: read it from the config.
  if (project.config.env?.TEST_DATABASE_KIND === 'postgres') {
    const base = process.env.TEST_DATABASE_URL;
    if (!base) throw new Error('TEST_DATABASE_URL is not set');
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${TEMPLATE_DATABASE} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${TEMPLATE_DATABASE}`);
    await admin.end();
    const handle = await openPostgres(databaseUrl(base, TEMPLATE_DATABASE));
    await handle.close();
    project.provide('postgresTemplate', TEMPLATE_DATABASE);
    project.provide('pgliteSnapshot', '');
    return dropNetworkAnswers;
  }

  const client = await PGlite.create();
  const handle = await fromPglite(client);
  await migrate(handle.db as never, { migrationsFolder: MIGRATIONS_DIR });
  const dump = await client.dumpDataDir('none');
  await handle.close();
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'solestudio-snapshot-')), 'pgdata.tar');
  fs.writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  project.provide('pgliteSnapshot', file);
  project.provide('postgresTemplate', '');
  return () => {
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
    dropNetworkAnswers();
  };
}

export { databaseUrl };
