// The outbox beside a job stored damaged (an older build, a damaged disk), on fake-indexeddb
// against the real server: the job is left alone and the photos queued behind it still go up,
// whether it was there when the database opened or another tab stored it afterwards.
import 'fake-indexeddb/auto';
import type Dexie from 'dexie';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { runOutbox, wakeQueued } from '../../src/offline/outbox';
import { pendingTasks } from '../../src/offline/jobs/generate';
import { fetchTransport } from '../../src/offline/transport';
import { shoePhoto } from '../fixtures/shoes';
import { createTestApp, type TestApp } from '../support/test-app';
import { signedInSeller } from '../support/sellers';
import { openedDatabases } from '../src/offline/opened-databases';


let t: TestApp;
let origin: string;
let token: string;
let jpeg: ArrayBuffer;
const { asStored, app, closeAll } = openedDatabases();

beforeAll(async () => {
  t = await createTestApp();
  origin = await t.app.listen({ host: '127.0.0.1', port: 0 });
  token = (await signedInSeller(t, 'oleg')).token;
  const bytes = (await shoePhoto()).jpeg;
  jpeg = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
});
afterAll(() => t.close());
beforeEach(() => {
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});
afterEach(async () => {
  vi.restoreAllMocks();
  await closeAll();
});

/** The database as stored, without the app's checks (another tab of another build). */
const transport = () => fetchTransport({ origin, token: async () => token, locale: () => 'en' });
const queuedJob = (id: string, createdAt: number) => ({ id, state: 'queued', attempts: 0, nextAttemptAt: 0, createdAt, updatedAt: createdAt });

/** A draft with one photo queued for upload, as putPhoto leaves it. */
async function queuedPhoto(database: Dexie) {
  await database.table('photos').put({ id: 'p1', draftKey: 'product', view: 'front', mime: 'image/jpeg', bytes: jpeg, width: 1600, height: 1200, createdAt: 1 });
  await database.table('drafts').put({ contentType: 'product', page: 1, slots: { front: { photoId: 'p1', state: 'queued', jobId: crypto.randomUUID() } }, shoeParams: {}, styles: null, updatedAt: 1 });
  const { jobId } = (await database.table('drafts').get('product')).slots.front;
  await database.table('outbox').put({ ...queuedJob(jobId, 2), kind: 'upload', draftKey: 'product', view: 'front', photoId: 'p1' });
}

/** A task whose request was lost, queued first: the first job a runner looks at. */
const damagedTask = () => ({ ...queuedJob(crypto.randomUUID(), 1), kind: 'generate', draftKey: 'product', draft: { contentType: 'product' } });

describe('a damaged job in the outbox', () => {
  it('stored before the database opened is deleted, and the photo queued behind it goes up', async () => {
    const name = `outbox-damaged-${Math.random()}`;
    const before = asStored(name);
    await queuedPhoto(before);
    await before.table('outbox').put(damagedTask());
    before.close();

    const database = app(name);
    expect(await runOutbox(database, transport())).toEqual({ done: 1, failed: 0, retrying: 0 });
    expect((await database.drafts.get('product'))?.slots.front).toMatchObject({ state: 'uploaded', materialId: expect.any(String) });
    expect(await database.outbox.count()).toBe(1);
  });

  it('stored by another tab after opening is passed over: no queued task is listed, the queue wakes, and the photo goes up', async () => {
    const name = `outbox-damaged-${Math.random()}`;
    const database = app(name);
    await queuedPhoto(database);
    await asStored(name).table('outbox').put(damagedTask());

    expect(await pendingTasks(database)).toEqual([]);
    // The network is back: every waiting photo is due now.
    await wakeQueued(database);
    expect(await runOutbox(database, transport())).toEqual({ done: 1, failed: 0, retrying: 0 });
    expect((await database.drafts.get('product'))?.slots.front).toMatchObject({ state: 'uploaded', materialId: expect.any(String) });
    expect(console.warn).toHaveBeenCalledWith(expect.stringMatching(/\/outbox "[^"]+": left unread \(task: /));
  });
});
