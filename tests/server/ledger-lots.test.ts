// Tokens that lapse stay tokens that lapse: a refund goes back into the lots it was spent from,
// with their expiry (never as new tokens that never lapse), and one into a lot that has lapsed
// since gives nothing back; money that goes back to the seller takes back its own credit's
// tokens first. Balance = ledger sum = lot remainders after every step.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../support/test-app';
import { signedInSeller } from '../support/sellers';
import { expectBalanced } from '../support/wallet';
import { ledger, tokenLots } from '../../server/db/schema';

let t: TestApp;
const DAY = 24 * 60 * 60_000;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

async function seller(name: string) {
  const s = await signedInSeller(t, name);
  return { ...s, balance: () => t.app.ledger.balanceOf(s.id) };
}

/** Charges a task as generation does: one statement, the wallet's check refusing a negative balance. */
async function chargeTask(userId: string, taskId: string, cost: number) {
  await t.app.database.db.execute(sql`WITH task AS (SELECT ${taskId}::text AS id), ${t.app.ledger.chargeTaskCtes(userId, cost)} SELECT 1`);
}

const lotOf = async (userId: string, reference: string) =>
  (
    await t.app.database.db
      .select({ remaining: tokenLots.remaining, expiresAt: tokenLots.expiresAt })
      .from(tokenLots)
      .innerJoin(ledger, eq(ledger.id, tokenLots.entryId))
      .where(and(eq(tokenLots.userId, userId), eq(ledger.reference, reference)))
  )[0]!;

describe('a refunded output', () => {
  it('goes back into the period’s tokens it was paid with, and lapses with them', async () => {
    const s = await seller('lena');
    const start = await s.balance();
    const end = new Date(Date.now() + DAY);
    await t.app.ledger.creditPeriod(s.id, 'lena-period', 100, end);
    await chargeTask(s.id, 'lena-task', 60);
    expect((await lotOf(s.id, 'charge:lena-period')).remaining).toBe(40);

    await t.app.ledger.refundOutput(s.id, { id: 'lena-output', cost: 60, taskId: 'lena-task' });
    expect((await lotOf(s.id, 'charge:lena-period')).remaining).toBe(100);
    expect(await s.balance()).toBe(start + 100);
    await expectBalanced(t, s);

    // At the period's end every one of those tokens lapses: the refund made none of them permanent.
    expect(await t.app.ledger.expireFor(s.id, new Date(end.getTime() + 1000))).toBe(100);
    expect(await s.balance()).toBe(start);
    await expectBalanced(t, s);
    // A repeat of the refund changes nothing.
    expect(await t.app.ledger.refundOutput(s.id, { id: 'lena-output', cost: 60, taskId: 'lena-task' })).toBe(false);
    expect(await s.balance()).toBe(start);
  });

  it('gives nothing back of tokens that have lapsed since', async () => {
    const s = await seller('milan');
    const start = await s.balance();
    const end = new Date(Date.now() + DAY);
    await t.app.ledger.creditPeriod(s.id, 'milan-period', 100, end);
    await chargeTask(s.id, 'milan-task', 60);
    expect(await t.app.ledger.expireFor(s.id, new Date(end.getTime() + 1000))).toBe(40);
    await t.app.ledger.refundOutput(s.id, { id: 'milan-output', cost: 60, taskId: 'milan-task' });
    expect(await s.balance()).toBe(start);
    const [entry] = await t.app.database.db.select({ amount: ledger.amount }).from(ledger).where(eq(ledger.reference, 'output:milan-output'));
    expect(entry?.amount).toBe(0);
    await expectBalanced(t, s);
  });

  it('spent partly from lapsing and partly from lasting tokens, gives back the lasting ones first', async () => {
    const s = await seller('nadia');
    const start = await s.balance();
    expect(start).toBeGreaterThan(0);
    await t.app.ledger.creditPeriod(s.id, 'nadia-period', 30, new Date(Date.now() + DAY));
    await chargeTask(s.id, 'nadia-task', 30 + start);
    expect(await s.balance()).toBe(0);
    await t.app.ledger.refundOutput(s.id, { id: 'nadia-output', cost: start, taskId: 'nadia-task' });
    expect((await lotOf(s.id, 'charge:nadia-period')).remaining).toBe(0);
    expect(await s.balance()).toBe(start);
    await expectBalanced(t, s);
  });
});

describe('a refunded top-up', () => {
  it('takes back the pack’s own tokens first, leaving the period’s', async () => {
    const s = await seller('oleg');
    const start = await s.balance();
    await t.app.ledger.creditTopUp(s.id, 'oleg-pack', 300);
    await t.app.ledger.creditPeriod(s.id, 'oleg-period', 100, new Date(Date.now() + DAY));
    const back = await t.app.ledger.takeBack(
      s.id,
      { type: 'top_up', reference: 'refund:oleg-pack:300', reverses: { type: 'top_up', reference: 'payment:oleg-pack' } },
      300,
    );
    expect(back).toEqual({ taken: 300, unrecovered: 0 });
    expect((await lotOf(s.id, 'payment:oleg-pack')).remaining).toBe(0);
    expect((await lotOf(s.id, 'charge:oleg-period')).remaining).toBe(100);
    expect(await s.balance()).toBe(start + 100);
    await expectBalanced(t, s);
  });

  it('a won dispute gives back what it took, into the lots it was taken from', async () => {
    const s = await seller('polina');
    const start = await s.balance();
    await t.app.ledger.creditTopUp(s.id, 'polina-pack', 100);
    await chargeTask(s.id, 'polina-task', 80 + start);
    const taken = await t.app.ledger.takeBack(s.id, { type: 'top_up', reference: 'dispute:test:dp_1', reverses: { type: 'top_up', reference: 'payment:polina-pack' } }, 100);
    expect(taken).toEqual({ taken: 20, unrecovered: 80 });
    expect(await s.balance()).toBe(0);
    const given = await t.app.ledger.giveBack(s.id, { type: 'top_up', reference: 'dispute-won:test:dp_1', reverses: { type: 'top_up', reference: 'dispute:test:dp_1' } }, 20);
    expect(given).toBe(20);
    expect((await lotOf(s.id, 'payment:polina-pack')).remaining).toBe(20);
    expect(await s.balance()).toBe(20);
    await expectBalanced(t, s);
  });
});
