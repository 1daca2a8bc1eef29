// Buying tokens through the embedded sandbox (the default provider for both the card and the local
// provider): the price list, starting a top-up, the hosted checkout page, notifications that come
// late, twice, out of order, forged or never, refunds, the consumption history and its paging —
// and after each, a balance that equals the ledger's sum.
import crypto from 'node:crypto';
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../support/test-app';
import { signedInSeller } from '../support/sellers';
import { expectBalanced as expectBalancedWallet } from '../support/wallet';
import { postToSandboxWebhook, signedSandboxNotification, withForgedSignature } from '../support/sandbox';
import { ledger, paymentEvents, payments } from '../../server/db/schema';

let t: TestApp;
const sellers: Record<string, { token: string; id: string }> = {};

beforeAll(async () => {
  t = await createTestApp({ SANDBOX_NOTIFY_DELAY_MS: '30', PUBLIC_URL: 'http://shop.test' });
  for (const name of ['anna', 'boris', 'clara', 'dmitri', 'elena', 'fedor', 'hanna', 'ivan']) sellers[name] = await signedInSeller(t, name);
});
afterAll(async () => {
  await t?.close();
});

const auth = (name: string) => ({ authorization: `Bearer ${sellers[name]!.token}` });

async function balance(name: string): Promise<number> {
  const answer = await t.app.inject({ method: 'GET', url: '/api/v1/tokens/balance', headers: auth(name) });
  return answer.json().data.total_tokens;
}

const expectBalanced = (name: string) => expectBalancedWallet(t, sellers[name]!);

async function topUp(name: string, body: Record<string, unknown>) {
  return t.app.inject({ method: 'POST', url: '/api/v1/tokens/topup', headers: auth(name), payload: { currency: 'USD', ...body } });
}

async function startCheckout(name: string, tokens: number, method: string) {
  const card = method === 'card_intl';
  const answer = await topUp(name, { token_amount: tokens, pm_id: card ? '' : method, payment_provider: card ? 'card' : 'localpay' });
  expect(answer.statusCode, answer.body).toBe(200);
  const { payment_id, redirect_url } = answer.json().data as { payment_id: string; redirect_url: string };
  return { paymentId: payment_id as string, page: new URL(redirect_url).pathname, provider: card ? 'card' : 'localpay' };
}

async function status(name: string, provider: string, paymentId: string) {
  return t.app.inject({ method: 'GET', url: `/api/v1/payment/${provider}/status/${paymentId}`, headers: auth(name) });
}

const form = (fields: Record<string, string>) => ({
  payload: new URLSearchParams(fields).toString(),
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
});
const GOOD_CARD = { number: '4242 4242 4242 4242', expiry: '12/34', cvc: '123', holder: 'Anna' };

const signedNotification = (event: object, timestamp?: number) => signedSandboxNotification(t, event, timestamp);
const webhook = (notification: { body: string; headers: Record<string, string> }) => postToSandboxWebhook(t, notification);

async function paymentRow(id: string) {
  const [row] = await t.app.database.db.select().from(payments).where(eq(payments.id, id));
  return row!;
}

describe('the price list', () => {
  it('answers the packs as credits → USD and the methods with their currencies', async () => {
    const tiers = await t.app.inject({ method: 'GET', url: '/api/v1/tokens/tiers' });
    expect(tiers.statusCode).toBe(200);
    expect(tiers.json().data).toEqual({ '100': 4.99, '300': 12.99, '1000': 39.99, '3000': 99.99 });
    const methods = (await t.app.inject({ method: 'GET', url: '/api/v1/tokens/methods' })).json().data;
    expect(methods).toContainEqual({ id: 'card_intl', provider: 'card', currency: 'USD', per_usd: 1 });
    expect(methods).toContainEqual({ id: 'sberpay_ru', provider: 'localpay', currency: 'RUB', per_usd: 95 });
    expect(methods.map((m: { id: string }) => m.id).sort()).toEqual(['card_intl', 'card_ru', 'sberpay_ru', 'tbank_ru', 'yoomoney_ru']);
  });
});

describe('a top-up through the sandbox', () => {
  it('pays by card: pending, the hosted page, then completed and credited once', async () => {
    const before = await balance('anna');
    const { paymentId, page, provider } = await startCheckout('anna', 300, 'card_intl');
    const pending = await status('anna', provider, paymentId);
    expect(pending.json().data).toMatchObject({ id: paymentId, status: 'pending', token_amount: 300, amount: 1299, currency: 'USD' });

    const checkout = await t.app.inject({ method: 'GET', url: page });
    expect(checkout.statusCode).toBe(200);
    expect(checkout.body).toContain('деньги не списываются');
    expect(checkout.body).toContain('12,99');
    expect(checkout.body).toContain('name="number"');

    const paid = await t.app.inject({ method: 'POST', url: `${page}/pay`, ...form(GOOD_CARD) });
    expect(paid.statusCode).toBe(303);
    expect(paid.headers.location).toBe(`http://shop.test/recharge/success?payment_id=${paymentId}`);
    await t.app.billing.sandbox!.idle();
    expect((await status('anna', provider, paymentId)).json().data.status).toBe('completed');
    expect(await balance('anna')).toBe(before + 300);
    // Delivered twice; recorded and credited once.
    const events = await t.app.database.db.select().from(paymentEvents).where(eq(paymentEvents.paymentId, paymentId));
    expect(events).toHaveLength(1);
    const credits = await t.app.database.db.select().from(ledger).where(eq(ledger.reference, `payment:${paymentId}`));
    expect(credits).toHaveLength(1);
    await expectBalanced('anna');
    // The page now says it is paid and takes nothing more.
    expect((await t.app.inject({ method: 'GET', url: page })).body).toContain('уже оплачен');
    expect((await t.app.inject({ method: 'POST', url: `${page}/pay`, ...form(GOOD_CARD) })).statusCode).toBe(409);
  });

  it('charges the local provider in whole roubles at the configured rate, shown on its page', async () => {
    const before = await balance('boris');
    const { paymentId, page, provider } = await startCheckout('boris', 300, 'sberpay_ru');
    expect((await paymentRow(paymentId)).amountMinor).toBe(123_400);
    const checkout = await t.app.inject({ method: 'GET', url: page });
    expect(checkout.body).toContain('SberPay');
    expect(checkout.body).not.toContain('name="number"');
    const paid = await t.app.inject({ method: 'POST', url: `${page}/pay` });
    expect(paid.headers.location).toBe(`http://shop.test/recharge/result?payment_id=${paymentId}`);
    await t.app.billing.sandbox!.idle();
    expect((await status('boris', provider, paymentId)).json().data).toMatchObject({ status: 'completed', amount: 123_400, currency: 'RUB' });
    expect(await balance('boris')).toBe(before + 300);
    await expectBalanced('boris');
  });

  it('a declined, a cancelled and a declining-card payment fail and credit nothing', async () => {
    const before = await balance('clara');
    const declined = await startCheckout('clara', 100, 'card_ru');
    await t.app.inject({ method: 'POST', url: `${declined.page}/decline` });
    const cancelled = await startCheckout('clara', 100, 'yoomoney_ru');
    const back = await t.app.inject({ method: 'POST', url: `${cancelled.page}/cancel` });
    expect(back.headers.location).toBe(`http://shop.test/recharge/cancel?payment_id=${cancelled.paymentId}`);
    const refusedCard = await startCheckout('clara', 100, 'card_intl');
    await t.app.inject({ method: 'POST', url: `${refusedCard.page}/pay`, ...form({ ...GOOD_CARD, number: '4000 0000 0000 0002' }) });
    await t.app.billing.sandbox!.idle();
    expect((await status('clara', 'localpay', declined.paymentId)).json().data).toMatchObject({ status: 'failed', failure_reason: 'declined' });
    expect((await status('clara', 'localpay', cancelled.paymentId)).json().data).toMatchObject({ status: 'failed', failure_reason: 'canceled' });
    expect((await status('clara', 'card', refusedCard.paymentId)).json().data).toMatchObject({ status: 'failed', failure_reason: 'declined' });
    expect(await balance('clara')).toBe(before);
    await expectBalanced('clara');
  });

  it('a card form with a bad number, expiry or CVC is shown again with the problem, and nothing ends', async () => {
    const { paymentId, page } = await startCheckout('clara', 100, 'card_intl');
    for (const [field, value, problem] of [
      ['number', '4242 4242 4242 4241', 'номер карты'],
      ['expiry', '01/20', 'срок действия'],
      ['cvc', '12', 'CVC'],
    ] as const) {
      const answer = await t.app.inject({ method: 'POST', url: `${page}/pay`, ...form({ ...GOOD_CARD, [field]: value }) });
      expect(answer.statusCode).toBe(422);
      expect(answer.body).toContain(problem);
      expect(answer.body).toContain(`action="${page}/pay"`);
    }
    expect((await paymentRow(paymentId)).status).toBe('pending');
  });

  it('refuses what is not on the price list or not a method of the provider, and starts nothing', async () => {
    const count = async () => (await t.app.database.db.select().from(payments).where(eq(payments.userId, sellers.ivan!.id))).length;
    // What the seller is told: the refusal's code, and its words in Russian (the seller's language).
    const cases: [Record<string, unknown>, string, string][] = [
      [{ token_amount: 250, pm_id: 'card_ru', payment_provider: 'localpay' }, 'UNKNOWN_PACK', 'Такого пакета токенов нет в прайс-листе'],
      [{ token_amount: 300, pm_id: 'card_ru', payment_provider: 'localpay', currency: 'EUR' }, 'VALIDATION_FAILED', 'Проверьте поля: currency'],
      [{ token_amount: 300, pm_id: 'card_ru', payment_provider: 'card' }, 'METHOD_MISMATCH', 'принимает другой платёжный сервис'],
      [{ token_amount: 300, pm_id: 'card_intl', payment_provider: 'localpay' }, 'METHOD_MISMATCH', 'принимает другой платёжный сервис'],
      [{ token_amount: 300, pm_id: '', payment_provider: 'localpay' }, 'METHOD_REQUIRED', 'Выберите способ оплаты'],
      [{ token_amount: 300, pm_id: 'bitcoin', payment_provider: 'localpay' }, 'VALIDATION_FAILED', 'Проверьте поля: pm_id'],
      [{ token_amount: -100, pm_id: 'card_ru', payment_provider: 'localpay' }, 'VALIDATION_FAILED', 'Проверьте поля: token_amount'],
    ];
    for (const [body, error, words] of cases) {
      const answer = await topUp('ivan', body);
      expect(answer.statusCode, JSON.stringify(body)).toBe(400);
      expect(answer.json(), JSON.stringify(body)).toMatchObject({ error, message: expect.stringContaining(words) });
    }
    const english = await t.app.inject({
      method: 'POST',
      url: '/api/v1/tokens/topup',
      headers: { ...auth('ivan'), 'accept-language': 'en' },
      payload: { token_amount: 250, currency: 'USD', pm_id: 'card_ru', payment_provider: 'localpay' },
    });
    expect(english.json().message).toBe('This token pack is not on the price list. Choose a pack from the list.');
    expect(await count()).toBe(0);
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/tokens/topup', payload: { token_amount: 100 } })).statusCode).toBe(401);
  });
});

describe('notifications', () => {
  it('a forged or stale signature is refused with 400 and credits nothing', async () => {
    const before = await balance('elena');
    const { paymentId } = await startCheckout('elena', 1000, 'card_intl');
    const row = await paymentRow(paymentId);
    const event = {
      id: 'evt_sbx_forged',
      type: 'payment.succeeded',
      created: 0,
      data: { checkout_id: row.providerPaymentId, payment_id: paymentId, amount_minor: row.amountMinor, currency: row.currency },
    };
    const good = signedNotification(event);
    const forged = withForgedSignature(good);
    const tampered = { ...good, body: good.body.replace('"amount_minor":3999', '"amount_minor":1') };
    const stale = signedNotification(event, Math.floor(Date.now() / 1000) - 3600);
    const unsigned = { body: good.body, headers: { 'content-type': 'application/json' } };
    for (const notification of [forged, tampered, stale, unsigned]) {
      const answer = await webhook(notification);
      expect(answer.statusCode).toBe(400);
      expect(answer.json().error).toBe('NOTIFICATION_REJECTED');
    }
    expect(await balance('elena')).toBe(before);
    expect((await paymentRow(paymentId)).status).toBe('pending');
    // The genuine one, sent 50 times at once, credits once.
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => webhook(good)),
    );
    expect(answers.every((answer) => answer.statusCode === 200)).toBe(true);
    expect(answers.reduce((sum, answer) => sum + answer.json().data.changed, 0)).toBe(1);
    expect(await balance('elena')).toBe(before + 1000);
    await expectBalanced('elena');
  });

  it('50 different events saying one payment succeeded credit it once', async () => {
    const before = await balance('fedor');
    const { paymentId } = await startCheckout('fedor', 100, 'card_intl');
    const row = await paymentRow(paymentId);
    const data = { checkout_id: row.providerPaymentId, payment_id: paymentId, amount_minor: row.amountMinor, currency: row.currency };
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, index) => {
        const n = signedNotification({ id: `evt_sbx_many_${index}`, type: 'payment.succeeded', created: 0, data });
        return webhook(n);
      }),
    );
    expect(answers.every((answer) => answer.statusCode === 200)).toBe(true);
    expect(await balance('fedor')).toBe(before + 100);
    await expectBalanced('fedor');
  });

  it('a notification naming another seller’s payment for a checkout is refused', async () => {
    const mine = await startCheckout('anna', 100, 'card_intl');
    const theirs = await startCheckout('boris', 100, 'card_intl');
    const row = await paymentRow(mine.paymentId);
    const n = signedNotification({
      id: 'evt_sbx_crossed',
      type: 'payment.succeeded',
      created: 0,
      data: { checkout_id: row.providerPaymentId, payment_id: theirs.paymentId, amount_minor: row.amountMinor, currency: row.currency },
    });
    const before = [await balance('anna'), await balance('boris')];
    const answer = await webhook(n);
    expect(answer.statusCode).toBe(400);
    expect([await balance('anna'), await balance('boris')]).toEqual(before);
    // And a seller cannot read another's payment.
    expect((await status('anna', 'card', theirs.paymentId)).statusCode).toBe(404);
    expect((await status('anna', 'card', crypto.randomUUID())).statusCode).toBe(404);
  });

  it('a refund heard before the payment credits and takes back; a partial refund takes back its share, never below zero', async () => {
    const before = await balance('dmitri');
    const early = await startCheckout('dmitri', 300, 'card_intl');
    const row = await paymentRow(early.paymentId);
    const n = signedNotification({
      id: 'evt_sbx_refund_first',
      type: 'payment.refunded',
      created: 0,
      data: { checkout_id: row.providerPaymentId, payment_id: early.paymentId, amount_minor: row.amountMinor, currency: row.currency, refunded_minor: row.amountMinor },
    });
    expect((await webhook(n)).statusCode).toBe(200);
    expect(await paymentRow(early.paymentId)).toMatchObject({ status: 'completed', refundedTokens: 300, unrecoveredTokens: 0 });
    expect(await balance('dmitri')).toBe(before);

    // Paid, mostly spent, then refunded in two halves.
    const { paymentId, page } = await startCheckout('dmitri', 1000, 'card_intl');
    await t.app.inject({ method: 'POST', url: `${page}/pay`, ...form(GOOD_CARD) });
    await t.app.billing.sandbox!.idle();
    expect(await balance('dmitri')).toBe(before + 1000);
    await t.app.ledger.takeBack(sellers.dmitri!.id, { type: 'top_up', reference: 'refund:test-spend', reverses: { type: 'top_up', reference: 'none' } }, before + 800); // spends all but 200
    const checkoutId = (await paymentRow(paymentId)).providerPaymentId!;
    await t.app.billing.sandbox!.refund(checkoutId, 1999);
    await t.app.billing.sandbox!.idle();
    expect(await paymentRow(paymentId)).toMatchObject({ refundedTokens: 499, unrecoveredTokens: 299 });
    expect(await balance('dmitri')).toBe(0);
    await t.app.billing.sandbox!.refund(checkoutId);
    await t.app.billing.sandbox!.idle();
    expect(await paymentRow(paymentId)).toMatchObject({ refundedMinor: 3999, refundedTokens: 1000, unrecoveredTokens: 800 });
    expect(await balance('dmitri')).toBe(0);
    await expectBalanced('dmitri');
  });

  it('a payment whose notifications never arrive is settled by reconciliation, which asks the sandbox', async () => {
    const quiet = await createTestApp({ SANDBOX_NOTIFY_DELAY_MS: '600000', RUN_JOBS: 'false' });
    try {
      const seller = await signedInSeller(quiet, 'gleb');
      const headers = { authorization: `Bearer ${seller.token}` };
      const started = await quiet.app.inject({
        method: 'POST',
        url: '/api/v1/tokens/topup',
        headers,
        payload: { token_amount: 100, currency: 'USD', pm_id: 'tbank_ru', payment_provider: 'localpay' },
      });
      const { payment_id, redirect_url } = started.json().data;
      await quiet.app.inject({ method: 'POST', url: `${new URL(redirect_url).pathname}/pay` });
      const tokens = async () => (await quiet.app.inject({ method: 'GET', url: '/api/v1/tokens/balance', headers })).json().data.total_tokens;
      const start = await tokens();
      // Not due yet: nothing asked.
      expect(await quiet.app.billing.reconcile(new Date())).toBe(0);
      expect(await quiet.app.billing.reconcile(new Date(Date.now() + 3 * 60_000))).toBe(1);
      expect(await tokens()).toBe(start + 100);
      const [row] = await quiet.app.database.db.select().from(payments).where(eq(payments.id, payment_id));
      expect(row!.status).toBe('completed');
      // Asked again later, nothing moves twice.
      expect(await quiet.app.billing.reconcile(new Date(Date.now() + 60 * 60_000))).toBe(0);
      expect(await tokens()).toBe(start + 100);

      // Back from the page long before any notification: the status route asks the sandbox itself.
      const second = await quiet.app.inject({
        method: 'POST',
        url: '/api/v1/tokens/topup',
        headers,
        payload: { token_amount: 300, currency: 'USD', pm_id: 'card_ru', payment_provider: 'localpay' },
      });
      await quiet.app.inject({ method: 'POST', url: `${new URL(second.json().data.redirect_url).pathname}/pay`, ...form(GOOD_CARD) });
      const read = await quiet.app.inject({ method: 'GET', url: `/api/v1/payment/localpay/status/${second.json().data.payment_id}`, headers });
      expect(read.json().data.status).toBe('completed');
      expect(await tokens()).toBe(start + 400);

      // A payment the seller walked away from is given up after a week.
      const abandoned = await quiet.app.inject({
        method: 'POST',
        url: '/api/v1/tokens/topup',
        headers,
        payload: { token_amount: 100, currency: 'USD', pm_id: '', payment_provider: 'card' },
      });
      const id = abandoned.json().data.payment_id;
      for (let day = 1; day <= 8; day += 1) await quiet.app.billing.reconcile(new Date(Date.now() + day * 24 * 60 * 60_000));
      const [given] = await quiet.app.database.db.select().from(payments).where(eq(payments.id, id));
      expect(given).toMatchObject({ status: 'failed', failureReason: 'expired' });
    } finally {
      await quiet.close();
    }
  });
});

describe('the seller’s event stream', () => {
  it('says the new balance when a top-up lands', async () => {
    const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const ticket = (await t.app.inject({ method: 'POST', url: '/api/v1/content/events/ticket', headers: auth('fedor') })).json().data.ticket;
    let text = '';
    const request = http.get(`${base}/api/v1/events?ticket=${encodeURIComponent(ticket)}`, (res) => {
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
    });
    try {
      await expect.poll(() => text).toContain(': connected');
      const before = await balance('fedor');
      const { page } = await startCheckout('fedor', 300, 'tbank_ru');
      await t.app.inject({ method: 'POST', url: `${page}/pay` });
      await t.app.billing.sandbox!.idle();
      // The total the pack brings, not whatever the balance route says now.
      await expect.poll(() => text).toContain(`event: wallet_updated\ndata: {"type":"wallet_updated","total_tokens":${before + 300}}`);
      expect(await balance('fedor')).toBe(before + 300);
    } finally {
      request.destroy();
    }
  });
});

describe('the consumption history', () => {
  it('lists every ledger entry newest first, paged, and only the seller’s own', async () => {
    for (const method of ['card_intl', 'sberpay_ru']) {
      const { page } = await startCheckout('hanna', 100, method);
      await t.app.inject({ method: 'POST', url: `${page}/pay`, ...form(GOOD_CARD) });
    }
    await t.app.billing.sandbox!.idle();
    const first = await t.app.inject({ method: 'GET', url: '/api/v1/tokens/history?page=1&page_size=2', headers: auth('hanna') });
    expect(first.statusCode).toBe(200);
    const body = first.json();
    expect(body.data).toHaveLength(2);
    // The sign-up bonus and the two packs: three entries, two pages of two.
    expect(body.meta).toMatchObject({ total: 3, total_pages: 2 });
    const all = await t.app.inject({ method: 'GET', url: '/api/v1/tokens/history?page_size=100', headers: auth('hanna') });
    const entries = all.json().data as { type: string; amount: number; created_at: string }[];
    expect(entries.map(({ type, amount }) => `${type} ${amount}`).sort()).toEqual(['sign_up_bonus 50', 'top_up 100', 'top_up 100']);
    expect(await balance('hanna')).toBe(250);
    const second = await t.app.inject({ method: 'GET', url: '/api/v1/tokens/history?page=2&page_size=2', headers: auth('hanna') });
    expect(second.json().data).toEqual([all.json().data[2]]);
    const times = entries.map((entry) => Date.parse(entry.created_at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/tokens/history' })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/tokens/history?page=0', headers: auth('hanna') })).statusCode).toBe(400);
  });
});
