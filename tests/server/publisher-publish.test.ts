// Publishing results onto a Wildberries card (/api/v1/publisher/publish) against the stand-in:
// appended to the gallery, made the main picture, replacing what was there; a picture the
// platform's rules refuse named before anything is sent; a platform that asks to slow down, that
// applies late, or whose answer is lost; the same request twice publishing once; another seller's
// publication not found.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { createTestApp, type TestApp } from '../support/test-app';
import { signedInSeller } from '../support/sellers';
import { pictureResult, publicationEnded } from '../support/publications';
import { startFakeWildberries } from '../support/fakes/wildberries';

let t: TestApp;
let wb: Awaited<ReturnType<typeof startFakeWildberries>>;
const sellers: Record<string, { token: string; id: string }> = {};

beforeAll(async () => {
  // A burst of 20: the stand-in's own limit is tried in its test below with the real one.
  wb = await startFakeWildberries({ burst: 20, ratePerMinute: 600 });
  t = await createTestApp({ PUBLIC_URL: 'http://shop.test', WILDBERRIES_API_URL: wb.origin });
  for (const name of ['galina', 'gleb']) sellers[name] = await signedInSeller(t, name);
}, 60_000);
afterAll(async () => {
  await t?.close();
  await wb?.close();
});

const auth = (name: string) => ({ authorization: `Bearer ${sellers[name]!.token}`, 'accept-language': 'en' });
let keys = 0;

/** A result in the seller's materials: a product shot of `width` × `height`, coloured by `hue`. */
const result = (name: string, hue: number, width?: number, height?: number) => pictureResult(t, sellers[name]!.token, hue, width, height);

async function store(name: string, photos: number) {
  const seller = wb.addSeller({ name: `${name}'s shoes`, categories: ['content'], cards: [{ vendorCode: `${name}-1`, title: 'Кеды', photos }] });
  const connection = (await t.app.inject({ method: 'POST', url: '/api/v1/publisher/auth', headers: auth(name), payload: { platform: 'wildberries', token: seller.token } })).json().data.id as string;
  const card = wb.cards(seller.token)[0]!;
  return { token: seller.token, connection, nmID: card.nmID };
}

function publish(name: string, payload: object, key = `publish-${(keys += 1)}-key`) {
  return t.app.inject({ method: 'POST', url: '/api/v1/publisher/publish', headers: { ...auth(name), 'idempotency-key': key }, payload });
}

/** The publication once its job has ended (a bound sized for a busy machine). */
const ended = (name: string, id: string) => publicationEnded(t, auth(name), id);

/** The card's pictures as colours (their first pixel), in order. */
async function colours(token: string): Promise<number[]> {
  const card = wb.cards(token)[0]!;
  return Promise.all(
    card.photos.map(async (photo) => {
      const { data } = await sharp(Buffer.from(await (await fetch(photo.big)).arrayBuffer())).raw().toBuffer({ resolveWithObject: true });
      return data[0]!;
    }),
  );
}
const near = (values: number[], expected: number[]) => values.length === expected.length && values.every((v, i) => Math.abs(v - expected[i]!) <= 6);

describe('publishing to Wildberries', () => {
  it('adds pictures after the card’s own, each confirmed on the card', async () => {
    const shop = await store('galina', 2);
    const before = await colours(shop.token);
    const ids = [await result('galina', 40), await result('galina', 200)];
    const answer = await publish('galina', { connection_id: shop.connection, product_id: String(shop.nmID), asset_ids: ids, placement: 'gallery', mode: 'append' });
    expect(answer.statusCode, answer.body).toBe(201);
    const done = await ended('galina', answer.json().data.id);
    expect(done.status).toBe('done');
    expect(done.items.map((item) => item.status)).toEqual(['applied', 'applied']);
    expect(done.items.every((item) => item.remote_url)).toBe(true);
    expect(near(await colours(shop.token), [...before, 40, 200])).toBe(true);
  });

  it('makes the first picture the main one, keeping the others after it, done only once the new order shows', async () => {
    const shop = await store('galina', 2);
    const before = await colours(shop.token);
    // Slow to apply: a new order keeps the count, so only the card's change says it was applied.
    wb.applyAfter(800);
    try {
      const answer = await publish('galina', { connection_id: shop.connection, product_id: String(shop.nmID), asset_ids: [await result('galina', 90)], placement: 'main', mode: 'append' });
      expect((await ended('galina', answer.json().data.id)).status).toBe('done');
      expect(near(await colours(shop.token), [90, ...before])).toBe(true);
    } finally {
      wb.applyAfter(0);
    }
  });

  it('replaces the card’s pictures, even when Wildberries applies late and asks to slow down', async () => {
    const shop = await store('galina', 3);
    wb.applyAfter(1500);
    wb.failNext(1, 429);
    try {
      const answer = await publish('galina', { connection_id: shop.connection, product_id: String(shop.nmID), asset_ids: [await result('galina', 10), await result('galina', 240)], placement: 'gallery', mode: 'replace' });
      expect((await ended('galina', answer.json().data.id)).status).toBe('done');
      expect(near(await colours(shop.token), [10, 240])).toBe(true);
    } finally {
      wb.applyAfter(0);
    }
  });

  it('replaces the pictures of a full card: its own make room first, as a card holds at most 30', async () => {
    const shop = await store('galina', 29);
    const ids = [await result('galina', 20), await result('galina', 110), await result('galina', 220)];
    const answer = await publish('galina', { connection_id: shop.connection, product_id: String(shop.nmID), asset_ids: ids, placement: 'gallery', mode: 'replace' });
    const done = await ended('galina', answer.json().data.id);
    expect(done.items.map((item) => item.status)).toEqual(['applied', 'applied', 'applied']);
    expect(near(await colours(shop.token), [20, 110, 220])).toBe(true);
  });

  it('names a picture the platform’s rules refuse before sending, and sends the rest', async () => {
    const shop = await store('galina', 0);
    const small = await result('galina', 120, 600, 800);
    const answer = await publish('galina', { connection_id: shop.connection, product_id: String(shop.nmID), asset_ids: [small, await result('galina', 60)], placement: 'gallery', mode: 'append' });
    const refused = answer.json().data.items[0];
    expect(refused).toMatchObject({ status: 'failed' });
    expect(refused.message).toContain('700×900');
    const done = await ended('galina', answer.json().data.id);
    expect(done.status).toBe('partial');
    expect(done.items.map((item) => item.status)).toEqual(['failed', 'applied']);
    expect(near(await colours(shop.token), [60])).toBe(true);
  });

  it('publishes once for the same request twice, and once when an answer is lost', async () => {
    const shop = await store('galina', 1);
    const before = await colours(shop.token);
    const payload = { connection_id: shop.connection, product_id: String(shop.nmID), asset_ids: [await result('galina', 170)], placement: 'gallery', mode: 'append' };
    wb.loseNextAnswers(1);
    const first = await publish('galina', payload, 'same-request-key');
    const again = await publish('galina', payload, 'same-request-key');
    expect(again.statusCode).toBe(200);
    expect(again.json().data.id).toBe(first.json().data.id);
    expect((await publish('galina', { ...payload, mode: 'replace' }, 'same-request-key')).statusCode).toBe(409);
    expect((await ended('galina', first.json().data.id)).status).toBe('done');
    expect(near(await colours(shop.token), [...before, 170])).toBe(true);
  });

  it('fails the pictures of a card the store does not have; another seller’s publication is not found', async () => {
    const shop = await store('gleb', 1);
    const answer = await publish('gleb', { connection_id: shop.connection, product_id: '1', asset_ids: [await result('gleb', 30)], placement: 'gallery', mode: 'append' });
    const done = await ended('gleb', answer.json().data.id);
    expect(done.status).toBe('failed');
    expect(done.items[0]!.message).toContain('no card 1');
    expect((await t.app.inject({ method: 'GET', url: `/api/v1/publisher/publish/${answer.json().data.id}`, headers: auth('galina') })).statusCode).toBe(404);
    // Another seller's connection or results cannot be published with.
    const theirs = await publish('galina', { connection_id: shop.connection, product_id: String(shop.nmID), asset_ids: [await result('galina', 5)], placement: 'gallery', mode: 'append' });
    expect(theirs.statusCode).toBe(404);
    const list = (await t.app.inject({ method: 'GET', url: '/api/v1/publisher/publish', headers: auth('gleb') })).json();
    expect(list.data.map((p: { id: string }) => p.id)).toEqual([answer.json().data.id]);
    expect(list.meta).toMatchObject({ total: 1, total_pages: 1, page: 1 });
  });
});
