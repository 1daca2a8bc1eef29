// Connecting a store (/api/v1/publisher/auth, /platforms): the keys are checked live against
// each platform's stand-in before they are kept; a wrong, expired or under-scoped key is refused
// with what to fix, in the seller's language; the keys are kept sealed and shown only by their
// last four characters; another seller's connection is not there for anyone else.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../support/test-app';
import { signedInSeller } from '../support/sellers';
import { startFakeWildberries } from '../support/fakes/wildberries';
import { startFakeOzon } from '../support/fakes/ozon';
import { startFakeAmazon } from '../support/fakes/amazon';
import { storeConnections } from '../../server/db/schema-publisher';

let t: TestApp;
let wb: Awaited<ReturnType<typeof startFakeWildberries>>;
let ozon: Awaited<ReturnType<typeof startFakeOzon>>;
let amazon: Awaited<ReturnType<typeof startFakeAmazon>>;
const sellers: Record<string, { token: string; id: string }> = {};

beforeAll(async () => {
  [wb, ozon, amazon] = await Promise.all([startFakeWildberries(), startFakeOzon(), startFakeAmazon()]);
  t = await createTestApp({
    PUBLIC_URL: 'http://shop.test',
    RUN_JOBS: 'false',
    WILDBERRIES_API_URL: wb.origin,
    OZON_API_URL: ozon.origin,
    AMAZON_TOKEN_URL: amazon.tokenUrl,
    AMAZON_API_URL: amazon.origin,
    DEMO_STORE: 'true',
  });
  for (const name of ['anya', 'boris']) sellers[name] = await signedInSeller(t, name);
});
afterAll(async () => {
  await t?.close();
  await Promise.all([wb?.close(), ozon?.close(), amazon?.close()]);
});

const auth = (name: string, locale = 'en') => ({ authorization: `Bearer ${sellers[name]!.token}`, 'accept-language': locale });
const connect = (name: string, payload: object, locale = 'en') => t.app.inject({ method: 'POST', url: '/api/v1/publisher/auth', headers: auth(name, locale), payload });
const connections = async (name: string) => (await t.app.inject({ method: 'GET', url: '/api/v1/publisher/auth', headers: auth(name) })).json().data as { id: string; platform: string; account_id: string; key_hint: string; account_name: string; expires_at: string | null }[];

describe('Wildberries', () => {
  it('keeps a token the Content API accepts, sealed, and shows its last four characters and expiry', async () => {
    const expiresAt = new Date(Date.now() + 150 * 24 * 3600 * 1000);
    const { token } = wb.addSeller({ name: 'Обувь Анны', categories: ['content'], expiresAt, cards: [{ vendorCode: 'A-1', title: 'Кеды' }] });
    const answer = await connect('anya', { platform: 'wildberries', token });
    expect(answer.statusCode, answer.body).toBe(201);
    const made = answer.json().data;
    expect(made).toMatchObject({ platform: 'wildberries', key_hint: token.slice(-4), status: 'active' });
    expect(new Date(made.expires_at).getTime()).toBe(Math.floor(expiresAt.getTime() / 1000) * 1000);
    expect(answer.body).not.toContain(token.slice(0, -4));
    const [row] = await t.app.database.db.select().from(storeConnections).where(eq(storeConnections.id, made.id));
    expect(row!.sealedKeys).not.toContain(token);
    expect(row!.sealedKeys).not.toContain(token.split('.')[1]!);
    // The platform was asked before the keys were kept.
    expect(wb.requests.filter((r) => r.token === token).map((r) => r.path)).toEqual(['/content/v2/get/cards/list']);
  });

  it('the same account again replaces the keys on the same connection', async () => {
    const first = wb.addSeller({ name: 'Бориса обувь', categories: ['content'] });
    const a = (await connect('boris', { platform: 'wildberries', token: first.token })).json().data;
    const again = await connect('boris', { platform: 'wildberries', token: first.token });
    expect(again.statusCode).toBe(201);
    expect(again.json().data.id).toBe(a.id);
    // Other tests connect this seller to other accounts: this account's connections are one.
    expect((await connections('boris')).filter((c) => c.platform === 'wildberries' && c.account_id === a.account_id)).toHaveLength(1);
  });

  it('refuses a garbled token, an expired one and one without the Content category, naming what to fix', async () => {
    const garbled = await connect('anya', { platform: 'wildberries', token: 'not-a-token' }, 'ru');
    expect(garbled.statusCode).toBe(422);
    expect(garbled.json()).toMatchObject({ error: 'STORE_WRONG' });
    expect(garbled.json().message).toContain('Доступ к API');
    // A token that reads as one but that Wildberries did not sign: refused by the platform itself.
    const { token } = wb.addSeller({ name: 'Подделка', categories: ['content'] });
    const forged = await connect('anya', { platform: 'wildberries', token: `${token.slice(0, -4)}AAAA` });
    expect(forged.statusCode).toBe(422);
    expect(forged.json()).toMatchObject({ error: 'STORE_WRONG' });

    const expired = wb.addSeller({ name: 'Старый', categories: ['content'], expiresAt: new Date(Date.now() - 24 * 3600 * 1000) });
    const late = await connect('anya', { platform: 'wildberries', token: expired.token });
    expect(late.statusCode).toBe(422);
    expect(late.json()).toMatchObject({ error: 'STORE_EXPIRED' });
    expect(late.json().message).toMatch(/expired on .*\d/);

    const prices = wb.addSeller({ name: 'Цены', categories: ['prices'] });
    const scoped = await connect('anya', { platform: 'wildberries', token: prices.token }, 'en');
    expect(scoped.statusCode).toBe(422);
    expect(scoped.json()).toMatchObject({ error: 'STORE_SCOPE' });
    expect(scoped.json().message).toContain('“Content”');
  });

  it('refuses a pasted key with spaces or other characters inside, before asking the platform', async () => {
    const before = wb.requests.length;
    const answer = await connect('anya', { platform: 'wildberries', token: 'eyJhbGci OiJ' }, 'ru');
    expect(answer.statusCode).toBe(400);
    expect(answer.body).toContain('без пробелов');
    expect(wb.requests.length).toBe(before);
  });

  it('says the platform asks to slow down, with its wait, and keeps nothing', async () => {
    const { token } = wb.addSeller({ name: 'Спешка', categories: ['content'] });
    wb.failNext(1, 429);
    const busy = await connect('anya', { platform: 'wildberries', token });
    expect(busy.statusCode).toBe(429);
    expect(busy.json().error).toBe('STORE_BUSY');
    expect(Number(busy.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect((await connections('anya')).some((c) => c.key_hint === token.slice(-4) && c.account_name.includes('Спешка'))).toBe(false);
  });
});

describe('Ozon', () => {
  it('keeps a key whose roles may import pictures, with the expiry Ozon gives', async () => {
    const { clientId, apiKey } = ozon.addSeller({ name: 'Anya Shoes', roles: ['product'] });
    const answer = await connect('anya', { platform: 'ozon', client_id: clientId, api_key: apiKey });
    expect(answer.statusCode, answer.body).toBe(201);
    expect(answer.json().data).toMatchObject({ platform: 'ozon', account_id: clientId, key_hint: apiKey.slice(-4) });
    expect(answer.json().data.expires_at).not.toBeNull();
  });

  it('refuses a wrong key, an expired one and one without the products role', async () => {
    const { clientId, apiKey } = ozon.addSeller({ name: 'Other', roles: ['product'] });
    const wrong = await connect('anya', { platform: 'ozon', client_id: clientId, api_key: `${apiKey.slice(0, -1)}x` });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().error).toBe('STORE_WRONG');

    const old = ozon.addSeller({ name: 'Old', roles: ['product'], expiresAt: new Date(Date.now() - 3600 * 1000) });
    const expired = await connect('anya', { platform: 'ozon', client_id: old.clientId, api_key: old.apiKey });
    expect(expired.statusCode).toBe(422);
    expect(['STORE_EXPIRED', 'STORE_WRONG']).toContain(expired.json().error);

    const finance = ozon.addSeller({ name: 'Finance', roles: ['finance'] });
    const scoped = await connect('anya', { platform: 'ozon', client_id: finance.clientId, api_key: finance.apiKey }, 'ru');
    expect(scoped.statusCode).toBe(422);
    expect(scoped.json().error).toBe('STORE_SCOPE');
    expect(scoped.json().message).toContain('«Товары»');
  });
});

describe('Amazon', () => {
  it('keeps a private app whose refresh token opens the seller’s listings', async () => {
    const app = amazon.addSeller({ name: 'Anya US', listings: [{ sku: 'SNK-1', itemName: 'Sneaker' }] });
    const answer = await connect('anya', {
      platform: 'amazon',
      client_id: app.clientId,
      client_secret: app.clientSecret,
      refresh_token: app.refreshToken,
      seller_id: app.sellerId,
      region: 'na',
      marketplace_id: amazon.marketplaceId,
    });
    expect(answer.statusCode, answer.body).toBe(201);
    expect(answer.json().data).toMatchObject({ platform: 'amazon', key_hint: app.refreshToken.slice(-4) });
  });

  it('refuses a wrong client secret, a revoked refresh token and another seller’s id', async () => {
    const app = amazon.addSeller({ name: 'Anya EU' });
    const base = { platform: 'amazon', client_id: app.clientId, client_secret: app.clientSecret, refresh_token: app.refreshToken, seller_id: app.sellerId, region: 'eu', marketplace_id: amazon.marketplaceId };
    expect((await connect('anya', { ...base, client_secret: 'wrong-secret' })).json().error).toBe('STORE_WRONG');
    const other = amazon.addSeller({ name: 'Someone else' });
    const foreign = await connect('anya', { ...base, seller_id: other.sellerId });
    expect(foreign.statusCode).toBe(422);
    expect(foreign.json().error).toBe('STORE_SCOPE');
    amazon.revoke(app.refreshToken);
    expect((await connect('anya', base)).json().error).toBe('STORE_WRONG');
  });
});

describe('connections', () => {
  it('lists the platforms with their fields and rules, and which the seller connected', async () => {
    // Connected here: the tests run in any order.
    const { token } = wb.addSeller({ name: 'Аня', categories: ['content'] });
    expect((await connect('anya', { platform: 'wildberries', token })).statusCode).toBe(201);
    const answer = await t.app.inject({ method: 'GET', url: '/api/v1/publisher/platforms', headers: auth('anya') });
    expect(answer.statusCode).toBe(200);
    const platforms = answer.json().data as { id: string; connected: boolean; fields: { name: string; secret: boolean }[]; needs_public_url: boolean; public_url_reachable: boolean; rules: { replaces_all: boolean } }[];
    expect(platforms.map((p) => p.id)).toEqual(['wildberries', 'ozon', 'amazon', 'demo']);
    expect(platforms.find((p) => p.id === 'wildberries')).toMatchObject({ connected: true, needs_public_url: false, rules: { replaces_all: true } });
    expect(platforms.find((p) => p.id === 'ozon')).toMatchObject({ needs_public_url: true, public_url_reachable: true });
    expect(platforms.find((p) => p.id === 'amazon')!.fields.filter((f) => f.secret).map((f) => f.name)).toEqual(['client_secret', 'refresh_token']);
  });

  it('another seller’s connection is not found, for reading or deleting; the owner deletes it with its keys', async () => {
    const { token } = wb.addSeller({ name: 'Удаляемый', categories: ['content'] });
    const made = (await connect('anya', { platform: 'wildberries', token })).json().data;
    const foreign = await t.app.inject({ method: 'DELETE', url: `/api/v1/publisher/auth/${made.id}`, headers: auth('boris') });
    expect(foreign.statusCode).toBe(404);
    expect((await connections('boris')).map((c) => c.id)).not.toContain(made.id);
    const gone = await t.app.inject({ method: 'DELETE', url: `/api/v1/publisher/auth/${made.id}`, headers: auth('anya') });
    expect(gone.statusCode).toBe(200);
    expect(await t.app.database.db.select().from(storeConnections).where(eq(storeConnections.id, made.id))).toEqual([]);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/v1/publisher/auth/${made.id}`, headers: auth('anya') })).statusCode).toBe(404);
  });

  it('connects the demo store with no keys where it is offered, and nowhere else', async () => {
    const demo = await connect('boris', { platform: 'demo' });
    expect(demo.statusCode, demo.body).toBe(201);
    expect(demo.json().data).toMatchObject({ platform: 'demo', expires_at: null });

    const real = await createTestApp({ PUBLIC_URL: 'https://solestudio.example', RUN_JOBS: 'false', PAYMENTS_SANDBOX: 'false' });
    try {
      const seller = await signedInSeller(real, 'carla');
      const headers = { authorization: `Bearer ${seller.token}` };
      const platforms = (await real.app.inject({ method: 'GET', url: '/api/v1/publisher/platforms', headers })).json().data as { id: string }[];
      expect(platforms.map((p) => p.id)).not.toContain('demo');
      const refused = await real.app.inject({ method: 'POST', url: '/api/v1/publisher/auth', headers, payload: { platform: 'demo' } });
      expect(refused.statusCode).toBe(404);
      expect(refused.json().error).toBe('DEMO_STORE_OFF');
    } finally {
      await real.close();
    }
  });

  it('says when the marketplaces that fetch pictures cannot reach this server', async () => {
    const local = await createTestApp({ PUBLIC_URL: 'http://192.168.1.20:8080', RUN_JOBS: 'false' });
    try {
      const seller = await signedInSeller(local, 'dina');
      const platforms = (await local.app.inject({ method: 'GET', url: '/api/v1/publisher/platforms', headers: { authorization: `Bearer ${seller.token}` } })).json().data as { id: string; public_url_reachable: boolean }[];
      expect(platforms.find((p) => p.id === 'ozon')!.public_url_reachable).toBe(false);
    } finally {
      await local.close();
    }
  });
});

describe('the product picker', () => {
  const products = (name: string, platform: string, query: Record<string, string>) =>
    t.app.inject({ method: 'GET', url: `/api/v1/publisher/platforms/${platform}/products?${new URLSearchParams(query)}`, headers: auth(name) });

  it('pages through a Wildberries seller’s cards by cursor and finds one by its article', async () => {
    const cards = Array.from({ length: 23 }, (_, i) => ({ vendorCode: `KD-${String(i + 1).padStart(2, '0')}`, title: `Кеды ${i + 1}`, photos: i % 3 }));
    const { token } = wb.addSeller({ name: 'Каталог', categories: ['content'], cards });
    const connection = (await connect('boris', { platform: 'wildberries', token })).json().data.id as string;
    const first = await products('boris', 'wildberries', { connection });
    expect(first.statusCode, first.body).toBe(200);
    const page = first.json().data as { items: { article: string; pictures: number; thumbnail: string | null }[]; next_cursor: string | null };
    expect(page.items).toHaveLength(20);
    expect(page.next_cursor).not.toBeNull();
    const rest = (await products('boris', 'wildberries', { connection, cursor: page.next_cursor! })).json().data as typeof page;
    const seen = [...page.items, ...rest.items].map((item) => item.article);
    expect(new Set(seen).size).toBe(23);
    expect(rest.next_cursor).toBeNull();
    const withPhotos = [...page.items, ...rest.items].find((item) => item.article === 'KD-03')!;
    expect(withPhotos.pictures).toBe(2);
    expect((await fetch(withPhotos.thumbnail!)).status).toBe(200);

    const found = (await products('boris', 'wildberries', { connection, q: 'KD-07' })).json().data as typeof page;
    expect(found.items.map((item) => item.article)).toEqual(['KD-07']);
    expect((await products('boris', 'wildberries', { connection, cursor: 'not-a-cursor' })).statusCode).toBe(400);
  });

  it('lists Ozon products with their names and picture counts, and Amazon listings by SKU', async () => {
    const seller = ozon.addSeller({ name: 'Boris Ozon', products: [{ offerId: 'OZ-1', name: 'Ботинки', pictures: 3 }, { offerId: 'OZ-2', name: 'Туфли' }] });
    const oz = (await connect('boris', { platform: 'ozon', client_id: seller.clientId, api_key: seller.apiKey })).json().data.id as string;
    const listed = (await products('boris', 'ozon', { connection: oz })).json().data as { items: { article: string; title: string; pictures: number }[] };
    expect(listed.items.map(({ article, title, pictures }) => ({ article, title, pictures })).sort((a, b) => a.article.localeCompare(b.article))).toEqual([
      { article: 'OZ-1', title: 'Ботинки', pictures: 3 },
      { article: 'OZ-2', title: 'Туфли', pictures: 0 },
    ]);
    expect((await products('boris', 'ozon', { connection: oz, q: 'OZ-2' })).json().data.items.map((i: { article: string }) => i.article)).toEqual(['OZ-2']);

    const app = amazon.addSeller({ name: 'Boris US', listings: [{ sku: 'BOOT-1', itemName: 'Boot', pictures: 2 }, { sku: 'BOOT-2', itemName: 'Boot two' }] });
    const keys = { platform: 'amazon', client_id: app.clientId, client_secret: app.clientSecret, refresh_token: app.refreshToken, seller_id: app.sellerId, region: 'na', marketplace_id: amazon.marketplaceId };
    const am = (await connect('boris', keys)).json().data.id as string;
    const sku = (await products('boris', 'amazon', { connection: am, q: 'BOOT-1' })).json().data as { items: { id: string; title: string; pictures: number; thumbnail: string }[] };
    expect(sku.items).toEqual([expect.objectContaining({ id: 'BOOT-1', title: 'Boot', pictures: 2 })]);
  });

  it('another seller’s connection, or one of another platform, is not found; keys refused since are marked', async () => {
    const { token } = wb.addSeller({ name: 'Чужой', categories: ['content'] });
    const connection = (await connect('anya', { platform: 'wildberries', token })).json().data.id as string;
    expect((await products('boris', 'wildberries', { connection })).statusCode).toBe(404);
    expect((await products('anya', 'ozon', { connection })).statusCode).toBe(404);
    // Keys sealed under another server key (SECRETS_KEY changed) are not opened: the seller connects again.
    const [row] = await t.app.database.db.select().from(storeConnections).where(eq(storeConnections.id, connection));
    const sealed = row!.sealedKeys.split('.');
    await t.app.database.db.update(storeConnections).set({ sealedKeys: [sealed[0], 'ffffffff', ...sealed.slice(2)].join('.') }).where(eq(storeConnections.id, connection));
    const unreadable = await products('anya', 'wildberries', { connection });
    expect(unreadable.statusCode).toBe(409);
    expect(unreadable.json().error).toBe('STORE_KEYS_UNREADABLE');
    await t.app.database.db.update(storeConnections).set({ sealedKeys: row!.sealedKeys }).where(eq(storeConnections.id, connection));
    wb.failNext(1, 401);
    const refused = await products('anya', 'wildberries', { connection });
    expect(refused.statusCode).toBe(422);
    expect((await connections('anya')).find((c) => c.id === connection)).toMatchObject({ status: 'invalid' });
  });
});
