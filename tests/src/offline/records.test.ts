// @vitest-environment node
// What comes out of IndexedDB is checked at the edge (DESIGN §3), on fake-indexeddb: records an
// older build or a damaged disk left are written as stored (a second connection without the app's
// checks, as another tab of another build would), then read through the app's database.
import 'fake-indexeddb/auto';
import { liveQuery } from 'dexie';
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { wakeQueued } from '../../../src/offline/outbox';
import { openedDatabases } from './opened-databases';

const jpeg = () => new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]);
const png = () => new Uint8Array([0x89, 0x50, 0x4e, 0x47, 4, 5, 6]);

const { asStored, app, closeAll } = openedDatabases();
let warn: MockInstance<typeof console.warn>;

/** The database as stored, without the app's checks. */
/** The log lines about one record. */
const linesAbout = (table: string, key: string) => warn.mock.calls.map(([line]) => String(line)).filter((line) => line.includes(`/${table} "${key}"`));

const queuedJob = (id: string, createdAt: number) => ({ id, state: 'queued', attempts: 0, nextAttemptAt: 0, createdAt, updatedAt: createdAt });

beforeEach(() => {
  warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});

afterEach(async () => {
  vi.restoreAllMocks();
  await closeAll();
});

describe('records written by an older build or damaged', () => {
  it('come out repaired, and are stored repaired, each with a log line', async () => {
    const name = `records-${Math.random()}`;
    const before = asStored(name);
    await before.table('drafts').put({
      contentType: 'product',
      page: 3,
      slots: {
        front: { photoId: 'p1', state: 'sending', warnings: 'blurry' },
        sideways: { photoId: 'p2', state: 'stored' },
        back: { state: 'stored' },
      },
      shoeParams: { heelHeight: 4, shaftHeight: 'tall' },
      styles: { categories: { PRODUCT: ['AMAZON'], POSTER: [] }, custom: 'yes' },
      updatedAt: 'yesterday',
    });
    // A session written before the seller's language was kept.
    await before.table('session').put({ id: 'current', token: 'token-1', userId: 'user-1' });
    before.close();

    const database = app(name);
    expect(await database.drafts.get('product')).toEqual({
      contentType: 'product',
      page: 1,
      slots: { front: { photoId: 'p1', state: 'stored' } },
      shoeParams: { heelHeight: 4 },
      styles: { categories: { PRODUCT: ['AMAZON'], POSTER: [] }, custom: false, prompt: '' },
      updatedAt: 0,
    });
    expect(await database.session.get('current')).toMatchObject({ token: 'token-1', userId: 'user-1', updatedAt: 0 });
    expect(linesAbout('drafts', 'product')).toEqual([expect.stringMatching(/repaired \(.*page.*slots\.sideways.*slots\.back/)]);

    database.close();
    const after = asStored(name);
    expect(await after.table('drafts').get('product')).toMatchObject({ page: 1, slots: { front: { photoId: 'p1', state: 'stored' } }, updatedAt: 0 });
  });

  it('that cannot be repaired are deleted when the database opens, with a log line naming table, key and reason', async () => {
    const name = `records-${Math.random()}`;
    const before = asStored(name);
    await before.table('outbox').bulkPut([
      { ...queuedJob('mystery', 1), kind: 'resize', draftKey: 'product' },
      { ...queuedJob('headless', 2), kind: 'upload', draftKey: 'product', view: 'front' },
    ]);
    // A draft under a key this build has no page for, and a retry's draft without its task.
    await before.table('drafts').bulkPut([
      { contentType: 'shoes', page: 1, slots: {}, shoeParams: {}, styles: null, updatedAt: 1 },
      { contentType: 'retry:task-1', page: 1, slots: {}, shoeParams: {}, styles: null, updatedAt: 1 },
    ]);
    await before.table('session').put({ id: 'current', userId: 'user-1', updatedAt: 1 });
    before.close();

    const database = app(name);
    expect(await database.outbox.toArray()).toEqual([]);
    expect(await database.drafts.count()).toBe(0);
    expect(await database.session.get('current')).toBeUndefined();
    expect(linesAbout('outbox', 'mystery')).toEqual([expect.stringMatching(/deleted, it cannot be repaired \(kind: /)]);
    expect(linesAbout('outbox', 'headless')).toEqual([expect.stringMatching(/deleted, it cannot be repaired \(photoId: /)]);
    expect(linesAbout('drafts', 'shoes')).toEqual([expect.stringMatching(/deleted.*contentType: /)]);
    expect(linesAbout('drafts', 'retry:task-1')).toEqual([expect.stringMatching(/deleted.*a retry draft without its task/)]);
    expect(linesAbout('session', 'current')).toEqual([expect.stringMatching(/deleted.*token: /)]);
  });

  it('never cost a draft its photo: a photo with its bytes is kept whatever else is wrong with it', async () => {
    const name = `records-${Math.random()}`;
    const before = asStored(name);
    await before.table('drafts').put({ contentType: 'product', page: 1, slots: { front: { photoId: 'p1', state: 'stored' }, back: { photoId: 'p2', state: 'stored' } }, shoeParams: {}, styles: null, updatedAt: 1 });
    await before.table('photos').bulkPut([
      // Bytes kept as a typed array, its type and size lost.
      { id: 'p1', draftKey: 'product', view: 'front', bytes: jpeg(), width: 'wide', createdAt: null },
      // A PNG under the wrong type, its draft and view unreadable.
      { id: 'p2', draftKey: 42, view: 'sideways', mime: 'image/gif', bytes: png().buffer, width: 1600, height: 1200, createdAt: 1 },
    ]);
    before.close();

    const database = app(name);
    const [first, second] = await database.photos.bulkGet(['p1', 'p2']);
    expect(first).toMatchObject({ id: 'p1', draftKey: 'product', view: 'front', mime: 'image/jpeg', width: 0, height: 0, createdAt: 0 });
    expect(new Uint8Array(first!.bytes)).toEqual(jpeg());
    expect(first!.bytes).toBeInstanceOf(ArrayBuffer);
    expect(second).toMatchObject({ id: 'p2', draftKey: undefined, view: undefined, mime: 'image/png', width: 1600 });
    expect(new Uint8Array(second!.bytes)).toEqual(png());
    expect((await database.drafts.get('product'))?.slots).toEqual({ front: { photoId: 'p1', state: 'stored' }, back: { photoId: 'p2', state: 'stored' } });
    expect(linesAbout('photos', 'p2')).toEqual([expect.stringMatching(/read repaired \(mime, draftKey, view\)/)]);

    database.close();
    expect(await asStored(name).table('photos').count()).toBe(2);
  });

  it('are checked however they are read: liveQuery and filters see what get sees', async () => {
    const name = `records-${Math.random()}`;
    const database = app(name);
    await database.open();
    // Another tab of another build writes while this one has the database open.
    await asStored(name).table('drafts').put({ contentType: 'video', page: '2', slots: [], shoeParams: {}, styles: null, updatedAt: 1 });

    const live = await new Promise((resolve, reject) => {
      const subscription = liveQuery(() => database.drafts.toArray()).subscribe({
        next: (drafts) => {
          subscription.unsubscribe();
          resolve(drafts);
        },
        error: reject,
      });
    });
    const repaired = { contentType: 'video', page: 1, slots: {}, shoeParams: {}, styles: null, updatedAt: 1 };
    expect(live).toEqual([repaired]);
    expect(await database.drafts.filter((draft) => draft.page === 1).toArray()).toEqual([repaired]);
  });

  it('that cannot be used, stored after opening, read as absent to gets, keys, counts and modify alike', async () => {
    const name = `records-${Math.random()}`;
    const database = app(name);
    await database.open();
    // A newer build's job this build cannot work, beside one it can.
    const other = asStored(name);
    await other.table('outbox').bulkPut([
      { ...queuedJob('rotate-1', 1), kind: 'rotate', draftKey: 'product' },
      { ...queuedJob('delete-1', 2), kind: 'delete', draftKey: 'product', materialId: 'material-1' },
    ]);

    expect(await database.outbox.get('rotate-1')).toBeUndefined();
    expect(await database.outbox.where('state').equals('queued').primaryKeys()).toEqual(['delete-1']);
    expect(await database.outbox.count()).toBe(1);
    await wakeQueued(database, 5);
    expect(await database.outbox.get('delete-1')).toMatchObject({ nextAttemptAt: 5 });
    // Left as it was stored until the next opening.
    expect(await other.table('outbox').get('rotate-1')).toMatchObject({ kind: 'rotate', nextAttemptAt: 0 });
    expect(linesAbout('outbox', 'rotate-1')).toEqual([expect.stringMatching(/left unread \(kind: /)]);
  });
});
