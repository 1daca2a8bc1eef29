// The webhooks cannot be used against us: a YooKassa notification naming a payment or refund we
// never made costs no API request; the YooKassa webhook is limited per address and, with
// YOOKASSA_TRUSTED_IPS, open only to YooKassa's addresses (behind TRUST_PROXY, the address our
// proxy saw, not one the caller wrote); a rejected notification tells an anonymous caller nothing
// of why, while our log says; and a paid Stripe invoice credits what `periodTokens` says its amount
// and currency buy — nothing for a 0 invoice or another currency, a share for part of the price.
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../support/test-app';
import { signedInSeller } from '../support/sellers';
import { expectBalanced } from '../support/wallet';
import { startFakeStripe, type StripeEvent } from '../support/fakes/stripe';
import { startFakeYooKassa } from '../support/fakes/yookassa';
import { payments, rateLimitHits, subscriptionCharges } from '../../server/db/schema';
import { ConfigError, loadConfig } from '../../server/config/env';
import { DEFAULT_PLANS, DEFAULT_PRICES, periodTokens } from '../../server/billing/prices';
import { stripeKeys, yookassaKeys } from '../support/fakes/keys';

type Seller = { token: string; id: string };

let t: TestApp;
let stripe: Awaited<ReturnType<typeof startFakeStripe>>;
let yoo: Awaited<ReturnType<typeof startFakeYooKassa>>;
const lines: string[] = [];
const YOOKASSA_ADDRESSES = '185.71.76.0/27, 185.71.77.0/27, 77.75.153.0/25, 77.75.156.11, 77.75.156.35, 77.75.154.128/25, 2a02:5180::/32';

const keys = () => ({
  PUBLIC_URL: 'http://shop.test',
  RUN_JOBS: 'false',
  ...stripeKeys(stripe),
  ...yookassaKeys(yoo),
});

beforeAll(async () => {
  stripe = await startFakeStripe();
  yoo = await startFakeYooKassa();
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  t = await createTestApp(keys(), undefined, { level: 'warn', stream });
});
afterAll(async () => {
  await t?.close();
  await stripe?.close();
  await yoo?.close();
});

const postYoo = (app: TestApp, notified: { event: string; object: object }, from: { remoteAddress?: string; forwardedFor?: string } = {}) =>
  app.app.inject({
    method: 'POST',
    url: '/api/v1/payment/webhooks/yookassa',
    payload: yoo.notification(notified.event, notified.object).body,
    headers: { 'content-type': 'application/json', ...(from.forwardedFor ? { 'x-forwarded-for': from.forwardedFor } : {}) },
    ...(from.remoteAddress ? { remoteAddress: from.remoteAddress } : {}),
  });
const postStripe = (event: StripeEvent, signing: { secret?: string } = {}) => {
  const { body, headers } = stripe.signed(event, signing);
  return t.app.inject({ method: 'POST', url: '/api/v1/payment/webhooks/stripe', payload: body, headers });
};
const api = (app: TestApp, s: Seller, method: 'GET' | 'POST', url: string, payload?: object) =>
  app.app.inject({ method, url: `/api/v1${url}`, headers: { authorization: `Bearer ${s.token}` }, ...(payload ? { payload } : {}) });

/** A top-up through YooKassa, paid on its page: the YooKassa payment's notification, not yet delivered. */
async function paidYooTopUp(app: TestApp, s: Seller) {
  const answer = await api(app, s, 'POST', '/tokens/topup', { token_amount: 100, currency: 'USD', pm_id: 'sberpay_ru', payment_provider: 'localpay' });
  expect(answer.statusCode, answer.body).toBe(200);
  const [row] = await app.app.database.db.select().from(payments).where(eq(payments.id, answer.json().data.payment_id as string));
  return { paymentId: row!.id, providerId: row!.providerPaymentId!, paid: yoo.succeed(row!.providerPaymentId!) };
}
const statusOf = async (app: TestApp, paymentId: string) => (await app.app.database.db.select().from(payments).where(eq(payments.id, paymentId)))[0]!.status;

describe('YooKassa notifications naming what we never made', () => {
  it('are answered 200 with nothing changed and no request to YooKassa: payments, refunds, and refunds of nothing', async () => {
    const before = yoo.requests.length;
    const stranger = '2f00a1b3-000f-5000-8000-1a2b3c4d5e6f';
    for (const notified of [
      { event: 'payment.succeeded', object: { id: stranger, status: 'succeeded' } },
      { event: 'payment.canceled', object: { id: stranger, status: 'canceled' } },
      { event: 'payment.waiting_for_capture', object: { id: stranger, status: 'waiting_for_capture' } },
      { event: 'refund.succeeded', object: { id: '2f00a1b4-0015-5000-9000-aaaaaaaaaaaa', payment_id: stranger, status: 'succeeded' } },
      { event: 'refund.succeeded', object: { id: '2f00a1b4-0015-5000-9000-bbbbbbbbbbbb', status: 'succeeded' } },
    ]) {
      const answer = await postYoo(t, notified, { remoteAddress: '198.51.100.7' });
      expect(answer.statusCode, answer.body).toBe(200);
      expect(answer.json().data).toEqual({ changed: 0 });
    }
    expect(yoo.requests.length).toBe(before);
  });
});

describe('the YooKassa webhook’s limit per address', () => {
  it('answers 429 past 300 notifications a minute from one address, asking YooKassa nothing; another address goes on', async () => {
    const s = await signedInSeller(t, 'rada');
    const { paymentId, paid } = await paidYooTopUp(t, s);
    const flooder = '203.0.113.50';
    // 299 notifications from this address so far in this minute (as the limiter counts them).
    await t.app.database.db.insert(rateLimitHits).values({ key: `limit|webhook:yookassa:ip:${flooder}`, count: 299, windowStartMs: Date.now() });
    const stranger = { event: 'payment.succeeded', object: { id: '2f00a1b3-000f-5000-8000-ffffffffffff', status: 'succeeded' } };
    expect((await postYoo(t, stranger, { remoteAddress: flooder })).statusCode).toBe(200);
    const asked = yoo.requests.length;
    const over = await postYoo(t, paid, { remoteAddress: flooder });
    expect(over.statusCode).toBe(429);
    expect(over.json()).toMatchObject({ code: 429, error: 'RATE_LIMITED' });
    expect(yoo.requests.length).toBe(asked);
    expect(await statusOf(t, paymentId)).toBe('pending');
    // YooKassa itself, from its own address, is not held up by someone else's flood.
    const genuine = await postYoo(t, paid, { remoteAddress: '185.71.76.10' });
    expect(genuine.json().data).toEqual({ changed: 1 });
    expect(await statusOf(t, paymentId)).toBe('completed');
    await expectBalanced(t, s);
  });
});

describe('a rejected notification', () => {
  const logged = () => lines.join('');

  it('says nothing of why to the caller (a Stripe signature that does not verify); the log does', async () => {
    const event = { id: 'evt_forged', object: 'event', type: 'invoice.paid', created: Math.floor(Date.now() / 1000), data: { object: {} } };
    const answer = await postStripe(event as unknown as StripeEvent, { secret: 'whsec_not_ours' });
    expect(answer.statusCode).toBe(400);
    expect(answer.json()).toEqual({ code: 400, error: 'NOTIFICATION_REJECTED', message: expect.any(String) });
    expect(answer.body).not.toMatch(/signature|whsec|stripe/i);
    await expect.poll(() => logged()).toMatch(/"reason":"the Stripe signature does not verify: [^"]+"/);
  });

  it('says nothing of YooKassa’s answer when it does not confirm what a notification names; the log does', async () => {
    const s = await signedInSeller(t, 'sava');
    const { providerId } = await paidYooTopUp(t, s);
    const forged = { event: 'refund.succeeded', object: { id: '2f00a1b4-0015-5000-9000-cccccccccccc', payment_id: providerId, status: 'succeeded' } };
    const answer = await postYoo(t, forged, { remoteAddress: '185.71.76.11' });
    expect(answer.statusCode).toBe(400);
    expect(answer.json()).toEqual({ code: 400, error: 'NOTIFICATION_REJECTED', message: expect.any(String) });
    expect(answer.body).not.toMatch(/YooKassa|refund|not_found|2f00a1b4/i);
    await expect.poll(() => logged()).toMatch(/"reason":"YooKassa does not confirm \/refunds\/2f00a1b4-0015-5000-9000-cccccccccccc: YooKassa: [^"]+"/);
  });
});

describe('YOOKASSA_TRUSTED_IPS', () => {
  it('stops start-up naming the variable when an entry is not an address or a range', () => {
    for (const bad of ['185.71.76.0/33', 'yookassa.ru', '185.71.76.0/27, 10.0.0.300', '2a02:5180::/129']) {
      let thrown: unknown;
      try {
        loadConfig({ DATA_DIR: t.dataDir, YOOKASSA_TRUSTED_IPS: bad });
      } catch (error) {
        thrown = error;
      }
      expect(thrown, bad).toBeInstanceOf(ConfigError);
      expect((thrown as Error).message).toContain('YOOKASSA_TRUSTED_IPS');
    }
    expect(loadConfig({ DATA_DIR: t.dataDir, YOOKASSA_SHOP_ID: '1', YOOKASSA_SECRET_KEY: 'test_secret', YOOKASSA_TRUSTED_IPS: YOOKASSA_ADDRESSES }).yookassa?.trustedIps).not.toBeNull();
  });

  for (const trustProxy of [false, true]) {
    describe(trustProxy ? 'behind a proxy (TRUST_PROXY)' : 'without a proxy', () => {
      let app: TestApp;
      let s: Seller;
      beforeAll(async () => {
        app = await createTestApp({ ...keys(), YOOKASSA_TRUSTED_IPS: YOOKASSA_ADDRESSES, ...(trustProxy ? { TRUST_PROXY: 'true' } : {}) });
        s = await signedInSeller(app, 'tamara');
      });
      afterAll(() => app?.close());

      /** Where a notification comes from: straight from `address`, or through our proxy (10.0.0.2) that says it came from `address`. */
      const from = (address: string, claimed?: string) =>
        trustProxy ? { remoteAddress: '10.0.0.2', forwardedFor: claimed ? `${claimed}, ${address}` : address } : { remoteAddress: address, ...(claimed ? { forwardedFor: claimed } : {}) };

      it('refuses an address outside the list with 403, asking YooKassa nothing; one claiming a listed address in X-Forwarded-For too', async () => {
        const { paymentId, paid } = await paidYooTopUp(app, s);
        const asked = yoo.requests.length;
        for (const outside of [from('203.0.113.9'), from('203.0.113.9', '185.71.76.5'), from('::ffff:203.0.113.9')]) {
          const answer = await postYoo(app, paid, outside);
          expect(answer.statusCode, JSON.stringify(outside)).toBe(403);
          expect(answer.json()).toMatchObject({ code: 403, error: 'NOTIFICATION_REJECTED' });
        }
        expect(yoo.requests.length).toBe(asked);
        expect(await statusOf(app, paymentId)).toBe('pending');
      });

      it('processes a notification from a listed address (IPv4, IPv4 as IPv6, IPv6)', async () => {
        for (const address of ['185.71.76.5', '::ffff:77.75.156.11', '2a02:5180::1:2']) {
          const { paymentId, paid } = await paidYooTopUp(app, s);
          const answer = await postYoo(app, paid, from(address));
          expect(answer.statusCode, `${address}: ${answer.body}`).toBe(200);
          expect(answer.json().data).toEqual({ changed: 1 });
          expect(await statusOf(app, paymentId)).toBe('completed');
        }
        await expectBalanced(app, s);
      });

      it('counts notifications against the address they came from, whatever X-Forwarded-For the caller wrote', async () => {
        const { paid } = await paidYooTopUp(app, s);
        await app.app.database.db.insert(rateLimitHits).values({ key: 'limit|webhook:yookassa:ip:185.71.77.20', count: 300, windowStartMs: Date.now() });
        const asked = yoo.requests.length;
        for (const claimed of ['185.71.77.21', '185.71.77.22']) {
          expect((await postYoo(app, paid, from('185.71.77.20', claimed))).statusCode).toBe(429);
        }
        expect(yoo.requests.length).toBe(asked);
      });
    });
  }
});

describe('a paid Stripe invoice, checked against the plan’s price and currency', () => {
  const tokensOf = async (invoiceId: string) => (await t.app.database.db.select().from(subscriptionCharges).where(eq(subscriptionCharges.providerPaymentId, invoiceId)))[0]?.tokens;

  it('credits what periodTokens says: nothing for a 0 invoice (a coupon) or another currency, a share for part of the price', async () => {
    const s = await signedInSeller(t, 'ulyana');
    const balance = async () => (await api(t, s, 'GET', '/tokens/balance')).json().data.total_tokens as number;
    const start = await balance();
    const created = await api(t, s, 'POST', '/subscription/create', { plan_id: 2, interval: 'month' });
    expect(created.statusCode, created.body).toBe(200);
    const sessionId = created.json().data.session_id as string;
    const deliver = async (events: StripeEvent[], invoice?: Partial<{ amount_paid: number; currency: string }>) => {
      for (const event of events) {
        const sent = invoice && event.type === 'invoice.paid' ? { ...event, data: { ...event.data, object: { ...event.data.object, ...invoice } } } : event;
        const answer = await postStripe(sent as StripeEvent);
        expect(answer.statusCode, answer.body).toBe(200);
      }
    };
    const invoiceOf = (events: StripeEvent[]) => (events.find((event) => event.type === 'invoice.paid')!.data.object as { id: string }).id;

    // The first month under a 100 % coupon: active, and no tokens.
    const first = stripe.completeSubscription(sessionId);
    await deliver(first, { amount_paid: 0 });
    const providerSubscriptionId = stripe.sessions.get(sessionId)!.subscription!;
    expect((await api(t, s, 'GET', '/subscription/my')).json().data).toMatchObject({ status: 'active' });
    expect(await tokensOf(invoiceOf(first))).toBe(0);
    expect(await balance()).toBe(start);

    // Half the price ($12.50 of $24.99): half the tokens, rounded down.
    const half = stripe.renew(providerSubscriptionId);
    await deliver(half, { amount_paid: 1250 });
    expect(await tokensOf(invoiceOf(half))).toBe(300);
    expect(await balance()).toBe(start + 300);

    // The full price in another currency: nothing.
    const euros = stripe.renew(providerSubscriptionId);
    await deliver(euros, { currency: 'eur' });
    expect(await tokensOf(invoiceOf(euros))).toBe(0);
    expect(await balance()).toBe(start + 300);

    // The full price: the plan's tokens.
    const full = stripe.renew(providerSubscriptionId);
    await deliver(full);
    expect(await tokensOf(invoiceOf(full))).toBe(600);
    expect(await balance()).toBe(start + 900);
    await expectBalanced(t, s);
  });
});

describe('periodTokens', () => {
  const pro = DEFAULT_PLANS.find((plan) => plan.id === 2)!;
  const tokens = (interval: 'month' | 'year', amountMinor: number, currency: string) => periodTokens(pro, interval, { amountMinor, currency }, DEFAULT_PRICES);

  it('gives the plan’s tokens for its price (or more), in dollars or in roubles at the list’s rate', () => {
    expect(tokens('month', 2499, 'USD')).toBe(600);
    expect(tokens('month', 2499, 'usd')).toBe(600);
    expect(tokens('month', 9999, 'USD')).toBe(600);
    expect(tokens('year', 24_990, 'USD')).toBe(7200);
    // $24.99 at 95 ₽, in whole roubles: 2,374 ₽.
    expect(tokens('month', 237_400, 'RUB')).toBe(600);
  });

  it('gives a share for part of the price, rounded down, and nothing for nothing', () => {
    expect(tokens('month', 1250, 'USD')).toBe(300);
    expect(tokens('month', 2498, 'USD')).toBe(599);
    expect(tokens('year', 2499, 'USD')).toBe(720);
    expect(tokens('month', 118_700, 'RUB')).toBe(300);
    expect(tokens('month', 0, 'USD')).toBe(0);
    expect(tokens('month', -2499, 'USD')).toBe(0);
  });

  it('gives nothing in a currency the plan has no price in', () => {
    expect(tokens('month', 2499, 'EUR')).toBe(0);
    expect(tokens('month', 1_000_000, 'JPY')).toBe(0);
    expect(tokens('month', 2499, '')).toBe(0);
  });
});
