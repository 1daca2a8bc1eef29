// Saving an edit through the outbox on fake-indexeddb against the real server: the picture and a
// logo picked on the device are uploaded as edit uploads and the edited asset is created with its
// edit_meta naming the stored logo; a run cut anywhere and run again makes each file and the asset
// once; a device picture becomes an asset of its own first; a refusal fails the job with the
// server's message and a retry finishes it; the draft is done with, the photos too.
import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { eq } from 'drizzle-orm';
import type { AppDatabase } from '../../src/offline/db';
import type { EditDraftRecord, PhotoRecord } from '../../src/offline/records';
import { runOutbox } from '../../src/offline/outbox';
import { DEVICE_SOURCE_ID, enqueueEdit, localLogoKey, pendingEdits, retryEdit } from '../../src/offline/jobs/edit';
import { TransportError } from '../../src/offline/transport-error';
import { faultyTransport, testDatabases, type Fault } from './page-outbox';
import { assets, materials } from '../../server/db/schema';
import { createTestApp, type TestApp } from '../support/test-app';
import { signedInSeller } from '../support/sellers';
import { logoPng } from '../support/edits';
import { blankEdit, applyEdit } from '../../src/features/editor/edit-state';

let t: TestApp;
let origin: string;

beforeAll(async () => {
  t = await createTestApp();
  origin = await t.app.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(() => t.close());
const open = testDatabases('edits');
const transport = (token: string, fault?: Fault) => faultyTransport(origin, token, fault);

const arrayBuffer = (bytes: Buffer) => bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;

async function jpeg(width: number, height: number, colour = { r: 200, g: 180, b: 150 }) {
  return sharp({ create: { width, height, channels: 3, background: colour } }).jpeg().toBuffer();
}

async function photo(database: AppDatabase, bytes: Buffer, width: number, height: number, mime: PhotoRecord['mime'] = 'image/jpeg'): Promise<PhotoRecord> {
  const record: PhotoRecord = { id: crypto.randomUUID(), mime, bytes: arrayBuffer(bytes), width, height, createdAt: Date.now() };
  await database.photos.put(record);
  return record;
}

/** A seller with one product result to edit (an upload added through batch-create). */
async function sellerWithResult(name: string) {
  const { token } = await signedInSeller(t, name);
  const database = open();
  const base = await jpeg(800, 600);
  const upload = await photo(database, base, 800, 600);
  const registered = await transport(token).registerFile(`seed-${crypto.randomUUID()}`, upload, 'image edit');
  // A fresh key: the server has not accepted it, so it answers an address to send the bytes to.
  await transport(token).put(registered.uploadUrl!, upload);
  await database.photos.delete(upload.id);
  const [assetId] = await transport(token).createAssets(`seed-${crypto.randomUUID()}`, [
    { file_key: registered.fileKey, content_config: { category: 'PRODUCT', content_module: 'PRODUCT_IMAGE' } },
  ]);
  return { token, database, assetId: assetId! };
}

/** A draft of an edit of `assetId` with a text and a logo picked on the device, and its rendered picture. */
async function draftWithLogo(database: AppDatabase, assetId: string) {
  const source = await photo(database, await jpeg(800, 600), 800, 600);
  const logo = await photo(database, await logoPng(), 300, 120, 'image/png');
  let edit = blankEdit({ asset_id: assetId, width: 800, height: 600 });
  edit = applyEdit(edit, { type: 'addText', id: 'price', text: '1 990 ₽', color: '#ffffff' });
  edit = applyEdit(edit, { type: 'addLogo', id: 'brand', fileKey: localLogoKey(logo.id), width: 300, height: 120 });
  edit = applyEdit(edit, { type: 'setCrop', ratio: '3:4' });
  const draft: EditDraftRecord = {
    key: `asset:${assetId}`,
    source: { assetId, url: null, photoId: source.id, width: 800, height: 600, placement: { taskId: null, category: 'PRODUCT', background: null, contentModule: 'PRODUCT_IMAGE' } },
    edit,
    logos: [{ localKey: localLogoKey(logo.id), photoId: logo.id }],
    updatedAt: Date.now(),
  };
  await database.edits.put(draft);
  const rendered = await jpeg(edit.crop.width, edit.crop.height, { r: 10, g: 120, b: 200 });
  return { draft, picture: { bytes: arrayBuffer(rendered), mime: 'image/jpeg' as const, width: edit.crop.width, height: edit.crop.height } };
}

async function serverAssets(userToken: string) {
  const res = await t.app.inject({ method: 'GET', url: '/api/v1/content/assets?material_category=PRODUCT&page_size=50', headers: { authorization: `Bearer ${userToken}` } });
  return res.json().data as { id: string; width: number; height: number; edit_meta: { source: { asset_id: string }; layers: { type: string; file_key?: string }[] } | null; edit_files: { logos: Record<string, string> } | null }[];
}

describe('saving an edit through the outbox', () => {
  it('uploads the picture and the logo, creates the edited asset naming the stored logo, and lets the draft and photos go', async () => {
    const { token, database, assetId } = await sellerWithResult('editoutboxa');
    const { draft, picture } = await draftWithLogo(database, assetId);
    const job = await enqueueEdit(database, draft, picture);
    expect(await database.edits.get(draft.key)).toBeUndefined();
    expect(job.files.map((file) => file.role)).toEqual(['logo', 'picture']);
    // The asset's own copy is not needed once the picture is rendered.
    expect(await database.photos.get(draft.source.photoId)).toBeUndefined();

    expect(await runOutbox(database, transport(token))).toEqual({ done: 1, failed: 0, retrying: 0 });
    const done = await database.outbox.get(job.id);
    expect(done).toMatchObject({ state: 'done', assetId: expect.any(String) });
    expect(await pendingEdits(database)).toHaveLength(0);
    expect(await database.photos.count()).toBe(0);

    const created = (await serverAssets(token)).find((asset) => asset.id === (done as { assetId: string }).assetId)!;
    expect([created.width, created.height]).toEqual([draft.edit.crop.width, draft.edit.crop.height]);
    expect(created.edit_meta!.source.asset_id).toBe(assetId);
    const logo = created.edit_meta!.layers.find((layer) => layer.type === 'logo')!;
    expect(logo.file_key).toMatch(/^materials\//);
    expect(created.edit_files!.logos[logo.file_key!]).toBeTruthy();
    const [stored] = await t.app.database.db.select().from(materials).where(eq(materials.storageKey, logo.file_key!));
    expect(stored).toMatchObject({ description: 'image edit (logo)', view: null, status: 'uploaded' });
  });

  it('makes each file and the asset once when every answer is lost and the job runs again', async () => {
    const { token, database, assetId } = await sellerWithResult('editoutboxb');
    const { draft, picture } = await draftWithLogo(database, assetId);
    const job = await enqueueEdit(database, draft, picture);
    const before = (await serverAssets(token)).length;
    // Each call reaches the server, but its answer is lost on the way back, once per call.
    const lost = new Set<string>();
    const losing = transport(token, () => undefined);
    const flaky = {
      ...losing,
      async registerFile(...args: Parameters<typeof losing.registerFile>) {
        const answer = await losing.registerFile(...args);
        if (!lost.has(`register ${args[0]}`)) {
          lost.add(`register ${args[0]}`);
          throw new TransportError(0, 'answer lost');
        }
        return answer;
      },
      async createAssets(...args: Parameters<typeof losing.createAssets>) {
        const answer = await losing.createAssets(...args);
        if (!lost.has(`create ${args[0]}`)) {
          lost.add(`create ${args[0]}`);
          throw new TransportError(0, 'answer lost');
        }
        return answer;
      },
    };
    let clock = Date.now();
    for (let run = 0; run < 6; run += 1) {
      await runOutbox(database, flaky, { now: () => clock });
      clock += 10 * 60_000;
    }
    expect(await database.outbox.get(job.id)).toMatchObject({ state: 'done' });
    expect((await serverAssets(token)).length - before).toBe(1);
    const userId = await serverUser(token);
    const uploads = await t.app.database.db.select().from(materials).where(eq(materials.userId, userId));
    // The seed picture, then the logo and the edited picture, each once.
    expect(uploads.map((row) => row.description).sort()).toEqual(['image edit', 'image edit', 'image edit (logo)']);
    const created = await t.app.database.db.select().from(assets).where(eq(assets.userId, userId));
    expect(created.filter((row) => row.editMeta !== null)).toHaveLength(1);
  });

  it('makes a picture from the device an asset of its own, then the edit of it', async () => {
    const { token } = await signedInSeller(t, 'editoutboxc');
    const database = open();
    const source = await photo(database, await jpeg(640, 640), 640, 640);
    const draft: EditDraftRecord = {
      key: 'device',
      source: { assetId: null, url: null, photoId: source.id, width: 640, height: 640, placement: { taskId: null, category: 'PRODUCT', background: null, contentModule: 'PRODUCT_IMAGE' } },
      edit: applyEdit(blankEdit({ asset_id: DEVICE_SOURCE_ID, width: 640, height: 640 }), { type: 'addText', id: 'word', text: 'Новинка', color: '#111111' }),
      logos: [],
      updatedAt: Date.now(),
    };
    const job = await enqueueEdit(database, draft, { bytes: arrayBuffer(await jpeg(640, 640, { r: 1, g: 2, b: 3 })), mime: 'image/jpeg', width: 640, height: 640 });
    expect(job.files.map((file) => file.role)).toEqual(['source', 'picture']);
    expect(await runOutbox(database, transport(token))).toEqual({ done: 1, failed: 0, retrying: 0 });
    const done = (await database.outbox.get(job.id)) as { sourceAssetId: string; assetId: string };
    const all = await serverAssets(token);
    expect(all).toHaveLength(2);
    expect(all.find((asset) => asset.id === done.sourceAssetId)?.edit_meta).toBeNull();
    expect(all.find((asset) => asset.id === done.assetId)?.edit_meta?.source.asset_id).toBe(done.sourceAssetId);
  });

  it('fails with the server’s message when the edit is refused, keeps the work, and a retry finishes it', async () => {
    const { token, database, assetId } = await sellerWithResult('editoutboxd');
    const { draft, picture } = await draftWithLogo(database, assetId);
    const job = await enqueueEdit(database, draft, picture);
    let refuse = true;
    const refusing = transport(token, (url) =>
      refuse && url.pathname.endsWith('/batch-create')
        ? new Response(JSON.stringify({ code: 422, message: 'Refused for the test', error: 'TEST' }), { status: 422, headers: { 'content-type': 'application/json' } })
        : undefined,
    );
    expect(await runOutbox(database, refusing)).toEqual({ done: 0, failed: 1, retrying: 0 });
    expect(await database.outbox.get(job.id)).toMatchObject({ state: 'failed', error: 'Refused for the test' });
    // Nothing is lost: the files it uploaded are kept with the job, the photos too.
    expect((await pendingEdits(database)).map((pending) => pending.id)).toEqual([job.id]);
    expect(await database.photos.count()).toBe(2);
    refuse = false;
    await retryEdit(database, job.id);
    expect(await runOutbox(database, refusing)).toEqual({ done: 1, failed: 0, retrying: 0 });
    expect((await serverAssets(token)).filter((asset) => asset.edit_meta)).toHaveLength(1);
  });
});

async function serverUser(userToken: string): Promise<string> {
  const res = await t.app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: { authorization: `Bearer ${userToken}` } });
  return res.json().data.id as string;
}
