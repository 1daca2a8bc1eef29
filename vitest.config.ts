import fs from 'node:fs';
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';


/**
 * The server tests PostgreSQL runs as well as PGlite: only those whose outcome can differ between
 * the two. PGlite is PostgreSQL itself, so a query means the same on both; what differs is one
 * connection against a pool (races, row locks, SKIP LOCKED, leases), processes and nodes that
 * share the database (LISTEN/NOTIFY, triggers seen by another node, counters across nodes), the
 * migrator, and the driver's reading of values. Everything else runs once, on PGlite.
 */
const POSTGRES_TESTS = [
  // Races on money: two checkouts, two upgrades, notifications at once, renewals run at once,
  // charges against one balance, the sign-up bonus from links replayed at once.
  'checkout-races',
  'upgrade-races',
  'topup',
  'subscriptions',
  'subscription-yookassa',
  'ledger-lots',
  'auth',
  // Tasks against the balance at once, leases of a runner that died, jobs claimed by workers.
  'content',
  'workers',
  'publisher-publish',
  // Row locks: a card rebuilt under FOR UPDATE, a photo an edit places while the sweep runs.
  'publisher-demo',
  'material-sweep',
  // Nodes sharing the database: events by NOTIFY, tickets, list versions kept by triggers, limits.
  'events',
  'events-nodes',
  'event-tickets',
  'list-answers',
  // Counts by day kept by triggers, and a seller counted while changes hold their row.
  'list-pages',
  'rate-limit',
  // The migrator on a server database, and backups by pg_dump and pg_restore.
  'migration-upgrade',
  'backup-postgres',
].map((name) => `tests/server/${name}.test.ts`);
// A file renamed or removed would otherwise quietly leave PostgreSQL without its test.
for (const file of POSTGRES_TESTS) if (!fs.existsSync(file)) throw new Error(`vitest.config.ts lists ${file} for PostgreSQL, and it does not exist`);

const serverProject = (name: string, databaseKind: 'pglite' | 'postgres') => ({
  test: {
    name,
    environment: 'node' as const,
    include: databaseKind === 'postgres' ? POSTGRES_TESTS : ['tests/server/**/*.test.ts', 'tests/integration/**/*.test.ts'],
    // Worker processes and other nodes exist only beside PostgreSQL.
    exclude: databaseKind === 'postgres' ? [] : ['tests/server/workers.test.ts', 'tests/server/events-nodes.test.ts', 'tests/server/backup-postgres.test.ts'],
    globalSetup: ['tests/support/database-global-setup.ts'],
    setupFiles: ['tests/support/server-setup.ts'],
    // The segmentation keeps its memory between runs (server/studio/saliency.ts): the same answers
    // to the bit, each run 20 % sooner; tests/server/networks.test.ts compares the two.
    env: { TEST_DATABASE_KIND: databaseKind, NETWORK_MEMORY_KEPT: 'true' },
    // A bound for a hang, not for speed: a photo the run segments for the first time waits on the
    // network, seconds alone and tens of seconds on a busy machine (two such tests timed out at
    // 30 s in one CI run, while other checks loaded the machine).
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // A worker runs its files one after another in one module graph, not each in a fresh one: every
    // file still builds its own app on its own database and data directory, and what the server's
    // modules keep between files is the same for any app (the networks' sessions on their thread,
    // the dummy password hash, sharp). Loading that afresh for each of about 90 files was most of
    // the server tests' CPU: with the network answers on disk, the PGlite files took 681 core-s
    // with fresh modules and 365 with them kept.
    isolate: false,
  },
});

export default defineConfig({
  define: { __APP_VERSION__: JSON.stringify('2.0.0') },
  test: {
    reporters: ['default', './tests/support/slowest-reporter.ts'],
    // Two files at a time: server test files each open a database (≈300 MB for PGlite).
    maxWorkers: 2,
    projects: [
      {
        plugins: [react()],
        define: { __APP_VERSION__: JSON.stringify('2.0.0') },
        test: {
          name: 'unit-dom',
          environment: 'happy-dom',
          include: ['tests/src/**/*.test.{ts,tsx}'],
          setupFiles: ['tests/src/setup.ts'],
        },
      },
      {
        test: {
          name: 'unit-node',
          environment: 'node',
          include: ['tests/contract/**/*.test.ts', 'tests/workers/**/*.test.ts', 'tests/build/**/*.test.ts', 'tests/fakes/**/*.test.ts'],
        },
      },
      serverProject('server', 'pglite'),
      ...(process.env.TEST_DATABASE_URL ? [serverProject('server-postgres', 'postgres')] : []),
    ],
  },
});
