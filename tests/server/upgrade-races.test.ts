// Two upgrades at once charge once (issue 31, point 4), through our HTTP API against the payment
// sandbox (a card subscription billed through its mandate), the YooKassa stand-in and the Stripe
// stand-in: two concurrent upgrades make one charge at the provider and one credit, the other
// refused; the same Idempotency-Key again answers the same upgrade without charging again; a
// malformed key is refused; the upgrade routes are rate limited; and two paid Stripe invoices
// whose periods start in the same second are each credited once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, inArray } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { createTestApp, type TestApp } from '../support/test-app';
import { signedInSeller } from '../support/sellers';
import { customerOf } from '../support/customers';
import { stopClockAt } from '../support/clock';
import { expectBalanced } from '../support/wallet';
import { startFakeStripe, type StripeEvent } from '../support/fakes/stripe';
import { startFakeYooKassa } from '../support/fakes/yookassa';
import { heldProxy, settledWithin } from '../support/held-proxy';
import { ledger, mandates, sandboxCheckouts, subscriptionCharges, subscriptions } from '../../server/db/schema';
import { stripeKeys, yookassaKeys } from '../support/fakes/keys';

type Seller = { token: string; id: string };

function harness(get: () => TestApp) {
  const sellers: Record<string, Seller> = {};
  const seller = async (name: string) => (sellers[name] ??= await signedInSeller(get(), name));
  const api = (name: string, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, key?: string) =>
    get().app.inject({
      method,
      url: `/api/v1${url}`,
      headers: { authorization: `Bearer ${sellers[name]!.token}`, ...(key === undefined ? {} : { 'idempotency-key': key }) },
      ...(payload ? { payload } : {}),
    });
  const credits = async (name: string) =>
    (await get().app.database.db.select().from(ledger).where(and(eq(ledger.userId, sellers[name]!.id), eq(ledger.type, 'subscription'))).orderBy(ledger.id)).map(
      (entry) => entry.amount,
    );
  const chargesOf = (name: string) => get().app.database.db.select().from(subscriptionCharges).where(eq(subscriptionCharges.userId, sellers[name]!.id));
  const rowOf = async (name: string) => (await get().app.database.db.select().from(subscriptions).where(eq(subscriptions.userId, sellers[name]!.id)))[0]!;
  const balanced = (name: string) => expectBalanced(get(), sellers[name]!);
  return { sellers, seller, api, credits, chargesOf, rowOf, balanced };
}

const key = () => `upgrade-${crypto.randomUUID()}`;

/** Two answers to upgrades sent at once: one went through; the other was refused as a second upgrade. */
function expectOneUpgrade(answers: LightMyRequestResponse[]) {
  expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
  const refused = answers.find((answer) => answer.statusCode === 409)!;
  expect(['UPGRADE_IN_PROGRESS', 'ALREADY_SUBSCRIBED']).toContain(refused.json().error);
}

describe('the sandbox: a card subscription billed through its mandate', () => {
  let t: TestApp;
  const h = harness(() => t);

  beforeAll(async () => {
    t = await createTestApp({ SANDBOX_NOTIFY_DELAY_MS: '20', PUBLIC_URL: 'http://shop.test', RUN_JOBS: 'false' });
  });
  afterAll(async () => {
    await t?.close();
  });

  /** Subscribes to plan 1 on the sandbox's card page: active with its 200 tokens. */
  async function subscribed(name: string) {
    await h.seller(name);
    const created = await h.api(name, 'POST', '/subscription/create', { plan_id: 1, interval: 'month' });
    expect(created.statusCode, created.body).toBe(200);
    const page = new URL(created.json().data.redirect_url).pathname;
    const paid = await t.app.inject({
      method: 'POST',
      url: `${page}/pay`,
      payload: new URLSearchParams({ number: '4242 4242 4242 4242', expiry: '12/34', cvc: '123', holder: 'T' }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(paid.statusCode).toBe(303);
    await t.app.billing.sandbox!.idle();
    expect(await h.rowOf(name)).toMatchObject({ status: 'active', client: 'card', billing: 'mandate', planId: 1 });
  }
  /** The charges the sandbox booked for the seller's subscription. */
  async function sandboxCharges(name: string) {
    const ours = (await h.chargesOf(name)).map((charge) => charge.id);
    return t.app.database.db.select().from(sandboxCheckouts).where(and(eq(sandboxCheckouts.mode, 'charge'), inArray(sandboxCheckouts.paymentId, ours)));
  }

  it('two upgrades at once: one charge at the sandbox, one credit; the other answers 409', async () => {
    await subscribed('nina');
    const answers = await Promise.all([h.api('nina', 'POST', '/subscription/update', { plan_id: 2 }, key()), h.api('nina', 'POST', '/subscription/update', { plan_id: 2 }, key())]);
    expectOneUpgrade(answers);
    expect(answers.find((answer) => answer.statusCode === 200)!.json().data).toMatchObject({ status: 'active', plan: { id: 2 } });
    expect(await sandboxCharges('nina')).toHaveLength(2);
    expect((await h.chargesOf('nina')).map((charge) => charge.status)).toEqual(['completed', 'completed']);
    expect(await h.credits('nina')).toEqual([200, 600]);
    // Asked again afterwards, with a new key: the plan is already the one asked for.
    const later = await h.api('nina', 'POST', '/subscription/update', { plan_id: 2 }, key());
    expect(later.statusCode).toBe(409);
    expect(later.json().error).toBe('ALREADY_SUBSCRIBED');
    expect(await sandboxCharges('nina')).toHaveLength(2);
    await h.balanced('nina');
  });

  it('the same Idempotency-Key twice in a row answers the same upgrade, charged once; a malformed key is refused', async () => {
    await subscribed('oleg');
    const same = key();
    const first = await h.api('oleg', 'POST', '/subscription/update', { plan_id: 3 }, same);
    expect(first.statusCode, first.body).toBe(200);
    const again = await h.api('oleg', 'POST', '/subscription/update', { plan_id: 3 }, same);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().data).toEqual(first.json().data);
    expect(await sandboxCharges('oleg')).toHaveLength(2);
    expect(await h.credits('oleg')).toEqual([200, 2000]);
    for (const bad of ['short', 'has spaces in it', 'x'.repeat(101)]) {
      const refused = await h.api('oleg', 'POST', '/subscription/update', { plan_id: 4 }, bad);
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toMatchObject({ error: 'IDEMPOTENCY_KEY_REQUIRED', message: expect.stringContaining('Idempotency-Key') });
      const put = await h.api('oleg', 'PUT', `/localpay/subscriptions/${(await h.rowOf('oleg')).id}`, { plan_id: 4 }, bad);
      expect(put.statusCode).toBe(400);
      expect(put.json().error).toBe('IDEMPOTENCY_KEY_REQUIRED');
    }
    expect(await sandboxCharges('oleg')).toHaveLength(2);
    await h.balanced('oleg');
  });

  it('the upgrade routes are rate limited per seller, as the other payment routes: 429 past the limit', async () => {
    await h.seller('petr');
    const someone = crypto.randomUUID();
    let calls = 0;
    // Thirty an hour, counted across both routes; a seller with no plan is answered 404 until then.
    for (;;) {
      calls += 1;
      const answer = calls % 2 ? await h.api('petr', 'POST', '/subscription/update', { plan_id: 2 }, key()) : await h.api('petr', 'PUT', `/localpay/subscriptions/${someone}`, { plan_id: 2 }, key());
      if (answer.statusCode === 429) {
        expect(answer.json()).toMatchObject({ error: 'RATE_LIMITED', message: expect.stringMatching(/\d+/) });
        break;
      }
      expect(answer.statusCode, `${calls} ${answer.body}`).toBe(404);
      if (calls > 40) break;
    }
    expect(calls).toBe(31);
    const put = await h.api('petr', 'PUT', `/localpay/subscriptions/${someone}`, { plan_id: 2 }, key());
    expect(put.statusCode).toBe(429);
  });
});

describe('YooKassa: PUT /localpay/subscriptions/{id}', () => {
  let t: TestApp;
  let yoo: Awaited<ReturnType<typeof startFakeYooKassa>>;
  let proxy: Awaited<ReturnType<typeof heldProxy>>;
  const h = harness(() => t);

  beforeAll(async () => {
    yoo = await startFakeYooKassa();
    // Our app talks to YooKassa through this proxy, so a test can make one answer late.
    proxy = await heldProxy(() => yoo.origin);
    t = await createTestApp({ PUBLIC_URL: 'http://shop.test', RUN_JOBS: 'false', ...yookassaKeys(yoo, proxy.origin) });
  });
  afterAll(async () => {
    await t?.close();
    await proxy?.close();
    await yoo?.close();
  });

  const payments = () => yoo.requests.filter((request) => request.method === 'POST' && request.path === '/v3/payments').length;

  /** A subscription to plan 1 through a mandate authorised on YooKassa's page. */
  async function subscribed(name: string): Promise<string> {
    await h.seller(name);
    expect((await h.api(name, 'POST', '/localpay/customers', customerOf(`${name}-shop`, name))).statusCode).toBe(200);
    const created = await h.api(name, 'POST', '/localpay/mandates', { reference: `${name}-card`, payment_method: 'card_ru', terminal_type: 'web' });
    const mandateId = created.json().data.id as string;
    const [row] = await t.app.database.db.select().from(mandates).where(eq(mandates.id, mandateId));
    const paid = await fetch(`${yoo.origin}/checkout/payments/v2/contract?orderId=${row!.providerMandateId}&action=pay`, { method: 'POST', redirect: 'manual' });
    expect(paid.status).toBe(303);
    const { body, headers } = yoo.notification('payment.waiting_for_capture', yoo.lastNotification(row!.providerMandateId!)!.object);
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/payment/webhooks/yookassa', payload: body, headers })).statusCode).toBe(200);
    const answer = await h.api(name, 'POST', '/localpay/subscriptions', { plan_id: 1, mandate_id: mandateId, reference: `${name}-sub` });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json().data.status).toBe('active');
    return answer.json().data.id as string;
  }

  it('two upgrades at once: one charge at YooKassa, one credit; the other answers 409', async () => {
    const id = await subscribed('rita');
    const before = payments();
    // YooKassa answers the first upgrade's charge slowly: the second is asked while it is being made.
    const slow = proxy.hold('POST', '/v3/payments');
    const first = h.api('rita', 'PUT', `/localpay/subscriptions/${id}`, { plan_id: 2 }, key());
    await slow.arrived;
    const second = h.api('rita', 'PUT', `/localpay/subscriptions/${id}`, { plan_id: 2 }, key());
    // The second is answered at once, while the first is still in flight.
    expect(await settledWithin(second, 2_000)).toBe(true);
    expect((await second).json().error).toBe('UPGRADE_IN_PROGRESS');
    slow.release();
    const answers = await Promise.all([first, second]);
    expectOneUpgrade(answers);
    expect(payments()).toBe(before + 1);
    const charges = await h.chargesOf('rita');
    expect(charges.map((charge) => charge.status)).toEqual(['completed', 'completed']);
    const ours = new Set(charges.map((charge) => charge.id));
    expect([...yoo.autopayments.values()].filter((payment) => ours.has(payment.metadata.charge_id ?? ''))).toHaveLength(2);
    expect(await h.credits('rita')).toEqual([200, 600]);
    await h.balanced('rita');
  });

  it('the same Idempotency-Key twice in a row: the same answer, one charge at YooKassa', async () => {
    const id = await subscribed('sasha');
    const before = payments();
    const same = key();
    const first = await h.api('sasha', 'PUT', `/localpay/subscriptions/${id}`, { plan_id: 3 }, same);
    expect(first.statusCode, first.body).toBe(200);
    const again = await h.api('sasha', 'PUT', `/localpay/subscriptions/${id}`, { plan_id: 3 }, same);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().data).toEqual(first.json().data);
    expect(payments()).toBe(before + 1);
    expect(await h.credits('sasha')).toEqual([200, 2000]);
    await h.balanced('sasha');
  });
});

describe('Stripe: two paid invoices whose periods start in the same second', () => {
  let t: TestApp;
  let stripe: Awaited<ReturnType<typeof startFakeStripe>>;
  const h = harness(() => t);

  beforeAll(async () => {
    stripe = await startFakeStripe();
    t = await createTestApp({ PUBLIC_URL: 'http://shop.test', RUN_JOBS: 'false', ...stripeKeys(stripe) });
  });
  afterAll(async () => {
    await t?.close();
    await stripe?.close();
  });

  async function deliver(events: readonly StripeEvent[]): Promise<number> {
    let changed = 0;
    for (const event of events) {
      const { body, headers } = stripe.signed(event);
      const answer = await t.app.inject({ method: 'POST', url: '/api/v1/payment/webhooks/stripe', payload: body, headers });
      expect(answer.statusCode, `${event.type}: ${answer.body}`).toBe(200);
      changed += answer.json().data.changed as number;
    }
    return changed;
  }
  const paidInvoices = (events: readonly StripeEvent[]) => events.filter((event) => event.type === 'invoice.paid');
  const periodStart = (event: StripeEvent) => (event.data.object as { lines: { data: { period: { start: number } }[] } }).lines.data[0]!.period.start;

  /** A subscription to plan 1 paid on Stripe's page: answers Stripe's subscription id. */
  async function subscribed(name: string): Promise<string> {
    await h.seller(name);
    const created = await h.api(name, 'POST', '/subscription/create', { plan_id: 1, interval: 'month' });
    expect(created.statusCode, created.body).toBe(200);
    const sessionId = created.json().data.session_id as string;
    await deliver(stripe.completeSubscription(sessionId));
    expect(await h.rowOf(name)).toMatchObject({ status: 'active' });
    return stripe.sessions.get(sessionId)!.subscription!;
  }

  it('two upgrades in one second: both invoices credited, each once; replaying either credits nothing', async () => {
    await subscribed('tanya');
    // Stripe's clock and ours stand still: both new periods start in the same second.
    stopClockAt(new Date().toISOString());
    const mark = stripe.events.length;
    expect((await h.api('tanya', 'POST', '/subscription/update', { plan_id: 2 }, key())).statusCode).toBe(200);
    expect((await h.api('tanya', 'POST', '/subscription/update', { plan_id: 3 }, key())).statusCode).toBe(200);
    const events = stripe.events.slice(mark);
    const paid = paidInvoices(events);
    expect(paid).toHaveLength(2);
    expect(periodStart(paid[0]!)).toBe(periodStart(paid[1]!));
    expect(await deliver(events)).toBeGreaterThanOrEqual(2);
    expect(await h.credits('tanya')).toEqual([200, 600, 2000]);
    for (const event of paid) expect(await deliver([event])).toBe(0);
    expect(await h.credits('tanya')).toEqual([200, 600, 2000]);
    expect(await h.rowOf('tanya')).toMatchObject({ status: 'active', planId: 3 });
    await h.balanced('tanya');
  });

  it('a renewal and an upgrade in one second: both invoices credited, each once, in either order', async () => {
    const subscriptionId = await subscribed('uliana');
    stopClockAt(new Date().toISOString());
    // The upgrade comes in the second the new period began (Stripe's clock is at the renewal).
    const renewed = stripe.renew(subscriptionId);
    const mark = stripe.events.length;
    expect((await h.api('uliana', 'POST', '/subscription/update', { plan_id: 2 }, key())).statusCode).toBe(200);
    const upgraded = stripe.events.slice(mark);
    const paid = [...paidInvoices(renewed), ...paidInvoices(upgraded)];
    expect(paid).toHaveLength(2);
    expect(periodStart(paid[0]!)).toBe(periodStart(paid[1]!));
    // The subscription's updates arrive in the order Stripe made them; the upgrade's invoice
    // before the renewal's.
    const updates = (events: StripeEvent[]) => events.filter((event) => event.type === 'customer.subscription.updated');
    await deliver([...updates(renewed), ...updates(upgraded), ...paidInvoices(upgraded), ...paidInvoices(renewed)]);
    expect((await h.credits('uliana')).sort((a, b) => a - b)).toEqual([200, 200, 600]);
    for (const event of paid) expect(await deliver([event])).toBe(0);
    expect((await h.credits('uliana')).sort((a, b) => a - b)).toEqual([200, 200, 600]);
    expect(await h.rowOf('uliana')).toMatchObject({ status: 'active', planId: 2 });
    await h.balanced('uliana');
  });
});
