// Closing what a newer checkout replaces, giving a period back, and finding a charge whose answer
// was lost — through each real adapter against the suite's stand-ins (Stripe's official SDK, our
// YooKassa client) and the sandbox's own books: what each asks the provider, and what it answers
// when the seller paid, left or was never asked.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app';
import { startFakeStripe } from '../support/fakes/stripe';
import { startFakeYooKassa } from '../support/fakes/yookassa';
import { stripeProvider } from '../../server/billing/providers/stripe';
import { yookassaProvider } from '../../server/billing/providers/yookassa';
import { sandboxProvider, type Sandbox } from '../../server/billing/providers/sandbox';
import { ProviderRefused, type MandateBilling, type MandateRequest, type PaymentProvider, type SubscriptionBilling } from '../../server/billing/provider';

let t: TestApp;
let stripe: Awaited<ReturnType<typeof startFakeStripe>>;
let yoo: Awaited<ReturnType<typeof startFakeYooKassa>>;
let card: SubscriptionBilling;
let local: PaymentProvider & { mandates: MandateBilling };
let sandbox: Sandbox;
const HOUR = 60 * 60_000;

beforeAll(async () => {
  stripe = await startFakeStripe();
  yoo = await startFakeYooKassa();
  t = await createTestApp({ PUBLIC_URL: 'http://127.0.0.1:8080', RUN_JOBS: 'false' });
  card = stripeProvider({ secretKey: stripe.secretKey, webhookSecret: stripe.webhookSecret, apiBase: stripe.origin }).subscriptions!;
  local = yookassaProvider({ shopId: yoo.shopId, secretKey: yoo.secretKey, apiUrl: yoo.apiUrl, retryDelayMs: () => 1 }) as PaymentProvider & { mandates: MandateBilling };
  sandbox = sandboxProvider({ db: t.app.database.db, secret: crypto.randomBytes(32), pagesUrl: 'http://127.0.0.1:8080/sandbox/checkout', deliveryDelaysMs: [0], deliver: async () => 200 });
});
afterAll(async () => {
  sandbox?.close();
  await t?.close();
  await stripe?.close();
  await yoo?.close();
});

async function subscriptionCheckout() {
  const { providerPaymentId } = await card.createSubscriptionCheckout({
    subscriptionId: crypto.randomUUID(),
    userId: crypto.randomUUID(),
    planId: 2,
    planName: 'Pro',
    interval: 'month',
    amountMinor: 2499,
    currency: 'USD',
    successUrl: 'http://shop.test/done?session_id={CHECKOUT_SESSION_ID}',
    cancelUrl: 'http://shop.test/cancel',
    locale: 'en',
  });
  return providerPaymentId;
}

async function paidSubscription() {
  const sessionId = await subscriptionCheckout();
  stripe.completeSubscription(sessionId);
  const subscriptionId = stripe.sessions.get(sessionId)!.subscription!;
  return { sessionId, subscriptionId, invoiceId: stripe.subscriptions.get(subscriptionId)!.latest_invoice! };
}

describe('Stripe: closing a subscription checkout', () => {
  it('expires an open session, which can then no longer be paid', async () => {
    const sessionId = await subscriptionCheckout();
    expect(await card.closeCheckout(sessionId)).toBe('expired');
    expect(stripe.requests.at(-1)).toMatchObject({ method: 'POST', path: `/v1/checkout/sessions/${sessionId}/expire` });
    expect(stripe.sessions.get(sessionId)).toMatchObject({ status: 'expired', url: null });
    expect(stripe.events.at(-1)).toMatchObject({ type: 'checkout.session.expired', data: { object: { id: sessionId } } });
    expect(() => stripe.completeSubscription(sessionId)).toThrow();
  });

  it('answers complete for a session paid before it could be closed, and expired for one that ran out', async () => {
    const { sessionId } = await paidSubscription();
    expect(await card.closeCheckout(sessionId)).toBe('complete');
    const expire = stripe.requests.filter((request) => request.path === `/v1/checkout/sessions/${sessionId}/expire`);
    expect(expire).toHaveLength(1);
    expect(stripe.requests.at(-1)).toMatchObject({ method: 'GET', path: `/v1/checkout/sessions/${sessionId}` });
    const ranOut = await subscriptionCheckout();
    stripe.expire(ranOut);
    expect(await card.closeCheckout(ranOut)).toBe('expired');
  });

  it('refuses a session Stripe does not have', async () => {
    await expect(card.closeCheckout('cs_test_nosuchsession')).rejects.toMatchObject({ name: 'ProviderRefused', code: 'resource_missing' });
  });
});

describe('Stripe: giving a period back', () => {
  it('refunds the invoice’s payment in full under a key of the invoice, then ends the subscription at once; a repeat changes nothing', async () => {
    const { subscriptionId, invoiceId } = await paidSubscription();
    const intent = stripe.invoicePayments.get(invoiceId)!.payment.payment_intent;
    const mark = stripe.requests.length;
    await card.refundPeriod(subscriptionId, invoiceId);
    const asked = stripe.requests.slice(mark);
    expect(asked.map((request) => `${request.method} ${request.path}`)).toEqual(['GET /v1/invoice_payments', 'POST /v1/refunds', `DELETE /v1/subscriptions/${subscriptionId}`]);
    expect(asked[0]!.params).toMatchObject({ invoice: invoiceId, status: 'paid' });
    expect(asked[1]).toMatchObject({ params: { payment_intent: intent, metadata: { invoice_id: invoiceId } }, idempotencyKey: `refund-period:${invoiceId}` });
    expect(asked[1]!.params).not.toHaveProperty('amount');
    const charge = [...stripe.charges.values()].find((made) => made.payment_intent === intent)!;
    expect(charge).toMatchObject({ amount: 2499, amount_refunded: 2499, refunded: true });
    expect(stripe.subscriptions.get(subscriptionId)).toMatchObject({ status: 'canceled' });
    expect(stripe.events.map((event) => event.type)).toEqual(expect.arrayContaining(['charge.refunded', 'customer.subscription.deleted']));

    // Asked again (a retry after a lost answer, another node): the refund replays, the ended subscription is fine.
    await card.refundPeriod(subscriptionId, invoiceId);
    expect([...stripe.refunds.values()].filter((refund) => refund.payment_intent === intent)).toHaveLength(1);
    expect(charge.amount_refunded).toBe(2499);
  });

  it('ends the subscription even when the money already went back (refunded from the dashboard, or charged back)', async () => {
    const refunded = await paidSubscription();
    stripe.refundInvoice(refunded.invoiceId, 499);
    stripe.refundInvoice(refunded.invoiceId);
    await card.refundPeriod(refunded.subscriptionId, refunded.invoiceId);
    expect(stripe.subscriptions.get(refunded.subscriptionId)!.status).toBe('canceled');

    const disputed = await paidSubscription();
    stripe.openDispute(disputed.invoiceId);
    await card.refundPeriod(disputed.subscriptionId, disputed.invoiceId);
    expect(stripe.subscriptions.get(disputed.subscriptionId)!.status).toBe('canceled');
  });

  it('a subscription Stripe has no record of is refused', async () => {
    const { invoiceId } = await paidSubscription();
    await expect(card.refundPeriod('sub_nosuchsubscription', invoiceId)).rejects.toBeInstanceOf(ProviderRefused);
  });
});

const mandateRequest = (): MandateRequest => ({
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

describe('YooKassa: closing a mandate and finding a lost charge', () => {
  it('a mandate the seller has not confirmed cannot be cancelled by the shop: answered pending, with no cancel asked', async () => {
    const { providerPaymentId } = await local.mandates.createMandate(mandateRequest());
    const mark = yoo.requests.length;
    expect(await local.mandates.closeMandate(providerPaymentId)).toMatchObject({ providerMandateId: providerPaymentId, status: 'pending' });
    expect(yoo.requests.slice(mark)).toEqual([{ method: 'GET', path: `/v3/payments/${providerPaymentId}`, query: {} }]);
  });

  it('an authorised mandate is released and answered active; one the seller cancelled is failed', async () => {
    const authorised = await local.mandates.createMandate(mandateRequest());
    yoo.succeed(authorised.providerPaymentId);
    const mark = yoo.requests.length;
    expect(await local.mandates.closeMandate(authorised.providerPaymentId)).toMatchObject({ status: 'active', providerMethodId: authorised.providerPaymentId });
    expect(yoo.requests.slice(mark).map((request) => `${request.method} ${request.path}`)).toContain(`POST /v3/payments/${authorised.providerPaymentId}/cancel`);
    expect(yoo.payments.get(authorised.providerPaymentId)!.status).toBe('canceled');

    const left = await local.mandates.createMandate(mandateRequest());
    yoo.cancel(left.providerPaymentId, 'canceled_by_user');
    expect(await local.mandates.closeMandate(left.providerPaymentId)).toMatchObject({ status: 'failed', reason: 'canceled' });
  });

  it('finds a charge by our id among the payments made around the request, page after page; null when it was never made', async () => {
    const mandate = await local.mandates.createMandate(mandateRequest());
    yoo.succeed(mandate.providerPaymentId);
    const { providerMethodId } = await local.mandates.retrieveMandate(mandate.providerPaymentId);
    const charge = (chargeId: string) => local.mandates.charge({ chargeId, providerMethodId: providerMethodId!, amountMinor: 237_400, currency: 'RUB', description: 'SoleStudio: Pro' });
    const requestedAt = new Date();
    const lost = crypto.randomUUID();
    const made = await charge(lost);
    // More than a page of payments made after it, newest first: the lost one is on the second page.
    for (let index = 0; index < 120; index += 1) await charge(crypto.randomUUID());

    const mark = yoo.requests.length;
    expect(await local.mandates.findCharge(lost, requestedAt)).toEqual({ providerPaymentId: made.providerPaymentId, chargeId: lost, state: { status: 'succeeded', amountMinor: 237_400, currency: 'RUB' }, revoked: false });
    const lists = yoo.requests.slice(mark);
    expect(lists).toHaveLength(2);
    expect(lists[0]).toEqual({
      method: 'GET',
      path: '/v3/payments',
      query: { 'created_at.gte': new Date(requestedAt.getTime() - 10 * 60_000).toISOString(), 'created_at.lte': new Date(requestedAt.getTime() + 25 * HOUR).toISOString(), limit: '100' },
    });
    expect(lists[1]!.query).toMatchObject({ ...lists[0]!.query, cursor: expect.any(String) });

    expect(await local.mandates.findCharge(crypto.randomUUID(), requestedAt)).toBeNull();
    // Made more than 25 hours after the request asked about: not the lost charge's payment.
    const late = crypto.randomUUID();
    const lateCharge = await charge(late);
    yoo.setCreatedAt(lateCharge.providerPaymentId, new Date(requestedAt.getTime() + 26 * HOUR));
    expect(await local.mandates.findCharge(late, requestedAt)).toBeNull();
    expect(await local.mandates.findCharge(late, new Date(requestedAt.getTime() + 26 * HOUR))).toMatchObject({ providerPaymentId: lateCharge.providerPaymentId });
  });
});

describe('the sandbox: closing a mandate and finding a charge', () => {
  it('cancels a mandate’s checkout still open, as the seller leaving its page would; an authorised one stays active', async () => {
    const open = await sandbox.mandates.createMandate(mandateRequest());
    expect(await sandbox.mandates.closeMandate(open.providerPaymentId)).toMatchObject({ providerMandateId: open.providerPaymentId, status: 'failed', reason: 'canceled' });
    expect(await sandbox.find(open.providerPaymentId)).toMatchObject({ status: 'canceled', reason: 'canceled' });
    // The page can no longer authorise it.
    expect((await sandbox.pay(open.providerPaymentId))!.status).toBe('canceled');

    const authorised = await sandbox.mandates.createMandate(mandateRequest());
    await sandbox.pay(authorised.providerPaymentId);
    expect(await sandbox.mandates.closeMandate(authorised.providerPaymentId)).toMatchObject({ status: 'active', providerMethodId: expect.stringMatching(/^pm_sbx_/) });
    await expect(sandbox.mandates.closeMandate('sbx_nosuchmandate')).rejects.toBeInstanceOf(ProviderRefused);
  });

  it('finds a charge by our id in its books; null for one it never made', async () => {
    const mandate = await sandbox.mandates.createMandate(mandateRequest());
    await sandbox.pay(mandate.providerPaymentId);
    const { providerMethodId } = await sandbox.mandates.retrieveMandate(mandate.providerPaymentId);
    const chargeId = crypto.randomUUID();
    const made = await sandbox.mandates.charge({ chargeId, providerMethodId: providerMethodId!, amountMinor: 237_400, currency: 'RUB', description: 'SoleStudio: Pro' });
    expect(await sandbox.mandates.findCharge(chargeId, new Date())).toEqual(made);
    expect(await sandbox.mandates.findCharge(crypto.randomUUID(), new Date())).toBeNull();
    // A mandate's own id is not a charge.
    expect(await sandbox.mandates.findCharge((await sandbox.find(mandate.providerPaymentId))!.paymentId, new Date())).toBeNull();
  });
});
