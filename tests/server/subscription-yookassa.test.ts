// Subscriptions through the local provider's real adapter (YooKassa API v3, autopayments) against
// the suite's YooKassa stand-in, end to end through our API: a mandate authorised with a hold that
// is released at once, a subscription charged by the saved method, renewals by the job (once,
// however many run at once), a declined renewal that recovers, a withdrawn method that ends the
// subscription, a renewal YooKassa refuses outright (declined at once), a mandate withdrawn before
// it was first read (failed), forged and replayed notifications, an upgrade, and another seller's ids — the
// balance equal to the ledger's sum after each step. Time moves through the jobs' `at`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../support/test-app';
import { signIn, signedInSeller } from '../support/sellers';
import { stopClockAt } from '../support/clock';
import { customerOf } from '../support/customers';
import { expectBalanced as expectBalancedWallet } from '../support/wallet';
import { startFakeYooKassa, type YooKassaAutopayment, type YooKassaPayment } from '../support/fakes/yookassa';
import { mandates, subscriptionCharges, subscriptions } from '../../server/db/schema';
import { ProviderRefused } from '../../server/billing/provider';
import { yookassaProvider } from '../../server/billing/providers/yookassa';

type FakeYooKassa = Awaited<ReturnType<typeof startFakeYooKassa>>;
type Notified = NonNullable<ReturnType<FakeYooKassa['lastNotification']>>;

let t: TestApp;
let yoo: FakeYooKassa;
const sellers: Record<string, { token: string; id: string }> = {};
const DAY = 24 * 60 * 60_000;

beforeAll(async () => {
  yoo = await startFakeYooKassa();
  t = await createTestApp({
    PUBLIC_URL: 'http://shop.test',
    // The jobs run only when a test runs them, at the time it names.
    RUN_JOBS: 'false',
    YOOKASSA_SHOP_ID: yoo.shopId,
    YOOKASSA_SECRET_KEY: yoo.secretKey,
    YOOKASSA_API_URL: yoo.apiUrl,
  });
  for (const name of ['alina', 'boris', 'clara', 'denis', 'elena', 'fedor', 'galina', 'hanna', 'ivan', 'jana']) sellers[name] = await signedInSeller(t, name);
});
afterAll(async () => {
  await t?.close();
  await yoo?.close();
});

const auth = (name: string) => ({ authorization: `Bearer ${sellers[name]!.token}` });
const api = (name: string, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: auth(name), ...(payload ? { payload } : {}) });

async function balance(name: string): Promise<number> {
  return (await api(name, 'GET', '/api/v1/tokens/balance')).json().data.total_tokens;
}

const expectBalanced = (name: string) => expectBalancedWallet(t, sellers[name]!);

/** A new session at the clock's time, for a seller whose first one a moved clock left behind. */
async function signInNow(name: string) {
  sellers[name]!.token = await signIn(t, name);
}

/** Posts a notification to our webhook as YooKassa would: the JSON body, unsigned. */
async function deliver(notified: Notified | undefined) {
  if (!notified) throw new Error('YooKassa made no such notification');
  const { body, headers } = yoo.notification(notified.event, notified.object);
  return t.app.inject({ method: 'POST', url: '/api/v1/payment/webhooks/yookassa', payload: body, headers });
}
const changedBy = async (notified: Notified | undefined) => {
  const answer = await deliver(notified);
  expect(answer.statusCode, answer.body).toBe(200);
  return answer.json().data.changed as number;
};

const mandateRow = async (id: string) => (await t.app.database.db.select().from(mandates).where(eq(mandates.id, id)))[0]!;
const subscriptionRow = async (id: string) => (await t.app.database.db.select().from(subscriptions).where(eq(subscriptions.id, id)))[0]!;
const chargesOf = (id: string) => t.app.database.db.select().from(subscriptionCharges).where(eq(subscriptionCharges.subscriptionId, id));
/** The autopayments YooKassa holds for a subscription's charges. */
async function remoteChargesOf(subscriptionId: string): Promise<YooKassaAutopayment[]> {
  const ours = new Set((await chargesOf(subscriptionId)).map((charge) => charge.id));
  return [...yoo.autopayments.values()].filter((payment) => payment.metadata.kind === 'charge' && ours.has(payment.metadata.charge_id ?? ''));
}
const mandateView = async (name: string, id: string) => {
  const listed = (await api(name, 'GET', `/api/v1/localpay/mandates?mandate_id=${id}`)).json().data as { id: string; status: string }[];
  return listed[0];
};

/** The seller's action on YooKassa's page for a payment: `pay` or `decline`. Answers where they are sent back. */
async function onPage(payment: YooKassaPayment, action: 'pay' | 'decline') {
  const answer = await fetch(`${yoo.origin}/checkout/payments/v2/contract?orderId=${payment.id}&action=${action}`, { method: 'POST', redirect: 'manual' });
  expect(answer.status).toBe(303);
  return answer.headers.get('location');
}

/** Customer, then a mandate: pending at first, with its verification payment on YooKassa. */
async function startMandate(name: string) {
  const customer = customerOf(`${name}-shop`, name);
  expect((await api(name, 'POST', '/api/v1/localpay/customers', customer)).statusCode).toBe(200);
  const created = await api(name, 'POST', '/api/v1/localpay/mandates', { reference: `${name}-card-${crypto.randomUUID()}`, payment_method: 'card_ru', terminal_type: 'web' });
  expect(created.statusCode, created.body).toBe(200);
  const mandate = created.json().data as { id: string; status: string; redirect_url: string };
  expect(mandate.status).toBe('pending');
  const row = await mandateRow(mandate.id);
  const payment = yoo.payments.get(row.providerMandateId!)!;
  expect(mandate.redirect_url).toBe(payment.confirmation!.confirmation_url);
  expect(mandate.redirect_url.startsWith(yoo.origin)).toBe(true);
  return { mandateId: mandate.id, payment };
}

/** The seller authorises on YooKassa's page; its notification arrives; the hold is released and the mandate is active. */
async function authorise(name: string) {
  const { mandateId, payment } = await startMandate(name);
  expect(await onPage(payment, 'pay')).toBe(`http://shop.test/subscription/result?mandate_id=${mandateId}`);
  expect(payment.status).toBe('waiting_for_capture');
  expect(await changedBy(yoo.lastNotification(payment.id))).toBe(1);
  expect((await mandateView(name, mandateId))?.status).toBe('active');
  // Released, never captured: the seller paid nothing for authorising, and the method stays saved.
  expect(payment).toMatchObject({ status: 'canceled', paid: false, cancellation_details: { party: 'merchant', reason: 'canceled_by_merchant' }, payment_method: { saved: true } });
  expect(payment.captured_at).toBeUndefined();
  expect((await mandateRow(mandateId)).providerMethodId).toBe(payment.payment_method.id);
  return { mandateId, methodId: payment.payment_method.id, payment };
}

async function subscribe(name: string, planId = 1) {
  const authorised = await authorise(name);
  const answer = await api(name, 'POST', '/api/v1/localpay/subscriptions', { plan_id: planId, mandate_id: authorised.mandateId, reference: `${name}-sub-${crypto.randomUUID()}` });
  expect(answer.statusCode, answer.body).toBe(200);
  return { ...authorised, subscription: answer.json().data as { id: string; status: string; current_period_end: string; plan: { id: number; tokens: number } } };
}

describe('mandates through YooKassa autopayments', () => {
  it('authorises with a verification hold that is released, and is trusted only as the API reads it', async () => {
    const before = await balance('alina');
    const { mandateId, payment } = await startMandate('alina');
    // A payment that saves the method, for a small hold never captured (one rouble), tagged as ours.
    expect(payment).toMatchObject({ status: 'pending', amount: { value: '1.00', currency: 'RUB' }, payment_method: { type: 'bank_card', saved: false } });
    expect(payment.metadata).toEqual({ mandate_id: mandateId, user_id: sellers.alina!.id, kind: 'mandate' });
    expect((await mandateView('alina', mandateId))?.status).toBe('pending');

    // A body claiming the seller authorised, while the API says pending, changes nothing.
    const forged = yoo.notification('payment.waiting_for_capture', { ...payment, status: 'waiting_for_capture', paid: true, payment_method: { ...payment.payment_method, saved: true } });
    const answer = await t.app.inject({ method: 'POST', url: '/api/v1/payment/webhooks/yookassa', payload: forged.body, headers: forged.headers });
    expect(answer.json().data.changed).toBe(0);
    expect((await mandateRow(mandateId)).status).toBe('pending');
    // One naming a payment we never made changes nothing and costs no request to YooKassa.
    const unknown = yoo.notification('payment.succeeded', { id: '2f0e4c1a-000f-5000-8000-1a2b3c4d5e6f', status: 'succeeded', metadata: { kind: 'mandate', mandate_id: mandateId } });
    const asked = yoo.requests.length;
    const ignored = await t.app.inject({ method: 'POST', url: '/api/v1/payment/webhooks/yookassa', payload: unknown.body, headers: unknown.headers });
    expect(ignored.statusCode).toBe(200);
    expect(ignored.json().data.changed).toBe(0);
    expect(yoo.requests.length).toBe(asked);
    expect((await mandateRow(mandateId)).status).toBe('pending');

    await onPage(payment, 'pay');
    const authorised = yoo.lastNotification(payment.id);
    expect(authorised?.event).toBe('payment.waiting_for_capture');
    expect(await changedBy(authorised)).toBe(1);
    // Replayed, and the cancellation our release caused: recorded once, nothing more changes.
    expect(await changedBy(authorised)).toBe(0);
    const released = yoo.lastNotification(payment.id);
    expect(released?.event).toBe('payment.canceled');
    expect(await changedBy(released)).toBe(0);
    expect(await mandateRow(mandateId)).toMatchObject({ status: 'active', providerMethodId: payment.id });
    expect(payment).toMatchObject({ status: 'canceled', cancellation_details: { reason: 'canceled_by_merchant' } });
    expect(payment.income_amount).toBeUndefined();
    // Authorising credits nothing (and costs the seller nothing).
    expect(await balance('alina')).toBe(before);
    await expectBalanced('alina');
  });

  it('a mandate the seller declines fails, and cannot be subscribed with', async () => {
    const { mandateId, payment } = await startMandate('boris');
    await onPage(payment, 'decline');
    expect(await changedBy(yoo.lastNotification(payment.id))).toBe(1);
    expect(await mandateRow(mandateId)).toMatchObject({ status: 'failed', failureReason: 'declined', providerMethodId: null });
    const refused = await api('boris', 'POST', '/api/v1/localpay/subscriptions', { plan_id: 1, mandate_id: mandateId, reference: 'boris-1' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toBe('MANDATE_NOT_ACTIVE');
    // Nothing can be charged with a method that was never saved.
    expect([...yoo.autopayments.values()].some((remote) => remote.payment_method.id === payment.id)).toBe(false);
  });

  it('a mandate whose notification never comes is read from the API when the seller comes back', async () => {
    const { mandateId, payment } = await startMandate('galina');
    await onPage(payment, 'pay');
    // No delivery: listing the mandate asks YooKassa, which releases the hold and reads it active.
    expect((await mandateView('galina', mandateId))?.status).toBe('active');
    expect(payment).toMatchObject({ status: 'canceled', cancellation_details: { reason: 'canceled_by_merchant' }, payment_method: { saved: true } });
  });
});

describe('subscriptions charged by the saved method', () => {
  it('subscribes: active with the plan’s tokens once, charged once by the saved method', async () => {
    const before = await balance('alina');
    const { mandateId, methodId, subscription } = await subscribe('alina', 1);
    expect(subscription).toMatchObject({ status: 'active', plan: { id: 1, tokens: 200 } });
    expect(await balance('alina')).toBe(before + 200);
    const [charge] = await chargesOf(subscription.id);
    const [remote] = await remoteChargesOf(subscription.id);
    expect(remote).toMatchObject({
      id: charge!.providerPaymentId,
      status: 'succeeded',
      // Starter's $9.99 at 95 ₽ to the dollar, in whole roubles.
      amount: { value: '949.00', currency: 'RUB' },
      payment_method: { id: methodId, saved: true },
      metadata: { charge_id: charge!.id, kind: 'charge' },
    });
    expect(remote).not.toHaveProperty('confirmation');
    // The same request again answers the same subscription; the charge's notification, twice, adds nothing.
    const again = await api('alina', 'POST', '/api/v1/localpay/subscriptions', { plan_id: 1, mandate_id: mandateId, reference: 'alina-other' });
    expect(again.json().error).toBe('ALREADY_SUBSCRIBED');
    const paid = yoo.lastNotification(remote!.id);
    expect(paid?.event).toBe('payment.succeeded');
    expect(await changedBy(paid)).toBe(0);
    expect(await changedBy(paid)).toBe(0);
    expect(await remoteChargesOf(subscription.id)).toHaveLength(1);
    expect(await balance('alina')).toBe(before + 200);
    await expectBalanced('alina');
  });

  it('renews 31 December’s month on 31 January into one ending 29 February (a leap year), charged exactly once however many jobs run at once', async () => {
    stopClockAt('2027-12-31T10:00:00.000Z');
    await signInNow('clara');
    const { subscription } = await subscribe('clara', 1);
    expect(subscription.current_period_end).toBe('2028-01-31T10:00:00.000Z');
    const spendable = await balance('clara');
    const at = stopClockAt('2028-01-31T10:01:00.000Z');
    await signInNow('clara');
    await Promise.all([t.app.billing.subscriptions.run(at), t.app.billing.subscriptions.run(at)]);
    const renewed = await subscriptionRow(subscription.id);
    expect(renewed).toMatchObject({ status: 'active', attempts: 0 });
    expect(renewed.currentPeriodStart!.toISOString()).toBe('2028-01-31T10:00:00.000Z');
    expect(renewed.currentPeriodEnd!.toISOString()).toBe('2028-02-29T10:00:00.000Z');
    expect((await api('clara', 'GET', '/api/v1/subscription/my')).json().data).toMatchObject({ status: 'active', current_period_end: '2028-02-29T10:00:00.000Z' });
    const periods = (await chargesOf(subscription.id)).map((charge) => [charge.status, charge.periodStart.toISOString(), charge.periodEnd.toISOString()]);
    expect(periods.sort()).toEqual([
      ['completed', '2027-12-31T10:00:00.000Z', '2028-01-31T10:00:00.000Z'],
      ['completed', '2028-01-31T10:00:00.000Z', '2028-02-29T10:00:00.000Z'],
    ]);
    const remote = await remoteChargesOf(subscription.id);
    expect(remote.map((payment) => [payment.status, payment.amount.value])).toEqual([
      ['succeeded', '949.00'],
      ['succeeded', '949.00'],
    ]);
    // Running again at the same time charges nothing more.
    await t.app.billing.subscriptions.run(at);
    expect(await remoteChargesOf(subscription.id)).toHaveLength(2);
    // The old period's 200 lapsed and the new period's 200 came: the same balance, lapsing at the new end.
    expect(await balance('clara')).toBe(spendable);
    expect((await api('clara', 'GET', '/api/v1/tokens/balance')).json().data).toMatchObject({ expires_at: '2028-02-29T10:00:00.000Z', expiring_tokens: 200 });
    await expectBalanced('clara');
  });

  it('a declined renewal goes past_due, a forged success changes nothing, and it recovers when the method pays', async () => {
    const { methodId, subscription } = await subscribe('denis', 2);
    yoo.declineMethod(methodId, 'insufficient_funds');
    const end = new Date(subscription.current_period_end);
    await t.app.billing.subscriptions.run(new Date(end.getTime() + 1000));
    // The paid period's tokens lapsed at its end and nothing new came.
    const before = await balance('denis');
    await expectBalanced('denis');
    let current = await subscriptionRow(subscription.id);
    expect(current.status).toBe('past_due');
    expect(current.renewAt!.getTime()).toBe(end.getTime() + 1000 + DAY);
    const declined = (await remoteChargesOf(subscription.id)).find((payment) => payment.status === 'canceled')!;
    expect(declined.cancellation_details).toEqual({ party: 'payment_network', reason: 'insufficient_funds' });
    // Its notification: already settled, so nothing; the mandate is still active (a decline is not a withdrawal).
    expect(await changedBy(yoo.lastNotification(declined.id))).toBe(0);
    expect((await mandateRow(current.mandateId!)).status).toBe('active');

    // A body claiming the declined charge succeeded: the API says canceled, so nothing is credited.
    expect(await changedBy({ type: 'notification', event: 'payment.succeeded', object: { ...declined, status: 'succeeded', paid: true } })).toBe(0);
    expect((await subscriptionRow(subscription.id)).status).toBe('past_due');
    expect(await balance('denis')).toBe(before);
    await expectBalanced('denis');

    yoo.declineMethod(methodId, null);
    await t.app.billing.subscriptions.run(new Date(end.getTime() + DAY + 2000));
    current = await subscriptionRow(subscription.id);
    expect(current).toMatchObject({ status: 'active', attempts: 0 });
    expect(await balance('denis')).toBe(before + 600);
    // The recovered period is the one owed: it starts at the old end.
    expect(current.currentPeriodStart!.toISOString()).toBe(end.toISOString());
    const charges = await chargesOf(subscription.id);
    expect(charges.map((charge) => charge.status).sort()).toEqual(['completed', 'completed', 'failed']);
    expect((await remoteChargesOf(subscription.id)).map((payment) => payment.status).sort()).toEqual(['canceled', 'succeeded', 'succeeded']);
    await expectBalanced('denis');
  });

  it('a method the seller withdrew revokes the subscription and the mandate; nothing is charged again', async () => {
    const { mandateId, methodId, payment, subscription } = await subscribe('elena', 1);
    yoo.revokeMethod(methodId);
    const end = new Date(subscription.current_period_end);
    await t.app.billing.subscriptions.run(new Date(end.getTime() + 1000));
    expect((await subscriptionRow(subscription.id)).status).toBe('revoked');
    const refused = (await remoteChargesOf(subscription.id)).find((remote) => remote.status === 'canceled')!;
    expect(refused.cancellation_details?.reason).toBe('permission_revoked');
    // Its notification tells us the method is gone: the mandate is revoked (once, however often it comes).
    const notified = yoo.lastNotification(refused.id);
    expect(await changedBy(notified)).toBe(1);
    expect(await changedBy(notified)).toBe(0);
    expect((await mandateView('elena', mandateId))?.status).toBe('revoked');
    // The mandate's own payment now reads as withdrawn too.
    const provider = yookassaProvider({ shopId: yoo.shopId, secretKey: yoo.secretKey, apiUrl: yoo.apiUrl });
    expect(await provider.mandates!.retrieveMandate(payment.id)).toMatchObject({ status: 'revoked', mandateId });

    const charged = (await remoteChargesOf(subscription.id)).length;
    await t.app.billing.subscriptions.run(new Date(end.getTime() + 40 * DAY));
    expect(await remoteChargesOf(subscription.id)).toHaveLength(charged);
    const again = await api('elena', 'POST', '/api/v1/localpay/subscriptions', { plan_id: 1, mandate_id: mandateId, reference: 'elena-again' });
    expect(again.json().error).toBe('MANDATE_NOT_ACTIVE');
    await expectBalanced('elena');
  });

  it('upgrades through PUT: the new plan charged once, its tokens credited once', async () => {
    const { subscription } = await subscribe('fedor', 1);
    const before = await balance('fedor');
    const upgraded = await api('fedor', 'PUT', `/api/v1/localpay/subscriptions/${subscription.id}`, { plan_id: 3 });
    expect(upgraded.statusCode, upgraded.body).toBe(200);
    expect(upgraded.json().data).toMatchObject({ status: 'active', plan: { id: 3 } });
    expect(await balance('fedor')).toBe(before + 2000);
    const upgrade = (await chargesOf(subscription.id)).find((charge) => charge.planId === 3)!;
    const remote = (await remoteChargesOf(subscription.id)).filter((payment) => payment.metadata.charge_id === upgrade.id);
    expect(remote).toHaveLength(1);
    // Business's $69.99 at 95 ₽ to the dollar, in whole roubles.
    expect(remote[0]).toMatchObject({ status: 'succeeded', amount: { value: '6649.00', currency: 'RUB' } });
    // Asked again: the same plan is refused and nothing more is charged.
    const repeat = await api('fedor', 'PUT', `/api/v1/localpay/subscriptions/${subscription.id}`, { plan_id: 3 });
    expect(repeat.json().error).toBe('ALREADY_SUBSCRIBED');
    expect(await remoteChargesOf(subscription.id)).toHaveLength(2);
    expect(await changedBy(yoo.lastNotification(remote[0]!.id))).toBe(0);
    expect(await balance('fedor')).toBe(before + 2000);
    await expectBalanced('fedor');
  });

  it('another seller’s mandate and subscription are not found', async () => {
    // Its own subscriber, so the test stands alone in any order.
    const { mandateId, subscription } = await subscribe('jana');
    const stolen = await api('boris', 'POST', '/api/v1/localpay/subscriptions', { plan_id: 1, mandate_id: mandateId, reference: 'steal' });
    expect(stolen.statusCode).toBe(404);
    expect(stolen.json().error).toBe('MANDATE_NOT_FOUND');
    expect((await api('boris', 'GET', `/api/v1/localpay/mandates?mandate_id=${mandateId}`)).json().data).toEqual([]);
    expect((await api('boris', 'PUT', `/api/v1/localpay/subscriptions/${subscription.id}`, { plan_id: 4 })).statusCode).toBe(404);
    expect((await api('boris', 'POST', `/api/v1/localpay/subscriptions/${subscription.id}/cancel`)).statusCode).toBe(404);
    expect((await api('jana', 'GET', '/api/v1/subscription/my')).json().data).toMatchObject({ id: subscription.id, status: 'active', plan: { id: 1 } });
  });
});

describe('the adapter’s requests, as YooKassa answers them', () => {
  it('charges once per charge id; the same key with another body is refused in YooKassa’s words', async () => {
    const { methodId } = await authorise('galina');
    const provider = yookassaProvider({ shopId: yoo.shopId, secretKey: yoo.secretKey, apiUrl: yoo.apiUrl });
    const request = { chargeId: crypto.randomUUID(), providerMethodId: methodId, amountMinor: 99_900, currency: 'RUB' as const, description: 'SoleStudio: a test' };
    const count = yoo.autopayments.size;
    const first = await provider.mandates!.charge(request);
    const second = await provider.mandates!.charge(request);
    expect(second.providerPaymentId).toBe(first.providerPaymentId);
    expect(first).toMatchObject({ chargeId: request.chargeId, state: { status: 'succeeded', amountMinor: 99_900, currency: 'RUB' }, revoked: false });
    expect(yoo.autopayments.size).toBe(count + 1);
    const other = provider.mandates!.charge({ ...request, amountMinor: 1_000 });
    await expect(other).rejects.toBeInstanceOf(ProviderRefused);
    await expect(other).rejects.toMatchObject({ code: 'invalid_request' });
    expect(yoo.autopayments.size).toBe(count + 1);
    // A method that was never saved is refused by YooKassa itself.
    await expect(provider.mandates!.charge({ ...request, chargeId: crypto.randomUUID(), providerMethodId: '2f0e4c1a-000f-5000-8000-1a2b3c4d5e6f' })).rejects.toMatchObject({
      code: 'invalid_request',
    });
    expect(await provider.mandates!.retrieveCharge(first.providerPaymentId)).toEqual(first);
  });

  it('holds what the caller asks, and the smallest verification amount when it asks for none', async () => {
    const provider = yookassaProvider({ shopId: yoo.shopId, secretKey: yoo.secretKey, apiUrl: yoo.apiUrl });
    const base = { userId: sellers.galina!.id, method: 'sberpay_ru' as const, currency: 'RUB' as const, description: 'x', returnUrl: 'http://shop.test/r', cancelUrl: 'http://shop.test/c', locale: 'ru' };
    const held = await provider.mandates!.createMandate({ ...base, mandateId: crypto.randomUUID(), holdMinor: 5_000 });
    expect(yoo.payments.get(held.providerPaymentId)).toMatchObject({ amount: { value: '50.00' }, payment_method: { type: 'sberbank' } });
    const free = await provider.mandates!.createMandate({ ...base, mandateId: crypto.randomUUID(), holdMinor: 0 });
    expect(yoo.payments.get(free.providerPaymentId)?.amount.value).toBe('1.00');
    expect(await provider.mandates!.retrieveMandate(free.providerPaymentId)).toMatchObject({ status: 'pending', providerMethodId: null });
  });
});

describe('what YooKassa refuses outright, and a mandate withdrawn before we read it', () => {
  it('a renewal YooKassa refuses itself (400) fails at once as declined: past_due, and a day later a new charge recovers it', async () => {
    const { subscription } = await subscribe('hanna', 1);
    const end = new Date(subscription.current_period_end);
    // Whatever else falls due before (other sellers' renewals) is renewed first, so the refusal
    // below meets this renewal's request and no other.
    await t.app.billing.subscriptions.run(new Date(end.getTime() - 1));
    expect((await chargesOf(subscription.id)).map((charge) => charge.status)).toEqual(['completed']);
    const before = await balance('hanna');

    // YooKassa refuses the request itself, as it does a payment_method_id it does not hold as saved.
    yoo.failNext(1, { status: 400, code: 'invalid_request', description: 'Payment method is not saved or does not exist' });
    const at = new Date(end.getTime() + 1000);
    await t.app.billing.subscriptions.run(at);
    // Not left pending to be asked again under the same key (which would only repeat the refusal): declined now.
    const current = await subscriptionRow(subscription.id);
    expect(current).toMatchObject({ status: 'past_due', attempts: 1 });
    expect(current.renewAt!.getTime()).toBe(at.getTime() + DAY);
    expect((await api('hanna', 'GET', '/api/v1/subscription/my')).json().data).toMatchObject({ id: subscription.id, status: 'past_due' });
    const renewal = (await chargesOf(subscription.id)).find((charge) => charge.periodStart.getTime() === end.getTime())!;
    expect(renewal).toMatchObject({ status: 'failed', failureReason: 'declined', providerPaymentId: null });
    // Nothing was charged at YooKassa and nothing credited (the paid period's tokens lapsed at its end).
    expect(await remoteChargesOf(subscription.id)).toHaveLength(1);
    expect(await balance('hanna')).toBe(before - 200);
    // Asking about pending charges again finds none to retry.
    await t.app.billing.subscriptions.reconcile(new Date(at.getTime() + 60 * 60_000));
    expect(await subscriptionRow(subscription.id)).toMatchObject({ status: 'past_due', attempts: 1 });
    expect(await remoteChargesOf(subscription.id)).toHaveLength(1);
    await expectBalanced('hanna');

    // The retry a day later is a new charge under a new key, and the method pays.
    await t.app.billing.subscriptions.run(new Date(at.getTime() + DAY + 1000));
    expect(await subscriptionRow(subscription.id)).toMatchObject({ status: 'active', attempts: 0 });
    expect((await chargesOf(subscription.id)).map((charge) => charge.status).sort()).toEqual(['completed', 'completed', 'failed']);
    expect((await remoteChargesOf(subscription.id)).map((payment) => payment.status)).toEqual(['succeeded', 'succeeded']);
    expect(await balance('hanna')).toBe(before);
    await expectBalanced('hanna');
  });

  it('a mandate the seller authorised and withdrew before we first read it fails at once', async () => {
    const { mandateId, payment } = await startMandate('ivan');
    await onPage(payment, 'pay');
    const authorised = yoo.lastNotification(payment.id);
    expect(authorised?.event).toBe('payment.waiting_for_capture');
    // Withdrawn in their bank before any notification reached us.
    yoo.revokeMethod(payment.payment_method.id);
    expect((await mandateRow(mandateId)).status).toBe('pending');

    // Back on our page, the first read finds it authorised but no longer saved: it never served, so it failed.
    expect((await mandateView('ivan', mandateId))?.status).toBe('failed');
    expect(await mandateRow(mandateId)).toMatchObject({ status: 'failed', failureReason: 'canceled' });
    // The hold was released all the same.
    expect(payment).toMatchObject({ status: 'canceled', paid: false, cancellation_details: { reason: 'canceled_by_merchant' }, payment_method: { saved: false } });
    // The late notification changes nothing, and the mandate cannot be subscribed with.
    expect(await changedBy(authorised)).toBe(0);
    expect((await mandateRow(mandateId)).status).toBe('failed');
    const refused = await api('ivan', 'POST', '/api/v1/localpay/subscriptions', { plan_id: 1, mandate_id: mandateId, reference: 'ivan-1' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toBe('MANDATE_NOT_ACTIVE');
    expect([...yoo.autopayments.values()].some((remote) => remote.payment_method.id === payment.payment_method.id)).toBe(false);
  });
});
