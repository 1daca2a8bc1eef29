// The same upload path against an S3-compatible bucket on loopback (s3rver, behind a front that
// checks presigned signatures as S3 does): a presigned PUT straight to the bucket, bound to the
// declared size and type, then the server checks and cleans the object the first time the photo
// is verified, keeps the clean copy under a key no upload address names, and reads, lists and
// deletes it there.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { shoePhoto } from '../fixtures/shoes';
import { createTestApp, type TestApp } from '../support/test-app';
import { signedInSeller } from '../support/sellers';
import { startBucket, type FakeBucket } from '../support/fakes/s3';
import { eq } from 'drizzle-orm';
import { materials } from '../../server/db/schema';
import { acceptUpload } from '../../server/materials/materials';

let t: TestApp;
let bucket: FakeBucket;
let seller: { token: string; id: string };
let photo: Buffer;

beforeAll(async () => {
  bucket = await startBucket();
  t = await createTestApp(bucket.env);
  seller = await signedInSeller(t, 'stella');
  photo = (await shoePhoto()).jpeg;
});

afterAll(async () => {
  await t.close();
  await bucket.close();
});

const headers = () => ({ authorization: `Bearer ${seller.token}`, 'accept-language': 'en' });

async function registration(body: Buffer, key: string, description = '{"view":"left_side"}') {
  return t.app.inject({
    method: 'POST',
    url: '/api/v1/materials/upload',
    headers: { ...headers(), 'idempotency-key': key },
    payload: { file_name: 'shoe.jpg', file_type: 'image/jpeg', file_size: body.length, description },
  });
}

async function registered(body: Buffer, key: string, description = '{"view":"left_side"}') {
  const res = await registration(body, key, description);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as { material_id: string; presigned_url: string; file_key: string };
}

const put = (url: string, body: Buffer, type = 'image/jpeg') => fetch(url, { method: 'PUT', headers: { 'content-type': type }, body });

const verify = (materialId: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/v1/shoe-verification/verify-angle',
    headers: headers(),
    payload: { material_id: materialId, view: 'left_side' },
  });

async function fileUrlOf(materialId: string): Promise<string> {
  const list = (await t.app.inject({ method: 'GET', url: '/api/v1/materials/list?page_size=50', headers: headers() })).json();
  return list.data.find((m: { id: string }) => m.id === materialId).file_url;
}

describe('S3 storage', () => {
  it('hands out a presigned PUT to the bucket, then checks, cleans and serves the object', async () => {
    const ticket = await registered(photo, 's3-upload-0001');
    expect(ticket.presigned_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/photos\/uploads\//);
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
    const damaged = photo.subarray(0, 2000);
    const ticket = await registered(damaged, 's3-upload-0002');
    expect((await put(ticket.presigned_url, damaged)).status).toBe(200);
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

  it('binds the presigned PUT to the declared size and type: the bucket refuses a larger or smaller body and another type', async () => {
    const ticket = await registered(photo, 's3-bound-0001');
    const url = new URL(ticket.presigned_url);
    expect(url.searchParams.get('X-Amz-SignedHeaders')).toBe('content-length;content-type;host');
    const refusals = bucket.refused.length;
    for (const [name, body, type] of [
      ['larger', Buffer.concat([photo, Buffer.alloc(64 * 1024, 0xff)]), 'image/jpeg'],
      ['smaller', photo.subarray(0, photo.length - 1), 'image/jpeg'],
      ['another type', photo, 'image/png'],
    ] as const) {
      const res = await put(ticket.presigned_url, body, type);
      expect(res.status, name).toBe(403);
      expect(await res.text(), name).toContain('SignatureDoesNotMatch');
    }
    expect(bucket.refused.length - refusals).toBe(3);
    // Nothing reached the bucket, so nothing is there to accept.
    expect((await verify(ticket.material_id)).statusCode).toBe(409);
    expect((await put(ticket.presigned_url, photo)).status).toBe(200);
    expect((await verify(ticket.material_id)).statusCode).toBe(200);
  });

  it('holds the object to the declared size even when a bucket takes another', async () => {
    const ticket = await registered(photo, 's3-bound-0002');
    // As an S3-compatible server that ignores signed headers would have stored it.
    await t.app.storage.put(ticket.file_key.replace(/^materials\//, 'uploads/'), Buffer.concat([photo, Buffer.alloc(10)]), 'image/jpeg');
    const verified = await verify(ticket.material_id);
    expect(verified.statusCode).toBe(400);
    expect(verified.json()).toMatchObject({ error: 'UPLOAD_SIZE_MISMATCH', message: 'The file is not the size declared when the upload was registered.' });
  });

  it('never writes an accepted photo again: the repeated registration answers no URL, and the old URL cannot replace it', async () => {
    const ticket = await registered(photo, 's3-accepted-0001');
    expect((await put(ticket.presigned_url, photo)).status).toBe(200);
    expect((await verify(ticket.material_id)).statusCode).toBe(200);
    const before = Buffer.from(await (await fetch(await fileUrlOf(ticket.material_id))).arrayBuffer());

    const replay = await registration(photo, 's3-accepted-0001');
    expect(replay.statusCode).toBe(200);
    expect(replay.json().data).toMatchObject({ material_id: ticket.material_id, status: 'uploaded', presigned_url: null, expires_at: null });

    // Other bytes of the same size through the address handed out before acceptance, still valid.
    const other = Buffer.alloc(photo.length, 0x41);
    expect((await put(ticket.presigned_url, other)).status).toBe(200);
    expect((await verify(ticket.material_id)).statusCode).toBe(200);
    const after = Buffer.from(await (await fetch(await fileUrlOf(ticket.material_id))).arrayBuffer());
    expect(after.equals(before)).toBe(true);
    expect(after.equals(other)).toBe(false);
  });

  it('takes a task whose photos went straight to the bucket before any photo check read them; a photo not there yet is refused, uncharged', async () => {
    const views = ['right_45', 'right_side', 'left_side', 'front', 'back'];
    const tickets = await Promise.all(views.map((view) => registered(photo, `s3-task-photo-${view}`, JSON.stringify({ view }))));
    for (const ticket of tickets.slice(1)) expect((await put(ticket.presigned_url, photo)).status).toBe(200);
    const balance = async () => (await t.app.inject({ method: 'GET', url: '/api/v1/tokens/balance', headers: headers() })).json().data.total_tokens;
    const submit = (key: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/content/generate',
        headers: { ...headers(), 'idempotency-key': key },
        payload: {
          content_config: [{ content_module: 'PRODUCT_IMAGE', category: 'PRODUCT2', custom_params: { shoe_params: {} }, name: 'PRODUCT2', selected: true }],
          material_ids: tickets.map((ticket) => ticket.material_id),
        },
      });
    const before = await balance();
    const early = await submit('s3-task-0001');
    expect(early.statusCode, early.body).toBe(409);
    expect(early.json()).toMatchObject({ error: 'MATERIAL_NOT_UPLOADED', message: 'The photo has not been uploaded yet.' });
    expect(await balance()).toBe(before);

    expect((await put(tickets[0]!.presigned_url, photo)).status).toBe(200);
    const created = await submit('s3-task-0002');
    expect(created.statusCode, created.body).toBe(200);
    expect(created.json().data.total_tokens).toBe(before - created.json().data.cost);
    const list = (await t.app.inject({ method: 'GET', url: '/api/v1/materials/list?page_size=50', headers: headers() })).json();
    const statuses = tickets.map((ticket) => list.data.find((m: { id: string }) => m.id === ticket.material_id).status);
    expect(statuses).toEqual(views.map(() => 'uploaded'));
  });

  it('takes a photo a photo check took in the meantime as taken, though its upload key is gone', async () => {
    const ticket = await registered(photo, 's3-race-0001');
    expect((await put(ticket.presigned_url, photo)).status).toBe(200);
    // A task's submission read the row while the photo was pending…
    const [stale] = await t.app.database.db.select().from(materials).where(eq(materials.id, ticket.material_id));
    expect(stale!.status).toBe('pending');
    // …and a photo check took the photo and removed its upload key before the submission read it.
    expect((await verify(ticket.material_id)).statusCode).toBe(200);
    const taken = await acceptUpload(t.app.database.db, t.app.storage, stale!);
    expect(taken).toMatchObject({ id: ticket.material_id, status: 'uploaded' });
  });

  it('admits the bucket in the Content-Security-Policy, for uploads, pictures and videos', async () => {
    const csp = String((await t.app.inject({ method: 'GET', url: '/api/health' })).headers['content-security-policy']);
    expect(csp).toContain(`connect-src 'self' ${bucket.endpoint};`);
    expect(csp).toContain(`img-src 'self' data: blob: ${bucket.endpoint};`);
    expect(csp).toContain(`media-src 'self' blob: ${bucket.endpoint};`);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(new RegExp(`script-src[^;]*${bucket.endpoint}`));
  });
});
