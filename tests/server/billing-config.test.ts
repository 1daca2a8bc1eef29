// The price list and the payment providers' variables, read at start-up: an operator's price
// file replaces the defaults only when every price in it is one a seller could be charged, and a
// provider's keys come in pairs. The page and the server price a pack in roubles the same way.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/config/env';
import { DEFAULT_PRICES, tiersOf } from '../../server/billing/prices';
import { chargeMinor, providerOfMethod, PAYMENT_METHODS } from '../../contract/billing';

function priceFile(content: unknown): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'solestudio-prices-'));
  const file = path.join(dir, 'prices.json');
  fs.writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
}

function problemsOf(env: Record<string, string>): { variable: string; message: string }[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe('the price list', () => {
  it('defaults to four packs, cheaper per token the larger they are', () => {
    const config = loadConfig({});
    expect(config.prices).toEqual(DEFAULT_PRICES);
    const perToken = config.prices.packs.map((pack) => pack.usd / pack.tokens);
    expect([...perToken].sort((a, b) => b - a)).toEqual(perToken);
    expect(tiersOf(config.prices)).toEqual({ '100': 4.99, '300': 12.99, '1000': 39.99, '3000': 99.99 });
  });

  it('reads an operator’s file, packs in order of size', () => {
    const file = priceFile({ packs: [{ tokens: 500, usd: 19.99 }, { tokens: 50, usd: 2.5 }], rub_per_usd: 92.5 });
    const config = loadConfig({ PRICES_FILE: file });
    // A file without plans keeps the default plans.
    expect(config.prices).toEqual({ packs: [{ tokens: 50, usd: 2.5 }, { tokens: 500, usd: 19.99 }], rub_per_usd: 92.5, plans: DEFAULT_PRICES.plans });
  });

  it.each([
    ['not JSON', '{ packs: '],
    ['no packs', { packs: [], rub_per_usd: 95 }],
    ['a price below what a provider charges', { packs: [{ tokens: 10, usd: 0.1 }], rub_per_usd: 95 }],
    ['fractions of a cent', { packs: [{ tokens: 10, usd: 1.005 }], rub_per_usd: 95 }],
    ['a pack listed twice', { packs: [{ tokens: 10, usd: 1 }, { tokens: 10, usd: 2 }], rub_per_usd: 95 }],
    ['no rouble rate', { packs: [{ tokens: 10, usd: 1 }] }],
    ['a field it does not know', { packs: [{ tokens: 10, usd: 1 }], rub_per_usd: 95, eur_per_usd: 1 }],
  ])('stops the server on %s, naming PRICES_FILE', (_name, content) => {
    const problems = problemsOf({ PRICES_FILE: priceFile(content) });
    expect(problems).toHaveLength(1);
    expect(problems[0]!.variable).toBe('PRICES_FILE');
  });

  it('stops the server when the file is missing', () => {
    expect(problemsOf({ PRICES_FILE: '/no/such/prices.json' })[0]?.variable).toBe('PRICES_FILE');
  });

  it('prices roubles in whole roubles, the same number the page shows', () => {
    expect(chargeMinor(12.99, 95, 'RUB')).toBe(123_400);
    expect(chargeMinor(4.99, 95, 'RUB')).toBe(47_400);
    expect(chargeMinor(4.99, 1, 'USD')).toBe(499);
    expect(chargeMinor(0.29, 1, 'USD')).toBe(29);
  });

  it('sends international cards to the card provider and every other method to the local one', () => {
    expect(PAYMENT_METHODS.map((method) => [method, providerOfMethod(method)])).toEqual([
      ['card_ru', 'localpay'],
      ['card_intl', 'card'],
      ['yoomoney_ru', 'localpay'],
      ['sberpay_ru', 'localpay'],
      ['tbank_ru', 'localpay'],
    ]);
  });
});

describe('the payment providers’ variables', () => {
  it('uses the sandbox for both when no keys are set', () => {
    const config = loadConfig({});
    expect(config.stripe).toBeNull();
    expect(config.yookassa).toBeNull();
  });

  it('reads each provider’s keys', () => {
    const config = loadConfig({
      STRIPE_SECRET_KEY: 'sk_test_abc',
      STRIPE_WEBHOOK_SECRET: 'whsec_abc',
      YOOKASSA_SHOP_ID: '123456',
      YOOKASSA_SECRET_KEY: 'test_secretkey',
      YOOKASSA_API_URL: 'http://127.0.0.1:9/v3/',
    });
    expect(config.stripe).toEqual({ secretKey: 'sk_test_abc', webhookSecret: 'whsec_abc', apiBase: undefined });
    expect(config.yookassa).toEqual({ shopId: '123456', secretKey: 'test_secretkey', apiUrl: 'http://127.0.0.1:9/v3', trustedIps: null });
  });

  it('refuses a key without its pair, and keys of the wrong kind', () => {
    expect(problemsOf({ STRIPE_SECRET_KEY: 'sk_test_abc' }).map((p) => p.variable)).toEqual(['STRIPE_WEBHOOK_SECRET']);
    expect(problemsOf({ YOOKASSA_SECRET_KEY: 'test_secretkey' }).map((p) => p.variable)).toEqual(['YOOKASSA_SHOP_ID']);
    expect(problemsOf({ STRIPE_SECRET_KEY: 'pk_test_abc', STRIPE_WEBHOOK_SECRET: 'whsec_abc' }).map((p) => p.variable)).toEqual(['STRIPE_SECRET_KEY']);
    expect(problemsOf({ YOOKASSA_SHOP_ID: 'shop', YOOKASSA_SECRET_KEY: 'test_secretkey' }).map((p) => p.variable)).toEqual(['YOOKASSA_SHOP_ID']);
  });
});
