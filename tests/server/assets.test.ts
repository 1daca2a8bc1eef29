// Material history on the server: results of a real task in their sections, pages of a seller's
// results, deleting (files too), a selection downloaded as one zip holding exactly those files,
// and edited pictures added from uploads, kept with their edit and reopened with its files.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import sharp from 'sharp';
import yauzl from 'yauzl';
import { eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../support/test-app';
import { signedInSeller } from '../support/sellers';
import { uploadPhoto, uploadViews } from '../support/photos';
import { createAsset, editWithLogo, logoPng, uploadEditFile } from '../support/edits';
import { shoePhoto } from '../fixtures/shoes';
import { assets, materials } from '../../server/db/schema';
import { MATERIAL_SECTIONS, SECTION_CATEGORIES } from '../../contract/assets';

let t: TestApp;
let anna: { token: string; id: string };
let boris: { token: string; id: string };
let keys = 0;

const auth = (token: string) => ({ authorization: `Bearer ${token}`, 'accept-language': 'en' });

const entry = (category: 'PRODUCT2' | 'POSTER') => ({
  content_module: 'PRODUCT_IMAGE',
  category,
  custom_params: { shoe_params: {} },
  name: category,
  selected: true,
});

async function list(token: string, query: string) {
  return t.app.inject({ method: 'GET', url: `/api/v1/content/assets?${query}`, headers: auth(token) });
}

/** Results as the pipeline stores them: a row and its file. */
async function storedAssets(userId: string, category: string, count: number, startMs: number) {
  const ids: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const id = crypto.randomUUID();
    const key = `assets/${userId}/${id}.jpg`;
    await t.app.storage.put(key, Buffer.from(`${category} ${i}`), 'image/jpeg');
    await t.app.database.db.insert(assets).values({
      id,
      userId,
      contentModule: 'PRODUCT_IMAGE',
      category,
      storageKey: key,
      fileType: 'image/jpeg',
      width: 1200,
      height: 1600,
      byteSize: 10,
      createdAt: new Date(startMs + i * 1000),
    });
    ids.push(id);
  }
  return ids;
}

/** The SQL of every statement the app's database prepares while `work` runs. */
async function statementsDuring(work: () => Promise<void>): Promise<string[]> {
  const { session } = t.app.database.db as unknown as { session: { prepareQuery: (query: { sql: string }, ...rest: unknown[]) => unknown } };
  const spy = vi.spyOn(session, 'prepareQuery');
  try {
    await work();
    return spy.mock.calls.map(([query]) => query.sql);
  } finally {
    spy.mockRestore();
  }
}

function zipEntries(bytes: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(bytes, { lazyEntries: true }, (error, zip) => {
      if (error || !zip) return reject(error);
      const files = new Map<string, Buffer>();
      zip.on('entry', (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (streamError, stream) => {
          if (streamError || !stream) return reject(streamError);
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('end', () => {
            files.set(entry.fileName, Buffer.concat(chunks));
            zip.readEntry();
          });
        });
      });
      zip.on('end', () => resolve(files));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

beforeAll(async () => {
  t = await createTestApp({ SIGN_UP_BONUS_TOKENS: '100' });
  anna = await signedInSeller(t, 'anna');
  boris = await signedInSeller(t, 'boris');
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('material history', () => {
  it("puts a finished task's results in their sections, with addresses that serve the files", async () => {
    // A seller of its own: each section holds only this task's results, in any order.
    const cora = await signedInSeller(t, 'cora');
    const photos = await uploadViews(t, cora.token);
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/v1/content/generate',
      headers: { ...auth(cora.token), 'idempotency-key': `assets-task-${(keys += 1)}` },
      payload: { content_config: [entry('PRODUCT2'), entry('POSTER')], material_ids: photos },
    });
    expect(created.statusCode).toBe(200);
    const id = created.json().data.id as string;
    // Bounded for a busy machine: the photos' checks and two pictures made by the studio.
    const deadline = Date.now() + 240_000;
    let status = 'pending';
    while (['pending', 'processing'].includes(status) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      status = (await t.app.inject({ method: 'GET', url: `/api/v1/content/tasks/${id}`, headers: auth(cora.token) })).json().data.status;
    }
    expect(status).toBe('completed');

    const product = (await list(cora.token, 'material_category=PRODUCT')).json();
    expect(product.meta).toEqual({ total: 1, total_pages: 1, page: 1 });
    expect(product.data[0]).toMatchObject({ task_id: id, category: 'PRODUCT2', content_module: 'PRODUCT_IMAGE', file_type: 'image/jpeg' });
    const poster = (await list(cora.token, 'material_category=POSTER')).json();
    expect(poster.data).toHaveLength(1);
    expect((await list(cora.token, 'material_category=CREATIVE_VIDEO')).json().data).toEqual([]);
    const file = await t.app.inject({ method: 'GET', url: poster.data[0].file_url });
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    // Boris sees none of it.
    expect((await list(boris.token, '')).json().data.filter((a: { task_id: string }) => a.task_id === id)).toEqual([]);
  }, 300_000);

  it('pages a section by 8, newest first, and refuses an unknown section', async () => {
    const ids = await storedAssets(boris.id, 'OUTFIT_COLOR', 11, Date.parse('2026-01-01T00:00:00Z'));
    const first = (await list(boris.token, 'material_category=OUTFIT_COLOR')).json();
    expect(first.meta).toEqual({ total: 11, total_pages: 2, page: 1 });
    expect(first.data.map((a: { id: string }) => a.id)).toEqual(ids.slice(3).reverse());
    const second = (await list(boris.token, 'material_category=OUTFIT_COLOR&page=2')).json();
    expect(second.data.map((a: { id: string }) => a.id)).toEqual(ids.slice(0, 3).reverse());
    expect((await list(boris.token, 'material_category=PRODUCT')).json().meta.total).toBe(0);
    expect((await list(boris.token, 'material_category=SHOES')).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/content/assets' })).statusCode).toBe(401);
  });

  it('files every category under the section the page shows it in', async () => {
    const seller = await signedInSeller(t, 'sections');
    for (const section of MATERIAL_SECTIONS) {
      for (const category of SECTION_CATEGORIES[section]) await storedAssets(seller.id, category, 1, Date.now());
    }
    for (const section of MATERIAL_SECTIONS) {
      const page = (await list(seller.token, `material_category=${section}`)).json();
      expect(page.data.map((a: { category: string }) => a.category).sort()).toEqual([...SECTION_CATEGORIES[section]].sort());
    }
  });

  it("deletes only the seller's own results, and their files with them", async () => {
    const [mine, other] = [await storedAssets(boris.id, 'POSTER', 2, Date.now()), await storedAssets(anna.id, 'POSTER', 1, Date.now())];
    const remove = (token: string, ids: string[]) =>
      t.app.inject({ method: 'DELETE', url: '/api/v1/content/assets', headers: auth(token), payload: { asset_ids: ids } });

    const mixed = await remove(boris.token, [mine[0]!, other[0]!]);
    expect(mixed.statusCode).toBe(404);
    expect(await t.app.database.db.select().from(assets).where(eq(assets.id, mine[0]!))).toHaveLength(1);

    const key = `assets/${boris.id}/${mine[0]}.jpg`;
    expect(await t.app.storage.get(key, 1000)).not.toBeNull();
    const done = await remove(boris.token, [mine[0]!]);
    expect(done.statusCode).toBe(200);
    expect(done.json().message).toBe('Deleted.');
    expect(await t.app.database.db.select().from(assets).where(eq(assets.id, mine[0]!))).toHaveLength(0);
    expect(await t.app.storage.get(key, 1000)).toBeNull();
    expect((await remove(boris.token, [mine[0]!])).statusCode).toBe(404);
    expect((await remove(boris.token, [])).statusCode).toBe(400);
  });

  it('downloads exactly the selected files as one zip, behind an address that only works for them', async () => {
    const ids = await storedAssets(boris.id, 'FULL_BODY', 4, Date.parse('2026-03-04T05:06:07Z'));
    const chosen = [ids[2]!, ids[0]!];
    const asked = await t.app.inject({ method: 'POST', url: '/api/v1/content/assets/download', headers: auth(boris.token), payload: { asset_ids: chosen } });
    expect(asked.statusCode).toBe(200);
    const { download_url, total, expires_at } = asked.json().data;
    expect(total).toBe(2);
    expect(Date.parse(expires_at) - Date.now()).toBeGreaterThan(9 * 60_000);

    // The address needs no bearer token: the browser opens it directly.
    const zip = await t.app.inject({ method: 'GET', url: download_url });
    expect(zip.statusCode).toBe(200);
    expect(zip.headers['content-type']).toBe('application/zip');
    expect(zip.headers['content-disposition']).toMatch(/^attachment; filename="solestudio-\d{8}-\d{6}\.zip"$/);
    const files = await zipEntries(zip.rawPayload);
    expect([...files.keys()]).toEqual([`full-body-20260304-050609-${ids[2]!.slice(0, 8)}.jpg`, `full-body-20260304-050607-${ids[0]!.slice(0, 8)}.jpg`]);
    expect(files.get([...files.keys()][0]!)!.toString()).toBe('FULL_BODY 2');

    // Another seller's asset cannot be asked for, and a changed address is refused.
    const foreign = await storedAssets(anna.id, 'FULL_BODY', 1, Date.now());
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/v1/content/assets/download', headers: auth(boris.token), payload: { asset_ids: [ids[1]!, foreign[0]!] } }))
        .statusCode,
    ).toBe(404);
    const token = new URL(download_url, 'http://x').searchParams.get('token')!;
    const [payload, signature] = token.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    const forged = `${Buffer.from(JSON.stringify({ ...claims, a: [foreign[0]] })).toString('base64url')}.${signature}`;
    const refused = await t.app.inject({ method: 'GET', url: `/api/v1/content/assets/download?token=${forged}`, headers: { 'accept-language': 'en' } });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe('This archive link is invalid or has expired. Please package the files again.');
  });

  it('adds results from images the seller uploaded, copying the file, and refuses anything not theirs', async () => {
    const photo = await shoePhoto({ width: 1200, height: 900, seed: 41 });
    const materialId = await uploadPhoto(t, boris.token, photo.jpeg, 'front');
    const [upload] = await t.app.database.db.select().from(materials).where(eq(materials.id, materialId));
    const create = (token: string, items: unknown) =>
      t.app.inject({ method: 'POST', url: '/api/v1/content/assets/batch-create', headers: auth(token), payload: items as object });
    const item = {
      file_key: upload!.storageKey,
      file_url: 'https://example.invalid/ignored.jpg',
      content_config: { category: 'POSTER', content_module: 'PRODUCT_IMAGE', background: null },
    };

    expect((await create(anna.token, [item])).statusCode).toBe(404);
    const mismatch = await create(boris.token, [{ ...item, content_config: { category: 'POSTER', content_module: 'CREATIVE_VIDEO' } }]);
    expect(mismatch.statusCode).toBe(400);
    expect((await create(boris.token, [item, { ...item, task_id: crypto.randomUUID() }])).statusCode).toBe(404);

    const created = await create(boris.token, [item]);
    expect(created.statusCode).toBe(200);
    const [asset] = created.json().data;
    expect(asset).toMatchObject({ category: 'POSTER', content_module: 'PRODUCT_IMAGE', task_id: null, width: upload!.width, height: upload!.height });
    expect(asset.edit_meta).toBeNull();
    expect(asset.edit_files).toBeNull();
    const [row] = await t.app.database.db.select().from(assets).where(eq(assets.id, asset.id));
    expect(row!.storageKey).not.toBe(upload!.storageKey);
    const served = await t.app.inject({ method: 'GET', url: asset.file_url });
    expect(served.rawPayload.equals((await t.app.storage.get(upload!.storageKey, 10_000_000))!)).toBe(true);
    expect((await list(boris.token, 'material_category=POSTER')).json().data.map((a: { id: string }) => a.id)).toContain(asset.id);

    // Deleting the result leaves the upload it came from.
    await t.app.inject({ method: 'DELETE', url: '/api/v1/content/assets', headers: auth(boris.token), payload: { asset_ids: [asset.id] } });
    expect(await t.app.storage.get(upload!.storageKey, 10_000_000)).not.toBeNull();
  });

  it('adds a batch once under one Idempotency-Key: a repeat answers the same results, another request under the key is refused', async () => {
    const ivan = await signedInSeller(t, 'ivanonce');
    const photo = await shoePhoto({ width: 1200, height: 900, seed: 61 });
    const source = (await createAsset(t, ivan.token, (await uploadEditFile(t, ivan.token, photo.jpeg, 'image edit')).file_key)).json().data[0];
    const picture = await uploadEditFile(t, ivan.token, photo.jpeg, 'image edit');
    const logo = await uploadEditFile(t, ivan.token, await logoPng(), 'image edit (logo)');
    const item = { file_key: picture.file_key, content_config: { category: 'PRODUCT', content_module: 'PRODUCT_IMAGE' }, edit_meta: editWithLogo(source.id, logo.file_key) };
    const create = (key: string | undefined, items: unknown[]) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/content/assets/batch-create',
        headers: { ...auth(ivan.token), ...(key === undefined ? {} : { 'idempotency-key': key }) },
        payload: items as object,
      });
    const total = async () => (await list(ivan.token, '')).json().meta.total as number;
    const before = await total();

    const first = await create('edit-job-0001', [item]);
    expect(first.statusCode, first.body).toBe(200);
    const [made] = first.json().data;
    // The answer was lost, and the outbox sends the request again — also once the edit's upload is gone.
    const again = await create('edit-job-0001', [item]);
    expect(again.statusCode).toBe(200);
    expect(again.json().data.map((a: { id: string }) => a.id)).toEqual([made.id]);
    expect(again.json().data[0].edit_files).toEqual(made.edit_files);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/v1/materials/${picture.material_id}`, headers: auth(ivan.token) })).statusCode).toBe(200);
    expect((await create('edit-job-0001', [item])).json().data[0].id).toBe(made.id);
    expect(await total()).toBe(before + 1);

    // Another request under the key is refused, and so is a key that is not one.
    const other = await create('edit-job-0001', [{ ...item, content_config: { category: 'POSTER', content_module: 'PRODUCT_IMAGE' } }]);
    expect(other.statusCode).toBe(409);
    expect(other.json().error).toBe('IDEMPOTENCY_MISMATCH');
    expect((await create('edit-job-0001', [{ ...item, edit_meta: { ...item.edit_meta, layers: [] } }])).statusCode).toBe(409);
    const malformed = await create('short', [item]);
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().error).toBe('IDEMPOTENCY_KEY_REQUIRED');
    // Another seller's key of the same text is theirs alone.
    const annasPicture = await uploadEditFile(t, anna.token, photo.jpeg, 'image edit');
    const annas = await t.app.inject({
      method: 'POST',
      url: '/api/v1/content/assets/batch-create',
      headers: { ...auth(anna.token), 'idempotency-key': 'edit-job-0001' },
      payload: [{ file_key: annasPicture.file_key, content_config: { category: 'PRODUCT', content_module: 'PRODUCT_IMAGE' } }],
    });
    expect(annas.statusCode).toBe(200);
    expect(annas.json().data[0].id).not.toBe(made.id);
    expect(await total()).toBe(before + 1);

    // Two repeats at once: one result.
    const fresh = await uploadEditFile(t, ivan.token, photo.jpeg, 'image edit');
    const plain = { ...item, file_key: fresh.file_key };
    const both = await Promise.all([create('edit-job-0002', [plain]), create('edit-job-0002', [plain])]);
    expect(both.map((res) => res.statusCode)).toEqual([200, 200]);
    expect(new Set(both.map((res) => res.json().data[0].id)).size).toBe(1);
    expect(await total()).toBe(before + 2);

    // Without a key, every request adds its results.
    expect((await create(undefined, [plain])).statusCode).toBe(200);
    expect((await create(undefined, [plain])).statusCode).toBe(200);
    expect(await total()).toBe(before + 4);
  });

  it('keeps the edit an edited picture was made with, reopens it with the asset, and refuses a bad or foreign one', async () => {
    // A seller of its own: the other tests count what is in the sections.
    const edith = await signedInSeller(t, 'edith');
    const photo = await shoePhoto({ width: 1200, height: 900, seed: 43 });
    const create = async (token: string, materialId: string, edit?: unknown) => {
      const [upload] = await t.app.database.db.select().from(materials).where(eq(materials.id, materialId));
      return createAsset(t, token, upload!.storageKey, edit);
    };
    // The source: one of Edith's results.
    const source = (await create(edith.token, await uploadPhoto(t, edith.token, photo.jpeg, 'front'))).json().data[0] as { id: string };
    const logo = await uploadEditFile(t, edith.token, await logoPng(), 'image edit (logo)');
    const edit = editWithLogo(source.id, logo.file_key);
    const edited = await create(edith.token, await uploadPhoto(t, edith.token, photo.jpeg, 'front'), edit);
    expect(edited.statusCode, edited.body).toBe(200);
    const [asset] = edited.json().data;
    // Kept with its defaults filled in, and answered again wherever the asset is listed.
    const kept = {
      ...edit,
      keep_transparency: false,
      layers: [
        { ...edit.layers[0], font: 'sans', bold: false, align: 'center', plate: null, rotation: 0, scale: 1 },
        { ...edit.layers[1], rotation: 0 },
      ],
    };
    expect(asset.edit_meta).toEqual(kept);
    const listed = (await list(edith.token, 'material_category=PRODUCT')).json().data.find((a: { id: string }) => a.id === asset.id);
    expect(listed.edit_meta).toEqual(kept);

    // Bad edits are refused with the reason, and nothing is added.
    const before = (await list(edith.token, 'material_category=PRODUCT')).json().meta.total;
    for (const bad of [
      { ...edit, layers: [{ ...edit.layers[0], size: 80 }] },
      { ...edit, layers: [{ ...edit.layers[0], size: 11 }] },
      { ...edit, crop: { ...edit.crop, width: 900 } },
      { ...edit, crop: { ...edit.crop, x: 600 } },
      { ...edit, layers: [edit.layers[0], { ...edit.layers[0] }] },
      { ...edit, version: 2 },
      { text: 'Sale', colour: '#ff0000', crop: '1:1' },
    ]) {
      const refused = await create(edith.token, await uploadPhoto(t, edith.token, photo.jpeg, 'front'), bad);
      expect(refused.statusCode, JSON.stringify(bad)).toBe(400);
    }
    expect((await list(edith.token, 'material_category=PRODUCT')).json().meta.total).toBe(before);
    // Another seller's picture is not a source for Anna's edit.
    const foreign = await create(anna.token, await uploadPhoto(t, anna.token, photo.jpeg, 'front'), edit);
    expect(foreign.statusCode).toBe(404);
  });

  it("refuses an edit whose logo is not one of the seller's uploads, and adds nothing of the batch", async () => {
    const lena = await signedInSeller(t, 'lenalogos');
    const photo = await shoePhoto({ width: 1200, height: 900, seed: 47 });
    const picture = await uploadEditFile(t, lena.token, photo.jpeg, 'image edit');
    const source = (await createAsset(t, lena.token, picture.file_key)).json().data[0] as { id: string };
    const own = await uploadEditFile(t, lena.token, await logoPng(), 'image edit (logo)');
    const annas = await uploadEditFile(t, anna.token, await logoPng(), 'image edit (logo)');
    // Registered but never uploaded: there is no logo to reopen the edit with.
    const unsent = (
      await t.app.inject({
        method: 'POST',
        url: '/api/v1/materials/upload',
        headers: { ...auth(lena.token), 'idempotency-key': `unsent-logo-${(keys += 1)}` },
        payload: { file_name: 'logo.png', file_type: 'image/png', file_size: 100, description: 'image edit (logo)' },
      })
    ).json().data.file_key as string;
    const total = async () => (await list(lena.token, '')).json().meta.total as number;
    const before = await total();

    // Another seller's or an unknown key is not found; one whose bytes never came is not uploaded.
    const refusals = [
      [annas.file_key, 404, 'NOT_FOUND'],
      [`materials/${lena.id}/${crypto.randomUUID()}.png`, 404, 'NOT_FOUND'],
      [unsent, 409, 'MATERIAL_NOT_UPLOADED'],
    ] as const;
    for (const [logoKey, status, error] of refusals) {
      const good = { file_key: picture.file_key, content_config: { category: 'PRODUCT', content_module: 'PRODUCT_IMAGE' }, edit_meta: editWithLogo(source.id, own.file_key) };
      const bad = { ...good, edit_meta: editWithLogo(source.id, logoKey) };
      const refused = await t.app.inject({ method: 'POST', url: '/api/v1/content/assets/batch-create', headers: auth(lena.token), payload: [good, bad] });
      expect(refused.statusCode, logoKey).toBe(status);
      expect(refused.json().error).toBe(error);
    }
    expect(await total()).toBe(before);
    expect((await createAsset(t, lena.token, picture.file_key, editWithLogo(source.id, own.file_key))).statusCode).toBe(200);
    expect(await total()).toBe(before + 1);
  });

  it('reopens an edit with its files: the source and the logo served as stored, the source gone once deleted', async () => {
    const olga = await signedInSeller(t, 'olgareopens');
    const photo = await shoePhoto({ width: 1200, height: 900, seed: 53 });
    // The source is a result of Olga's; the edited picture and its logo are edit uploads.
    const source = (await createAsset(t, olga.token, (await uploadEditFile(t, olga.token, photo.jpeg, 'image edit')).file_key)).json().data[0];
    const picture = await uploadEditFile(t, olga.token, photo.jpeg, 'image edit');
    const logo = await uploadEditFile(t, olga.token, await logoPng(), 'image edit (logo)');
    const created = await createAsset(t, olga.token, picture.file_key, editWithLogo(source.id, logo.file_key));
    expect(created.statusCode, created.body).toBe(200);
    const answered = created.json().data[0];
    expect(answered.edit_files).toEqual({ source_url: expect.any(String), logos: { [logo.file_key]: expect.any(String) } });

    const page = (await list(olga.token, 'material_category=PRODUCT')).json();
    const edited = page.data.find((a: { id: string }) => a.id === answered.id);
    expect(edited.edit_meta.source.asset_id).toBe(source.id);
    expect(edited.edit_meta.layers[1]).toMatchObject({ type: 'logo', file_key: logo.file_key });
    expect(Object.keys(edited.edit_files.logos)).toEqual([logo.file_key]);
    // A result that is no edit reopens nothing.
    expect(page.data.find((a: { id: string }) => a.id === source.id).edit_files).toBeNull();

    const [sourceRow] = await t.app.database.db.select().from(assets).where(eq(assets.id, source.id));
    const sourceFile = await t.app.inject({ method: 'GET', url: edited.edit_files.source_url });
    expect(sourceFile.statusCode).toBe(200);
    expect(sourceFile.rawPayload.equals((await t.app.storage.get(sourceRow!.storageKey, 10_000_000))!)).toBe(true);
    const logoFile = await t.app.inject({ method: 'GET', url: edited.edit_files.logos[logo.file_key] });
    expect(logoFile.statusCode).toBe(200);
    expect(logoFile.headers['content-type']).toBe('image/png');
    expect(logoFile.rawPayload.equals((await t.app.storage.get(logo.file_key, 10_000_000))!)).toBe(true);
    expect((await sharp(logoFile.rawPayload).metadata()).hasAlpha).toBe(true);

    // The source deleted: the edit still reopens its layers and logo, over no source picture.
    const removed = await t.app.inject({ method: 'DELETE', url: '/api/v1/content/assets', headers: auth(olga.token), payload: { asset_ids: [source.id] } });
    expect(removed.statusCode).toBe(200);
    const after = (await list(olga.token, 'material_category=PRODUCT')).json().data.find((a: { id: string }) => a.id === answered.id);
    expect(after.edit_meta.source.asset_id).toBe(source.id);
    expect(after.edit_files).toEqual({ source_url: null, logos: { [logo.file_key]: expect.any(String) } });
  });

  it('answers one result by its id with its edit and files, and another seller’s or a missing one as not found', async () => {
    const ula = await signedInSeller(t, 'ulaone');
    const vera = await signedInSeller(t, 'veraone');
    const photo = await shoePhoto({ width: 900, height: 900, seed: 57 });
    const source = (await createAsset(t, ula.token, (await uploadEditFile(t, ula.token, photo.jpeg, 'image edit')).file_key)).json().data[0];
    const logo = await uploadEditFile(t, ula.token, await logoPng(), 'image edit (logo)');
    const picture = await uploadEditFile(t, ula.token, photo.jpeg, 'image edit');
    const edited = (await createAsset(t, ula.token, picture.file_key, editWithLogo(source.id, logo.file_key))).json().data[0];
    const one = (id: string, token: string) => t.app.inject({ method: 'GET', url: `/api/v1/content/assets/${id}`, headers: auth(token) });

    const answer = await one(edited.id, ula.token);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json().data).toMatchObject({ id: edited.id, edit_meta: { source: { asset_id: source.id } }, edit_files: { source_url: expect.any(String) } });
    expect(Object.keys(answer.json().data.edit_files.logos)).toEqual([logo.file_key]);
    expect((await one(source.id, ula.token)).json().data).toMatchObject({ id: source.id, edit_meta: null, edit_files: null });
    expect((await one(edited.id, vera.token)).statusCode).toBe(404);
    expect((await one(crypto.randomUUID(), ula.token)).statusCode).toBe(404);
    expect((await one('not-an-id', ula.token)).statusCode).toBe(400);
  });

  it('looks up the files of a page of edits at once, however many edits it holds', async () => {
    const pia = await signedInSeller(t, 'piapages');
    const photo = await shoePhoto({ width: 1200, height: 900, seed: 59 });
    const source = (await createAsset(t, pia.token, (await uploadEditFile(t, pia.token, photo.jpeg, 'image edit')).file_key)).json().data[0];
    const addEdit = async (i: number) => {
      const logo = await uploadEditFile(t, pia.token, await logoPng(200 + i, 100), 'image edit (logo)');
      const picture = await uploadEditFile(t, pia.token, photo.jpeg, 'image edit');
      expect((await createAsset(t, pia.token, picture.file_key, editWithLogo(source.id, logo.file_key))).statusCode).toBe(200);
    };
    /** The statements reading results or uploads while the section's page is made. */
    const readsOfPage = async (edits: number) => {
      const statements = await statementsDuring(async () => {
        const page = (await list(pia.token, 'material_category=PRODUCT')).json();
        const reopened = page.data.filter((a: { edit_files: { logos: object } | null }) => a.edit_files && Object.keys(a.edit_files.logos).length === 1);
        expect(reopened).toHaveLength(edits);
      });
      return statements.filter((statement) => /from "(assets|materials)"/i.test(statement));
    };

    await addEdit(0);
    const withOne = await readsOfPage(1);
    // The page with its total (one statement), the sources of its edits and their logos.
    expect(withOne).toHaveLength(3);
    for (let i = 1; i < 4; i += 1) await addEdit(i);
    expect(await readsOfPage(4)).toHaveLength(withOne.length);
  });
});
