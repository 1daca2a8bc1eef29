// The whole money model, as a property: random sequences of sign-ups, top-ups paid on the
// sandbox's page, refunds, disputes opened, won and lost, tasks charged and outputs refunded,
// subscriptions, renewals, upgrades, cancels, lapses and notifications delivered late, out of
// order and again — after every step each balance is its ledger and its lots, no lot leaves its
// range, a lapsed token is never spent, a replay moves nothing and every payment and charge has
// one outcome, credited once (see tests/support/money-model/).
// MONEY_RUNS and MONEY_STEPS run it longer (`npm run bench -- money` runs 10,000 steps), MONEY_TALLY=1
// says what the steps came to; a failure prints its seed and path, and MONEY_SEED=<seed>
// MONEY_PATH=<path> runs that failure again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app';
import { holdSandboxDeliveries, type Deliveries } from '../support/money-model/deliveries';
import { MODEL_ENV, call, newWorld, onSandboxPage, signUp } from '../support/money-model/world';
import { sql } from 'drizzle-orm';
import { rerunVariables, runMoneyModel } from '../support/money-model/run';

const DAY = 24 * 60 * 60_000;
const RUNS = Number(process.env.MONEY_RUNS ?? 15);
const STEPS = Number(process.env.MONEY_STEPS ?? 100);

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
    if (process.env.MONEY_TALLY) {
      // What the runs reached, for whoever tunes the model: MONEY_TALLY=1 prints it.
      console.warn(`money model: ${result.runs} runs, ${result.steps} steps in ${(result.ms / 1000).toFixed(1)} s (seed ${result.seed})`);
      console.warn(result.tally.map(([outcome, count]) => `${count} × ${outcome}`).join('\n'));
    }
    expect(result.runs).toBe(RUNS);
  }, 120_000);
});

// Failures the property found, each as the shortest sequence that shows it, kept as plain tests.
describe('found by the money model', () => {
  // Seed 523048991, path 3:3:7:7:11:15:2:6:3:3:3:5, shrunk to:
  //   topUp(card, then leave) → jobs(+192 h) → onPage(pay)
  // Reconciliation gave a top-up pending for a week up as expired (failed) without closing its
  // checkout at the provider, whose page still took the money: our books said failed while the
  // provider had it. Now the checkout is closed at the provider before the payment is given up.
  it('a top-up given up as expired is never paid at the provider while it stays failed', async () => {
    const world = newWorld(t, deliveries, new Map());
    const seller = await signUp(world);
    const started = await call(world, seller, 'POST', '/tokens/topup', { token_amount: 100, currency: 'USD', pm_id: '', payment_provider: 'card' });
    expect(started.status).toBe(200);
    const { payment_id: id, redirect_url: page } = started.body.data as { payment_id: string; redirect_url: string };
    await t.app.billing.payments.reconcile(new Date(Date.now() + 8 * DAY));
    const state = async () =>
      ((await t.app.database.db.execute(sql`
        SELECT p.status AS ours, p.failure_reason AS reason, c.status AS provider
        FROM payments p JOIN sandbox_checkouts c ON c.id = p.provider_payment_id WHERE p.id = ${id}`)) as unknown as {
        rows: { ours: string; reason: string | null; provider: string }[];
      }).rows[0]!;
    expect(await state()).toEqual({ ours: 'failed', reason: 'expired', provider: 'canceled' });

    await onSandboxPage(world, page, 'pay');
    await world.sandbox.idle();
    await t.app.billing.payments.reconcile(new Date(Date.now() + 9 * DAY));
    const after = await state();
    // Either the page no longer takes the money, or the payment it took is completed and credited.
    expect(after.provider === 'succeeded' ? after.ours : 'not paid').not.toBe('failed');
  });
});
