// Publishing results onto an Amazon listing against the stand-in, which fetches each picture from
// the signed link this server gives and checks it as Amazon does: the main image on pure white, the
// others after it; a main image clearly not on white named before sending, a close one refused with
// Amazon's issue; replace-all deleting the pictures not sent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import type { TestApp } from '../support/test-app';
import { listeningTestApp } from '../support/listening-app';
import { signedInSeller } from '../support/sellers';
import { publicationEnded } from '../support/publications';
import { createAsset, uploadEditFile } from '../support/edits';
import { startFakeAmazon } from '../support/fakes/amazon';

let t: TestApp;
let amazon: Awaited<ReturnType<typeof startFakeAmazon>>;
let seller: { token: string; id: string };

beforeAll(async () => {
  amazon = await startFakeAmazon();
  t = await listeningTestApp({ AMAZON_TOKEN_URL: amazon.tokenUrl, AMAZON_API_URL: amazon.origin });
  seller = await signedInSeller(t, 'amelia');
}, 60_000);
afterAll(async () => {
  await t?.close();
  await amazon?.close();
});

const auth = () => ({ authorization: `Bearer ${seller.token}`, 'accept-language': 'en' });
let counter = 0;

/** A product shot: a shoe-coloured block on `background`. */
async function result(background: number, shoe = 40): Promise<string> {
  const block = await sharp({ create: { width: 600, height: 400, channels: 3, background: { r: shoe, g: shoe, b: 200 } } }).png().toBuffer();
  const jpeg = await sharp({ create: { width: 1200, height: 1200, channels: 3, background: { r: background, g: background, b: background } } })
    .composite([{ input: block, left: 300, top: 400 }])
    .jpeg({ quality: 95 })
    .toBuffer();
  const upload = await uploadEditFile(t, seller.token, jpeg, 'image edit');
  const made = await createAsset(t, seller.token, upload.file_key);
  expect(made.statusCode, made.body).toBe(200);
  return made.json().data[0].id as string;
}

async function listing(pictures: number) {
  const sku = `SKU-${(counter += 1)}`;
  const app = amazon.addSeller({ name: `Amelia ${counter}`, listings: [{ sku, itemName: 'Sneaker', pictures }] });
  const connection = (
    await t.app.inject({
      method: 'POST',
      url: '/api/v1/publisher/auth',
      headers: auth(),
      payload: { platform: 'amazon', client_id: app.clientId, client_secret: app.clientSecret, refresh_token: app.refreshToken, seller_id: app.sellerId, region: 'na', marketplace_id: amazon.marketplaceId },
    })
  ).json().data.id as string;
  return { sku, sellerId: app.sellerId, connection };
}

const publish = (payload: object) => t.app.inject({ method: 'POST', url: '/api/v1/publisher/publish', headers: { ...auth(), 'idempotency-key': `amazon-publish-${(counter += 1)}` }, payload });

const ended = (id: string) => publicationEnded(t, auth(), id);

const images = (sellerId: string, sku: string) => amazon.listings(sellerId).find((l) => l.sku === sku)!.images;

describe('publishing to Amazon', () => {
  it('makes the first picture the main one and moves the listing’s pictures after it', async () => {
    const { sku, sellerId, connection } = await listing(2);
    const before = images(sellerId, sku);
    const answer = await publish({ connection_id: connection, product_id: sku, asset_ids: [await result(255), await result(255, 90)], placement: 'main', mode: 'append' });
    expect(answer.statusCode, answer.body).toBe(201);
    const done = await ended(answer.json().data.id);
    expect(done.status).toBe('done');
    const after = images(sellerId, sku);
    expect(after.main).toBe(done.items[0]!.remote_url);
    expect(after.others.slice(0, 3)).toEqual([done.items[1]!.remote_url, before.main, before.others[0]]);
  });

  it('names a main image that is not on pure white before sending, and keeps the listing’s', async () => {
    const { sku, sellerId, connection } = await listing(1);
    const before = images(sellerId, sku);
    const patches = amazon.requests.filter((r) => r.method === 'PATCH').length;
    const answer = await publish({ connection_id: connection, product_id: sku, asset_ids: [await result(200), await result(255, 90)], placement: 'main', mode: 'append' });
    expect(answer.statusCode, answer.body).toBe(201);
    const refused = answer.json().data.items[0];
    expect(refused).toMatchObject({ status: 'failed' });
    expect(refused.message).toContain('pure white (RGB 255, 255, 255)');
    // The second goes on as the main picture in its place.
    const done = await ended(answer.json().data.id);
    expect(done.items.map((item) => item.status)).toEqual(['failed', 'applied']);
    expect(images(sellerId, sku).main).toBe(done.items[1]!.remote_url);
    expect(images(sellerId, sku).others[0]).toBe(before.main);
    expect(amazon.requests.filter((r) => r.method === 'PATCH').length).toBe(patches + 1);
  });

  it('leaves the close calls to Amazon: a main image nearly all white round is sent, and refused with Amazon’s issue', async () => {
    const { sku, sellerId, connection } = await listing(1);
    const before = images(sellerId, sku);
    // A shoe touching the frame along 4% of it: white enough to send, not for Amazon.
    const block = await sharp({ create: { width: 200, height: 190, channels: 3, background: { r: 30, g: 30, b: 30 } } }).png().toBuffer();
    const jpeg = await sharp({ create: { width: 1200, height: 1200, channels: 3, background: '#ffffff' } }).composite([{ input: block, left: 0, top: 500 }]).jpeg({ quality: 95 }).toBuffer();
    const upload = await uploadEditFile(t, seller.token, jpeg, 'image edit');
    const id = (await createAsset(t, seller.token, upload.file_key)).json().data[0].id as string;
    const answer = await publish({ connection_id: connection, product_id: sku, asset_ids: [id], placement: 'main', mode: 'append' });
    expect(answer.json().data.items[0].status).toBe('pending');
    const done = await ended(answer.json().data.id);
    expect(done.status).toBe('failed');
    expect(done.items[0]!.message).toMatch(/non-pure white background/);
    expect(images(sellerId, sku).main).toBe(before.main);
  });

  it('replaces every picture, deleting the ones not sent', async () => {
    const { sku, sellerId, connection } = await listing(3);
    const answer = await publish({ connection_id: connection, product_id: sku, asset_ids: [await result(255), await result(255, 120)], placement: 'gallery', mode: 'replace' });
    const done = await ended(answer.json().data.id);
    expect(done.status).toBe('done');
    const after = images(sellerId, sku);
    expect(after.main).toBe(done.items[0]!.remote_url);
    expect(after.others.filter(Boolean)).toEqual([done.items[1]!.remote_url]);
  });
});
