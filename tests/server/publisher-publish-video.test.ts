// Publishing a video result onto a Wildberries card (/api/v1/publisher/publish) against the
// stand-in: the video goes by upload (/content/v3/media/file) as photo number 1, Wildberries' video
// place, and the pictures of the same publication to their numbers after the card's own; the card
// read back shows the video and the pictures, and each item ends applied — also when the pictures
// are made the main ones (a media/save, which keeps only the media it names) and when a new video
// takes the place of the card's. A video over Wildberries' size, or any video to Ozon (which takes
// none through its API), is named before anything is sent. The app reaches the stand-in through a
// small proxy here, which sees each upload's X-Nm-Id and X-Photo-Number (the stand-in keeps none).
import crypto from 'node:crypto';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { assets } from '../../server/db/schema';
import { translate } from '../../server/lib/i18n';
import { locateFfmpeg } from '../../server/studio/video';
import { MEDIA_RULES } from '../../contract/publisher';
import { createTestApp, type TestApp } from '../support/test-app';
import { signedInSeller } from '../support/sellers';
import { pictureResult, publicationEnded } from '../support/publications';
import { relay } from '../support/held-proxy';
import { localServer, type LocalServer } from '../support/local-http';
import { startFakeWildberries } from '../support/fakes/wildberries';
import { startFakeOzon } from '../support/fakes/ozon';

let t: TestApp;
let wb: Awaited<ReturnType<typeof startFakeWildberries>>;
let ozon: Awaited<ReturnType<typeof startFakeOzon>>;
let proxy: LocalServer;
const sellers: Record<string, { token: string; id: string }> = {};

/** What reached Wildberries' /content/v3/media/file: the card, the number, the whole request body. */
interface Upload {
  nmId: number;
  number: number;
  body: Buffer;
}
const uploads: Upload[] = [];
/**
 * A video Wildberries takes longer to apply than pictures (it makes a stream of it; a picture is
 * only resized): its upload is applied `ms` after it is answered, the others `others` after theirs.
 */
let slowVideo: { bytes: Buffer; ms: number; others: number } | null = null;

/** A 360×640 H.264 MP4 of ffmpeg's test pattern, `seconds` long (which tells two clips apart). */
function clip(seconds: number): Buffer {
  const ffmpeg = locateFfmpeg(undefined);
  expect(ffmpeg, 'ffmpeg on PATH').not.toBeNull();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'publish-video-'));
  const file = path.join(dir, 'clip.mp4');
  const made = spawnSync(ffmpeg!, ['-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', `testsrc2=size=360x640:rate=25:duration=${seconds}`, '-pix_fmt', 'yuv420p', '-c:v', 'libx264', file]);
  expect(made.status, String(made.stderr)).toBe(0);
  const bytes = fs.readFileSync(file);
  fs.rmSync(dir, { recursive: true, force: true });
  return bytes;
}
let first: Buffer;
let second: Buffer;

beforeAll(async () => {
  first = clip(1);
  second = clip(2);
  wb = await startFakeWildberries({ burst: 20, ratePerMinute: 600 });
  ozon = await startFakeOzon();
  // In front of the stand-in, which keeps no request's headers: each upload's X-Nm-Id and
  // X-Photo-Number are seen here on their way, and every request passed on as it came.
  proxy = await localServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', async () => {
      const body = Buffer.concat(chunks);
      const url = request.url ?? '/';
      if (url === '/content/v3/media/file') uploads.push({ nmId: Number(request.headers['x-nm-id']), number: Number(request.headers['x-photo-number']), body });
      const slow = url === '/content/v3/media/file' && slowVideo && body.includes(slowVideo.bytes) ? slowVideo : null;
      const headers = Object.fromEntries(
        Object.entries(request.headers).filter(
          (entry): entry is [string, string] => typeof entry[1] === 'string' && !['host', 'connection', 'content-length', 'transfer-encoding'].includes(entry[0]),
        ),
      );
      try {
        if (slow) wb.applyAfter(slow.ms);
        const answer = await fetch(`${wb.origin}${url}`, { method: request.method, headers, body: request.method === 'GET' || request.method === 'HEAD' ? undefined : body }).finally(
          () => slow && wb.applyAfter(slow.others),
        );
        await relay(answer, response);
      } catch {
        response.destroy();
      }
    });
  });
  t = await createTestApp({ PUBLIC_URL: 'http://shop.test', WILDBERRIES_API_URL: proxy.origin, OZON_API_URL: ozon.origin });
  for (const name of ['vika', 'olya']) sellers[name] = await signedInSeller(t, name);
}, 60_000);
afterAll(async () => {
  await t?.close();
  await proxy?.close();
  await wb?.close();
  await ozon?.close();
});

const auth = (name: string) => ({ authorization: `Bearer ${sellers[name]!.token}`, 'accept-language': 'en' });
let keys = 0;

/** A picture result in the seller's materials, 900 × 1200, coloured by `hue`. */
const picture = (name: string, hue: number) => pictureResult(t, sellers[name]!.token, hue);

/** A video result, stored and listed as a CREATIVE_VIDEO task leaves one. */
async function video(name: string, bytes: Buffer): Promise<string> {
  const key = `assets/${sellers[name]!.id}/${crypto.randomUUID()}.mp4`;
  await t.app.storage.put(key, bytes, 'video/mp4');
  const [row] = await t.app.database.db
    .insert(assets)
    .values({ userId: sellers[name]!.id, contentModule: 'CREATIVE_VIDEO', category: 'CREATIVE_VIDEO', storageKey: key, fileType: 'video/mp4', width: 360, height: 640, byteSize: bytes.length })
    .returning({ id: assets.id });
  return row!.id;
}

async function store(name: string, photos: number) {
  const seller = wb.addSeller({ name: `${name}'s boots ${(keys += 1)}`, categories: ['content'], cards: [{ vendorCode: `${name}-${keys}`, title: 'Ботинки', photos }] });
  const answer = await t.app.inject({ method: 'POST', url: '/api/v1/publisher/auth', headers: auth(name), payload: { platform: 'wildberries', token: seller.token } });
  expect(answer.statusCode, answer.body).toBe(201);
  return { token: seller.token, connection: answer.json().data.id as string, nmID: wb.cards(seller.token)[0]!.nmID };
}

function publish(name: string, payload: object) {
  return t.app.inject({ method: 'POST', url: '/api/v1/publisher/publish', headers: { ...auth(name), 'idempotency-key': `publish-video-${(keys += 1)}` }, payload });
}

const ended = (name: string, id: string) => publicationEnded(t, auth(name), id);

/** The card's pictures as colours (their first pixel), in order. */
async function colours(token: string): Promise<number[]> {
  return Promise.all(
    wb.cards(token)[0]!.photos.map(async (photo) => {
      const { data } = await sharp(Buffer.from(await (await fetch(photo.big)).arrayBuffer())).raw().toBuffer({ resolveWithObject: true });
      return data[0]!;
    }),
  );
}
const near = (values: number[], expected: number[]) => values.length === expected.length && values.every((v, i) => Math.abs(v - expected[i]!) <= 6);

/** The video the card shows now, as its bytes; null when it shows none. */
async function shownVideo(token: string): Promise<Buffer | null> {
  const address = wb.cards(token)[0]!.video;
  return address ? Buffer.from(await (await fetch(address)).arrayBuffer()) : null;
}

/** Which of the two clips the card shows now ('none' without a video). */
async function videoOn(token: string): Promise<'first' | 'second' | 'none' | 'another'> {
  const shown = await shownVideo(token);
  return !shown ? 'none' : shown.equals(first) ? 'first' : shown.equals(second) ? 'second' : 'another';
}

/** The uploads made to a card since `from`, as [number, which file] in the order of their numbers. */
const uploadsTo = (nmID: number, from: number, files: Record<string, Buffer>) =>
  uploads
    .slice(from)
    .filter((upload) => upload.nmId === nmID)
    .map((upload) => [upload.number, Object.entries(files).find(([, bytes]) => upload.body.includes(bytes))?.[0] ?? 'picture'] as const)
    .sort((a, b) => a[0] - b[0]);

describe('publishing a video to Wildberries', () => {
  it('uploads the video as photo number 1 and the pictures after the card’s own; the card shows them all, each applied', async () => {
    const shop = await store('vika', 2);
    const before = await colours(shop.token);
    const since = uploads.length;
    const answer = await publish('vika', {
      connection_id: shop.connection,
      product_id: String(shop.nmID),
      asset_ids: [await picture('vika', 40), await video('vika', first), await picture('vika', 200)],
      placement: 'gallery',
      mode: 'append',
    });
    expect(answer.statusCode, answer.body).toBe(201);
    expect(answer.json().data.items.map((item: { kind: string; status: string }) => [item.kind, item.status])).toEqual([
      ['image', 'pending'],
      ['video', 'pending'],
      ['image', 'pending'],
    ]);
    const done = await ended('vika', answer.json().data.id);
    expect(done.status).toBe('done');
    expect(done.items.map((item) => item.status)).toEqual(['applied', 'applied', 'applied']);

    // Sent once each, by upload: the video to number 1, the pictures to 3 and 4, after the card's two.
    expect(uploadsTo(shop.nmID, since, { video: first })).toEqual([
      [1, 'video'],
      [3, 'picture'],
      [4, 'picture'],
    ]);
    const card = wb.cards(shop.token)[0]!;
    expect(card.video).toBeDefined();
    expect(await videoOn(shop.token)).toBe('first');
    expect(near(await colours(shop.token), [...before, 40, 200])).toBe(true);
    expect(done.items.map((item) => item.remote_url)).toEqual([card.photos[2]!.big, card.video, card.photos[3]!.big]);
    expect(wb.refusals.filter((refusal) => refusal.nmID === shop.nmID)).toEqual([]);
  });

  it('keeps the video when the pictures are made the main ones (a media/save keeps only what it names)', async () => {
    const shop = await store('vika', 2);
    const before = await colours(shop.token);
    const since = uploads.length;
    const answer = await publish('vika', {
      connection_id: shop.connection,
      product_id: String(shop.nmID),
      asset_ids: [await video('vika', first), await picture('vika', 90)],
      placement: 'main',
      mode: 'append',
    });
    expect(answer.statusCode, answer.body).toBe(201);
    const done = await ended('vika', answer.json().data.id);
    expect(done.status).toBe('done');
    expect(done.items.map((item) => item.status)).toEqual(['applied', 'applied']);
    expect(uploadsTo(shop.nmID, since, { video: first })).toEqual([
      [1, 'video'],
      [3, 'picture'],
    ]);
    expect(near(await colours(shop.token), [90, ...before])).toBe(true);
    expect(await videoOn(shop.token)).toBe('first');
    const card = wb.cards(shop.token)[0]!;
    expect(done.items.map((item) => item.remote_url)).toEqual([card.video, card.photos[0]!.big]);
  });

  it('puts a new video in the place of the card’s, done only once the card shows the new one', async () => {
    const shop = await store('vika', 1);
    const earlier = await publish('vika', { connection_id: shop.connection, product_id: String(shop.nmID), asset_ids: [await video('vika', first)], placement: 'gallery', mode: 'append' });
    expect((await ended('vika', earlier.json().data.id)).status).toBe('done');
    expect(await videoOn(shop.token)).toBe('first');

    // Wildberries applies media later than it answers: the card still shows the earlier video for a while.
    const since = uploads.length;
    wb.applyAfter(1500);
    try {
      const answer = await publish('vika', { connection_id: shop.connection, product_id: String(shop.nmID), asset_ids: [await video('vika', second)], placement: 'gallery', mode: 'append' });
      const done = await ended('vika', answer.json().data.id);
      expect(done.status).toBe('done');
      expect(uploadsTo(shop.nmID, since, { first, second })).toEqual([[1, 'second']]);
      // Applied means on the card: the new video, not the one it replaces.
      expect.soft(await videoOn(shop.token), 'the video on the card when the publication is done').toBe('second');
      expect(done.items[0]!.remote_url).toBe(wb.cards(shop.token)[0]!.video);
    } finally {
      wb.applyAfter(0);
      await wb.settled();
    }
    expect(await videoOn(shop.token), 'the video on the card once Wildberries has applied everything').toBe('second');
    expect(wb.cards(shop.token)[0]!.photos).toHaveLength(1);
  });

  it('keeps a new video Wildberries applies after the pictures when they are then made the main ones', async () => {
    const shop = await store('vika', 1);
    const earlier = await publish('vika', { connection_id: shop.connection, product_id: String(shop.nmID), asset_ids: [await video('vika', first)], placement: 'gallery', mode: 'append' });
    expect((await ended('vika', earlier.json().data.id)).status).toBe('done');
    const before = await colours(shop.token);

    wb.applyAfter(1500);
    slowVideo = { bytes: second, ms: 6000, others: 1500 };
    try {
      const answer = await publish('vika', {
        connection_id: shop.connection,
        product_id: String(shop.nmID),
        asset_ids: [await video('vika', second), await picture('vika', 90)],
        placement: 'main',
        mode: 'append',
      });
      const done = await ended('vika', answer.json().data.id);
      expect(done.status).toBe('done');
      expect(near(await colours(shop.token), [90, ...before])).toBe(true);
      expect.soft(await videoOn(shop.token), 'the video on the card when the publication is done').toBe('second');
    } finally {
      slowVideo = null;
      wb.applyAfter(0);
      await wb.settled();
    }
    // Nothing sent to reorder the pictures puts the earlier video back.
    expect(await videoOn(shop.token), 'the video on the card once Wildberries has applied everything').toBe('second');
    expect(wb.refusals.filter((refusal) => refusal.nmID === shop.nmID)).toEqual([]);
  });

  it('names a video over Wildberries’ size before anything is sent, and sends the rest', async () => {
    const limit = MEDIA_RULES.wildberries.maxVideoBytes!;
    // A real MP4 made one byte too large by a `free` box (padding any MP4 reader skips).
    const padding = Buffer.alloc(limit + 1 - first.length);
    padding.writeUInt32BE(padding.length, 0);
    padding.write('free', 4, 'latin1');
    const large = await video('vika', Buffer.concat([first, padding]));
    const tooLarge = translate('en', 'PUBLISH_TOO_LARGE', { platform: 'PLATFORM_WILDBERRIES', mb: limit / 1024 / 1024 });
    expect(tooLarge).toContain('50 MB');

    // Alone: refused in the answer itself, no job, nothing asked of Wildberries.
    const shop = await store('vika', 0);
    const asked = wb.requests.length;
    const since = uploads.length;
    const alone = await publish('vika', { connection_id: shop.connection, product_id: String(shop.nmID), asset_ids: [large], placement: 'gallery', mode: 'append' });
    expect(alone.statusCode, alone.body).toBe(201);
    expect(alone.json().data).toMatchObject({ status: 'failed', items: [{ kind: 'video', status: 'failed', message: tooLarge }] });
    expect(alone.json().data.finished_at).not.toBeNull();
    expect(wb.requests.length).toBe(asked);

    // With a picture: the video named at once, the picture sent and applied.
    const mixed = await publish('vika', { connection_id: shop.connection, product_id: String(shop.nmID), asset_ids: [large, await picture('vika', 60)], placement: 'gallery', mode: 'append' });
    expect(mixed.statusCode, mixed.body).toBe(201);
    expect(mixed.json().data.items[0]).toMatchObject({ kind: 'video', status: 'failed', message: tooLarge });
    const done = await ended('vika', mixed.json().data.id);
    expect(done.status).toBe('partial');
    expect(done.items.map((item) => item.status)).toEqual(['failed', 'applied']);
    expect(done.items[0]!.message).toBe(tooLarge);
    expect(uploadsTo(shop.nmID, since, { video: first })).toEqual([[1, 'picture']]);
    expect(wb.requests.slice(asked).filter((request) => request.path === '/content/v3/media/file')).toHaveLength(1);
    expect(wb.cards(shop.token)[0]!.video).toBeUndefined();
    expect(near(await colours(shop.token), [60])).toBe(true);
  });
});

describe('publishing a video to Ozon', () => {
  it('is refused with Ozon’s words before anything is sent: Ozon takes no video through its API', async () => {
    const shop = ozon.addSeller({ name: 'Olya', products: [{ offerId: 'OZ-VIDEO-1', name: 'Ботинки', pictures: 1 }] });
    const connected = await t.app.inject({ method: 'POST', url: '/api/v1/publisher/auth', headers: auth('olya'), payload: { platform: 'ozon', client_id: shop.clientId, api_key: shop.apiKey } });
    expect(connected.statusCode, connected.body).toBe(201);
    const product = ozon.products(shop.clientId)[0]!;
    const asked = ozon.requests.length;
    const answer = await publish('olya', {
      connection_id: connected.json().data.id,
      product_id: String(product.product_id),
      asset_ids: [await video('olya', first)],
      placement: 'gallery',
      mode: 'append',
    });
    expect(answer.statusCode, answer.body).toBe(201);
    const noVideo = translate('en', 'PUBLISH_NO_VIDEO', { platform: 'PLATFORM_OZON' });
    expect(noVideo).toBe('Ozon takes no video through its API.');
    expect(answer.json().data).toMatchObject({ status: 'failed', items: [{ kind: 'video', status: 'failed', message: noVideo }] });
    const done = await ended('olya', answer.json().data.id);
    expect(done.items[0]!.message).toBe(noVideo);
    expect(ozon.requests.slice(asked)).toEqual([]);
    expect(ozon.products(shop.clientId)[0]!.images).toEqual(product.images);
  });
});
