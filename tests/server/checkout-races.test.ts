// A second checkout never swallows the first one's payment (issue 31, point 2), through our HTTP
// API against the providers' stand-ins. With Stripe: a double tap expires the first Checkout
// Session at Stripe before the second opens; two tabs at once leave one open checkout; a payment
// that completes just before the expire keeps the newer checkout from opening and activates, in
// any order of its webhooks; a checkout whose creation outlives its lease is closed at Stripe; a
// closed checkout paid anyway (the previous release closed rows without expiring their sessions)
// is refunded at Stripe while another plan is live or open. With YooKassa: two subscriptions on
// one mandate at once make one charge; a charge whose answer was lost is re-sent under its key
// only within 23 hours, then found by reading YooKassa — never sent again. Every webhook answers
// 200, each event moves the ledger at most once, and the balance equals the ledger and the lots.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../support/test-app';
import { signedInSeller } from '../support/sellers';
import { customerOf } from '../support/customers';
import { heldProxy, settledWithin } from '../support/held-proxy';
import { expectBalanced } from '../support/wallet';
import { startFakeStripe, type StripeEvent } from '../support/fakes/stripe';
import { startFakeYooKassa, type YooKassaPayment } from '../support/fakes/yookassa';
import { billingLocks, ledger, mandates, subscriptionCharges, subscriptions } from '../../server/db/schema';
import { yookassaProvider } from '../../server/billing/providers/yookassa';
import { stripeKeys, yookassaKeys } from '../support/fakes/keys';

type Seller = { token: string; id: string };
const HOUR = 60 * 60_000;

function harness(get: () => TestApp) {
  const sellers: Record<string, Seller> = {};
  const seller = async (name: string) => (sellers[name] ??= await signedInSeller(get(), name));
  const api = (name: string, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
    get().app.inject({ method, url: `/api/v1${url}`, headers: { authorization: `Bearer ${sellers[name]!.token}` }, ...(payload ? { payload } : {}) });
  const rowsOf = (name: string) => get().app.database.db.select().from(subscriptions).where(eq(subscriptions.userId, sellers[name]!.id)).orderBy(subscriptions.createdAt);
  const credits = async (name: string) =>
    (await get().app.database.db.select().from(ledger).where(and(eq(ledger.userId, sellers[name]!.id), eq(ledger.type, 'subscription')))).map((entry) => entry.amount);
  const balance = async (name: string) => (await api(name, 'GET', '/tokens/balance')).json().data.total_tokens as number;
  const balanced = (name: string) => expectBalanced(get(), sellers[name]!);
  return { sellers, seller, api, rowsOf, credits, balance, balanced };
}

describe('Stripe: a newer checkout closes the older one at Stripe first', () => {
  let t: TestApp;
  let stripe: Awaited<ReturnType<typeof startFakeStripe>>;
  let proxy: Awaited<ReturnType<typeof heldProxy>>;
  const h = harness(() => t);

  beforeAll(async () => {
    stripe = await startFakeStripe();
    // Our app talks to Stripe through this proxy, so a test can make one answer late.
    proxy = await heldProxy(() => stripe.origin);
    t = await createTestApp({ PUBLIC_URL: 'http://shop.test', RUN_JOBS: 'false', ...stripeKeys(stripe, proxy.origin) });
  });
  afterAll(async () => {
    await t?.close();
    await proxy?.close();
    await stripe?.close();
  });

  /** Delivers events as Stripe signs them; every one answers 200. Answers how many changed something. */
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
  /** Each event delivered again, one by one: none changes anything. */
  async function replayEach(events: readonly StripeEvent[]) {
    for (const event of events) expect(await deliver([event]), `replayed ${event.type}`).toBe(0);
  }

  const create = (name: string, planId = 1) => h.api(name, 'POST', '/subscription/create', { plan_id: planId, interval: 'month' });
  const sessionOfRow = (row: { providerCheckoutId: string | null }) => stripe.sessions.get(row.providerCheckoutId!)!;
  const refundsOfSession = (sessionId: string) => {
    const session = stripe.sessions.get(sessionId)!;
    const invoice = stripe.subscriptions.get(session.subscription!)!.latest_invoice!;
    const charge = [...stripe.charges.values()].find((made) => made.payment_intent === stripe.invoicePayments.get(invoice)!.payment.payment_intent)!;
    return [...stripe.refunds.values()].filter((refund) => refund.charge === charge.id);
  };

  it('a double tap: the first Checkout Session is expired at Stripe and its row failed; its page can no longer be paid; the second is paid and credited once', async () => {
    await h.seller('anna');
    const before = await h.balance('anna');
    const first = await create('anna');
    expect(first.statusCode, first.body).toBe(200);
    const second = await create('anna');
    expect(second.statusCode, second.body).toBe(200);
    const [a, b] = await h.rowsOf('anna');
    expect(a).toMatchObject({ status: 'failed', providerCheckoutId: first.json().data.session_id });
    expect(b).toMatchObject({ status: 'pending', providerCheckoutId: second.json().data.session_id });
    expect(sessionOfRow(a!).status).toBe('expired');
    expect(stripe.requests).toContainEqual(expect.objectContaining({ method: 'POST', path: `/v1/checkout/sessions/${a!.providerCheckoutId}/expire` }));
    // The first tab's page is still open: paying on it does nothing now.
    const page = await fetch(`${first.json().data.redirect_url}/pay`, { method: 'POST', redirect: 'manual' });
    expect(page.status).toBe(200);
    expect(sessionOfRow(a!)).toMatchObject({ status: 'expired', subscription: null });
    expect(() => stripe.completeSubscription(a!.providerCheckoutId!)).toThrow();
    expect((await h.api('anna', 'GET', `/subscription/checkout-session/${a!.providerCheckoutId}`)).json().data.status).toBe('expired');
    // Stripe tells us of the expiry it made: answered 200, twice, changing nothing.
    const expired = stripe.events.filter((event) => event.type === 'checkout.session.expired' && (event.data.object as { id: string }).id === a!.providerCheckoutId);
    expect(expired).toHaveLength(1);
    expect(await deliver([...expired, ...expired])).toBe(0);

    const paid = stripe.completeSubscription(b!.providerCheckoutId!);
    expect(await deliver(paid)).toBe(2);
    await replayEach(paid);
    expect((await h.rowsOf('anna')).map((row) => row.status)).toEqual(['failed', 'active']);
    expect(await h.credits('anna')).toEqual([200]);
    expect(await h.balance('anna')).toBe(before + 200);
    await h.balanced('anna');
  });

  it('two tabs at once: one checkout stays open, the other is closed at Stripe; never two pending rows', async () => {
    await h.seller('boris');
    // Stripe makes the first tab's session slowly: the second tab taps while it is being made.
    const slow = proxy.hold('POST', '/v1/checkout/sessions');
    const first = create('boris', 1);
    await slow.arrived;
    const second = create('boris', 2);
    await settledWithin(second, 500);
    slow.release();
    const answers = await Promise.all([first, second]);
    for (const answer of answers) expect([200, 409], answer.body).toContain(answer.statusCode);
    const rows = await h.rowsOf('boris');
    const pending = rows.filter((row) => row.status === 'pending');
    expect(pending).toHaveLength(1);
    expect(sessionOfRow(pending[0]!).status).toBe('open');
    for (const row of rows.filter((other) => other.status !== 'pending')) {
      expect(row.status).toBe('failed');
      if (row.providerCheckoutId) expect(sessionOfRow(row).status).toBe('expired');
    }
    // Of the sessions Stripe made for this seller, only the pending row's is open.
    const ids = new Set(rows.map((row) => row.id));
    const open = [...stripe.sessions.values()].filter((session) => ids.has(session.client_reference_id ?? '') && session.status === 'open');
    expect(open.map((session) => session.id)).toEqual([pending[0]!.providerCheckoutId]);
  });

  const orders: [string, (events: StripeEvent[]) => StripeEvent[]][] = [
    ['as made', (events) => events],
    ['newest first', (events) => [...events].reverse()],
    ['the paid invoice first', (events) => [...events.filter((event) => event.type === 'invoice.paid'), ...events.filter((event) => event.type !== 'invoice.paid')]],
  ];
  for (const [index, [order, arrange]] of orders.entries()) {
    it(`a payment that completes just before the expire: the newer checkout is refused, the paid one activates (webhooks ${order}), credited once`, async () => {
      const name = `clara${index}`;
      await h.seller(name);
      const before = await h.balance(name);
      expect((await create(name, 2)).statusCode).toBe(200);
      const [a] = await h.rowsOf(name);
      // The seller pays in the first tab; Stripe's webhooks are still on their way when the second tab taps.
      const paid = stripe.completeSubscription(a!.providerCheckoutId!);
      const refused = await create(name, 1);
      expect(refused.statusCode, refused.body).toBe(409);
      expect(refused.json().error).toBe('CHECKOUT_IN_PROGRESS');
      expect((await h.rowsOf(name)).map((row) => row.status)).toEqual(['pending']);
      expect(sessionOfRow(a!).status).toBe('complete');

      expect(await deliver(arrange(paid))).toBeGreaterThan(0);
      await replayEach(paid);
      expect(await h.rowsOf(name)).toMatchObject([{ id: a!.id, status: 'active', planId: 2 }]);
      expect(await h.credits(name)).toEqual([600]);
      expect(await h.balance(name)).toBe(before + 600);
      expect((await create(name, 1)).json().error).toBe('ALREADY_SUBSCRIBED');
      await h.balanced(name);
    });
  }

  it('a checkout whose creation outlives its lease is closed at Stripe when it comes back, and its tab is refused', async () => {
    await h.seller('dora');
    const held = proxy.hold('POST', '/v1/checkout/sessions');
    const slow = create('dora', 1);
    await held.arrived;
    // Stripe answers so late that the first tab's lease runs out, and the second tab goes ahead.
    await t.app.database.db.update(billingLocks).set({ until: sql`now() - interval '1 second'` }).where(eq(billingLocks.key, `checkout:${h.sellers.dora!.id}`));
    const second = await create('dora', 2);
    expect(second.statusCode, second.body).toBe(200);
    held.release();
    const first = await slow;
    expect(first.statusCode, first.body).toBe(409);
    expect(first.json().error).toBe('CHECKOUT_IN_PROGRESS');
    const rows = await h.rowsOf('dora');
    expect(rows.map((row) => row.status)).toEqual(['failed', 'pending']);
    const late = [...stripe.sessions.values()].find((session) => session.client_reference_id === rows[0]!.id)!;
    expect(late.status).toBe('expired');
    expect(sessionOfRow(rows[1]!).status).toBe('open');
  });

  /**
   * A row the previous release marked failed without expiring its Checkout Session (what
   * fa78ced's second checkout did): its page can still be paid at Stripe.
   */
  async function closedButPayable(name: string, planId: number) {
    expect((await create(name, planId)).statusCode).toBe(200);
    const [row] = (await h.rowsOf(name)).slice(-1);
    await t.app.database.db.update(subscriptions).set({ status: 'failed', endedAt: new Date() }).where(eq(subscriptions.id, row!.id));
    return row!;
  }

  for (const [index, [order, arrange]] of orders.slice(0, 2).entries()) {
    it(`a closed checkout paid while another plan is live is refunded at Stripe and recorded, its subscription cancelled there (webhooks ${order})`, async () => {
      const name = `emil${index}`;
      await h.seller(name);
      const before = await h.balance(name);
      const a = await closedButPayable(name, 1);
      expect((await create(name, 2)).statusCode).toBe(200);
      const b = (await h.rowsOf(name))[1]!;
      expect(await deliver(stripe.completeSubscription(b.providerCheckoutId!))).toBe(2);

      const paidA = stripe.completeSubscription(a.providerCheckoutId!);
      const mark = stripe.events.length;
      await deliver(arrange(paidA));
      await replayEach(paidA);
      const refunds = refundsOfSession(a.providerCheckoutId!);
      expect(refunds).toHaveLength(1);
      expect(refunds[0]).toMatchObject({ amount: 999, status: 'succeeded' });
      expect(stripe.subscriptions.get(sessionOfRow(a).subscription!)!.status).toBe('canceled');
      const [recorded] = await t.app.database.db.select().from(subscriptionCharges).where(eq(subscriptionCharges.subscriptionId, a.id));
      expect(recorded).toMatchObject({ status: 'failed', failureReason: 'refunded', refundedMinor: 999, tokens: 0 });
      // What Stripe says of the refund and the cancelling answers 200 and changes nothing more.
      await deliver(stripe.events.slice(mark));
      await replayEach(paidA);
      expect(await h.rowsOf(name)).toMatchObject([{ id: a.id, status: 'failed' }, { id: b.id, status: 'active', planId: 2 }]);
      expect(await h.credits(name)).toEqual([600]);
      expect(await h.balance(name)).toBe(before + 600);
      await h.balanced(name);
    });
  }

  it('a closed checkout paid when the seller has no other plan activates with its tokens, once', async () => {
    await h.seller('fanny');
    const before = await h.balance('fanny');
    const a = await closedButPayable('fanny', 1);
    const paid = stripe.completeSubscription(a.providerCheckoutId!);
    await deliver([...paid].reverse());
    await replayEach(paid);
    expect(await h.rowsOf('fanny')).toMatchObject([{ id: a.id, status: 'active', endedAt: null }]);
    expect(refundsOfSession(a.providerCheckoutId!)).toEqual([]);
    expect(await h.credits('fanny')).toEqual([200]);
    expect(await h.balance('fanny')).toBe(before + 200);
    await h.balanced('fanny');
  });
});

describe('YooKassa: one mandate, one charge', () => {
  let t: TestApp;
  let yoo: Awaited<ReturnType<typeof startFakeYooKassa>>;
  let proxy: Awaited<ReturnType<typeof heldProxy>>;
  const h = harness(() => t);

  beforeAll(async () => {
    yoo = await startFakeYooKassa();
    proxy = await heldProxy(() => yoo.origin);
    t = await createTestApp({ PUBLIC_URL: 'http://shop.test', RUN_JOBS: 'false', ...yookassaKeys(yoo, proxy.origin) });
  });
  afterAll(async () => {
    await t?.close();
    await proxy?.close();
    await yoo?.close();
  });

  const charges = () => yoo.requests.filter((request) => request.method === 'POST' && request.path === '/v3/payments').length;
  const chargesOf = (subscriptionId: string) => t.app.database.db.select().from(subscriptionCharges).where(eq(subscriptionCharges.subscriptionId, subscriptionId));
  const subscribe = (name: string, mandateId: string, reference: string) => h.api(name, 'POST', '/localpay/subscriptions', { plan_id: 1, mandate_id: mandateId, reference });

  /** A seller with a mandate authorised on YooKassa's page (its hold released): answers the mandate and its saved method. */
  async function authorised(name: string) {
    await h.seller(name);
    expect((await h.api(name, 'POST', '/localpay/customers', customerOf(`${name}-shop`, name))).statusCode).toBe(200);
    const created = await h.api(name, 'POST', '/localpay/mandates', { reference: `${name}-card`, payment_method: 'card_ru', terminal_type: 'web' });
    expect(created.statusCode, created.body).toBe(200);
    const mandateId = created.json().data.id as string;
    const [row] = await t.app.database.db.select().from(mandates).where(eq(mandates.id, mandateId));
    const payment = yoo.payments.get(row!.providerMandateId!) as YooKassaPayment;
    const paid = await fetch(`${yoo.origin}/checkout/payments/v2/contract?orderId=${payment.id}&action=pay`, { method: 'POST', redirect: 'manual' });
    expect(paid.status).toBe(303);
    const { body, headers } = yoo.notification('payment.waiting_for_capture', yoo.lastNotification(payment.id)!.object);
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/payment/webhooks/yookassa', payload: body, headers })).statusCode).toBe(200);
    const [active] = await t.app.database.db.select().from(mandates).where(eq(mandates.id, mandateId));
    expect(active).toMatchObject({ status: 'active' });
    return { mandateId, methodId: active!.providerMethodId! };
  }

  /** A subscription whose first charge YooKassa accepted but never answered (202 "processing" until we gave up). */
  async function lostCharge(name: string) {
    const { mandateId, methodId } = await authorised(name);
    const before = charges();
    yoo.processingNext(4, 10);
    const answer = await subscribe(name, mandateId, `${name}-sub`);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json().data.status).toBe('pending');
    // The adapter asked four times, as YooKassa's retry_after says; none of them was answered.
    expect(charges()).toBe(before + 4);
    const [sub] = await h.rowsOf(name);
    const [charge] = await chargesOf(sub!.id);
    expect(charge).toMatchObject({ status: 'pending', providerPaymentId: null });
    return { mandateId, methodId, sub: sub!, charge: charge! };
  }
  /** YooKassa finishes the payment it was processing for our charge (as its answer would have said). */
  const finishAtYooKassa = (charge: { id: string; amountMinor: number }, methodId: string) =>
    yookassaProvider({ shopId: yoo.shopId, secretKey: yoo.secretKey, apiUrl: yoo.apiUrl }).mandates!.charge({
      chargeId: charge.id,
      providerMethodId: methodId,
      amountMinor: charge.amountMinor,
      currency: 'RUB',
      description: 'SoleStudio: Start, monthly',
    });

  it('two subscriptions at once on one mandate (different references): one charge at YooKassa, one subscription, the other 409', async () => {
    const { mandateId } = await authorised('galya');
    const before = charges();
    const balance = await h.balance('galya');
    // YooKassa answers the first tab's charge slowly: the second tab asks while it is being made.
    const slow = proxy.hold('POST', '/v3/payments');
    const first = subscribe('galya', mandateId, 'galya-tab-1');
    await slow.arrived;
    const second = subscribe('galya', mandateId, 'galya-tab-2');
    await settledWithin(second, 500);
    slow.release();
    const answers = await Promise.all([first, second]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
    const refused = answers.find((answer) => answer.statusCode === 409)!;
    expect(['ALREADY_SUBSCRIBED', 'CHECKOUT_IN_PROGRESS']).toContain(refused.json().error);
    expect(charges()).toBe(before + 1);
    const rows = await h.rowsOf('galya');
    expect(rows.map((row) => row.status)).toEqual(['active']);
    expect(await chargesOf(rows[0]!.id)).toMatchObject([{ status: 'completed' }]);
    expect(await h.credits('galya')).toEqual([200]);
    expect(await h.balance('galya')).toBe(balance + 200);
    await h.balanced('galya');
  });

  it('the same reference twice, at once and again: the same subscription, one charge', async () => {
    const { mandateId } = await authorised('hugo');
    const before = charges();
    const slow = proxy.hold('POST', '/v3/payments');
    const first = subscribe('hugo', mandateId, 'hugo-sub');
    await slow.arrived;
    const second = subscribe('hugo', mandateId, 'hugo-sub');
    await settledWithin(second, 500);
    slow.release();
    const answers = await Promise.all([first, second]);
    answers.push(await subscribe('hugo', mandateId, 'hugo-sub'));
    for (const answer of answers) expect(answer.statusCode, answer.body).toBe(200);
    expect(new Set(answers.map((answer) => answer.json().data.id)).size).toBe(1);
    expect(charges()).toBe(before + 1);
    expect((await h.rowsOf('hugo')).map((row) => row.status)).toEqual(['active']);
    expect(await h.credits('hugo')).toEqual([200]);
    await h.balanced('hugo');
  });

  it('a charge whose answer was lost is re-sent under its key within 23 hours of its creation, and settles once', async () => {
    const { sub, charge } = await lostCharge('ilya');
    const before = charges();
    await t.app.billing.subscriptions.reconcile(new Date(charge.createdAt.getTime() + 23 * HOUR - 60_000));
    expect(charges()).toBe(before + 1);
    const made = [...yoo.autopayments.values()].filter((payment) => payment.metadata.charge_id === charge.id);
    expect(made).toMatchObject([{ status: 'succeeded', amount: { value: (charge.amountMinor / 100).toFixed(2), currency: 'RUB' } }]);
    expect(await chargesOf(sub.id)).toMatchObject([{ status: 'completed', providerPaymentId: made[0]!.id }]);
    expect((await h.rowsOf('ilya'))[0]).toMatchObject({ status: 'active' });
    // Its notification, late and twice, changes nothing more.
    for (let i = 0; i < 2; i += 1) {
      const { body, headers } = yoo.notification('payment.succeeded', yoo.lastNotification(made[0]!.id)!.object);
      const answer = await t.app.inject({ method: 'POST', url: '/api/v1/payment/webhooks/yookassa', payload: body, headers });
      expect(answer.statusCode).toBe(200);
      expect(answer.json().data.changed).toBe(0);
    }
    expect(await h.credits('ilya')).toEqual([200]);
    await h.balanced('ilya');
  });

  it('after 23 hours a lost charge is never sent again: found in YooKassa’s list it settles by its state', async () => {
    const paidOne = await lostCharge('jana');
    const declinedOne = await lostCharge('kira');
    await finishAtYooKassa(paidOne.charge, paidOne.methodId);
    yoo.declineMethod(declinedOne.methodId);
    await finishAtYooKassa(declinedOne.charge, declinedOne.methodId);
    const before = charges();
    const listed = yoo.requests.length;
    for (const hours of [23, 30, 48]) await t.app.billing.subscriptions.reconcile(new Date(paidOne.charge.createdAt.getTime() + hours * HOUR + 60_000));
    expect(charges()).toBe(before);
    expect(yoo.requests.slice(listed)).toContainEqual(expect.objectContaining({ method: 'GET', path: '/v3/payments' }));
    expect(await chargesOf(paidOne.sub.id)).toMatchObject([{ status: 'completed' }]);
    expect((await h.rowsOf('jana'))[0]).toMatchObject({ status: 'active' });
    expect(await h.credits('jana')).toEqual([200]);
    expect(await chargesOf(declinedOne.sub.id)).toMatchObject([{ status: 'failed', failureReason: 'declined' }]);
    expect((await h.rowsOf('kira'))[0]).toMatchObject({ status: 'failed' });
    expect(await h.credits('kira')).toEqual([]);
    await h.balanced('jana');
    await h.balanced('kira');
  });

  it('after 23 hours a lost charge YooKassa never made is declined; three runs send nothing', async () => {
    const { sub, charge } = await lostCharge('lena');
    const before = charges();
    for (const hours of [24, 25, 26]) await t.app.billing.subscriptions.reconcile(new Date(charge.createdAt.getTime() + hours * HOUR));
    expect(charges()).toBe(before);
    expect(await chargesOf(sub.id)).toMatchObject([{ status: 'failed', failureReason: 'declined' }]);
    expect((await h.rowsOf('lena'))[0]).toMatchObject({ status: 'failed' });
    expect(await h.credits('lena')).toEqual([]);
    await h.balanced('lena');
  });

  it('a renewal still being charged is left to the node charging it: another node’s run at the same moment neither declines nor re-sends it', async () => {
    const { mandateId } = await authorised('nika');
    const answer = await subscribe('nika', mandateId, 'nika-sub');
    expect(answer.statusCode, answer.body).toBe(200);
    const [sub] = await h.rowsOf('nika');
    const end = sub!.currentPeriodEnd!;
    // Whatever else falls due before (other sellers' renewals) is renewed first, so the hold below meets this renewal.
    await t.app.billing.subscriptions.run(new Date(end.getTime() - 1));
    const before = charges();
    const at = new Date(end.getTime() + 1000);
    // YooKassa answers this renewal slowly; meanwhile another node runs the same jobs at the same moment.
    const slow = proxy.hold('POST', '/v3/payments');
    const first = t.app.billing.subscriptions.run(at);
    await slow.arrived;
    await t.app.billing.subscriptions.run(at);
    slow.release();
    await first;
    expect(charges()).toBe(before + 1);
    expect((await chargesOf(sub!.id)).map((charge) => charge.status)).toEqual(['completed', 'completed']);
    expect((await h.rowsOf('nika'))[0]).toMatchObject({ status: 'active', currentPeriodStart: end });
    expect(await h.credits('nika')).toEqual([200, 200]);
    await h.balanced('nika');
  });

  it('a new checkout while the first charge’s answer is lost asks YooKassa under that charge’s key, never taking the money twice', async () => {
    const { mandateId, sub } = await lostCharge('mila');
    const before = charges();
    // YooKassa has finished the first charge by now: asked again under its key, it answers it.
    const again = await subscribe('mila', mandateId, 'mila-sub-2');
    expect(again.statusCode, again.body).toBe(409);
    expect(again.json().error).toBe('ALREADY_SUBSCRIBED');
    expect(charges()).toBe(before + 1);
    expect((await h.rowsOf('mila')).map((row) => ({ id: row.id, status: row.status }))).toEqual([{ id: sub.id, status: 'active' }]);
    const ours = new Set((await t.app.database.db.select().from(subscriptionCharges).where(eq(subscriptionCharges.userId, h.sellers.mila!.id))).map((charge) => charge.id));
    expect([...yoo.autopayments.values()].filter((payment) => ours.has(payment.metadata.charge_id ?? ''))).toHaveLength(1);
    expect(await h.credits('mila')).toEqual([200]);
    await h.balanced('mila');
  });
});
