// The demo store the server plays itself (DEMO_STORE): connected with no keys, it gives the seller
// three labelled cards; results published to one go on it as on Wildberries (after the others,
// first, or in their place, the video with them), each confirmed, the seller told on the event
// stream and by mail; the same pictures sent twice are on the card once.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { eq } from 'drizzle-orm';
import { assets } from '../../server/db/schema';
import { demoStoreCards, storeConnections } from '../../server/db/schema-publisher';
import { demoStoreOf } from '../../server/publisher/platforms/demo';
import type { StoreProduct } from '../../contract/publisher';
import { listeningTestApp } from '../support/listening-app';
import type { TestApp } from '../support/test-app';
import { signedInSeller } from '../support/sellers';
import { pictureResult, publicationEnded } from '../support/publications';
import { waitForMail } from '../support/outbox';

let t: TestApp;
const sellers: Record<string, { token: string; id: string }> = {};

beforeAll(async () => {
  t = await listeningTestApp({ DEMO_STORE: 'true' });
  // A seller of its own per test: the tests run in any order, and each changes its seller's cards.
  for (const name of ['dasha', 'denis', 'mila', 'rita', 'sima', 'tanya']) sellers[name] = await signedInSeller(t, name);
}, 60_000);
afterAll(async () => {
  await t?.close();
});

const auth = (name: string) => ({ authorization: `Bearer ${sellers[name]!.token}`, 'accept-language': 'en' });

const picture = (name: string, hue: number) => pictureResult(t, sellers[name]!.token, hue);

/** A video result, as a CREATIVE_VIDEO task leaves one. */
async function video(name: string): Promise<string> {
  const key = `assets/${sellers[name]!.id}/demo-clip.mp4`;
  await t.app.storage.put(key, Buffer.from('\0\0\0\x18ftypmp42 a short clip'), 'video/mp4');
  const [row] = await t.app.database.db
    .insert(assets)
    .values({ userId: sellers[name]!.id, contentModule: 'CREATIVE_VIDEO', category: 'CREATIVE_VIDEO', storageKey: key, fileType: 'video/mp4', width: 720, height: 1280, byteSize: 24 })
    .returning({ id: assets.id });
  return row!.id;
}

/** The red of a card's first picture's first pixel. */
async function firstColour(card: StoreProduct): Promise<number> {
  const answer = await fetch(new URL(card.thumbnail!, t.app.config.publicUrl));
  const { data } = await sharp(Buffer.from(await answer.arrayBuffer())).raw().toBuffer({ resolveWithObject: true });
  return data[0]!;
}

async function cards(name: string, connection: string, q = ''): Promise<StoreProduct[]> {
  const answer = await t.app.inject({ method: 'GET', url: `/api/v1/publisher/platforms/demo/products?connection=${connection}&q=${encodeURIComponent(q)}`, headers: auth(name) });
  expect(answer.statusCode, answer.body).toBe(200);
  return answer.json().data.items;
}

async function connect(name: string): Promise<string> {
  const answer = await t.app.inject({ method: 'POST', url: '/api/v1/publisher/auth', headers: auth(name), payload: { platform: 'demo' } });
  expect(answer.statusCode, answer.body).toBe(201);
  return answer.json().data.id;
}

let keys = 0;
function publish(name: string, payload: object) {
  return t.app.inject({ method: 'POST', url: '/api/v1/publisher/publish', headers: { ...auth(name), 'idempotency-key': `demo-publish-${(keys += 1)}` }, payload });
}

/** The seller's event stream, and the events it has carried so far. */
async function stream(name: string) {
  const ticket = (await t.app.inject({ method: 'POST', url: '/api/v1/content/events/ticket', headers: auth(name) })).json().data.ticket as string;
  const chunks: string[] = [];
  const address = t.app.config.publicUrl;
  const request = http.get(`${address}/api/v1/events?ticket=${encodeURIComponent(ticket)}`, (res) => {
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => chunks.push(chunk));
  });
  await expect.poll(() => chunks.length, { timeout: 10_000 }).toBeGreaterThan(0);
  return {
    events: () =>
      chunks
        .join('')
        .split('\n')
        .filter((line) => line.startsWith('data: '))
        .map((line) => JSON.parse(line.slice(6)) as Record<string, unknown>),
    close: () => request.destroy(),
  };
}

describe('the demo store', () => {
  it('gives a seller who connects it three labelled cards, once, searchable by title or article', async () => {
    const connection = await connect('dasha');
    const first = await cards('dasha', connection);
    expect(first.map((card) => [card.article, card.pictures, card.has_video])).toEqual([
      ['DEMO-RUN-01', 2, false],
      ['DEMO-WNT-02', 1, false],
      ['DEMO-CLS-03', 0, false],
    ]);
    expect(first[0]!.title).toBe('Demo: running sneakers');
    const thumbnail = await fetch(new URL(first[0]!.thumbnail!, t.app.config.publicUrl));
    expect(thumbnail.status).toBe(200);
    expect((await sharp(Buffer.from(await thumbnail.arrayBuffer())).metadata()).width).toBe(900);

    await connect('dasha');
    expect(await cards('dasha', connection)).toHaveLength(3);
    expect((await cards('dasha', connection, 'boots')).map((card) => card.article)).toEqual(['DEMO-WNT-02']);
    expect((await cards('dasha', connection, 'cls-03')).map((card) => card.article)).toEqual(['DEMO-CLS-03']);
    expect(await cards('dasha', connection, '100%')).toEqual([]);
  });

  it('puts pictures after the card’s own and the video with them, and tells the seller on the stream and by mail', async () => {
    const connection = await connect('denis');
    const card = (await cards('denis', connection))[0]!;
    const ids = [await picture('denis', 30), await picture('denis', 220), await video('denis')];
    const live = await stream('denis');
    const startedAt = Date.now();
    try {
      const answer = await publish('denis', { connection_id: connection, product_id: card.id, product_title: card.title, asset_ids: ids, placement: 'gallery', mode: 'append' });
      expect(answer.statusCode, answer.body).toBe(201);
      const id = answer.json().data.id as string;
      const done = await publicationEnded(t, auth('denis'), id);
      expect(done.status).toBe('done');
      expect(done.items.map((item) => item.status)).toEqual(['applied', 'applied', 'applied']);
      const after = (await cards('denis', connection))[0]!;
      expect([after.pictures, after.has_video]).toEqual([4, true]);
      // The card's first picture is still its own; ours are its third and fourth.
      expect(after.thumbnail!.split('?')[0]).toBe(card.thumbnail!.split('?')[0]);
      const third = await fetch(new URL(done.items[0]!.remote_url!, t.app.config.publicUrl));
      const { data } = await sharp(Buffer.from(await third.arrayBuffer())).raw().toBuffer({ resolveWithObject: true });
      expect(Math.abs(data[0]! - 30)).toBeLessThanOrEqual(6);

      await expect.poll(() => live.events().find((event) => event.publication_id === id), { timeout: 10_000 }).toEqual({ type: 'publication_updated', publication_id: id, status: 'done', applied: 3, failed: 0 });
      const mail = await waitForMail(t.dataDir, 'denis@shop.example', { after: startedAt });
      expect(mail.subject).toBe('Your pictures are on the SoleStudio demo store card');
      expect(mail.text).toContain('All 3 of your results are on the “Demo: running sneakers” card');
    } finally {
      live.close();
    }
  });

  it('makes a picture the main one, or puts pictures in place of the card’s', async () => {
    const connection = await connect('mila');
    const [sneakers, boots] = await cards('mila', connection);
    const main = await publish('mila', { connection_id: connection, product_id: boots!.id, asset_ids: [await picture('mila', 90)], placement: 'main', mode: 'append' });
    expect((await publicationEnded(t, auth('mila'), main.json().data.id)).status).toBe('done');
    const replaced = await publish('mila', { connection_id: connection, product_id: sneakers!.id, asset_ids: [await picture('mila', 150), await picture('mila', 200)], placement: 'gallery', mode: 'replace' });
    expect((await publicationEnded(t, auth('mila'), replaced.json().data.id)).status).toBe('done');

    const [replacedCard, mainCard] = await cards('mila', connection);
    expect(mainCard!.pictures).toBe(2);
    expect(await firstColour(mainCard!)).toBeCloseTo(90, -1);
    // The card's own two are gone; ours are its only pictures, the first of them in front.
    expect(replacedCard!.pictures).toBe(2);
    expect(await firstColour(replacedCard!)).toBeCloseTo(150, -1);
  });

  it('keeps what an earlier run placed when the job runs again after part of it was marked applied', async () => {
    const connection = await connect('rita');
    const card = (await cards('rita', connection))[1]!;
    const demo = demoStoreOf(t.app.database.db, t.app.storage);
    const bytes = (hue: number) => sharp({ create: { width: 900, height: 1200, channels: 3, background: { r: hue, g: 0, b: 0 } } }).jpeg().toBuffer();
    const context = {
      userId: sellers.rita!.id,
      cardId: card.id,
      publicationId: crypto.randomUUID(),
      placement: 'main' as const,
      mode: 'replace' as const,
      record: async () => {},
    };
    const item = (position: number, status: 'pending' | 'sent', hue: number) => ({ position, kind: 'image' as const, status, slot: null, source: 'assets/x.jpg', bytes: () => bytes(hue) });
    await demo.publish(context, [item(0, 'pending', 40), item(1, 'pending', 120), item(2, 'pending', 200)]);
    // The first was marked applied before the job stopped; the others run again.
    await demo.publish(context, [item(1, 'sent', 120), item(2, 'sent', 200)]);
    const [row] = await t.app.database.db.select().from(demoStoreCards).where(eq(demoStoreCards.id, card.id));
    expect((JSON.parse(row!.media) as { key: string }[]).map((media) => media.key.split('-').pop())).toEqual(['0.jpg', '1.jpg', '2.jpg']);
  });

  it('puts pictures sent twice on the card once', async () => {
    const connection = await connect('sima');
    const card = (await cards('sima', connection))[2]!;
    const before = card.pictures;
    const demo = demoStoreOf(t.app.database.db, t.app.storage);
    const bytes = await sharp({ create: { width: 900, height: 1200, channels: 3, background: '#808080' } }).jpeg().toBuffer();
    const recorded: string[] = [];
    const context = {
      userId: sellers.sima!.id,
      cardId: card.id,
      publicationId: crypto.randomUUID(),
      placement: 'gallery' as const,
      mode: 'append' as const,
      record: async (position: number, fields: { status?: string }) => void recorded.push(`${position}:${fields.status}`),
    };
    const item = (status: 'pending' | 'sent') => ({ position: 0, kind: 'image' as const, status, slot: null, source: 'assets/x.jpg', bytes: async () => bytes });
    expect(await demo.publish(context, [item('pending')])).toBe(true);
    // The job run again after the copy was made but before it was marked applied.
    expect(await demo.publish(context, [item('sent')])).toBe(true);
    const [row] = await t.app.database.db.select().from(demoStoreCards).where(eq(demoStoreCards.id, card.id));
    expect((JSON.parse(row!.media) as unknown[]).length).toBe(before + 1);
    expect(recorded).toEqual(['0:sent', '0:applied', '0:applied']);
    expect(await demo.publish({ ...context, userId: sellers.denis!.id }, [item('pending')])).toBe(false);
  });

  it('is not found for another seller, and refuses a cursor it did not give', async () => {
    const connection = await connect('dasha');
    const other = await t.app.inject({ method: 'GET', url: `/api/v1/publisher/platforms/demo/products?connection=${connection}`, headers: auth('denis') });
    expect(other.statusCode).toBe(404);
    for (const cursor of ['1e30', '-20', 'abc']) {
      const bad = await t.app.inject({ method: 'GET', url: `/api/v1/publisher/platforms/demo/products?connection=${connection}&cursor=${cursor}`, headers: auth('dasha') });
      expect(bad.statusCode, cursor).toBe(400);
    }
  });

  it('fails the pictures of a card the demo store does not have', async () => {
    const connection = await connect('tanya');
    const answer = await publish('tanya', { connection_id: connection, product_id: 'not-a-card', asset_ids: [await picture('tanya', 60)], placement: 'gallery', mode: 'append' });
    const done = await publicationEnded(t, auth('tanya'), answer.json().data.id);
    expect(done.status).toBe('failed');
    expect(done.items[0]!.message).toBe('The store has no card not-a-card.');
  });
});

describe('a server that no longer offers the demo store', () => {
  it('shows no demo cards and publishes nothing to them', async () => {
    const other = await listeningTestApp({ DEMO_STORE: 'false' });
    try {
      // A connection and a publication made while the demo store was offered, on the same database.
      const seller = await signedInSeller(other, 'dora');
      const headers = { authorization: `Bearer ${seller.token}`, 'accept-language': 'en' };
      const [made] = await other.app.database.db
        .insert(storeConnections)
        .values({ userId: seller.id, platform: 'demo', accountId: 'demo', accountName: 'SoleStudio demo', sealedKeys: 'none', keyHint: '' })
        .returning({ id: storeConnections.id });
      const products = await other.app.inject({ method: 'GET', url: `/api/v1/publisher/platforms/demo/products?connection=${made!.id}`, headers });
      expect(products.statusCode).toBe(404);
      expect(products.json().error).toBe('DEMO_STORE_OFF');
      const publish = await other.app.inject({
        method: 'POST',
        url: '/api/v1/publisher/publish',
        headers: { ...headers, 'idempotency-key': 'demo-off-publish-1' },
        payload: { connection_id: made!.id, product_id: crypto.randomUUID(), asset_ids: [crypto.randomUUID()], placement: 'gallery', mode: 'append' },
      });
      expect(publish.statusCode).toBe(404);
    } finally {
      await other.close();
    }
  });
});
