// Publishing results onto an Ozon product against the stand-in, which fetches each picture from
// the signed link this server gives (so the server listens on its PUBLIC_URL here): added after the
// product's pictures or replacing them, a picture Ozon refuses named with its words, an import that
// finishes late, and a second run that asks about the same import rather than sending again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { eq } from 'drizzle-orm';
import { assets } from '../../server/db/schema';
import type { TestApp } from '../support/test-app';
import { listeningTestApp } from '../support/listening-app';
import { signedInSeller } from '../support/sellers';
import { publicationEnded } from '../support/publications';
import { createAsset, uploadEditFile } from '../support/edits';
import { startFakeOzon } from '../support/fakes/ozon';

let t: TestApp;
let ozon: Awaited<ReturnType<typeof startFakeOzon>>;
let seller: { token: string; id: string };

beforeAll(async () => {
  ozon = await startFakeOzon();
  t = await listeningTestApp({ OZON_API_URL: ozon.origin });
  seller = await signedInSeller(t, 'oksana');
}, 60_000);
afterAll(async () => {
  await t?.close();
  await ozon?.close();
});

const auth = { get authorization() { return `Bearer ${seller.token}`; }, 'accept-language': 'en' };
let keys = 0;

async function result(hue: number): Promise<string> {
  const bytes = await sharp({ create: { width: 900, height: 1200, channels: 3, background: { r: hue, g: 255 - hue, b: 128 } } }).jpeg().toBuffer();
  const upload = await uploadEditFile(t, seller.token, bytes, 'image edit');
  const made = await createAsset(t, seller.token, upload.file_key);
  expect(made.statusCode, made.body).toBe(200);
  return made.json().data[0].id as string;
}

async function product(pictures: number) {
  const offerId = `OZ-${(keys += 1)}`;
  const shop = ozon.addSeller({ name: `Oksana ${keys}`, products: [{ offerId, name: 'Ботинки', pictures }] });
  const connection = (await t.app.inject({ method: 'POST', url: '/api/v1/publisher/auth', headers: auth, payload: { platform: 'ozon', client_id: shop.clientId, api_key: shop.apiKey } })).json().data.id as string;
  return { shop, connection, productId: String(ozon.products(shop.clientId)[0]!.product_id) };
}

const publish = (payload: object) => t.app.inject({ method: 'POST', url: '/api/v1/publisher/publish', headers: { ...auth, 'idempotency-key': `ozon-publish-${(keys += 1)}` }, payload });

const ended = (id: string) => publicationEnded(t, auth, id);

/** A product's pictures as a buyer sees them: the main one, then the others. */
function pictures(clientId: string): string[] {
  const held = ozon.products(clientId)[0]!;
  return [...(held.primary_image ? [held.primary_image] : []), ...held.images];
}

async function firstPixels(urls: string[]): Promise<number[]> {
  return Promise.all(urls.map(async (url) => (await sharp(Buffer.from(await (await fetch(url)).arrayBuffer())).raw().toBuffer())[0]!));
}

describe('publishing to Ozon', () => {
  it('adds pictures after the product’s own, fetched by Ozon from signed links, and shows where Ozon keeps them', async () => {
    const { shop, connection, productId } = await product(2);
    const before = pictures(shop.clientId).length;
    const answer = await publish({ connection_id: connection, product_id: productId, asset_ids: [await result(30), await result(220)], placement: 'gallery', mode: 'append' });
    expect(answer.statusCode, answer.body).toBe(201);
    const done = await ended(answer.json().data.id);
    expect(done.status).toBe('done');
    const images = pictures(shop.clientId);
    expect(images).toHaveLength(before + 2);
    expect(done.items.map((item) => item.remote_url)).toEqual(images.slice(-2));
    const pixels = await firstPixels(images.slice(-2));
    expect(Math.abs(pixels[0]! - 30)).toBeLessThanOrEqual(6);
    expect(Math.abs(pixels[1]! - 220)).toBeLessThanOrEqual(6);
  });

  it('replaces the pictures, waiting for an import that finishes late; a picture Ozon refuses is named with its words', async () => {
    const { shop, connection, productId } = await product(3);
    ozon.applyAfter(1500);
    try {
      const good = await result(100);
      const refusedId = await result(160);
      // Ozon refuses links it cannot take; the stand-in refuses this one's by the asset's storage path.
      const [refused] = await t.app.database.db.select({ key: assets.storageKey }).from(assets).where(eq(assets.id, refusedId));
      ozon.refuseUrlsContaining(refused!.key, 'Picture could not be downloaded');
      const answer = await publish({ connection_id: connection, product_id: productId, asset_ids: [good, refusedId], placement: 'gallery', mode: 'replace' });
      const done = await ended(answer.json().data.id);
      expect(done.status).toBe('partial');
      expect(done.items.map((item) => item.status)).toEqual(['applied', 'failed']);
      expect(done.items[1]!.message).toContain('could not be downloaded');
      expect(pictures(shop.clientId)).toHaveLength(1);
      // One import only: a late one is asked about, not sent again.
      expect(ozon.requests.filter((r) => r.path === '/v2/product/pictures/import' && r.clientId === shop.clientId)).toHaveLength(1);
    } finally {
      ozon.applyAfter(0);
    }
  });

  it('publishes once when Ozon’s answer to the import is lost: the same list is sent again, and nothing doubles', async () => {
    const { shop, connection, productId } = await product(2);
    const before = pictures(shop.clientId);
    ozon.loseNextAnswers(1);
    const answer = await publish({ connection_id: connection, product_id: productId, asset_ids: [await result(70)], placement: 'gallery', mode: 'append' });
    const done = await ended(answer.json().data.id);
    expect(done.status).toBe('done');
    const after = pictures(shop.clientId);
    expect(after).toHaveLength(before.length + 1);
    expect(after.slice(0, before.length)).toEqual(before);
    expect(ozon.requests.filter((r) => r.path === '/v2/product/pictures/import' && r.clientId === shop.clientId)).toHaveLength(2);
  });
});
