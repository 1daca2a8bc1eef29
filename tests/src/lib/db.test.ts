// @vitest-environment node
// The IndexedDB session row the service worker reads (DESIGN §3), on fake-indexeddb.
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import {
  AppDatabase,
  clearSessionRecord,
  readSessionRecord,
  writeSessionRecord,
} from '../../../src/lib/db';

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
