// The Wildberries Content API stand-in itself, through plain fetch: what a publisher of pictures and
// a video will rely on it for — tokens, the cards list and its cursor, media by link and by upload
// (applied later, all or nothing, and only what passes WB's checks), the limits and the faults.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeWildberries } from '../support/fakes/wildberries';

type Fake = Awaited<ReturnType<typeof startFakeWildberries>>;
type Rgb = [number, number, number];

const RED: Rgb = [210, 30, 40];
const BLUE: Rgb = [30, 60, 220];
const picture = (width: number, height: number, [r, g, b]: Rgb, format: 'jpeg' | 'png' = 'jpeg') => {
  const made = sharp({ create: { width, height, channels: 3, background: { r, g, b } } });
  return (format === 'png' ? made.png() : made.jpeg()).toBuffer();
};
/** The start of an MP4: a `ftyp` box (brand isom), then some media data. */
const MP4 = Buffer.concat([
  Buffer.from([0, 0, 0, 24]),
  Buffer.from('ftypisom', 'latin1'),
  Buffer.from([0, 0, 2, 0]),
  Buffer.from('isommp41', 'latin1'),
  Buffer.from([0, 0, 0, 16]),
  Buffer.from('mdat', 'latin1'),
  Buffer.alloc(8, 7),
]);

let wb: Fake;
let files: http.Server;
let filesOrigin = '';
/** What the sellers' own file host serves, by path. */
const hosted = new Map<string, { type: string; bytes: Buffer }>();
const link = (path: string) => `${filesOrigin}${path}`;

beforeAll(async () => {
  // Bursts of 50 here, so that one test's requests stay clear of the limit; its own tests start their own.
  wb = await startFakeWildberries({ burst: 50 });
  files = http.createServer((request, response) => {
    const file = hosted.get(request.url ?? '');
    if (!file) return void response.writeHead(404).end();
    response.writeHead(200, { 'content-type': file.type, 'content-length': file.bytes.length });
    response.end(file.bytes);
  });
  await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
  filesOrigin = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
  hosted.set('/red.jpg', { type: 'image/jpeg', bytes: await picture(900, 1200, RED) });
  hosted.set('/blue.png', { type: 'image/png', bytes: await picture(1000, 1300, BLUE, 'png') });
  hosted.set('/small.jpg', { type: 'image/jpeg', bytes: await picture(600, 800, RED) });
  hosted.set('/not-wanted.jpg', { type: 'image/jpeg', bytes: await picture(900, 1200, BLUE) });
  hosted.set('/clip.mp4', { type: 'video/mp4', bytes: MP4 });
  hosted.set('/preview.html', { type: 'text/html; charset=utf-8', bytes: Buffer.from('<!doctype html><title>preview</title>') });
});

afterAll(async () => {
  await wb?.close();
  await new Promise<void>((resolve) => (files ? files.close(() => resolve()) : resolve()));
});

const call = (fake: Fake, path: string, token: string | null, body?: unknown) =>
  fetch(`${fake.origin}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { ...(token === null ? {} : { authorization: token }), 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
const list = (token: string, settings: object, fake = wb) => call(fake, '/content/v2/get/cards/list', token, { settings });
const save = (token: string, nmId: number, data: string[], fake = wb) => call(fake, '/content/v3/media/save', token, { nmId, data });
const upload = (token: string, nmId: number, number: number, bytes: Buffer, type = 'image/jpeg') => {
  const form = new FormData();
  form.append('uploadfile', new Blob([bytes], { type }), type === 'video/mp4' ? 'clip.mp4' : 'photo.jpg');
  return fetch(`${wb.origin}/content/v3/media/file`, {
    method: 'POST',
    headers: { authorization: token, 'X-Nm-Id': String(nmId), 'X-Photo-Number': String(number) },
    body: form,
  });
};
const OK = { data: {}, error: false, errorText: '', additionalErrors: null };

/** The mean colour of a picture where a card's URL points. */
async function colourAt(url: string): Promise<number[]> {
  const answer = await fetch(url);
  expect(answer.headers.get('content-type')).toBe('image/webp');
  const { channels } = await sharp(Buffer.from(await answer.arrayBuffer())).stats();
  return channels.slice(0, 3).map((channel) => Math.round(channel.mean));
}
const expectColour = (actual: number[], expected: Rgb) => actual.forEach((value, i) => expect(Math.abs(value - expected[i]!)).toBeLessThan(16));

const seller = (cards: { vendorCode: string; title: string; photos?: number }[], extra: { categories?: ('content' | 'prices' | 'statistics')[]; expiresAt?: Date } = {}, fake = wb) =>
  fake.addSeller({ name: 'Обувь Сибири', cards, ...extra });

describe('tokens and /ping', () => {
  it('answers a valid token, bare or after Bearer, and allows 3 pings in 30 s', async () => {
    const { token } = seller([]);
    const answer = await call(wb, '/ping', token);
    expect(answer.status).toBe(200);
    const body = (await answer.json()) as { TS: string; Status: string };
    expect(body.Status).toBe('OK');
    expect(body.TS).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+03:00$/);
    expect((await call(wb, '/ping', `Bearer ${token}`)).status).toBe(200);
    expect((await call(wb, '/ping', token)).status).toBe(200);
    const fourth = await call(wb, '/ping', token);
    expect(fourth.status).toBe(429);
    expect(Number(fourth.headers.get('x-ratelimit-retry'))).toBeGreaterThan(0);
  });

  it('refuses a missing, garbled, forged or expired token with WB’s 401 problem', async () => {
    const { token } = seller([]);
    const [head, payload, signature] = token.split('.') as [string, string, string];
    const garbled = `${head}.${payload}.${signature.slice(0, -3)}${signature.endsWith('AAA') ? 'BBB' : 'AAA'}`;
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
    const forged = `${head}.${Buffer.from(JSON.stringify({ ...claims, s: 0x7fff })).toString('base64url')}.${signature}`;
    const expired = seller([], { expiresAt: new Date(Date.now() - 60_000) }).token;
    for (const [given, detail] of [
      [null, /empty Authorization/],
      ['not-a-jwt', /malformed/],
      [garbled, /signature is invalid/],
      [forged, /signature is invalid/],
      [expired, /expired/],
    ] as const) {
      const answer = await call(wb, '/ping', given);
      expect(answer.status).toBe(401);
      expect(answer.headers.get('content-type')).toBe('application/problem+json');
      const body = (await answer.json()) as Record<string, unknown>;
      expect(body).toMatchObject({ title: 'unauthorized', status: 401, statusText: 'Unauthorized' });
      expect(body.detail).toMatch(detail);
      expect(body.requestId).toMatch(/^[0-9a-f]{32}$/);
      expect(Object.keys(body).sort()).toEqual(['code', 'detail', 'origin', 'requestId', 'status', 'statusText', 'timestamp', 'title']);
    }
    // The token's payload is WB's: expiry in seconds, the seller's UUID, the categories' bits.
    expect(claims).toMatchObject({ s: 1 << 1, sid: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expect(Math.abs((claims.exp as number) - (Date.now() / 1000 + 180 * 86_400))).toBeLessThan(60);
  });

  it('refuses a token without the Content category, on /ping as on the content methods', async () => {
    const { token } = seller([{ vendorCode: 'A-1', title: 'Кеды' }], { categories: ['prices', 'statistics'] });
    for (const answer of [await call(wb, '/ping', token), await list(token, { filter: { withPhoto: -1 } })]) {
      expect(answer.status).toBe(401);
      expect(((await answer.json()) as { detail: string }).detail).toBe('token scope not allowed');
    }
  });
});

describe('the cards list', () => {
  const vendorCodes = ['RUN-1', 'RUN-2', 'TRAIL-3', 'BOOT-4', 'BOOT-5'];
  let token = '';
  beforeAll(() => {
    ({ token } = seller(vendorCodes.map((vendorCode, i) => ({ vendorCode, title: `Кроссовки беговые ${i + 1}`, photos: i < 3 ? i + 1 : 0 }))));
  });
  type Page = { cards: { nmID: number; vendorCode: string; updatedAt: string; photos: unknown[]; sizes: { skus: string[] }[] }[]; cursor: { updatedAt: string; nmID: number; total: number } };
  const page = async (settings: object) => {
    const answer = await list(token, settings);
    expect(answer.status).toBe(200);
    return (await answer.json()) as Page;
  };

  it('pages through every card with the cursor, newest first, until a page is shorter than the limit', async () => {
    const seen: Page['cards'] = [];
    const totals: number[] = [];
    let cursor: object = { limit: 2 };
    for (;;) {
      const { cards, cursor: next } = await page({ cursor, filter: { withPhoto: -1 } });
      seen.push(...cards);
      totals.push(next.total);
      if (next.total < 2) break;
      expect(next).toMatchObject({ nmID: cards.at(-1)!.nmID, updatedAt: cards.at(-1)!.updatedAt });
      cursor = { limit: 2, updatedAt: next.updatedAt, nmID: next.nmID };
    }
    expect(totals).toEqual([2, 2, 1]);
    expect(seen.map((card) => card.vendorCode)).toEqual([...vendorCodes].reverse());
    const ascending = await page({ sort: { ascending: true }, cursor: { limit: 100 }, filter: { withPhoto: -1 } });
    expect(ascending.cards.map((card) => card.vendorCode)).toEqual(vendorCodes);
  });

  it('filters by photo (without photos unless told) and finds by vendor code, nmID or barcode, not by title', async () => {
    expect((await page({ cursor: { limit: 10 } })).cards.map((card) => card.vendorCode)).toEqual(['BOOT-5', 'BOOT-4']);
    expect((await page({ cursor: { limit: 10 }, filter: { withPhoto: 1 } })).cards).toHaveLength(3);
    const found = await page({ cursor: { limit: 10 }, filter: { withPhoto: -1, textSearch: 'trail' } });
    expect(found.cards.map((card) => card.vendorCode)).toEqual(['TRAIL-3']);
    const trail = found.cards[0]!;
    expect(trail.photos).toHaveLength(3);
    const byNm = await page({ cursor: { limit: 10 }, filter: { withPhoto: -1, textSearch: String(trail.nmID) } });
    expect(byNm.cards.map((card) => card.nmID)).toEqual([trail.nmID]);
    const byBarcode = await page({ cursor: { limit: 10 }, filter: { withPhoto: -1, textSearch: trail.sizes[0]!.skus[0] } });
    expect(byBarcode.cards.map((card) => card.nmID)).toEqual([trail.nmID]);
    expect((await page({ cursor: { limit: 10 }, filter: { withPhoto: -1, textSearch: 'беговые' } })).cards).toEqual([]);
  });

  it('refuses a limit over 100 and a body that is no JSON', async () => {
    const tooMany = await list(token, { cursor: { limit: 101 }, filter: { withPhoto: -1 } });
    expect(tooMany.status).toBe(400);
    expect(await tooMany.json()).toMatchObject({ data: null, error: true, errorText: expect.any(String) });
    const garbage = await fetch(`${wb.origin}/content/v2/get/cards/list`, { method: 'POST', headers: { authorization: token }, body: '{settings' });
    expect(garbage.status).toBe(400);
    expect(await garbage.text()).toBe('Request body can not be decoded');
  });

  it('shows seeded pictures as 900×1200 JPEG-born WebP in WB’s sizes, as the list and cards() agree', async () => {
    const [card] = wb.cards(token).filter((one) => one.vendorCode === 'TRAIL-3');
    expect(card!.photos).toHaveLength(3);
    const big = await fetch(card!.photos[0]!.big);
    expect(big.headers.get('content-type')).toBe('image/webp');
    expect(await sharp(Buffer.from(await big.arrayBuffer())).metadata()).toMatchObject({ format: 'webp', width: 900, height: 1200 });
    const tm = await sharp(Buffer.from(await (await fetch(card!.photos[0]!.tm)).arrayBuffer())).metadata();
    expect([tm.width, tm.height]).toEqual([75, 100]);
    expect((await fetch(card!.photos[0]!.big.replace(/\/1\.webp$/, '/4.webp'))).status).toBe(404);
  });
});

describe('media by link (/content/v3/media/save)', () => {
  it('answers 200 and applies nothing when one picture is under 700×900', async () => {
    const { token } = seller([{ vendorCode: 'S-1', title: 'Слипоны', photos: 2 }]);
    const [card] = wb.cards(token);
    const before = await colourAt(card!.photos[0]!.big);
    const answer = await save(token, card!.nmID, [link('/red.jpg'), link('/small.jpg')]);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual(OK);
    await wb.settled();
    const [after] = wb.cards(token);
    expect(after!.photos).toHaveLength(2);
    expect(await colourAt(after!.photos[0]!.big)).toEqual(before);
    expect(wb.refusals.find((one) => one.nmID === card!.nmID)?.reasons.join()).toMatch(/600×800/);
  });

  it('replaces all of a card’s media: pictures in order, the video, and none kept that is not named', async () => {
    const { token } = seller([{ vendorCode: 'S-2', title: 'Мокасины', photos: 3 }]);
    const [card] = wb.cards(token);
    expect(await save(token, card!.nmID, [link('/red.jpg'), link('/clip.mp4'), link('/blue.png')]).then((answer) => answer.json())).toEqual(OK);
    await wb.settled();
    const [saved] = wb.cards(token);
    expect(saved!.photos).toHaveLength(2);
    expectColour(await colourAt(saved!.photos[0]!.c516x688), RED);
    expectColour(await colourAt(saved!.photos[1]!.square), BLUE);
    expect(Buffer.from(await (await fetch(saved!.video!)).arrayBuffer()).equals(MP4)).toBe(true);
    expect(Date.parse(saved!.updatedAt)).toBeGreaterThan(Date.parse(card!.updatedAt));
    // Keeping a picture means naming it again (its own URL on the card will do); the video, unnamed, goes.
    await save(token, card!.nmID, [saved!.photos[1]!.big, link('/red.jpg')]);
    await wb.settled();
    const [again] = wb.cards(token);
    expect(again!.photos).toHaveLength(2);
    expectColour(await colourAt(again!.photos[0]!.big), BLUE);
    expectColour(await colourAt(again!.photos[1]!.big), RED);
    expect(again!.video).toBeUndefined();
  });

  it('applies nothing for a link to a page, a link that is not found, or a picture a test refuses', async () => {
    const { token } = seller([{ vendorCode: 'S-3', title: 'Сабо', photos: 1 }]);
    const [card] = wb.cards(token);
    wb.refuseUrlsContaining('not-wanted');
    for (const links of [[link('/preview.html')], [link('/red.jpg'), link('/missing.jpg')], [link('/red.jpg'), link('/not-wanted.jpg')]]) {
      expect((await save(token, card!.nmID, links)).status).toBe(200);
    }
    await wb.settled();
    expect(wb.cards(token)[0]!.updatedAt).toBe(card!.updatedAt);
    const reasons = wb.refusals.filter((one) => one.nmID === card!.nmID).map((one) => one.reasons.join());
    expect(reasons).toEqual([expect.stringMatching(/text\/html/), expect.stringMatching(/404/), expect.stringMatching(/not-wanted/)]);
  });

  it('applies after applyAfter, not before; refuses no nmId (422) and another seller’s card (403)', async () => {
    const { token } = seller([{ vendorCode: 'S-4', title: 'Лоферы' }]);
    const other = seller([{ vendorCode: 'X-1', title: 'Чужие' }]);
    const [card] = wb.cards(token);
    wb.applyAfter(300);
    try {
      expect((await save(token, card!.nmID, [link('/red.jpg')])).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(wb.cards(token)[0]!.photos).toHaveLength(0);
      await wb.settled();
      expect(wb.cards(token)[0]!.photos).toHaveLength(1);
    } finally {
      wb.applyAfter(0);
    }
    const missing = await call(wb, '/content/v3/media/save', token, { data: [link('/red.jpg')] });
    expect(missing.status).toBe(422);
    expect(await missing.json()).toMatchObject({ data: null, error: true });
    const foreign = await save(token, wb.cards(other.token)[0]!.nmID, [link('/red.jpg')]);
    expect(foreign.status).toBe(403);
    expect(await foreign.json()).toMatchObject({ error: true, errorText: 'Access denied' });
  });
});

describe('media by upload (/content/v3/media/file)', () => {
  it('adds past the last number, replaces at a number, takes a video as number 1, and refuses a small picture', async () => {
    const { token } = seller([{ vendorCode: 'U-1', title: 'Ботинки', photos: 1 }]);
    const [card] = wb.cards(token);
    const red = hosted.get('/red.jpg')!.bytes;
    const blue = await picture(900, 1200, BLUE);
    const added = await upload(token, card!.nmID, 2, red);
    expect(added.status).toBe(200);
    expect(await added.json()).toEqual(OK);
    expect((await upload(token, card!.nmID, 1, blue)).status).toBe(200);
    expect((await upload(token, card!.nmID, 9, red)).status).toBe(200);
    expect((await upload(token, card!.nmID, 1, MP4, 'video/mp4')).status).toBe(200);
    const small = await upload(token, card!.nmID, 4, hosted.get('/small.jpg')!.bytes);
    expect(small.status).toBe(400);
    expect(await small.json()).toMatchObject({ data: null, error: true, errorText: expect.stringMatching(/700×900/) });
    await wb.settled();
    const [after] = wb.cards(token);
    expect(after!.photos).toHaveLength(3);
    expectColour(await colourAt(after!.photos[0]!.big), BLUE);
    expectColour(await colourAt(after!.photos[1]!.big), RED);
    expectColour(await colourAt(after!.photos[2]!.big), RED);
    expect(after!.video).toMatch(/\/video\/1\.mp4$/);
  });

  it('answers a body that is no multipart form in plain text', async () => {
    const { token } = seller([{ vendorCode: 'U-2', title: 'Туфли' }]);
    const answer = await fetch(`${wb.origin}/content/v3/media/file`, {
      method: 'POST',
      headers: { authorization: token, 'content-type': 'application/json', 'X-Nm-Id': String(wb.cards(token)[0]!.nmID), 'X-Photo-Number': '1' },
      body: '{}',
    });
    expect(answer.status).toBe(400);
    expect(await answer.text()).toBe("Invalid 'boundary' for 'multipart/form-data' request");
  });
});

describe('limits and faults', () => {
  it('limits a seller to bursts of 5 and answers 429 with WB’s headers; another seller is not held', async () => {
    const fake = await startFakeWildberries();
    try {
      const first = seller([], {}, fake).token;
      const remaining: (string | null)[] = [];
      for (let i = 0; i < 5; i += 1) remaining.push((await list(first, {}, fake)).headers.get('x-ratelimit-remaining'));
      expect(remaining).toEqual(['4', '3', '2', '1', '0']);
      const refused = await list(first, {}, fake);
      expect(refused.status).toBe(429);
      expect(refused.headers.get('x-ratelimit-retry')).toBe('1');
      expect(refused.headers.get('x-ratelimit-limit')).toBe('5');
      expect(refused.headers.get('x-ratelimit-reset')).toBe('3');
      expect(await refused.json()).toMatchObject({ title: 'too many requests', status: 429, statusText: 'Too Many Requests' });
      expect((await list(seller([], {}, fake).token, {}, fake)).status).toBe(200);
    } finally {
      await fake.close();
    }
  });

  it('takes a lower rate: at 2 a minute the third request waits 30 s', async () => {
    const fake = await startFakeWildberries({ ratePerMinute: 2 });
    try {
      const { token } = seller([], {}, fake);
      expect((await list(token, {}, fake)).status).toBe(200);
      expect((await list(token, {}, fake)).status).toBe(200);
      const refused = await list(token, {}, fake);
      expect(refused.status).toBe(429);
      expect(refused.headers.get('x-ratelimit-retry')).toBe('30');
    } finally {
      await fake.close();
    }
  });

  it('fails the next requests as told, then answers again', async () => {
    const { token } = seller([{ vendorCode: 'F-1', title: 'Сандалии' }]);
    wb.failNext(1, 409);
    wb.failNext(1, 429);
    wb.failNext(1, 401, 'token withdrawn');
    const conflict = await list(token, {});
    expect(conflict.status).toBe(409);
    expect(await conflict.json()).toMatchObject({ data: null, error: true, additionalErrors: null });
    const limited = await list(token, {});
    expect(limited.status).toBe(429);
    expect(limited.headers.get('x-ratelimit-retry')).toBe('1');
    const unauthorised = await list(token, {});
    expect(unauthorised.status).toBe(401);
    expect(await unauthorised.json()).toMatchObject({ title: 'unauthorized', detail: 'token withdrawn' });
    expect((await list(token, {})).status).toBe(200);
  });

  it('applies a media change whose answer was lost, and records every request with its token', async () => {
    const { token } = seller([{ vendorCode: 'L-1', title: 'Кроссовки' }]);
    const [card] = wb.cards(token);
    const from = wb.requests.length;
    wb.loseNextAnswers(1);
    await expect(save(token, card!.nmID, [link('/red.jpg')])).rejects.toThrow();
    await wb.settled();
    expect(wb.cards(token)[0]!.photos).toHaveLength(1);
    expect((await save(token, card!.nmID, [link('/blue.png')])).status).toBe(200);
    expect(wb.requests.slice(from)).toEqual([
      { method: 'POST', path: '/content/v3/media/save', token, at: expect.any(Number) },
      { method: 'POST', path: '/content/v3/media/save', token, at: expect.any(Number) },
    ]);
    await wb.settled();
  });
});
