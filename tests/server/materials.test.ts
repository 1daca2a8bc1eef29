// Photos through the real server and its embedded storage: registering under an idempotency key,
// the signed upload URL and every way it is refused, the checks every file passes (size, type,
// pixel count, damage), the cleaned copy, the list, delete, verification, and ownership; and the
// uploads of image edits (SPEC §3), which have no view and are never taken as shoe photos.
import { translate } from '../../server/lib/i18n';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { shoePhoto } from '../fixtures/shoes';
import { createTestApp, type TestApp } from '../support/test-app';
import { signedInSeller } from '../support/sellers';
import { uploadViews } from '../support/photos';
import { logoPng, uploadEditFile } from '../support/edits';
import { EDIT_UPLOAD_DESCRIPTIONS } from '../../contract/materials';

let t: TestApp;
let anna: { token: string; id: string };
let boris: { token: string; id: string };
let plain: Buffer;
let keyCounter = 0;

const nextKey = () => `upload-key-${Date.now()}-${(keyCounter += 1)}`;
const auth = (token: string) => ({ authorization: `Bearer ${token}`, 'accept-language': 'en' });

async function register(token: string, options: { key?: string; type?: string; size?: number; view?: string } = {}) {
  return t.app.inject({
    method: 'POST',
    url: '/api/v1/materials/upload',
    headers: { ...auth(token), 'idempotency-key': options.key ?? nextKey() },
    payload: {
      file_name: 'shoe.jpg',
      file_type: options.type ?? 'image/jpeg',
      file_size: options.size ?? plain.length,
      description: JSON.stringify({ view: options.view ?? 'right_45' }),
    },
  });
}

async function put(url: string, body: Buffer, contentType = 'image/jpeg') {
  return t.app.inject({ method: 'PUT', url, headers: { 'content-type': contentType, 'accept-language': 'en' }, payload: body });
}

async function uploaded(token: string, body = plain, view = 'right_45') {
  const ticket = (await register(token, { view, size: body.length })).json().data;
  const res = await put(ticket.presigned_url, body);
  expect(res.statusCode, res.body).toBe(200);
  return ticket.material_id as string;
}

/** A PNG whose header claims width × height, with almost no pixel data behind it. */
function pngClaiming(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 0; // greyscale
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(Buffer.alloc(width + 1))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

beforeAll(async () => {
  t = await createTestApp();
  [anna, boris] = [await signedInSeller(t, 'anna'), await signedInSeller(t, 'boris')];
  plain = (await shoePhoto()).jpeg;
});
afterAll(() => t.close());

describe('registering an upload', () => {
  it('answers a relative signed URL for one upload of the declared size and type, valid for at most 15 minutes', async () => {
    const res = await register(anna.token);
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data.status).toBe('pending');
    // The bytes go to an upload key of their own; the stored file's key is never an upload address.
    expect(data.presigned_url).toMatch(new RegExp(`^/api/v1/storage/uploads/${anna.id}/${data.material_id}\\.jpg\\?`));
    const url = new URL(data.presigned_url, 'http://x');
    expect(Number(url.searchParams.get('exp')) - Date.now() / 1000).toBeLessThanOrEqual(15 * 60);
    expect(url.searchParams.get('ct')).toBe('image/jpeg');
    expect(url.searchParams.get('len')).toBe(String(plain.length));
    // The stored file's key, and the address it is read at once its bytes are in.
    expect(data.file_key).toBe(`materials/${anna.id}/${data.material_id}.jpg`);
    expect(data.public_url).toMatch(new RegExp(`^/api/v1/storage/materials/${anna.id}/${data.material_id}\\.jpg\\?`));
  });

  it('returns the same material for a repeated Idempotency-Key, and refuses the key for another file', async () => {
    const key = nextKey();
    const first = (await register(anna.token, { key })).json().data;
    const again = (await register(anna.token, { key })).json().data;
    expect(again.material_id).toBe(first.material_id);
    const other = await register(anna.token, { key, view: 'back' });
    expect(other.statusCode).toBe(409);
    expect(other.json().error).toBe('IDEMPOTENCY_MISMATCH');
  });

  it('needs an Idempotency-Key, a JPEG or PNG type, at most 10 MB and a known view', async () => {
    const noKey = await t.app.inject({
      method: 'POST',
      url: '/api/v1/materials/upload',
      headers: auth(anna.token),
      payload: { file_name: 'a.jpg', file_type: 'image/jpeg', file_size: 10, description: '{"view":"front"}' },
    });
    expect(noKey.statusCode).toBe(400);
    expect(noKey.json().error).toBe('IDEMPOTENCY_KEY_REQUIRED');
    expect((await register(anna.token, { type: 'image/heic' })).statusCode).toBe(400);
    expect((await register(anna.token, { size: 10 * 1024 * 1024 + 1 })).statusCode).toBe(400);
    expect((await register(anna.token, { view: 'top' })).statusCode).toBe(400);
  });

  it('refuses a file name holding a NUL or a lone surrogate with the usual validation error, in the seller’s language', async () => {
    const named = (fileName: string, language: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/materials/upload',
        headers: { ...auth(anna.token), 'accept-language': language, 'idempotency-key': nextKey() },
        payload: { file_name: fileName, file_type: 'image/jpeg', file_size: 10, description: '{"view":"front"}' },
      });
    const nul = await named('shoe\u0000.jpg', 'ru');
    expect(nul.statusCode, nul.body).toBe(400);
    expect(nul.json()).toMatchObject({
      error: 'VALIDATION_FAILED',
      errors: [{ field: 'file_name', message: 'Текст содержит недопустимые символы.' }],
    });
    const surrogate = await named('shoe\ud83d.jpg', 'en');
    expect(surrogate.statusCode, surrogate.body).toBe(400);
    expect(surrogate.json().errors).toEqual([{ field: 'file_name', message: 'The text holds characters that cannot be used.' }]);
  });

  it('registers an edit’s picture and its logo under their descriptions, with no view, answering file_key and public_url', async () => {
    const seller = await signedInSeller(t, 'editor');
    const files = { 'image edit': { body: plain, type: 'image/jpeg' }, 'image edit (logo)': { body: await logoPng(), type: 'image/png' } };
    for (const description of EDIT_UPLOAD_DESCRIPTIONS) {
      const { body, type } = files[description];
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/materials/upload',
        headers: { ...auth(seller.token), 'idempotency-key': nextKey() },
        payload: { file_name: 'edit', file_type: type, file_size: body.length, description },
      });
      expect(res.statusCode, res.body).toBe(200);
      const ticket = res.json().data;
      expect(ticket).toMatchObject({ status: 'pending', file_key: `materials/${seller.id}/${ticket.material_id}.${type === 'image/png' ? 'png' : 'jpg'}` });
      // The address answers once the bytes are in, with the stored file.
      expect((await t.app.inject({ method: 'GET', url: ticket.public_url })).statusCode).toBe(404);
      expect((await put(ticket.presigned_url, body, type)).statusCode).toBe(200);
      const served = await t.app.inject({ method: 'GET', url: ticket.public_url });
      expect(served.statusCode).toBe(200);
      expect(served.headers['content-type']).toBe(type);
      expect(served.rawPayload.equals((await t.app.storage.get(ticket.file_key, 10_000_000))!)).toBe(true);

      const listed = (await t.app.inject({ method: 'GET', url: '/api/v1/materials/list', headers: auth(seller.token) })).json().data;
      expect(listed.find((m: { id: string }) => m.id === ticket.material_id)).toMatchObject({ description, view: null, status: 'uploaded', file_type: type });
    }
    // The logo keeps its transparency.
    const logo = (await t.app.inject({ method: 'GET', url: '/api/v1/materials/list', headers: auth(seller.token) })).json().data[0];
    expect((await sharp((await t.app.inject({ method: 'GET', url: logo.file_url })).rawPayload).metadata()).hasAlpha).toBe(true);
  });

  it('returns the same edit upload for a repeated Idempotency-Key, and refuses the key for the other description or a photo', async () => {
    const seller = await signedInSeller(t, 'repeater');
    const edit = (key: string, description: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/materials/upload',
        headers: { ...auth(seller.token), 'idempotency-key': key },
        payload: { file_name: 'edit.jpg', file_type: 'image/jpeg', file_size: plain.length, description },
      });
    const key = nextKey();
    const first = (await edit(key, 'image edit')).json().data;
    const again = (await edit(key, 'image edit')).json().data;
    expect(again).toMatchObject({ material_id: first.material_id, file_key: first.file_key });
    for (const other of ['image edit (logo)', '{"view":"front"}']) {
      const refused = await edit(key, other);
      expect(refused.statusCode, other).toBe(409);
      expect(refused.json().error).toBe('IDEMPOTENCY_MISMATCH');
    }
    // A photo's key is not an edit's either.
    const photoKey = nextKey();
    expect((await edit(photoKey, '{"view":"front"}')).statusCode).toBe(200);
    expect((await edit(photoKey, 'image edit')).statusCode).toBe(409);
  });

  it('refuses a description that is neither a view nor exactly an edit upload’s', async () => {
    for (const description of ['image edit ', 'Image edit', 'image edit (Logo)', 'image edit(logo)', '"image edit"', '{"edit":"image edit"}', '{"view":null}', '{"view":"top"}', 'front', '']) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/materials/upload',
        headers: { ...auth(anna.token), 'idempotency-key': nextKey() },
        payload: { file_name: 'edit.jpg', file_type: 'image/jpeg', file_size: 10, description },
      });
      expect(res.statusCode, description).toBe(400);
      expect(res.json().error, description).toBe('VALIDATION_FAILED');
      expect(res.json().errors[0].field, description).toMatch(/^description/);
    }
  });

  it('is for signed-in sellers only', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/materials/upload', payload: {} });
    expect(res.statusCode).toBe(401);
  });
});

describe('the signed upload URL', () => {
  it('takes the bytes once, cleans them and marks the material uploaded; a replay changes nothing', async () => {
    const ticket = (await register(anna.token)).json().data;
    const first = await put(ticket.presigned_url, plain);
    expect(first.statusCode).toBe(200);
    expect(first.json().data).toEqual({ material_id: ticket.material_id, status: 'uploaded' });
    const replay = await put(ticket.presigned_url, plain);
    expect(replay.statusCode).toBe(200);
    const list = (await t.app.inject({ method: 'GET', url: '/api/v1/materials/list', headers: auth(anna.token) })).json();
    expect(list.data.filter((m: { id: string }) => m.id === ticket.material_id)).toHaveLength(1);
  });

  it('refuses a tampered, expired, misused or foreign signature with 403', async () => {
    const ticket = (await register(anna.token)).json().data;
    const url = new URL(ticket.presigned_url, 'http://x');
    const tampered = new URL(url);
    tampered.searchParams.set('exp', String(Number(url.searchParams.get('exp')) + 3600));
    const wrongType = await put(ticket.presigned_url, plain, 'image/png');
    const asRead = new URL(url);
    asRead.searchParams.set('op', 'get');
    const expired = await t.app.storage.uploadUrl(`uploads/${anna.id}/${ticket.material_id}.jpg`, { contentType: 'image/jpeg', byteSize: plain.length }, -1);
    // Boris's URL pointed at Anna's object.
    const borisTicket = (await register(boris.token)).json().data;
    const foreign = new URL(borisTicket.presigned_url, 'http://x');
    foreign.pathname = url.pathname;
    // The stored file's own key, signed as an upload (as no answer ever signs it).
    const stored = await t.app.storage.uploadUrl(ticket.file_key, { contentType: 'image/jpeg', byteSize: plain.length }, 60);

    for (const res of [
      await put(`${tampered.pathname}${tampered.search}`, plain),
      wrongType,
      await put(`${asRead.pathname}${asRead.search}`, plain),
      await put(expired, plain),
      await put(`${foreign.pathname}${foreign.search}`, plain),
      await put(stored, plain),
    ]) {
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ error: 'STORAGE_LINK_INVALID', message: 'This upload link is invalid or has expired.' });
    }
  });

  it('takes only the declared size: a larger or smaller body is refused with 403 and the photo stays pending', async () => {
    const ticket = (await register(anna.token)).json().data;
    const larger = Buffer.concat([plain, Buffer.alloc(4096, 0xff)]);
    for (const body of [larger, plain.subarray(0, plain.length - 1), Buffer.alloc(0)]) {
      const res = await put(ticket.presigned_url, body);
      expect(res.statusCode, `${body.length} bytes`).toBe(403);
      expect(res.json().error).toBe('STORAGE_LINK_INVALID');
    }
    const list = (await t.app.inject({ method: 'GET', url: '/api/v1/materials/list?page_size=50', headers: auth(anna.token) })).json();
    expect(list.data.find((m: { id: string }) => m.id === ticket.material_id).status).toBe('pending');
    expect((await put(ticket.presigned_url, plain)).statusCode).toBe(200);
  });

  it('never writes an accepted upload again: a repeated registration answers the material with no URL, and the old URL changes nothing', async () => {
    const key = nextKey();
    const ticket = (await register(anna.token, { key })).json().data;
    expect((await put(ticket.presigned_url, plain)).statusCode).toBe(200);
    const accepted = fs.readFileSync(path.join(t.dataDir, 'files', ticket.file_key));

    const replay = await register(anna.token, { key });
    expect(replay.statusCode).toBe(200);
    expect(replay.json().data).toMatchObject({ material_id: ticket.material_id, status: 'uploaded', presigned_url: null, expires_at: null, file_key: ticket.file_key });

    // Other bytes of the same size and type, through the address handed out before.
    const other = (await shoePhoto({ seed: 99 })).jpeg;
    const sameSize = Buffer.concat([other, Buffer.alloc(Math.max(0, plain.length - other.length))]).subarray(0, plain.length);
    expect((await put(ticket.presigned_url, sameSize)).statusCode).toBe(200);
    expect(fs.readFileSync(path.join(t.dataDir, 'files', ticket.file_key)).equals(accepted)).toBe(true);
  });

  it('refuses more than 10 MB with 413', async () => {
    const ticket = (await register(anna.token)).json().data;
    const res = await put(ticket.presigned_url, Buffer.alloc(10 * 1024 * 1024 + 1, 0xff));
    expect(res.statusCode).toBe(413);
  });

  it('refuses files that are not what they claim, damaged or too many pixels — never a 5xx', async () => {
    const cases: [string, Buffer, string, number, string][] = [
      ['text sent as JPEG', Buffer.from('hello, this is not a photo'), 'image/jpeg', 415, 'UNSUPPORTED_FORMAT'],
      ['PNG sent as JPEG', await sharp(plain).png().toBuffer(), 'image/jpeg', 415, 'UNSUPPORTED_FORMAT'],
      ['JPEG signature then HTML', Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from('<html><script>alert(1)</script></html>')]), 'image/jpeg', 422, 'IMAGE_UNREADABLE'],
      ['a truncated JPEG', plain.subarray(0, Math.floor(plain.length / 2)), 'image/jpeg', 422, 'IMAGE_UNREADABLE'],
      ['a 17000×17000 PNG', pngClaiming(17_000, 17_000), 'image/png', 422, 'IMAGE_TOO_LARGE'],
    ];
    const ids: string[] = [];
    for (const [name, body, type, status, error] of cases) {
      const ticket = (await register(anna.token, { type, size: body.length })).json().data;
      ids.push(ticket.material_id);
      const res = await put(ticket.presigned_url, body, type);
      expect(res.statusCode, name).toBe(status);
      expect(res.json().error, name).toBe(error);
    }
    // The 17000×17000 PNG holds one row of pixels, so decoding it fails as IMAGE_UNREADABLE:
    // IMAGE_TOO_LARGE can only come from the header, read before anything was decoded.
    const list = (await t.app.inject({ method: 'GET', url: '/api/v1/materials/list?page_size=50', headers: auth(anna.token) })).json();
    const statuses = Object.fromEntries(list.data.map((m: { id: string; status: string }) => [m.id, m.status]));
    expect(ids.map((id) => statuses[id])).toEqual(cases.map(() => 'rejected'));
  });

  it('keeps only the pixels: location metadata and anything after the image are gone', async () => {
    const withGps = await sharp(plain)
      .withExif({ IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '55/1 45/1 0/1', GPSLongitudeRef: 'E', GPSLongitude: '37/1 37/1 0/1' } })
      .jpeg()
      .toBuffer();
    expect((await sharp(withGps).metadata()).exif).toBeDefined();
    const polyglot = Buffer.concat([withGps, Buffer.from('<html><script>alert(1)</script></html>')]);
    const id = await uploaded(anna.token, polyglot);
    const stored = fs.readFileSync(path.join(t.dataDir, 'files', 'materials', anna.id, `${id}.jpg`));
    expect((await sharp(stored).metadata()).exif).toBeUndefined();
    expect(stored.includes(Buffer.from('<script'))).toBe(false);
    expect(stored.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
  });
});

describe('listing, reading and deleting', () => {
  it('lists the seller’s own photos, 10 a page, with a readable address once uploaded', async () => {
    const id = await uploaded(boris.token, plain, 'front');
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/materials/list', headers: auth(boris.token) });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.meta).toMatchObject({ page: 1 });
    expect(body.meta.total_pages).toBe(Math.ceil(body.meta.total / 10));
    const item = body.data.find((m: { id: string }) => m.id === id);
    expect(item).toMatchObject({ view: 'front', status: 'uploaded', file_type: 'image/jpeg', width: 1600, height: 1200 });
    const file = await t.app.inject({ method: 'GET', url: item.file_url });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('image/jpeg');
    expect(body.data.every((m: { id: string }) => m.id !== undefined)).toBe(true);
    const annas = (await t.app.inject({ method: 'GET', url: '/api/v1/materials/list?page_size=50', headers: auth(anna.token) })).json();
    expect(annas.data.some((m: { id: string }) => m.id === id)).toBe(false);
  });

  it('pages through the list', async () => {
    const seller = await signedInSeller(t, 'pager');
    for (let i = 0; i < 12; i += 1) await register(seller.token);
    const first = (await t.app.inject({ method: 'GET', url: '/api/v1/materials/list', headers: auth(seller.token) })).json();
    const second = (await t.app.inject({ method: 'GET', url: '/api/v1/materials/list?page=2', headers: auth(seller.token) })).json();
    expect(first.meta).toEqual({ total: 12, total_pages: 2, page: 1 });
    expect(first.data).toHaveLength(10);
    expect(second.data).toHaveLength(2);
    expect(new Set([...first.data, ...second.data].map((m: { id: string }) => m.id)).size).toBe(12);
  });

  it('deletes only the seller’s own photo, and its file with it', async () => {
    const id = await uploaded(anna.token);
    const file = path.join(t.dataDir, 'files', 'materials', anna.id, `${id}.jpg`);
    expect(fs.existsSync(file)).toBe(true);
    const byBoris = await t.app.inject({ method: 'DELETE', url: `/api/v1/materials/${id}`, headers: auth(boris.token) });
    expect(byBoris.statusCode).toBe(404);
    expect(fs.existsSync(file)).toBe(true);
    const byAnna = await t.app.inject({ method: 'DELETE', url: `/api/v1/materials/${id}`, headers: auth(anna.token) });
    expect(byAnna.statusCode).toBe(200);
    expect(fs.existsSync(file)).toBe(false);
  });

  it('deletes a photo by the key it was registered under, for an upload whose answer was lost', async () => {
    const key = nextKey();
    const ticket = (await register(anna.token, { key })).json().data;
    const byKey = (token: string, k = key) => t.app.inject({ method: 'DELETE', url: `/api/v1/materials/by-key/${k}`, headers: auth(token) });
    // Another seller has nothing under the key; a malformed key is refused.
    expect((await byKey(boris.token)).statusCode).toBe(404);
    expect((await byKey(anna.token, 'no')).statusCode).toBe(400);
    expect((await byKey(anna.token)).statusCode).toBe(200);
    const listed = (await t.app.inject({ method: 'GET', url: '/api/v1/materials/list?page_size=50', headers: auth(anna.token) })).json().data as { id: string }[];
    expect(listed.some((m) => m.id === ticket.material_id)).toBe(false);
    // Once gone, the same deletion again finds nothing.
    expect((await byKey(anna.token)).statusCode).toBe(404);
  });

  it('names the shoe types and the parameters that apply to each', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/materials/shoe-categories', headers: { 'accept-language': 'en' } });
    const boots = res.json().data.find((c: { id: string }) => c.id === 'boots');
    expect(boots).toEqual({ id: 'boots', name: 'Boots', params: ['shaftHeight', 'heelHeight', 'shaftLatitude', 'ankleLatitude'] });
  });
});

// Each check runs the segmentation network: sized for a busy machine.
describe('verify-angle', { timeout: 300_000 }, () => {
  const verify = (token: string, material_id: string, view = 'right_45') =>
    t.app.inject({ method: 'POST', url: '/api/v1/shoe-verification/verify-angle', headers: auth(token), payload: { material_id, view } });

  it('passes a sharp shoe on a plain light background', async () => {
    const res = await verify(anna.token, await uploaded(anna.token));
    expect(res.statusCode).toBe(200);
    expect(res.json().data.ok).toBe(true);
    expect(res.json().data.findings.map((f: { check: string }) => f.check)).toEqual(['resolution', 'sharpness', 'exposure', 'subject', 'background']);
  });

  it('warns about a busy background, a blurred shot and a dark one, in the seller’s language', async () => {
    const busy = await verify(anna.token, await uploaded(anna.token, (await shoePhoto({ background: 'busy' })).jpeg));
    expect(busy.json().data.findings.find((f: { check: string }) => f.check === 'background')).toMatchObject({
      ok: false,
      message: translate('en', 'BACKGROUND_BUSY'),
    });
    const blurred = await verify(anna.token, await uploaded(anna.token, (await shoePhoto({ blur: 6 })).jpeg));
    expect(blurred.json().data.findings.find((f: { check: string }) => f.check === 'sharpness').ok).toBe(false);
    const dark = await verify(anna.token, await uploaded(anna.token, (await shoePhoto({ exposure: 0.2 })).jpeg));
    expect(dark.json().data.ok).toBe(false);
  });

  it('never takes an edit’s picture or logo as a shoe photo: verification and a task answer 404', async () => {
    const seller = await signedInSeller(t, 'nophoto');
    const picture = await uploadEditFile(t, seller.token, plain, 'image edit');
    const logo = await uploadEditFile(t, seller.token, await logoPng(), 'image edit (logo)');
    for (const upload of [picture, logo]) {
      const refused = await verify(seller.token, upload.material_id);
      expect(refused.statusCode).toBe(404);
      expect(refused.json()).toMatchObject({ error: 'NOT_FOUND', message: 'Not found.' });
    }

    const photos = await uploadViews(t, seller.token);
    const generate = (materialIds: string[]) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/content/generate',
        headers: { ...auth(seller.token), 'idempotency-key': nextKey() },
        payload: {
          content_config: [{ content_module: 'PRODUCT_IMAGE', category: 'POSTER', custom_params: { shoe_params: {} }, name: 'POSTER', selected: true }],
          material_ids: materialIds,
        },
      });
    // Beside the five views, or in place of one of them.
    for (const ids of [[...photos, picture.material_id], [...photos.slice(1), logo.material_id]]) {
      const refused = await generate(ids);
      expect(refused.statusCode, refused.body).toBe(404);
      expect(refused.json().error).toBe('NOT_FOUND');
    }
    const tasks = (await t.app.inject({ method: 'GET', url: '/api/v1/content/tasks', headers: auth(seller.token) })).json();
    expect(tasks.meta.total).toBe(0);
  });

  it('answers 404 for another seller’s photo and 409 before the photo arrives', async () => {
    const id = await uploaded(anna.token);
    expect((await verify(boris.token, id)).statusCode).toBe(404);
    const pending = (await register(anna.token)).json().data.material_id;
    expect((await verify(anna.token, pending)).statusCode).toBe(409);
  });
});
