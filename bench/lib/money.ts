// The money model of tests/server/money-model.test.ts, run far longer: batches of random runs
// until at least 10,000 steps have passed every invariant (MONEY_STEPS changes the goal), on the
// embedded database and, when BENCH_DATABASE_URL names one, on PostgreSQL. Like the renewals
// bench the app runs in this process: the model calls the jobs and the sandbox as functions. A
// failure prints its seed and path; MONEY_SEED=<seed> MONEY_PATH=<path> npm run bench -- money
// runs that one again.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../../server/app';
import { loadConfig } from '../../server/config/env';
import { openDatabase } from '../../server/db/client';
import { holdSandboxDeliveries, type Deliveries } from '../../tests/support/money-model/deliveries';
import { rerunVariables, runMoneyModel } from '../../tests/support/money-model/run';
import { MODEL_ENV } from '../../tests/support/money-model/world';
import type { TestApp } from '../../tests/support/test-app';

export const MONEY_STEPS = Number(process.env.MONEY_STEPS ?? 10_000);
/** Runs per batch, and the most steps of one run: longer runs than the test's reach further into a seller's life. */
const BATCH = { runs: 20, steps: 150 };

export interface MoneyFigures {
  steps: number;
  runs: number;
  seconds: number;
  seeds: number[];
}

/** The model's app on a fresh data directory (and `databaseUrl`'s database when given). */
async function modelApp(databaseUrl: string | undefined): Promise<{ t: TestApp; deliveries: Deliveries }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'solestudio-bench-money-'));
  const config = loadConfig({ DATA_DIR: dataDir, STATIC_DIR: path.join(dataDir, 'no-web-build'), LOG_LEVEL: 'silent', DATABASE_URL: databaseUrl ?? '', ...MODEL_ENV });
  const database = await openDatabase(config);
  const app = await buildApp({ config, database });
  const t: TestApp = {
    app,
    dataDir,
    async close() {
      await app.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
  const deliveries = holdSandboxDeliveries(app, () => t);
  await app.ready();
  return { t, deliveries };
}

export async function moneyModelFigures(databaseUrl: string | undefined): Promise<MoneyFigures> {
  const { t, deliveries } = await modelApp(databaseUrl);
  const figures: MoneyFigures = { steps: 0, runs: 0, seconds: 0, seeds: [] };
  const replay = process.env.MONEY_SEED ? { seed: Number(process.env.MONEY_SEED), ...(process.env.MONEY_PATH ? { path: process.env.MONEY_PATH } : {}) } : {};
  try {
    while (figures.steps < MONEY_STEPS) {
      const batch = await runMoneyModel(t, deliveries, {
        ...BATCH,
        ...replay,
        rerun: (seed, failure) => `${rerunVariables(seed, failure)} ${databaseUrl ? `BENCH_DATABASE_URL=${databaseUrl} ` : ''}npm run bench -- money`,
      });
      figures.steps += batch.steps;
      figures.runs += batch.runs;
      figures.seconds += batch.ms / 1000;
      figures.seeds.push(batch.seed);
      console.log(`  ${figures.steps.toLocaleString('en')} steps in ${figures.runs} runs, ${figures.seconds.toFixed(0)} s (seed ${batch.seed})`);
      if (process.env.MONEY_SEED) break;
    }
  } finally {
    await t.close();
  }
  return figures;
}
