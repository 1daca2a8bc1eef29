// The whole money model, as a property: random sequences of sign-ups, top-ups paid on the
// sandbox's page, refunds, disputes opened, won and lost, tasks charged and outputs refunded,
// subscriptions, renewals, upgrades, cancels, lapses and notifications delivered late, out of
// order and again — after every step each balance is its ledger and its lots, no lot leaves its
// range, a lapsed token is never spent, a replay moves nothing and every payment and charge has
// one outcome, credited once (see tests/support/money-model/).
// MONEY_RUNS and MONEY_STEPS run it longer (`npm run bench -- money` runs 10,000 steps); a failure
// prints its seed and path, and MONEY_SEED=<seed> MONEY_PATH=<path> runs that failure again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app';
import { holdSandboxDeliveries, type Deliveries } from '../support/money-model/deliveries';
import { MODEL_ENV } from '../support/money-model/world';
import { rerunVariables, runMoneyModel } from '../support/money-model/run';

const RUNS = Number(process.env.MONEY_RUNS ?? 6);
const STEPS = Number(process.env.MONEY_STEPS ?? 40);

let t: TestApp;
let deliveries: Deliveries;

beforeAll(async () => {
  t = await createTestApp(MODEL_ENV, (app) => {
    deliveries = holdSandboxDeliveries(app, () => t);
  });
});
afterAll(async () => {
  await t?.close();
});

describe('the money model', () => {
  it(`keeps every token accounted for over ${RUNS} random runs of up to ${STEPS} steps`, async () => {
    const result = await runMoneyModel(t, deliveries, {
      runs: RUNS,
      steps: STEPS,
      ...(process.env.MONEY_SEED ? { seed: Number(process.env.MONEY_SEED) } : {}),
      ...(process.env.MONEY_PATH ? { path: process.env.MONEY_PATH } : {}),
      rerun: (seed, path) => `${rerunVariables(seed, path)} npx vitest run --project ${process.env.TEST_DATABASE_KIND === 'postgres' ? 'server-postgres' : 'server'} tests/server/money-model.test.ts`,
    });
    console.log(`money model: ${result.runs} runs, ${result.steps} steps in ${(result.ms / 1000).toFixed(1)} s (seed ${result.seed})`);
    console.log(result.tally.map(([outcome, count]) => `${count} × ${outcome}`).join('\n'));
    expect(result.steps).toBeGreaterThan(RUNS * 5);
  }, 120_000);
});
