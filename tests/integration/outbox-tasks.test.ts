// Tasks in the outbox on fake-indexeddb against the real server: a submitted task waits behind
// its photos' uploads, is sent once even when its answer is lost, is kept with the server's
// reason when refused and goes back to its draft or is discarded; a retry of a rejected task
// sends the photos it kept with the new ones.
import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { ShoeView } from '../../contract/enums';
import { tasks } from '../../server/db/schema';
import type { AppDatabase } from '../../src/offline/db';
import { runOutbox } from '../../src/offline/outbox';
import { discardTask, enqueueTask, pendingTasks, restoreTask } from '../../src/offline/jobs/generate';
import { abandonUpload, enqueueUpload } from '../../src/offline/jobs/upload';
import type { GenerateJob, PhotoRecord, UploadJob } from '../../src/offline/records';
import { TransportError } from '../../src/offline/transport-error';
import type { UploadTransport } from '../../src/offline/upload-transport';
import { faultyTransport, materialOnServer, outboxServer, queuedPhotos, testDatabases, type Fault } from './page-outbox';
import type { TestApp } from '../support/test-app';
import { uploadPhoto } from '../support/photos';

let t: TestApp;
let origin: string;
let token: string;
let jpeg: ArrayBuffer;

beforeAll(async () => {
  ({ t, origin, token, jpeg } = await outboxServer());
});
afterAll(() => t.close());
const open = testDatabases('outbox-tasks');
const transport = (fault?: Fault) => faultyTransport(origin, token, fault);
const queued = (database: AppDatabase, views: ShoeView[]) => queuedPhotos(database, views, jpeg);
const onServer = (materialId: string) => materialOnServer(t, materialId);

const FIVE_VIEWS: ShoeView[] = ['right_45', 'right_side', 'left_side', 'front', 'back'];

const productCard = (name = 'PRODUCT2', category = 'PRODUCT2') => ({
  content_module: category === 'HALF_BODY' ? 'REAL_PERSON_IMAGE' : 'PRODUCT_IMAGE',
  category,
  ...(category === 'HALF_BODY' ? { background: 'SIMPLE' } : {}),
  custom_params: { shoe_params: {} },
  name,
  selected: true,
});

async function serverTasks() {
  const res = await t.app.inject({ method: 'GET', url: '/api/v1/content/tasks?page_size=50', headers: { authorization: `Bearer ${token}` } });
  return res.json().data as { id: string }[];
}

async function balance() {
  const res = await t.app.inject({ method: 'GET', url: '/api/v1/tokens/balance', headers: { authorization: `Bearer ${token}` } });
  return res.json().data.total_tokens as number;
}

/** Five photos queued for upload and a task submitted on them, as the confirmation dialog does. */
async function submitted(database: AppDatabase, config = [productCard()]) {
  await queued(database, FIVE_VIEWS);
  const draft = (await database.drafts.get('product'))!;
  return enqueueTask(database, { ...draft, page: 2, styles: { categories: { PRODUCT: [] }, custom: false, prompt: '' } }, { contentConfig: config, total: 4, outputs: 1 });
}

describe('a task in the outbox', () => {
  it('waits behind its uploads while offline, then is sent once even when its answer is lost', async () => {
    const database = open();
    const tasksBefore = (await serverTasks()).length;
    const tokensBefore = await balance();
    const job = await submitted(database);
    // The draft starts over at once: the next shoe can be shot while this one waits.
    expect((await database.drafts.get('product'))?.slots).toEqual({});
    expect(await pendingTasks(database)).toEqual([expect.objectContaining({ id: job.id, state: 'queued' })]);

    let clock = Date.now();
    const offline = transport(() => new TypeError('Failed to fetch'));
    expect(await runOutbox(database, offline, { now: () => clock })).toEqual({ done: 0, failed: 0, retrying: 5 });
    expect((await database.outbox.get(job.id))?.state).toBe('queued');

    // Back online, but the task's answer is lost on the way: the photos go up, the task is retried.
    clock += 10_000;
    let lost = false;
    const lossy = transport((url) => (url.pathname.endsWith('/content/generate') && !lost ? ((lost = true), undefined) : undefined));
    const lossyGenerate: UploadTransport = {
      ...lossy,
      async generate(j, ids) {
        await lossy.generate(j, ids);
        throw new TransportError(0, 'connection reset');
      },
    };
    expect(await runOutbox(database, lossyGenerate, { now: () => clock })).toEqual({ done: 5, failed: 0, retrying: 1 });
    clock += 60_000;
    expect(await runOutbox(database, transport(), { now: () => clock })).toEqual({ done: 1, failed: 0, retrying: 0 });

    const sent = await database.outbox.get(job.id);
    expect(sent).toMatchObject({ state: 'done', taskId: expect.any(String) });
    const tasks = await serverTasks();
    expect(tasks.length - tasksBefore).toBe(1);
    expect(tasks.map((task) => task.id)).toContain((sent as GenerateJob).taskId);
    expect(await balance()).toBe(tokensBefore - 4);
    // The server holds everything now: the photos and their uploads are gone from the device.
    expect(await database.photos.count()).toBe(0);
    expect(await database.outbox.count()).toBe(1);
    expect(await pendingTasks(database)).toEqual([]);
  });

  it('keeps a refused task with the server’s reason, and takes it back to its draft with every photo', async () => {
    const database = open();
    const tasksBefore = (await serverTasks()).length;
    const job = await submitted(database, [productCard('HALF_BODY:SIMPLE', 'HALF_BODY')]);
    expect(await runOutbox(database, transport())).toEqual({ done: 5, failed: 1, retrying: 0 });
    const refused = await database.outbox.get(job.id);
    expect(refused).toMatchObject({ state: 'failed', errorStatus: 400 });
    expect(refused?.error).toMatch(/AI image service/);
    expect((await serverTasks()).length).toBe(tasksBefore);

    const draft = await restoreTask(database, job.id);
    expect(draft?.page).toBe(2);
    expect(draft?.styles).toEqual({ categories: { PRODUCT: [] }, custom: false, prompt: '' });
    expect(Object.keys(draft!.slots).sort()).toEqual([...FIVE_VIEWS].sort());
    expect(Object.values(draft!.slots).every((slot) => slot!.state === 'uploaded' && slot!.materialId)).toBe(true);
    expect(await database.photos.count()).toBe(5);
    expect(await database.outbox.get(job.id)).toBeUndefined();
  });

  it('fails a task whose photo the server refused, and discarding it removes its photos', async () => {
    const database = open();
    const [, , , , back] = await queued(database, FIVE_VIEWS);
    await database.photos.update(back!.photoId, { bytes: new TextEncoder().encode('not a photo').buffer as ArrayBuffer });
    const draft = (await database.drafts.get('product'))!;
    const job = await enqueueTask(database, draft, { contentConfig: [productCard()], total: 4, outputs: 1 });
    const result = await runOutbox(database, transport());
    expect(result).toMatchObject({ done: 4, failed: 1 });
    expect(await database.outbox.get(job.id)).toMatchObject({ state: 'failed', errorStatus: 415, error: expect.stringMatching(/Formats/) });

    // A newer draft with photos is never overwritten by a restore.
    await queued(database, ['front']);
    expect(await restoreTask(database, job.id)).toBeUndefined();
    const uploadedIds = (await database.outbox.bulkGet(job.task.photos.map((photo) => photo.uploadJobId)))
      .map((upload) => (upload as UploadJob).materialId!)
      .filter(Boolean);
    expect(uploadedIds).toHaveLength(5);
    await discardTask(database, job.id);
    expect(await database.outbox.get(job.id)).toBeUndefined();
    expect((await database.photos.toArray()).map((photo) => photo.view)).toEqual(['front']);
    // Its photos are deleted from the server too (the new draft's photo goes up meanwhile).
    expect(await runOutbox(database, transport())).toEqual({ done: 6, failed: 0, retrying: 0 });
    for (const id of uploadedIds) expect(await onServer(id)).toBe(false);
  });

  it('keeps its photos on the server when the seller lets them go: their deletion counts as done', async () => {
    const database = open();
    const job = await submitted(database);
    expect(await runOutbox(database, transport())).toEqual({ done: 6, failed: 0, retrying: 0 });
    const taskId = ((await database.outbox.get(job.id)) as GenerateJob).taskId!;
    const [task] = await t.app.database.db.select({ materialIds: tasks.materialIds }).from(tasks).where(eq(tasks.id, taskId));
    const used = task!.materialIds[0]!;
    await database.transaction('rw', database.outbox, () => abandonUpload(database, 'product', { photoId: 'p', state: 'uploaded', materialId: used }));
    expect(await runOutbox(database, transport())).toEqual({ done: 1, failed: 0, retrying: 0 });
    expect(await onServer(used)).toBe(true);
  });
});

describe('a retry of a rejected task', () => {
  it('sends the accepted photos it did not replace with the new ones, once, and its draft is gone', async () => {
    const database = open();
    // The rejected task's photos the server already has, by view.
    const accepted = new Map<string, string>();
    for (const view of FIVE_VIEWS) accepted.set(view, await uploadPhoto(t, token, Buffer.from(jpeg), view));
    const key = 'retry:task-1' as const;
    await database.drafts.put({
      contentType: key,
      page: 1,
      slots: {},
      shoeParams: {},
      styles: null,
      retry: {
        taskId: 'task-1',
        contentType: 'product',
        contentConfig: [productCard()],
        kept: FIVE_VIEWS.filter((view) => view !== 'front').map((view) => ({ view, materialId: accepted.get(view)!, url: null })),
        total: 4,
        outputs: 1,
      },
      updatedAt: 0,
    });
    // A new front photo, and the back replaced by another although it was accepted.
    for (const view of ['front', 'back'] as const) {
      const photo: PhotoRecord = { id: crypto.randomUUID(), draftKey: key, view, mime: 'image/jpeg', bytes: jpeg, width: 1600, height: 1200, createdAt: 0 };
      await database.photos.put(photo);
      await database.drafts.where('contentType').equals(key).modify((draft) => {
        draft.slots[view] = { photoId: photo.id, state: 'stored' };
      });
      await enqueueUpload(database, key, view, photo.id);
    }
    const job = await enqueueTask(database, (await database.drafts.get(key))!, { contentConfig: [productCard()], total: 4, outputs: 1 });
    expect(job.task.kept?.map((k) => k.view)).toEqual(['right_45', 'right_side', 'left_side']);
    expect(await database.drafts.get(key)).toBeUndefined();

    expect(await runOutbox(database, transport())).toEqual({ done: 3, failed: 0, retrying: 0 });
    const sent = (await database.outbox.get(job.id)) as GenerateJob;
    const res = await t.app.inject({ method: 'GET', url: `/api/v1/content/tasks/${sent.taskId}`, headers: { authorization: `Bearer ${token}` } });
    const materialIds: string[] = res.json().data.material_ids;
    expect(materialIds).toHaveLength(5);
    expect(materialIds).toEqual(expect.arrayContaining(['right_45', 'right_side', 'left_side'].map((view) => accepted.get(view))));
    expect(materialIds).not.toContain(accepted.get('back'));
    expect(materialIds).not.toContain(accepted.get('front'));
  });
});
