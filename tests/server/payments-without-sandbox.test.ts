// Where money can move, the payment sandbox never stands in for a provider: PAYMENTS_SANDBOX is
// on by default only for an http address on this machine outside production; a provider without
// keys is then simply absent — its methods are not offered, buying through it is refused with 503
// in the seller's language, and the sandbox's pages and webhook do not exist — and the start-up
// log says which provider serves each method, and loudly when the sandbox runs at a public address.
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app';
import { signedInSeller } from '../support/sellers';
import { isLocalHttp, loadConfig } from '../../server/config/env';
import { SANDBOX_WEBHOOK_PATH } from '../../server/plugins/billing';
import { SANDBOX_CHECKOUT_PATH } from '../../contract/routes';

const STRIPE_KEYS = { STRIPE_SECRET_KEY: 'sk_live_notreal', STRIPE_WEBHOOK_SECRET: 'whsec_notreal' };

/** A logger whose lines a test reads. */
function capturedLog() {
  const lines: { level: number; msg: string }[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(line) as { level: number; msg: string });
      done();
    },
  });
  return { logger: { level: 'info', stream }, lines };
}

describe('whether the sandbox runs', () => {
  it('is on for an http address on this machine outside production, and off anywhere a seller could pay', () => {
    expect(loadConfig({}).paymentsSandbox).toBe(true);
    expect(loadConfig({ PUBLIC_URL: 'http://127.0.0.1:4179' }).paymentsSandbox).toBe(true);
    expect(loadConfig({ PUBLIC_URL: 'http://[::1]:8080' }).paymentsSandbox).toBe(true);
    expect(loadConfig({ NODE_ENV: 'production' }).paymentsSandbox).toBe(false);
    expect(loadConfig({ PUBLIC_URL: 'https://localhost:8443' }).paymentsSandbox).toBe(false);
    expect(loadConfig({ PUBLIC_URL: 'https://shop.example' }).paymentsSandbox).toBe(false);
    expect(loadConfig({ PUBLIC_URL: 'http://192.168.1.20:8080' }).paymentsSandbox).toBe(false);
    expect(loadConfig({ PUBLIC_URL: 'http://localhost.shop.example' }).paymentsSandbox).toBe(false);
    expect(isLocalHttp('http://127.255.0.1')).toBe(true);
  });

  it('asked for at a public address, runs and says that no money moves', () => {
    const config = loadConfig({ PUBLIC_URL: 'https://shop.example', PAYMENTS_SANDBOX: 'true' });
    expect(config).toMatchObject({ paymentsSandbox: true, sandboxWarning: true });
    expect(loadConfig({ PAYMENTS_SANDBOX: 'true' }).sandboxWarning).toBe(false);
    expect(loadConfig({ PAYMENTS_SANDBOX: 'false' }).paymentsSandbox).toBe(false);
  });
});

describe('a production start with only the card provider’s keys', () => {
  let t: TestApp;
  let seller: { token: string; id: string };
  const log = capturedLog();

  beforeAll(async () => {
    t = await createTestApp({ NODE_ENV: 'production', PUBLIC_URL: 'https://shop.example', PAYMENTS_SANDBOX: '', ...STRIPE_KEYS }, undefined, log.logger);
    seller = await signedInSeller(t, 'pavel');
  });
  afterAll(async () => {
    await t?.close();
  });

  const auth = () => ({ authorization: `Bearer ${seller.token}` });

  it('offers only the card', async () => {
    const methods = (await t.app.inject({ method: 'GET', url: '/api/v1/tokens/methods' })).json().data as { id: string; provider: string }[];
    expect(methods).toEqual([{ id: 'card_intl', provider: 'card', currency: 'USD', per_usd: 1 }]);
    expect(t.app.billing.sandbox).toBeNull();
  });

  it('refuses a top-up through the local provider with 503, in the seller’s language, and credits nothing', async () => {
    const before = (await t.app.inject({ method: 'GET', url: '/api/v1/tokens/balance', headers: auth() })).json().data.total_tokens as number;
    for (const [language, words] of [
      ['ru', 'недоступна'],
      ['en', 'not available on this server'],
    ] as const) {
      const answer = await t.app.inject({
        method: 'POST',
        url: '/api/v1/tokens/topup',
        headers: { ...auth(), 'accept-language': language },
        payload: { token_amount: 3000, currency: 'USD', pm_id: 'card_ru', payment_provider: 'localpay', country: 'RU' },
      });
      expect(answer.statusCode).toBe(503);
      expect(answer.json()).toMatchObject({ code: 503, error: 'PAYMENT_UNAVAILABLE' });
      expect(answer.json().message).toContain(words);
    }
    const after = (await t.app.inject({ method: 'GET', url: '/api/v1/tokens/balance', headers: auth() })).json().data.total_tokens as number;
    expect(after).toBe(before);
  });

  it('refuses a mandate and a plan through the local provider the same way', async () => {
    const mandate = await t.app.inject({
      method: 'POST',
      url: '/api/v1/localpay/mandates',
      headers: { ...auth(), 'accept-language': 'en' },
      payload: { reference: 'pavel-mandate', payment_method: 'sberpay_ru', terminal_type: 'web' },
    });
    expect(mandate.statusCode).toBe(503);
    expect(mandate.json().error).toBe('PAYMENT_UNAVAILABLE');
  });

  it('has no sandbox pages and no sandbox webhook', async () => {
    expect((await t.app.inject({ method: 'GET', url: `${SANDBOX_CHECKOUT_PATH}/sbx_anything` })).statusCode).toBe(404);
    const webhook = await t.app.inject({ method: 'POST', url: SANDBOX_WEBHOOK_PATH, headers: { 'content-type': 'application/json' }, payload: '{}' });
    expect(webhook.statusCode).toBe(404);
    const yookassa = await t.app.inject({ method: 'POST', url: '/api/v1/payment/webhooks/yookassa', headers: { 'content-type': 'application/json' }, payload: '{}' });
    expect(yookassa.statusCode).toBe(404);
  });

  it('logs which provider serves each method, and that it is live', () => {
    const served = log.lines.find((line) => line.msg.startsWith('payment methods:'));
    expect(served?.msg).toContain('card_intl: stripe (live)');
    expect(served?.msg).toContain('card_ru: none');
    expect(served?.msg).not.toContain('sandbox');
  });
});

describe('a start with no provider at all', () => {
  let t: TestApp;
  const log = capturedLog();

  beforeAll(async () => {
    t = await createTestApp({ PUBLIC_URL: 'https://shop.example', PAYMENTS_SANDBOX: 'false' }, undefined, log.logger);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('offers no method, says so in the log, and refuses a card plan with 503', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/tokens/methods' })).json().data).toEqual([]);
    expect(log.lines.some((line) => line.level === 40 && line.msg.includes('no payment provider is configured'))).toBe(true);
    const seller = await signedInSeller(t, 'rita');
    const plan = await t.app.inject({ method: 'POST', url: '/api/v1/subscription/create', headers: { authorization: `Bearer ${seller.token}` }, payload: { plan_id: 1 } });
    expect(plan.statusCode).toBe(503);
    expect(plan.json().error).toBe('PAYMENT_UNAVAILABLE');
  });
});

describe('the sandbox asked for at a public address', () => {
  let t: TestApp;
  const log = capturedLog();

  beforeAll(async () => {
    t = await createTestApp({ PUBLIC_URL: 'https://shop.example', PAYMENTS_SANDBOX: 'true' }, undefined, log.logger);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('serves every method through the sandbox, warns in the log, and tells every page', async () => {
    const served = log.lines.find((line) => line.msg.startsWith('payment methods:'));
    expect(served?.msg).toContain('card_ru: sandbox (sandbox, no money moves)');
    expect(log.lines.some((line) => line.level === 40 && line.msg.includes('PAYMENTS_SANDBOX is on at https://shop.example'))).toBe(true);
    const mode = await t.app.inject({ method: 'GET', url: '/api/v1/payment/mode' });
    expect(mode.json().data).toEqual({ sandbox: true, warning: true, providers: { card: 'sandbox', localpay: 'sandbox' } });
  });
});
