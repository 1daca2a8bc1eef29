// @vitest-environment node
// The IndexedDB session row the service worker reads (DESIGN §3), on fake-indexeddb.
import 'fake-indexeddb/auto';
import Dexie from 'dexie';
import { afterEach, describe, expect, it } from 'vitest';
import {
  AppDatabase,
  clearSessionRecord,
  readSessionRecord,
  writeSessionRecord,
} from '../../../src/offline/db';

const databases: AppDatabase[] = [];
function open(name = `test-${Math.random()}`) {
  const database = new AppDatabase(name);
  databases.push(database);
  return database;
}

afterEach(async () => {
  for (const database of databases.splice(0)) {
    database.close();
    await database.delete();
  }
});

describe('session record', () => {
  it('holds one current session, replaced at each sign-in', async () => {
    const database = open();
    await writeSessionRecord('token-1', 'user-1', database);
    await writeSessionRecord('token-2', 'user-1', database);
    expect(await database.session.count()).toBe(1);
    expect(await readSessionRecord(database)).toMatchObject({ id: 'current', token: 'token-2', userId: 'user-1' });
  });

  it('is gone after sign-out', async () => {
    const database = open();
    await writeSessionRecord('token-1', 'user-1', database);
    await clearSessionRecord(database);
    expect(await readSessionRecord(database)).toBeUndefined();
  });

  it('survives closing and reopening the database', async () => {
    const name = `test-${Math.random()}`;
    const first = open(name);
    await writeSessionRecord('token-1', 'user-1', first);
    first.close();
    const second = open(name);
    expect((await readSessionRecord(second))?.token).toBe('token-1');
  });
});

describe('schema versions', () => {
  it('upgrades a version 1 database (session only) to the current version, keeping the session', async () => {
    const name = `migrate-${Math.random()}`;
    const first = new Dexie(name);
    first.version(1).stores({ session: 'id' });
    await first.table('session').put({ id: 'current', token: 'token-v1', userId: 'user-1', updatedAt: 1 });
    first.close();

    const upgraded = open(name);
    expect(upgraded.verno).toBe(4);
    expect((await readSessionRecord(upgraded))?.token).toBe('token-v1');
    await upgraded.drafts.put({ contentType: 'video', page: 1, slots: {}, shoeParams: { heelHeight: 4 }, styles: null, updatedAt: 2 });
    await upgraded.photos.put({
      id: 'p1',
      draftKey: 'video',
      view: 'front',
      mime: 'image/jpeg',
      bytes: new Uint8Array([0xff, 0xd8, 0xff]).buffer,
      width: 1,
      height: 1,
      createdAt: 2,
    });
    expect(await upgraded.photos.where('draftKey').equals('video').count()).toBe(1);
    const photo = await upgraded.photos.get('p1');
    expect(new Uint8Array(photo!.bytes)).toEqual(new Uint8Array([0xff, 0xd8, 0xff]));
    expect((await upgraded.drafts.get('video'))?.shoeParams).toEqual({ heelHeight: 4 });
    // Version 3: the history lists kept for offline, by seller.
    await upgraded.lists.put({ key: 'user-1:tasks', userId: 'user-1', value: { tasks: [] }, savedAt: 3 });
    expect(await upgraded.lists.where('userId').equals('user-1').count()).toBe(1);
  });

  it('takes a version 2 database (drafts and the outbox) to the current version, keeping its drafts', async () => {
    const name = `migrate-${Math.random()}`;
    const second = new Dexie(name);
    second.version(2).stores({ session: 'id', drafts: 'contentType', photos: 'id, draftKey', outbox: 'id, state, nextAttemptAt, draftKey' });
    await second.table('drafts').put({ contentType: 'product', page: 2, slots: {}, shoeParams: {}, styles: { categories: { PRODUCT: [] }, custom: false, prompt: '' }, updatedAt: 1 });
    second.close();

    const upgraded = open(name);
    expect(upgraded.verno).toBe(4);
    expect((await upgraded.drafts.get('product'))?.styles).toEqual({ categories: { PRODUCT: [] }, custom: false, prompt: '' });
    expect(await upgraded.lists.count()).toBe(0);
  });

  it('takes a version 3 database to version 4 with edits in progress, keeping its lists and jobs', async () => {
    const name = `migrate-${Math.random()}`;
    const third = new Dexie(name);
    third.version(2).stores({ session: 'id', drafts: 'contentType', photos: 'id, draftKey', outbox: 'id, state, nextAttemptAt, draftKey' });
    third.version(3).stores({ lists: 'key, userId' });
    await third.table('lists').put({ key: 'user-1:tasks', userId: 'user-1', value: { tasks: [] }, savedAt: 3 });
    await third.table('outbox').put({ id: 'job-1', kind: 'delete', draftKey: 'product', materialId: 'm1', state: 'queued', attempts: 0, nextAttemptAt: 0, createdAt: 0, updatedAt: 0 });
    third.close();

    const upgraded = open(name);
    expect(upgraded.verno).toBe(4);
    expect(await upgraded.lists.count()).toBe(1);
    expect(await upgraded.outbox.get('job-1')).toMatchObject({ kind: 'delete', materialId: 'm1' });
    const edit = { version: 1 as const, source: { asset_id: crypto.randomUUID(), width: 800, height: 600 }, crop: { ratio: null, x: 0, y: 0, width: 800, height: 600 }, layers: [], keep_transparency: false };
    const placement = { taskId: null, category: 'PRODUCT' as const, background: null, contentModule: 'PRODUCT_IMAGE' as const };
    await upgraded.edits.put({ key: 'device', source: { assetId: null, url: null, photoId: 'p1', width: 800, height: 600, placement }, edit, logos: [], updatedAt: 4 });
    expect((await upgraded.edits.get('device'))?.edit).toEqual(edit);
    // An edit draft that lost its picture's size cannot be used, and reads as absent.
    await upgraded.edits.put({ key: 'asset:x', source: { assetId: 'x', url: null, photoId: 'p2', width: 0, height: 600, placement }, edit, logos: [], updatedAt: 4 });
    expect(await upgraded.edits.get('asset:x')).toBeUndefined();
  });
});
