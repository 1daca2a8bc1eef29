// The Ozon Seller API stand-in itself, through plain fetch as any client would call it: keys and
// their roles (valid, wrong, missing, expired, without the product role), products paged by
// last_id and read by id, picture imports that replace all of a product's pictures — downloaded
// from a small server of the test's own, a good picture taken and bad ones refused with their
// reasons — read back through the task, the products and their pictures; the rate limit's 429 with
// Retry-After, faults, an answer lost after the import was accepted, and the switched-off v1 method.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOzon } from '../support/fakes/ozon';

type FakeOzon = Awaited<ReturnType<typeof startFakeOzon>>;
type Keys = { clientId: string; apiKey: string };
type ImportInfo = { result: { items: { offer_id: string; product_id: number; status: string; errors: { code: string; message: string; description: string }[] }[]; total: number } };

let ozon: FakeOzon;
let pictures: http.Server;
let picturesOrigin = '';
const DAY = 24 * 60 * 60_000;

const plain = (width: number, height: number, format: 'jpeg' | 'png', r = 200) => {
  const image = sharp({ create: { width, height, channels: 3, background: { r, g: 120, b: 40 } } });
  return (format === 'jpeg' ? image.jpeg() : image.png()).toBuffer();
};

beforeAll(async () => {
  ozon = await startFakeOzon();
  const files: Record<string, Buffer> = {
    '/good.jpg': await plain(400, 500, 'jpeg'),
    '/other.png': await plain(300, 300, 'png', 20),
    '/tiny.png': await plain(120, 120, 'png'),
    '/forbidden-watermark.jpg': await plain(400, 400, 'jpeg'),
    '/page.jpg': Buffer.from('<!doctype html><title>not a picture</title>'),
  };
  pictures = http.createServer((request, response) => {
    const file = files[request.url ?? ''];
    response.writeHead(file ? 200 : 404, { 'content-type': 'image/jpeg' });
    response.end(file ?? 'missing');
  });
  await new Promise<void>((resolve) => pictures.listen(0, '127.0.0.1', resolve));
  picturesOrigin = `http://127.0.0.1:${(pictures.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await ozon.close();
  await new Promise((resolve) => pictures.close(resolve));
});

const call = async (path: string, body: unknown, keys?: Partial<Keys>, on = ozon) => {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (keys?.clientId) headers['Client-Id'] = keys.clientId;
  if (keys?.apiKey) headers['Api-Key'] = keys.apiKey;
  const response = await fetch(`${on.origin}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
  return { status: response.status, headers: response.headers, body: (await response.json()) as Record<string, unknown> };
};
const link = (name: string) => `${picturesOrigin}/${name}`;
const importPictures = async (keys: Keys, items: unknown[]) => {
  const answer = await call('/v2/product/pictures/import', { items }, keys);
  expect(answer.status).toBe(200);
  return answer.body.task_id as number;
};
const importInfo = async (keys: Keys, taskId: number) => (await call('/v1/product/import/info', { task_id: taskId }, keys)).body as ImportInfo;

describe('keys and roles', () => {
  it('answers a valid key its roles, their methods and when it expires', async () => {
    const keys = ozon.addSeller({ name: 'Обувь Плюс' });
    const { status, body } = await call('/v1/roles', {}, keys);
    expect(status).toBe(200);
    const roles = body.roles as { name: string; methods: string[] }[];
    expect(roles.flatMap((role) => role.methods)).toEqual(expect.arrayContaining(['/v2/product/pictures/import', '/v1/product/import/info', '/v3/product/list']));
    const expires = Date.parse(body.expires_at as string);
    expect(expires).toBeGreaterThan(Date.now() + 89 * DAY);
    expect(expires).toBeLessThan(Date.now() + 91 * DAY);
  });

  it('refuses missing headers with 401 and a wrong key or Client-Id with 403, in Ozon’s error shape', async () => {
    const keys = ozon.addSeller({ name: 'Ботинки' });
    expect(await call('/v1/roles', {}, {})).toMatchObject({ status: 401, body: { code: 16, message: 'Client-Id and Api-Key headers are required', details: [] } });
    expect(await call('/v1/roles', {}, { clientId: keys.clientId })).toMatchObject({ status: 401, body: { code: 16 } });
    expect(await call('/v1/roles', {}, { ...keys, apiKey: crypto.randomUUID() })).toMatchObject({ status: 403, body: { code: 7, message: 'Invalid Api-Key, please check the key and try again' } });
    const other = ozon.addSeller({ name: 'Кеды' });
    expect(await call('/v1/roles', {}, { clientId: other.clientId, apiKey: keys.apiKey })).toMatchObject({ status: 403, body: { code: 7 } });
  });

  it('refuses an expired key, even for its roles', async () => {
    const keys = ozon.addSeller({ name: 'Сапоги', expiresAt: new Date(Date.now() - 1000), products: [{ offerId: 'S-1', name: 'Сапоги' }] });
    expect(await call('/v1/roles', {}, keys)).toMatchObject({ status: 403, body: { code: 7, message: 'Api-key is deactivated, use another one or generate a new one' } });
    expect(await call('/v3/product/list', { filter: {}, limit: 10 }, keys)).toMatchObject({ status: 403 });
  });

  it('lists no picture import for a key made without the product role, and refuses its product methods', async () => {
    const keys = ozon.addSeller({ name: 'Цены', roles: ['prices', 'finance'], products: [{ offerId: 'P-1', name: 'Туфли' }] });
    const { body } = await call('/v1/roles', {}, keys);
    const methods = (body.roles as { methods: string[] }[]).flatMap((role) => role.methods);
    expect(methods).toContain('/v1/product/import/prices');
    expect(methods).not.toContain('/v2/product/pictures/import');
    for (const path of ['/v3/product/list', '/v2/product/pictures/import', '/v3/product/info/list']) {
      expect(await call(path, { filter: {}, limit: 10, items: [{ offer_id: 'P-1', images: [] }], offer_id: ['P-1'] }, keys)).toMatchObject({
        status: 403,
        body: { code: 7, message: 'Api-Key is missing a required role for a method' },
      });
    }
  });

  it('records every API request with its Client-Id, a refused one too', async () => {
    const keys = ozon.addSeller({ name: 'Учёт' });
    const from = ozon.requests.length;
    await call('/v1/roles', {}, keys);
    await call('/v1/roles', {}, {});
    expect(ozon.requests.slice(from)).toMatchObject([
      { method: 'POST', path: '/v1/roles', clientId: keys.clientId },
      { method: 'POST', path: '/v1/roles', clientId: null },
    ]);
  });
});

describe('products', () => {
  it('pages the list by last_id, all of it once, and filters by offer_id', async () => {
    const offers = ['A-1', 'A-2', 'A-3', 'A-4', 'A-5'];
    const keys = ozon.addSeller({ name: 'Каталог', products: offers.map((offerId) => ({ offerId, name: `Кроссовки ${offerId}` })) });
    const seen: string[] = [];
    let lastId = '';
    for (let page = 0; page < 5; page += 1) {
      const { status, body } = await call('/v3/product/list', { filter: { visibility: 'ALL' }, last_id: lastId, limit: 2 }, keys);
      expect(status).toBe(200);
      const result = body.result as { items: { offer_id: string; product_id: number }[]; total: number; last_id: string };
      expect(result.total).toBe(5);
      if (result.items.length === 0) break;
      seen.push(...result.items.map((item) => item.offer_id));
      lastId = result.last_id;
    }
    expect(seen).toEqual(offers);
    const filtered = await call('/v3/product/list', { filter: { offer_id: ['A-4', 'nope'] }, last_id: '', limit: 100 }, keys);
    expect(filtered.body.result).toMatchObject({ items: [{ offer_id: 'A-4' }], total: 1 });
    expect(await call('/v3/product/list', { filter: {}, limit: 0 }, keys)).toMatchObject({ status: 400, body: { code: 3 } });
    expect(await call('/v3/product/list', { filter: {}, limit: 1001 }, keys)).toMatchObject({ status: 400 });
  });

  it('reads products by offer_id, product_id or sku, their seeded pictures served as JPEGs', async () => {
    const keys = ozon.addSeller({ name: 'Инфо', products: [{ offerId: 'I-1', name: 'Лоферы', pictures: 2 }, { offerId: 'I-2', name: 'Мокасины' }] });
    const [first, second] = ozon.products(keys.clientId);
    const { status, body } = await call('/v3/product/info/list', { offer_id: ['I-1'], product_id: [String(second!.product_id)] }, keys);
    expect(status).toBe(200);
    const items = body.items as { id: number; offer_id: string; name: string; sku: number; images: string[]; primary_image: string[]; color_image: string[] }[];
    expect(items.map((item) => item.offer_id)).toEqual(['I-1', 'I-2']);
    expect(items[0]).toMatchObject({ id: first!.product_id, name: 'Лоферы', images: first!.images, primary_image: [], color_image: [] });
    expect(items[0]!.images).toHaveLength(2);
    const bySku = await call('/v3/product/info/list', { sku: [items[1]!.sku] }, keys);
    expect((bySku.body.items as { offer_id: string }[]).map((item) => item.offer_id)).toEqual(['I-2']);
    const picture = await fetch(items[0]!.images[0]!);
    expect(picture.headers.get('content-type')).toBe('image/jpeg');
    const meta = await sharp(Buffer.from(await picture.arrayBuffer())).metadata();
    expect(meta.format).toBe('jpeg');
    expect((await fetch(`${ozon.origin}/images/1/1.jpg`)).status).toBe(404);
    expect(await call('/v3/product/info/list', {}, keys)).toMatchObject({ status: 400, body: { code: 3 } });
  });
});

describe('picture imports', () => {
  it('accepts an import with a task, applies it later and tells the good link from the bad ones', async () => {
    const keys = ozon.addSeller({ name: 'Фото', products: [{ offerId: 'F-1', name: 'Босоножки', pictures: 3 }] });
    const [before] = ozon.products(keys.clientId);
    ozon.applyAfter(300);
    const taskId = await importPictures(keys, [{ offer_id: 'F-1', primary_image: '', color_image: '', images: [link('good.jpg'), link('tiny.png'), link('page.jpg'), link('missing.jpg')] }]);
    expect(typeof taskId).toBe('number');
    expect((await importInfo(keys, taskId)).result).toEqual({ items: [{ offer_id: 'F-1', product_id: before!.product_id, status: 'pending', errors: [] }], total: 1 });
    expect(ozon.products(keys.clientId)[0]!.images).toEqual(before!.images);
    ozon.applyAfter(0);
    await ozon.settled();

    const [item] = (await importInfo(keys, taskId)).result.items;
    expect(item!.status).toBe('failed');
    expect(item!.errors.map((error) => error.code)).toEqual(['image_too_small', 'image_invalid_format', 'image_download_failed']);
    expect(item!.errors[0]!.message).toContain(link('tiny.png'));
    expect(item!.errors[0]!.description).toMatch(/120×120 px; the minimum is 200×200/);
    expect(item!.errors[2]!.description).toMatch(/HTTP 404/);
    // All the old pictures are gone; the good one is there, at the stand-in's own link.
    const [after] = ozon.products(keys.clientId);
    expect(after!.images).toHaveLength(1);
    expect(after!.images[0]).toMatch(new RegExp(`^${ozon.origin}/s3/multimedia-1/\\d+\\.jpg$`));
    expect(Date.parse(after!.updated_at)).toBeGreaterThanOrEqual(Date.parse(before!.updated_at));
    const served = await fetch(after!.images[0]!);
    expect((await sharp(Buffer.from(await served.arrayBuffer())).metadata()).width).toBe(400);

    const info = await call('/v2/product/pictures/info', { product_id: [String(after!.product_id)] }, keys);
    expect(info.body.items).toEqual([
      {
        product_id: after!.product_id,
        primary_photo: [],
        photo: after!.images,
        color_photo: [],
        photo_360: [],
        errors: [
          { url: link('tiny.png'), message: expect.stringMatching(/minimum/) },
          { url: link('page.jpg'), message: 'Unsupported image format: only JPG and PNG are accepted' },
          { url: link('missing.jpg'), message: expect.stringMatching(/HTTP 404/) },
        ],
      },
    ]);
  });

  it('replaces all pictures each time, skips an import that changes nothing and keeps them when every link fails', async () => {
    const keys = ozon.addSeller({ name: 'Замена', products: [{ offerId: 'R-1', name: 'Слипоны', pictures: 1 }] });
    const both = await importPictures(keys, [{ offer_id: 'R-1', primary_image: link('other.png'), images: [link('good.jpg')] }]);
    await ozon.settled();
    expect((await importInfo(keys, both)).result.items[0]).toMatchObject({ status: 'imported', errors: [] });
    const [withBoth] = ozon.products(keys.clientId);
    expect(withBoth!.primary_image).toMatch(/\.png$/);
    expect(withBoth!.images).toHaveLength(1);

    const again = await importPictures(keys, [{ offer_id: 'R-1', primary_image: link('other.png'), images: [link('good.jpg')] }]);
    await ozon.settled();
    expect((await importInfo(keys, again)).result.items[0]!.status).toBe('skipped');
    expect(ozon.products(keys.clientId)).toEqual([withBoth]);

    const bad = await importPictures(keys, [{ offer_id: 'R-1', images: [link('tiny.png')] }]);
    await ozon.settled();
    expect((await importInfo(keys, bad)).result.items[0]!.status).toBe('failed');
    expect(ozon.products(keys.clientId)).toEqual([withBoth]);

    // Its own links are taken back without a download, in the order asked.
    const reordered = await importPictures(keys, [{ offer_id: 'R-1', images: [withBoth!.images[0]!, withBoth!.primary_image!] }]);
    await ozon.settled();
    expect((await importInfo(keys, reordered)).result.items[0]!.status).toBe('imported');
    expect(ozon.products(keys.clientId)[0]).toMatchObject({ primary_image: null, images: [withBoth!.images[0], withBoth!.primary_image] });
  });

  it('fails links a test refuses with its message, and an offer_id the seller does not have', async () => {
    const keys = ozon.addSeller({ name: 'Модерация', products: [{ offerId: 'M-1', name: 'Угги' }] });
    ozon.refuseUrlsContaining('forbidden', 'Водяные знаки на фото запрещены');
    const taskId = await importPictures(keys, [
      { offer_id: 'M-1', images: [link('good.jpg'), link('forbidden-watermark.jpg')] },
      { offer_id: 'NOPE', images: [link('good.jpg')] },
    ]);
    await ozon.settled();
    const { items, total } = (await importInfo(keys, taskId)).result;
    expect(total).toBe(2);
    expect(items[0]).toMatchObject({ status: 'failed', errors: [{ code: 'image_refused', description: 'Водяные знаки на фото запрещены' }] });
    expect(items[0]!.errors[0]!.message).toContain('forbidden-watermark.jpg');
    expect(items[1]).toMatchObject({ offer_id: 'NOPE', product_id: 0, status: 'failed', errors: [{ code: 'offer_id_not_found' }] });
    expect(ozon.products(keys.clientId)[0]!.images).toHaveLength(1);
  });

  it('refuses malformed imports at once, and tasks of unknown ids or of other sellers', async () => {
    const keys = ozon.addSeller({ name: 'Проверка', products: [{ offerId: 'V-1', name: 'Кеды' }] });
    const many = Array.from({ length: 31 }, (_, i) => link(`p${i}.jpg`));
    expect(await call('/v2/product/pictures/import', { items: [{ offer_id: 'V-1', images: many }] }, keys)).toMatchObject({ status: 400, body: { code: 3 } });
    expect(await call('/v2/product/pictures/import', { items: [{ offer_id: 'V-1', primary_image: link('a.jpg'), images: many.slice(1) }] }, keys)).toMatchObject({ status: 400 });
    expect(await call('/v2/product/pictures/import', { items: [] }, keys)).toMatchObject({ status: 400 });
    expect(await call('/v2/product/pictures/import', { items: [{ images: [] }] }, keys)).toMatchObject({ status: 400 });
    const other = ozon.addSeller({ name: 'Другой', products: [{ offerId: 'V-1', name: 'Кеды' }] });
    const theirs = await importPictures(other, [{ offer_id: 'V-1', images: [] }]);
    await ozon.settled();
    expect(await call('/v1/product/import/info', { task_id: theirs }, keys)).toMatchObject({ status: 404, body: { code: 5 } });
    expect(await call('/v1/product/import/info', { task_id: 1 }, keys)).toMatchObject({ status: 404 });
    expect(await call('/v1/product/import/info', { task_id: 'x' }, keys)).toMatchObject({ status: 400 });
  });

  it('applies an import whose answer was lost', async () => {
    const keys = ozon.addSeller({ name: 'Потеря', products: [{ offerId: 'L-1', name: 'Мюли', pictures: 2 }] });
    ozon.loseNextAnswers(1);
    await expect(call('/v2/product/pictures/import', { items: [{ offer_id: 'L-1', images: [link('good.jpg')] }] }, keys)).rejects.toThrow();
    await ozon.settled();
    expect(ozon.products(keys.clientId)[0]!.images).toEqual([expect.stringMatching(/\/s3\/multimedia-1\//)]);
    expect(ozon.requests.at(-1)).toMatchObject({ path: '/v2/product/pictures/import', clientId: keys.clientId });
    // The answer after it is not lost.
    expect(await importPictures(keys, [{ offer_id: 'L-1', images: [link('good.jpg')] }])).toBeGreaterThan(0);
    await ozon.settled();
  });

  it('answers the switched-off v1 picture methods 404, naming their successor', async () => {
    const keys = ozon.addSeller({ name: 'Старый клиент', products: [{ offerId: 'O-1', name: 'Валенки' }] });
    const [product] = ozon.products(keys.clientId);
    const answer = await call('/v1/product/pictures/import', { product_id: product!.product_id, images: [link('good.jpg')] }, keys);
    expect(answer).toMatchObject({ status: 404, body: { code: 5, details: [] } });
    expect(answer.body.message).toContain('/v2/product/pictures/import');
    expect(await call('/v1/product/pictures/info', { product_id: [String(product!.product_id)] }, keys)).toMatchObject({ status: 404 });
    await ozon.settled();
    expect(ozon.products(keys.clientId)[0]!.images).toEqual([]);
  });
});

describe('limits and faults', () => {
  it('answers past the rate 429 with Retry-After in seconds, per Client-Id, and again a second later', async () => {
    const limited = await startFakeOzon({ ratePerSecond: 2 });
    try {
      const keys = limited.addSeller({ name: 'Частые' });
      const other = limited.addSeller({ name: 'Редкие' });
      expect((await call('/v1/roles', {}, keys, limited)).status).toBe(200);
      expect((await call('/v1/roles', {}, keys, limited)).status).toBe(200);
      const refused = await call('/v1/roles', {}, keys, limited);
      expect(refused).toMatchObject({ status: 429, body: { code: 8, message: 'You have reached request rate limit per second', details: [] } });
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect((await call('/v1/roles', {}, other, limited)).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 1050));
      expect((await call('/v1/roles', {}, keys, limited)).status).toBe(200);
    } finally {
      await limited.close();
    }
  });

  it('fails the next requests as asked: 429 with Retry-After, «Offer not signed», a message of the test’s', async () => {
    const keys = ozon.addSeller({ name: 'Сбои' });
    ozon.failNext(1, 429);
    const limited = await call('/v1/roles', {}, keys);
    expect(limited).toMatchObject({ status: 429, body: { code: 8 } });
    expect(limited.headers.get('retry-after')).toBe('1');
    ozon.failNext(1, 403);
    expect(await call('/v1/roles', {}, keys)).toMatchObject({ status: 403, body: { code: 7, message: 'Offer not signed' } });
    ozon.failNext(2, 500, 'Circle is open');
    expect(await call('/v1/roles', {}, keys)).toMatchObject({ status: 500, body: { code: 13, message: 'Circle is open' } });
    expect(await call('/v1/roles', {}, keys)).toMatchObject({ status: 500 });
    expect((await call('/v1/roles', {}, keys)).status).toBe(200);
  });
});
