// Builds the real server app on a fresh test database, without a port: tests call inject().
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { buildApp } from '../../server/app';
import type { DatabaseHandle } from '../../server/db/client';
import { loadConfig } from '../../server/config/env';
import { openTestDatabase } from './test-database';

export interface TestApp {
  app: FastifyInstance;
  dataDir: string;
  /** The PostgreSQL database's URL (PostgreSQL runs only). */
  databaseUrl?: string;
  close(): Promise<void>;
}

/**
 * A handle for a second app on a database another owns (a second API node, an app that is
 * expected not to start): closing that app leaves the database open for its owner.
 */
export function borrowed(database: DatabaseHandle): DatabaseHandle {
  return { ...database, close: async () => {} };
}

export async function createTestApp(
  env: Record<string, string> = {},
  /** Routes a test adds before the app is ready (for example to exercise a plugin). */
  extend?: (app: FastifyInstance) => void | Promise<void>,
  /** A logger for a test that reads what the app logs; silent otherwise. */
  logger: FastifyServerOptions['logger'] = false,
): Promise<TestApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'solestudio-test-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    STATIC_DIR: path.join(dataDir, 'no-web-build'),
    LOG_LEVEL: 'silent',
    // Test addresses (http://shop.test) are not this machine's: the payment sandbox is asked for.
    PAYMENTS_SANDBOX: 'true',
    ...env,
  });
  const database = await openTestDatabase();
  const app = await buildApp({ config, database, logger });
  await extend?.(app);
  await app.ready();
  return {
    app,
    dataDir,
    databaseUrl: database.url,
    async close() {
      await app.close(); // closes the database too
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
