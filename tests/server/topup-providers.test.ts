// Top-ups through the real provider adapters — Stripe through its official SDK, YooKassa through
// our API v3 client — each pointed at a local server in the suite that speaks the provider's
// protocol: pending → completed and → failed, notifications repeated, forged or never sent, a
// refund, and a provider that is down, with the balance equal to the ledger's sum after each.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../support/test-app';
import { signedInSeller } from '../support/sellers';
import { expectBalanced as expectBalancedWallet } from '../support/wallet';
import { startFakeStripe } from '../support/fakes/stripe';
import { startFakeYooKassa } from '../support/fakes/yookassa';
import { payments } from '../../server/db/schema';

type Fakes = { stripe: Awaited<ReturnType<typeof startFakeStripe>>; yookassa: Awaited<ReturnType<typeof startFakeYooKassa>> };

let t: TestApp;
let fakes: Fakes;
const sellers: Record<string, { token: string; id: string }> = {};

beforeAll(async () => {
  fakes = { stripe: await startFakeStripe(), yookassa: await startFakeYooKassa() };
  t = await createTestApp({
    PUBLIC_URL: 'http://shop.test',
    RUN_JOBS: 'false',
    STRIPE_SECRET_KEY: fakes.stripe.secretKey,
    STRIPE_WEBHOOK_SECRET: fakes.stripe.webhookSecret,
    STRIPE_API_BASE: fakes.stripe.origin,
    YOOKASSA_SHOP_ID: fakes.yookassa.shopId,
    YOOKASSA_SECRET_KEY: fakes.yookassa.secretKey,
    YOOKASSA_API_URL: fakes.yookassa.apiUrl,
  });
  for (const name of ['sofia', 'timur', 'ulyana', 'vera', 'walter', 'xenia', 'zoya']) sellers[name] = await signedInSeller(t, name);
});
afterAll(async () => {
  await t?.close();
  await fakes?.stripe.close();
  await fakes?.yookassa.close();
});

const auth = (name: string) => ({ authorization: `Bearer ${sellers[name]!.token}` });

async function balance(name: string): Promise<number> {
  return (await t.app.inject({ method: 'GET', url: '/api/v1/tokens/balance', headers: auth(name) })).json().data.total_tokens;
}

const expectBalanced = (name: string) => expectBalancedWallet(t, sellers[name]!);

async function topUp(name: string, tokens: number, method: string) {
  const card = method === 'card_intl';
  return t.app.inject({
    method: 'POST',
    url: '/api/v1/tokens/topup',
    headers: auth(name),
    payload: { token_amount: tokens, currency: 'USD', pm_id: card ? '' : method, payment_provider: card ? 'card' : 'localpay' },
  });
}

async function started(name: string, tokens: number, method: string) {
  const answer = await topUp(name, tokens, method);
  expect(answer.statusCode, answer.body).toBe(200);
  const { payment_id: paymentId, redirect_url: redirectUrl } = answer.json().data as { payment_id: string; redirect_url: string };
  const [row] = await t.app.database.db.select().from(payments).where(eq(payments.id, paymentId));
  return { paymentId, redirectUrl, providerId: row!.providerPaymentId! };
}

async function paymentOf(id: string) {
  const [row] = await t.app.database.db.select().from(payments).where(eq(payments.id, id));
  return row!;
}

function notify(provider: 'stripe' | 'yookassa', notification: { body: Buffer | string; headers: Record<string, string> }) {
  return t.app.inject({ method: 'POST', url: `/api/v1/payment/webhooks/${provider}`, payload: notification.body, headers: notification.headers });
}

describe('the card provider (Stripe)', () => {
  it('pays through a Checkout Session: credited once by its signed webhook, however often it arrives', async () => {
    const before = await balance('sofia');
    const { paymentId, redirectUrl, providerId } = await started('sofia', 300, 'card_intl');
    expect(redirectUrl.startsWith(fakes.stripe.origin)).toBe(true);
    const session = fakes.stripe.sessions.get(providerId)!;
    expect(session).toMatchObject({ mode: 'payment', amount_total: 1299, currency: 'usd', client_reference_id: paymentId });
    expect(session.success_url).toContain(`http://shop.test/recharge/success?payment_id=${paymentId}`);
    expect(session.cancel_url).toBe(`http://shop.test/recharge/cancel?payment_id=${paymentId}`);
    expect((await paymentOf(paymentId)).status).toBe('pending');

    const [completed] = fakes.stripe.pay(providerId);
    const signed = fakes.stripe.signed(completed!);
    expect((await notify('stripe', signed)).json().data.changed).toBe(1);
    expect((await notify('stripe', signed)).json().data.changed).toBe(0);
    expect(await paymentOf(paymentId)).toMatchObject({ status: 'completed' });
    expect(await balance('sofia')).toBe(before + 300);

    // Refunded in full from the dashboard: the tokens go back.
    const [refunded] = fakes.stripe.refund(providerId);
    expect((await notify('stripe', fakes.stripe.signed(refunded!))).statusCode).toBe(200);
    expect(await paymentOf(paymentId)).toMatchObject({ refundedTokens: 300 });
    expect(await balance('sofia')).toBe(before);
    await expectBalanced('sofia');
  });

  it('refuses a webhook signed with another secret, and credits nothing', async () => {
    const before = await balance('timur');
    const { paymentId, providerId } = await started('timur', 100, 'card_intl');
    const [completed] = fakes.stripe.pay(providerId);
    const forged = fakes.stripe.signed(completed!, { secret: 'whsec_not_ours' });
    const answer = await notify('stripe', forged);
    expect(answer.statusCode).toBe(400);
    expect(answer.json().error).toBe('NOTIFICATION_REJECTED');
    expect((await paymentOf(paymentId)).status).toBe('pending');
    expect(await balance('timur')).toBe(before);
    // The webhook never came: reconciliation asks Stripe and credits it.
    expect(await t.app.billing.reconcile(new Date(Date.now() + 3 * 60_000))).toBeGreaterThanOrEqual(1);
    expect((await paymentOf(paymentId)).status).toBe('completed');
    expect(await balance('timur')).toBe(before + 100);
    await expectBalanced('timur');
  });

  it('follows an asynchronous payment to its failure, and an expired session', async () => {
    const before = await balance('ulyana');
    const slow = await started('ulyana', 100, 'card_intl');
    for (const event of fakes.stripe.pay(slow.providerId, { async: true })) await notify('stripe', fakes.stripe.signed(event));
    expect((await paymentOf(slow.paymentId)).status).toBe('pending');
    for (const event of fakes.stripe.settleAsync(slow.providerId, false)) await notify('stripe', fakes.stripe.signed(event));
    expect(await paymentOf(slow.paymentId)).toMatchObject({ status: 'failed', failureReason: 'declined' });

    const left = await started('ulyana', 100, 'card_intl');
    for (const event of fakes.stripe.expire(left.providerId)) await notify('stripe', fakes.stripe.signed(event));
    expect(await paymentOf(left.paymentId)).toMatchObject({ status: 'failed', failureReason: 'expired' });
    expect(await balance('ulyana')).toBe(before);
    await expectBalanced('ulyana');
  });

  it('answers 503 when Stripe is down, and nothing is left to charge', async () => {
    // The SDK tries three times (two retries under the same idempotency key).
    fakes.stripe.failNext(3, { status: 500, type: 'api_error', message: 'An unknown error occurred' });
    const answer = await topUp('vera', 100, 'card_intl');
    expect(answer.statusCode).toBe(503);
    expect(answer.json().error).toBe('PAYMENT_UNAVAILABLE');
    expect(answer.json().message).toContain('Деньги не списаны');
    const mine = await t.app.database.db.select().from(payments).where(eq(payments.userId, sellers.vera!.id));
    expect(mine.map((row) => row.status)).toEqual(['failed']);
    // Back up: the seller's next try goes through.
    expect((await topUp('vera', 100, 'card_intl')).statusCode).toBe(200);
  });
});

describe('the local provider (YooKassa)', () => {
  it('pays in roubles: a notification is trusted only once the API confirms it', async () => {
    const before = await balance('walter');
    const { paymentId, redirectUrl, providerId } = await started('walter', 300, 'sberpay_ru');
    const remote = fakes.yookassa.payments.get(providerId)!;
    expect(remote).toMatchObject({ status: 'pending', amount: { value: '1234.00', currency: 'RUB' }, payment_method: { type: 'sberbank' } });
    expect(remote.metadata).toMatchObject({ payment_id: paymentId });
    expect(redirectUrl).toBe(remote.confirmation.confirmation_url);

    // A notification claiming success while the API still says pending moves nothing.
    const claimed = fakes.yookassa.notification('payment.succeeded', { ...remote, status: 'succeeded', paid: true });
    expect((await notify('yookassa', claimed)).json().data.changed).toBe(0);
    expect((await paymentOf(paymentId)).status).toBe('pending');

    const succeeded = fakes.yookassa.succeed(providerId);
    const delivery = fakes.yookassa.notification(succeeded.event, succeeded.object);
    expect((await notify('yookassa', delivery)).json().data.changed).toBe(1);
    expect((await notify('yookassa', delivery)).json().data.changed).toBe(0);
    expect(await balance('walter')).toBe(before + 300);

    // Half refunded: half the tokens back.
    const refund = fakes.yookassa.refund(providerId, 61_700);
    await notify('yookassa', fakes.yookassa.notification(refund.event, refund.object));
    expect(await paymentOf(paymentId)).toMatchObject({ refundedMinor: 61_700, refundedTokens: 150 });
    expect(await balance('walter')).toBe(before + 150);
    await expectBalanced('walter');
  });

  it('a cancelled payment fails with its reason; a forged id is refused', async () => {
    const before = await balance('xenia');
    const declined = await started('xenia', 100, 'card_ru');
    const cancelled = fakes.yookassa.cancel(declined.providerId, 'insufficient_funds');
    await notify('yookassa', fakes.yookassa.notification(cancelled.event, cancelled.object));
    expect(await paymentOf(declined.paymentId)).toMatchObject({ status: 'failed', failureReason: 'declined' });

    // A notification naming a payment we never made changes nothing and costs no request to YooKassa.
    const forged = fakes.yookassa.notification('payment.succeeded', { id: '2f0e4c1a-000f-5000-8000-1a2b3c4d5e6f', status: 'succeeded' });
    const asked = fakes.yookassa.requests.length;
    const ignored = await notify('yookassa', forged);
    expect(ignored.statusCode).toBe(200);
    expect(ignored.json().data.changed).toBe(0);
    expect(fakes.yookassa.requests.length).toBe(asked);
    expect(await balance('xenia')).toBe(before);

    // The notification of a paid one never arrives: reconciliation asks the API.
    const quiet = await started('xenia', 100, 'tbank_ru');
    fakes.yookassa.succeed(quiet.providerId);
    await t.app.billing.reconcile(new Date(Date.now() + 3 * 60_000));
    expect((await paymentOf(quiet.paymentId)).status).toBe('completed');
    expect(await balance('xenia')).toBe(before + 100);
    await expectBalanced('xenia');
  });

  it('answers 503 when YooKassa keeps failing', async () => {
    // Four tries, each with the same Idempotence-Key.
    fakes.yookassa.failNext(4, { status: 500, code: 'internal_server_error', description: 'Internal server error' });
    const answer = await topUp('zoya', 100, 'yoomoney_ru');
    expect(answer.statusCode).toBe(503);
    expect(answer.json().error).toBe('PAYMENT_UNAVAILABLE');
    // Still processing (202), then done: one payment, made once.
    fakes.yookassa.processingNext(2, 10);
    const before = fakes.yookassa.payments.size;
    expect((await topUp('zoya', 100, 'yoomoney_ru')).statusCode).toBe(200);
    expect(fakes.yookassa.payments.size).toBe(before + 1);
  });
});
