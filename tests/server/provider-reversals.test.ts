// Money going back after it was paid, as each provider adapter reads it from a notification:
// Stripe (its official SDK against the suite's stand-in, events signed as Stripe signs them)
// refunds and disputes of a top-up's Checkout Session and of a subscription's invoice, traced
// through Invoice Payments or an older charge's `invoice`; YooKassa refunds of a renewal charge
// and of a top-up, confirmed through its API, and notifications naming ids we never made answered
// without a request; the sandbox's refunds and disputes, signed, from its own books.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app';
import { startFakeStripe, type StripeEvent } from '../support/fakes/stripe';
import { startFakeYooKassa } from '../support/fakes/yookassa';
import { stripeProvider } from '../../server/billing/providers/stripe';
import { yookassaProvider } from '../../server/billing/providers/yookassa';
import { sandboxProvider, type Sandbox } from '../../server/billing/providers/sandbox';
import type { PaymentProvider } from '../../server/billing/provider';

type FakeStripe = Awaited<ReturnType<typeof startFakeStripe>>;
type FakeYooKassa = Awaited<ReturnType<typeof startFakeYooKassa>>;

let t: TestApp;
let stripe: FakeStripe;
let yoo: FakeYooKassa;
let card: PaymentProvider;
let sandbox: Sandbox;
/** What the sandbox sent to our webhook, in order. */
const delivered: { body: string; headers: Record<string, string> }[] = [];

beforeAll(async () => {
  stripe = await startFakeStripe();
  yoo = await startFakeYooKassa();
  t = await createTestApp({ PUBLIC_URL: 'http://127.0.0.1:8080', RUN_JOBS: 'false' });
  card = stripeProvider({ secretKey: stripe.secretKey, webhookSecret: stripe.webhookSecret, apiBase: stripe.origin });
  sandbox = sandboxProvider({
    db: t.app.database.db,
    secret: crypto.randomBytes(32),
    pagesUrl: 'http://127.0.0.1:8080/sandbox/checkout',
    deliveryDelaysMs: [0],
    deliver: async (notification) => {
      delivered.push(notification);
      return 200;
    },
  });
});
afterAll(async () => {
  sandbox?.close();
  await t?.close();
  await stripe?.close();
  await yoo?.close();
});

const read = (event: StripeEvent) => card.parseNotification(stripe.signed(event));
const only = (events: readonly StripeEvent[], type: string) => {
  const found = events.filter((event) => event.type === type);
  expect(found).toHaveLength(1);
  return found[0]!;
};

/** A top-up paid through a payment-mode Checkout Session: its session id. */
async function paidTopUp(amountMinor = 1299) {
  const paymentId = crypto.randomUUID();
  const { providerPaymentId } = await card.createCheckout({
    paymentId,
    userId: crypto.randomUUID(),
    tokens: 300,
    amountMinor,
    currency: 'USD',
    method: 'card_intl',
    description: 'SoleStudio: 300 tokens',
    successUrl: 'http://shop.test/done',
    cancelUrl: 'http://shop.test/cancel',
    locale: 'en',
  });
  stripe.pay(providerPaymentId);
  return { sessionId: providerPaymentId, paymentId };
}

/** A subscription paid through its checkout: its first invoice's id. */
async function paidInvoice(amountMinor = 2499) {
  const { providerPaymentId } = await card.subscriptions!.createSubscriptionCheckout({
    subscriptionId: crypto.randomUUID(),
    userId: crypto.randomUUID(),
    planId: 2,
    planName: 'Pro',
    interval: 'month',
    amountMinor,
    currency: 'USD',
    successUrl: 'http://shop.test/done?session_id={CHECKOUT_SESSION_ID}',
    cancelUrl: 'http://shop.test/cancel',
    locale: 'en',
  });
  stripe.completeSubscription(providerPaymentId);
  const subscriptionId = stripe.sessions.get(providerPaymentId)!.subscription!;
  return { invoiceId: stripe.subscriptions.get(subscriptionId)!.latest_invoice!, subscriptionId };
}

/** The invoice paid, read first: a refund or dispute heard before invoice.paid still reverses a credited period. */
const paidFirst = (eventId: string, invoiceId: string) => expect.objectContaining({ kind: 'period_paid', eventId: `${eventId}:paid`, invoiceId });

describe('Stripe: refunds', () => {
  it('a refunded top-up stays a refund of its Checkout Session', async () => {
    const { sessionId, paymentId } = await paidTopUp();
    const refunded = only(stripe.refund(sessionId, 500), 'charge.refunded');
    expect(await read(refunded)).toEqual([{ kind: 'refunded', eventId: refunded.id, providerPaymentId: sessionId, paymentId, refundedMinor: 500 }]);
  });

  it('a refunded subscription invoice is its period paid, then charge_refunded on the invoice, found through Invoice Payments, with the total so far', async () => {
    const { invoiceId } = await paidInvoice(2499);
    const first = only(stripe.refundInvoice(invoiceId, 1000), 'charge.refunded');
    const asked = stripe.requests.length;
    expect(await read(first)).toEqual([paidFirst(first.id, invoiceId), { kind: 'charge_refunded', eventId: first.id, providerPaymentId: invoiceId, refundedMinor: 1000 }]);
    const intent = stripe.invoicePayments.get(invoiceId)!.payment.payment_intent;
    expect(stripe.requests.slice(asked)).toContainEqual(
      expect.objectContaining({ method: 'GET', path: '/v1/invoice_payments', params: expect.objectContaining({ payment: { type: 'payment_intent', payment_intent: intent } }) }),
    );
    const rest = only(stripe.refundInvoice(invoiceId), 'charge.refunded');
    expect(await read(rest)).toEqual([paidFirst(rest.id, invoiceId), { kind: 'charge_refunded', eventId: rest.id, providerPaymentId: invoiceId, refundedMinor: 2499 }]);
  });

  it('an older API version’s charge names its invoice itself: read without asking Invoice Payments', async () => {
    const { invoiceId } = await paidInvoice();
    const refunded = only(stripe.refundInvoice(invoiceId), 'charge.refunded');
    const older = structuredClone(refunded);
    Object.assign(older.data.object, { invoice: invoiceId, payment_intent: null });
    const asked = stripe.requests.length;
    expect(await read(older)).toEqual([paidFirst(refunded.id, invoiceId), { kind: 'charge_refunded', eventId: refunded.id, providerPaymentId: invoiceId, refundedMinor: 2499 }]);
    expect(stripe.requests.slice(asked).map((request) => `${request.method} ${request.path}`)).toEqual([`GET /v1/invoices/${invoiceId}`]);
  });

  it('a refund of a charge that paid for nothing of ours reads as nothing', async () => {
    const { sessionId } = await paidTopUp();
    const stranger = structuredClone(only(stripe.refund(sessionId), 'charge.refunded'));
    stranger.data.object.payment_intent = 'pi_someoneelse';
    expect(await read(stranger)).toEqual([]);
  });
});

describe('Stripe: disputes', () => {
  it('a disputed top-up is open while the money is held, and won when it comes back, on its session', async () => {
    const { sessionId } = await paidTopUp(1299);
    const { dispute, events } = stripe.openDispute(sessionId);
    const open = { kind: 'disputed', disputeId: dispute.id, on: 'payment', providerPaymentId: sessionId, status: 'open', amountMinor: 1299, currency: 'USD' };
    expect(events.map((event) => event.type)).toEqual(['charge.dispute.created', 'charge.dispute.funds_withdrawn']);
    for (const event of events) expect(await read(event)).toEqual([{ ...open, eventId: event.id }]);
    const [reviewed] = stripe.reviewDispute(dispute.id);
    expect(await read(reviewed!)).toEqual([{ ...open, eventId: reviewed!.id }]);
    const closed = stripe.closeDispute(dispute.id, 'won');
    expect(closed.map((event) => event.type)).toEqual(['charge.dispute.closed', 'charge.dispute.funds_reinstated']);
    for (const event of closed) expect(await read(event)).toEqual([{ ...open, status: 'won', eventId: event.id }]);
  });

  it('a disputed subscription invoice is a dispute of the charge on that invoice; lost stays lost', async () => {
    const { invoiceId } = await paidInvoice(2499);
    const { dispute, events } = stripe.openDispute(invoiceId, { amountMinor: 2000 });
    const created = only(events, 'charge.dispute.created');
    expect(await read(created)).toEqual([
      paidFirst(created.id, invoiceId),
      { kind: 'disputed', eventId: created.id, disputeId: dispute.id, on: 'charge', providerPaymentId: invoiceId, status: 'open', amountMinor: 2000, currency: 'USD' },
    ]);
    const [lost] = stripe.closeDispute(dispute.id, 'lost');
    expect(await read(lost!)).toMatchObject([{ kind: 'period_paid' }, { kind: 'disputed', eventId: lost!.id, disputeId: dispute.id, on: 'charge', providerPaymentId: invoiceId, status: 'lost' }]);
  });

  it('an inquiry holds no money: neither opening nor closing it reads as a dispute', async () => {
    const { sessionId } = await paidTopUp();
    const { dispute, events } = stripe.openDispute(sessionId, { inquiry: true });
    expect(events.map((event) => event.type)).toEqual(['charge.dispute.created']);
    expect(await read(events[0]!)).toEqual([]);
    const closed = stripe.closeDispute(dispute.id, 'won');
    expect(stripe.disputes.get(dispute.id)!.status).toBe('warning_closed');
    expect(await read(closed[0]!)).toEqual([]);
  });

  it('a dispute of a charge that paid for nothing of ours reads as nothing', async () => {
    const { sessionId } = await paidTopUp();
    const stranger = structuredClone(only(stripe.openDispute(sessionId).events, 'charge.dispute.created'));
    stranger.data.object.payment_intent = 'pi_someoneelse';
    expect(await read(stranger)).toEqual([]);
  });
});

describe('YooKassa: refunds, and notifications about ids we never made', () => {
  const known = new Set<string>();
  const asked: string[] = [];
  let local: PaymentProvider;
  beforeAll(() => {
    local = yookassaProvider({
      shopId: yoo.shopId,
      secretKey: yoo.secretKey,
      apiUrl: yoo.apiUrl,
      retryDelayMs: () => 1,
      knows: async (id) => {
        asked.push(id);
        return known.has(id);
      },
    });
  });
  const deliver = (notified: { event: string; object: object } | undefined) => {
    if (!notified) throw new Error('YooKassa made no such notification');
    return local.parseNotification(yoo.notification(notified.event, notified.object));
  };

  /** A renewal charged by a saved method: its YooKassa payment id. */
  async function renewalCharge(amountMinor: number) {
    const mandate = await local.mandates!.createMandate({
      mandateId: crypto.randomUUID(),
      userId: crypto.randomUUID(),
      method: 'card_ru',
      holdMinor: 0,
      currency: 'RUB',
      description: 'SoleStudio: Pro',
      returnUrl: 'http://shop.test/back',
      cancelUrl: 'http://shop.test/back',
      locale: 'ru',
    });
    yoo.succeed(mandate.providerPaymentId);
    const { providerMethodId } = await local.mandates!.retrieveMandate(mandate.providerPaymentId);
    const charged = await local.mandates!.charge({ chargeId: crypto.randomUUID(), providerMethodId: providerMethodId!, amountMinor, currency: 'RUB', description: 'SoleStudio: Pro' });
    known.add(mandate.providerPaymentId).add(charged.providerPaymentId);
    return charged.providerPaymentId;
  }

  it('a refunded renewal charge is charge_refunded on that payment, with the total refunded so far', async () => {
    const payment = await renewalCharge(237_400);
    const partial = yoo.refund(payment, 100_000);
    expect(await deliver(partial)).toEqual([{ kind: 'charge_refunded', eventId: `refund.succeeded:${(partial.object as { id: string }).id}`, providerPaymentId: payment, refundedMinor: 100_000 }]);
    const rest = yoo.refund(payment);
    expect(await deliver(rest)).toEqual([{ kind: 'charge_refunded', eventId: `refund.succeeded:${(rest.object as { id: string }).id}`, providerPaymentId: payment, refundedMinor: 237_400 }]);
    expect(asked.at(-1)).toBe(payment);
  });

  it('a refunded top-up stays a refund of its payment', async () => {
    const paymentId = crypto.randomUUID();
    const { providerPaymentId } = await local.createCheckout({
      paymentId,
      userId: crypto.randomUUID(),
      tokens: 300,
      amountMinor: 123_400,
      currency: 'RUB',
      method: 'sberpay_ru',
      description: 'SoleStudio: 300 tokens',
      successUrl: 'http://shop.test/back',
      cancelUrl: 'http://shop.test/back',
      locale: 'ru',
    });
    known.add(providerPaymentId);
    yoo.succeed(providerPaymentId);
    const refund = yoo.refund(providerPaymentId, 23_400);
    expect(await deliver(refund)).toEqual([
      { kind: 'refunded', eventId: `refund.succeeded:${(refund.object as { id: string }).id}`, providerPaymentId, paymentId, refundedMinor: 23_400 },
    ]);
  });

  it('a payment or refund naming an id we never made is answered without asking YooKassa', async () => {
    const before = yoo.requests.length;
    const stranger = '2f00a1b3-000f-5000-8000-1a2b3c4d5e6f';
    expect(await deliver({ event: 'payment.succeeded', object: { id: stranger, status: 'succeeded' } })).toEqual([]);
    expect(asked.at(-1)).toBe(stranger);
    expect(await deliver({ event: 'refund.succeeded', object: { id: '2f00a1b4-0015-5000-9000-aaaaaaaaaaaa', payment_id: stranger, status: 'succeeded' } })).toEqual([]);
    expect(asked.at(-1)).toBe(stranger);
    // A refund that names no payment at all is no refund of ours either.
    expect(await deliver({ event: 'refund.succeeded', object: { id: '2f00a1b4-0015-5000-9000-bbbbbbbbbbbb' } })).toEqual([]);
    expect(yoo.requests.length).toBe(before);
    // An id we made is read back from the API, as every notification was before.
    const payment = await renewalCharge(100_000);
    const mark = yoo.requests.length;
    expect(await deliver(yoo.lastNotification(payment))).toMatchObject([{ kind: 'charge', charge: { providerPaymentId: payment } }]);
    expect(yoo.requests.slice(mark)).toContainEqual({ method: 'GET', path: `/v3/payments/${payment}`, query: {} });
  });
});

describe('the sandbox: refunds and disputes an operator makes', () => {
  const notifications = async (mark: number) => {
    await sandbox.idle();
    return Promise.all(delivered.slice(mark).map((made) => sandbox.parseNotification({ body: Buffer.from(made.body), headers: made.headers })));
  };

  /** A mandate the seller authorised on the sandbox's page: its checkout id. */
  async function authorisedMandate() {
    const mandate = await sandbox.mandates.createMandate({
      mandateId: crypto.randomUUID(),
      userId: crypto.randomUUID(),
      method: 'card_ru',
      holdMinor: 0,
      currency: 'RUB',
      description: 'SoleStudio: Pro',
      returnUrl: 'http://shop.test/back',
      cancelUrl: 'http://shop.test/back',
      locale: 'ru',
    });
    await sandbox.pay(mandate.providerPaymentId);
    return mandate.providerPaymentId;
  }

  /** A renewal charged by a saved method in the sandbox: its checkout id. */
  async function sandboxCharge(amountMinor: number) {
    const { providerMethodId } = await sandbox.mandates.retrieveMandate(await authorisedMandate());
    const charged = await sandbox.mandates.charge({ chargeId: crypto.randomUUID(), providerMethodId: providerMethodId!, amountMinor, currency: 'RUB', description: 'SoleStudio: Pro' });
    return charged.providerPaymentId;
  }

  async function sandboxTopUp(amountMinor: number) {
    const paymentId = crypto.randomUUID();
    const { providerPaymentId } = await sandbox.createCheckout({
      paymentId,
      userId: crypto.randomUUID(),
      tokens: 300,
      amountMinor,
      currency: 'USD',
      method: 'card_intl',
      description: 'SoleStudio: 300 tokens',
      successUrl: 'http://shop.test/back',
      cancelUrl: 'http://shop.test/back',
      locale: 'en',
    });
    await sandbox.pay(providerPaymentId);
    return { checkoutId: providerPaymentId, paymentId };
  }

  it('a refunded renewal charge is charge_refunded; a refunded top-up stays a refund', async () => {
    const charge = await sandboxCharge(237_400);
    const { checkoutId, paymentId } = await sandboxTopUp(1299);
    await sandbox.idle();
    const mark = delivered.length;
    await sandbox.refund(charge, 37_400);
    await sandbox.refund(checkoutId);
    const [chargeRefund, topUpRefund] = await notifications(mark);
    expect(chargeRefund).toEqual([{ kind: 'charge_refunded', eventId: expect.stringMatching(/^evt_sbx_/), providerPaymentId: charge, refundedMinor: 37_400 }]);
    expect(topUpRefund).toEqual([{ kind: 'refunded', eventId: expect.stringMatching(/^evt_sbx_/), providerPaymentId: checkoutId, paymentId, refundedMinor: 1299 }]);
  });

  it('a dispute of a top-up or of a renewal charge, for what is not refunded, opened and decided', async () => {
    const { checkoutId } = await sandboxTopUp(1299);
    const charge = await sandboxCharge(237_400);
    await sandbox.refund(charge, 37_400);
    await sandbox.idle();
    const mark = delivered.length;
    const onTopUp = await sandbox.dispute(checkoutId, 'open');
    await sandbox.dispute(checkoutId, 'won');
    const onCharge = await sandbox.dispute(charge, 'lost');
    expect(onTopUp).toEqual({ disputeId: `dp_${checkoutId}`, amountMinor: 1299 });
    expect(onCharge).toEqual({ disputeId: `dp_${charge}`, amountMinor: 200_000 });
    const topUp = { kind: 'disputed', eventId: expect.stringMatching(/^evt_sbx_/), disputeId: `dp_${checkoutId}`, on: 'payment', providerPaymentId: checkoutId, amountMinor: 1299, currency: 'USD' };
    expect(await notifications(mark)).toEqual([
      [{ ...topUp, status: 'open' }],
      [{ ...topUp, status: 'won' }],
      [{ kind: 'disputed', eventId: expect.stringMatching(/^evt_sbx_/), disputeId: `dp_${charge}`, on: 'charge', providerPaymentId: charge, status: 'lost', amountMinor: 200_000, currency: 'RUB' }],
    ]);
  });

  it('nothing to dispute where no money was taken: an unpaid checkout, a mandate, a payment refunded in full', async () => {
    const unpaid = await sandbox.createCheckout({
      paymentId: crypto.randomUUID(),
      userId: crypto.randomUUID(),
      tokens: 100,
      amountMinor: 499,
      currency: 'USD',
      method: 'card_intl',
      description: 'SoleStudio: 100 tokens',
      successUrl: 'http://shop.test/back',
      cancelUrl: 'http://shop.test/back',
      locale: 'en',
    });
    expect(await sandbox.dispute(unpaid.providerPaymentId, 'open')).toBeUndefined();
    const { checkoutId } = await sandboxTopUp(499);
    await sandbox.refund(checkoutId);
    expect(await sandbox.dispute(checkoutId, 'open')).toBeUndefined();
    expect(await sandbox.dispute(await authorisedMandate(), 'open')).toBeUndefined();
    expect(await sandbox.dispute('sbx_nosuchcheckout', 'open')).toBeUndefined();
  });
});
