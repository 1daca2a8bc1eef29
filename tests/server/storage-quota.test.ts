// What a seller may keep in storage (STORAGE_QUOTA_MB, here 1 MB): photos and edit uploads (a
// pending one at its declared size) and results count; a new upload or a batch of copies past the
// quota is refused with 413 in the seller's language, a repeat of an earlier request is not; and
// batch-create, which copies up to 20 files a call, is rate-limited per seller.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { createTestApp, type TestApp } from '../support/test-app';
import { signedInSeller } from '../support/sellers';
import { uploadEditFile } from '../support/edits';

const QUOTA = 1024 * 1024;

let t: TestApp;
let small: Buffer;

beforeAll(async () => {
  t = await createTestApp({ STORAGE_QUOTA_MB: '1' });
  small = await sharp({ create: { width: 400, height: 300, channels: 3, background: { r: 200, g: 180, b: 160 } } }).jpeg().toBuffer();
});
afterAll(() => t.close());

const auth = (token: string, language = 'en') => ({ authorization: `Bearer ${token}`, 'accept-language': language });

const usage = async (token: string) => {
  const res = await t.app.inject({ method: 'GET', url: '/api/v1/materials/storage', headers: auth(token) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as { used_bytes: number; quota_bytes: number };
};

const register = (token: string, key: string, size: number, language = 'en') =>
  t.app.inject({
    method: 'POST',
    url: '/api/v1/materials/upload',
    headers: { ...auth(token, language), 'idempotency-key': key },
    payload: { file_name: 'shoe.jpg', file_type: 'image/jpeg', file_size: size, description: '{"view":"front"}' },
  });

const batchCreate = (token: string, fileKey: string, language = 'en') =>
  t.app.inject({
    method: 'POST',
    url: '/api/v1/content/assets/batch-create',
    headers: { ...auth(token, language), 'idempotency-key': crypto.randomUUID() },
    payload: [{ file_key: fileKey, content_config: { category: 'PRODUCT', content_module: 'PRODUCT_IMAGE' } }],
  });

describe('the storage quota', () => {
  it('counts uploads, pending ones at their declared size, and results', async () => {
    const seller = await signedInSeller(t, 'quentin');
    expect(await usage(seller.token)).toEqual({ used_bytes: 0, quota_bytes: QUOTA });
    const edit = await uploadEditFile(t, seller.token, small, 'image edit');
    const stored = (await usage(seller.token)).used_bytes;
    expect(stored).toBeGreaterThan(0);
    expect((await register(seller.token, 'pending-0001', 5000)).statusCode).toBe(200);
    expect((await usage(seller.token)).used_bytes).toBe(stored + 5000);
    expect((await batchCreate(seller.token, edit.file_key)).statusCode).toBe(200);
    expect((await usage(seller.token)).used_bytes).toBe(2 * stored + 5000);
    // Another seller's bytes are theirs.
    expect((await usage((await signedInSeller(t, 'quincy')).token)).used_bytes).toBe(0);
  });

  it('refuses a new upload past the quota with 413 in the seller’s language, and still answers a repeat', async () => {
    const seller = await signedInSeller(t, 'querida');
    expect((await register(seller.token, 'fill-0001', QUOTA - 100)).statusCode).toBe(200);

    const english = await register(seller.token, 'over-0001', 200);
    expect(english.statusCode).toBe(413);
    expect(english.json()).toMatchObject({
      error: 'STORAGE_QUOTA_EXCEEDED',
      message: 'Your storage is full: 1 MB of 1 MB used. Delete photos or results you no longer need.',
    });
    const russian = await register(seller.token, 'over-0002', 200, 'ru');
    expect(russian.statusCode).toBe(413);
    expect(russian.json().message).toBe('Хранилище заполнено: занято 1 МБ из 1 МБ. Удалите фото или результаты, которые больше не нужны.');
    // What fits is taken; a repeat of the registration that filled it is answered as before.
    expect((await register(seller.token, 'fits-0001', 100)).statusCode).toBe(200);
    expect((await register(seller.token, 'fill-0001', QUOTA - 100)).statusCode).toBe(200);

    // Deleting makes room again.
    const removed = await t.app.inject({ method: 'DELETE', url: '/api/v1/materials/by-key/fill-0001', headers: auth(seller.token) });
    expect(removed.statusCode).toBe(200);
    expect((await register(seller.token, 'over-0001', 200)).statusCode).toBe(200);
  });

  it('refuses results copied past the quota with 413 in the seller’s language, adding none', async () => {
    const seller = await signedInSeller(t, 'quinta');
    const edit = await uploadEditFile(t, seller.token, small, 'image edit');
    const { used_bytes: used } = await usage(seller.token);
    // Room for half a copy.
    expect((await register(seller.token, 'fill-0002', QUOTA - used - Math.floor(used / 2))).statusCode).toBe(200);
    for (const [language, message] of [
      ['ru', 'Хранилище заполнено: занято 1 МБ из 1 МБ. Удалите фото или результаты, которые больше не нужны.'],
      ['en', 'Your storage is full: 1 MB of 1 MB used. Delete photos or results you no longer need.'],
    ] as const) {
      const refused = await batchCreate(seller.token, edit.file_key, language);
      expect(refused.statusCode, language).toBe(413);
      expect(refused.json()).toMatchObject({ error: 'STORAGE_QUOTA_EXCEEDED', message });
    }
    const listed = await t.app.inject({ method: 'GET', url: '/api/v1/content/assets?material_category=PRODUCT', headers: auth(seller.token) });
    expect(listed.json().meta.total).toBe(0);
  });
});

describe('batch-create', () => {
  it('is limited to 60 calls an hour per seller, answered 429 in the seller’s language', async () => {
    const seller = await signedInSeller(t, 'rapid');
    const missing = `materials/${seller.id}/${crypto.randomUUID()}.jpg`;
    for (let call = 0; call < 60; call += 1) expect((await batchCreate(seller.token, missing)).statusCode).toBe(404);
    const limited = await batchCreate(seller.token, missing, 'ru');
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ error: 'RATE_LIMITED' });
    expect(limited.json().message).toMatch(/^Слишком много запросов\. Повторите через \d+ с\.$/);
    // Another seller is not held back.
    const other = await signedInSeller(t, 'steady');
    expect((await batchCreate(other.token, `materials/${other.id}/${crypto.randomUUID()}.jpg`)).statusCode).toBe(404);
  });
});
