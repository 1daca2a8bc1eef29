// The last loaded history lists on fake-indexeddb: kept per seller, shown when the server cannot
// be reached, never in place of the server's refusal.
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { loadList, savedList } from '../../../src/content/lists';
import { ApiError } from '../../../src/lib/api-client';
import { store, userAtom } from '../../../src/lib/store';
import { db } from '../../../src/offline/db';

const seller = (id: string) => store.set(userAtom, { id, username: id, email: `${id}@shop.example` });
const unreachable = () => Promise.reject(new ApiError(0, 'NETWORK', 'Cannot reach the server.'));

afterEach(async () => {
  await db.lists.clear();
  store.set(userAtom, null);
});

describe('loadList', () => {
  it('keeps what the server answered and shows it, marked offline, when the server cannot be reached', async () => {
    seller('anna');
    const fresh = await loadList('tasks', async () => ({ tasks: ['t1', 't2'] }));
    expect(fresh).toMatchObject({ value: { tasks: ['t1', 't2'] }, offline: false });

    const offline = await loadList('tasks', unreachable);
    expect(offline).toMatchObject({ value: { tasks: ['t1', 't2'] }, offline: true });
    expect(offline.savedAt).toBeLessThanOrEqual(Date.now());
    // A newer answer replaces the copy.
    await loadList('tasks', async () => ({ tasks: ['t3'] }));
    expect((await loadList('tasks', unreachable)).value).toEqual({ tasks: ['t3'] });
  });

  it('never shows one seller’s list to another', async () => {
    seller('anna');
    await loadList('tasks', async () => ['anna’s task']);
    seller('boris');
    await expect(loadList('tasks', unreachable)).rejects.toMatchObject({ code: 'NETWORK' });
    expect(await savedList('tasks')).toBeNull();
  });

  it('passes a refusal on instead of the copy, and keeps lists apart by name', async () => {
    seller('anna');
    await loadList('assets:POSTER:1', async () => ['poster']);
    await expect(loadList('assets:POSTER:1', () => Promise.reject(new ApiError(500, 'HTTP_500', 'Internal server error.')))).rejects.toMatchObject({ status: 500 });
    await expect(loadList('assets:POSTER:2', unreachable)).rejects.toMatchObject({ code: 'NETWORK' });
  });

  it('keeps nothing while signed out', async () => {
    expect(await loadList('tasks', async () => [1])).toMatchObject({ offline: false });
    expect(await db.lists.count()).toBe(0);
  });
});
