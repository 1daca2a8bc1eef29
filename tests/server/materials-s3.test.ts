// The same upload path against an S3-compatible server (s3rver on loopback): a presigned PUT
// straight to the bucket, then the server checks and cleans the object the first time the photo
// is verified, and reads, lists and deletes it there.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import S3rver from 's3rver';
import sharp from 'sharp';
import { shoePhoto } from '../fixtures/shoes';
import { createTestApp, type TestApp } from '../support/test-app';
import { signedInSeller } from '../support/sellers';

let t: TestApp;
let s3: S3rver;
let s3Dir: string;
let seller: { token: string; id: string };
let photo: Buffer;

beforeAll(async () => {
  s3Dir = fs.mkdtempSync(path.join(os.tmpdir(), 'solestudio-s3-'));
  s3 = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: s3Dir, configureBuckets: [{ name: 'photos', configs: [] }] });
  const { port } = (await s3.run()) as unknown as { port: number };
  t = await createTestApp({
    S3_BUCKET: 'photos',
    S3_ENDPOINT: `http://127.0.0.1:${port}`,
    S3_FORCE_PATH_STYLE: 'true',
    S3_ACCESS_KEY_ID: 'S3RVER',
    S3_SECRET_ACCESS_KEY: 'S3RVER',
  });
  seller = await signedInSeller(t, 'stella');
  photo = (await shoePhoto()).jpeg;
});

afterAll(async () => {
  await t.close();
  await s3.close();
  fs.rmSync(s3Dir, { recursive: true, force: true });
});

const headers = () => ({ authorization: `Bearer ${seller.token}`, 'accept-language': 'en' });

async function registered(body: Buffer, key: string, description = '{"view":"left_side"}') {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/materials/upload',
    headers: { ...headers(), 'idempotency-key': key },
    payload: { file_name: 'shoe.jpg', file_type: 'image/jpeg', file_size: body.length, description },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as { material_id: string; presigned_url: string; file_key: string };
}

describe('S3 storage', () => {
  it('hands out a presigned PUT to the bucket, then checks, cleans and serves the object', async () => {
    const ticket = await registered(photo, 's3-upload-0001');
    expect(ticket.presigned_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/photos\/materials\//);
    expect(ticket.presigned_url).toContain('X-Amz-Signature=');
    const put = await fetch(ticket.presigned_url, { method: 'PUT', headers: { 'content-type': 'image/jpeg' }, body: photo });
    expect(put.status).toBe(200);

    const verified = await t.app.inject({
      method: 'POST',
      url: '/api/v1/shoe-verification/verify-angle',
      headers: headers(),
      payload: { material_id: ticket.material_id, view: 'left_side' },
    });
    expect(verified.statusCode, verified.body).toBe(200);
    expect(verified.json().data.ok).toBe(true);

    const list = (await t.app.inject({ method: 'GET', url: '/api/v1/materials/list', headers: headers() })).json();
    const item = list.data.find((m: { id: string }) => m.id === ticket.material_id);
    expect(item.status).toBe('uploaded');
    const file = await fetch(item.file_url);
    expect(file.status).toBe(200);
    expect((await sharp(Buffer.from(await file.arrayBuffer())).metadata()).width).toBe(1600);

    const removed = await t.app.inject({ method: 'DELETE', url: `/api/v1/materials/${ticket.material_id}`, headers: headers() });
    expect(removed.statusCode).toBe(200);
    expect((await fetch(item.file_url)).status).toBe(404);
  });

  it('rejects a damaged object found in the bucket and removes it', async () => {
    const ticket = await registered(photo, 's3-upload-0002');
    await fetch(ticket.presigned_url, { method: 'PUT', headers: { 'content-type': 'image/jpeg' }, body: photo.subarray(0, 2000) });
    const verified = await t.app.inject({
      method: 'POST',
      url: '/api/v1/shoe-verification/verify-angle',
      headers: headers(),
      payload: { material_id: ticket.material_id, view: 'left_side' },
    });
    expect(verified.statusCode).toBe(422);
    expect(verified.json().error).toBe('IMAGE_UNREADABLE');
    const list = (await t.app.inject({ method: 'GET', url: '/api/v1/materials/list', headers: headers() })).json();
    expect(list.data.find((m: { id: string }) => m.id === ticket.material_id)).toMatchObject({ status: 'rejected', rejection: 'IMAGE_UNREADABLE' });
  });

  it('takes an edit uploaded straight to the bucket into a result, checking its bytes there first; one never uploaded is refused', async () => {
    const register = (key: string) => registered(photo, key, 'image edit');
    const create = (fileKey: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/content/assets/batch-create',
        headers: headers(),
        payload: [{ file_key: fileKey, content_config: { category: 'PRODUCT', content_module: 'PRODUCT_IMAGE' } }],
      });
    const edit = await register('s3-edit-upload-0001');
    expect((await fetch(edit.presigned_url, { method: 'PUT', headers: { 'content-type': 'image/jpeg' }, body: photo })).status).toBe(200);
    const created = await create(edit.file_key);
    expect(created.statusCode, created.body).toBe(200);
    const asset = created.json().data[0];
    expect([asset.width, asset.height]).toEqual([1600, 1200]);
    const file = await fetch(asset.file_url);
    expect(file.status).toBe(200);
    expect((await sharp(Buffer.from(await file.arrayBuffer())).metadata()).width).toBe(1600);

    const missing = await register('s3-edit-upload-0002');
    expect((await create(missing.file_key)).statusCode).toBe(409);
  });
});
