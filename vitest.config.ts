import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

const serverProject = (name: string, databaseKind: 'pglite' | 'postgres') => ({
  test: {
    name,
    environment: 'node' as const,
    include: ['tests/server/**/*.test.ts', 'tests/integration/**/*.test.ts'],
    // The embedded server's own lifecycle (PGlite in DATA_DIR) is the same whatever the test
    // database; worker processes and other nodes exist only beside PostgreSQL. The themed videos
    // touch no database: filmed once, not again for PostgreSQL; nor do the studio's cut-out, stills
    // and photo check.
    exclude:
      databaseKind === 'postgres'
        ? [
            'tests/server/embedded-server.test.ts',
            'tests/server/backup.test.ts',
            'tests/server/lock.test.ts',
            'tests/server/pglite-prepared.test.ts',
            'tests/server/studio-video.test.ts',
            'tests/server/studio.test.ts',
            'tests/server/studio-stills.test.ts',
            'tests/server/cutout.test.ts',
            'tests/server/grain-check.test.ts',
            'tests/server/keep-shoes.test.ts',
            'tests/server/edge-width.test.ts',
          ]
        : ['tests/server/workers.test.ts', 'tests/server/events-nodes.test.ts', 'tests/server/backup-postgres.test.ts'],
    globalSetup: ['tests/support/database-global-setup.ts'],
    env: { TEST_DATABASE_KIND: databaseKind },
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

export default defineConfig({
  define: { __APP_VERSION__: JSON.stringify('2.0.0') },
  test: {
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
