// The last loaded history lists on fake-indexeddb: kept per seller, shown when the server cannot
// be reached, never in place of the server's refusal, nor when the copy is not what the page reads.
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as z from 'zod/mini';
import { loadList, savedList } from '../../../src/content/lists';
import { ApiError } from '../../../src/lib/api-client';
import { store, userAtom } from '../../../src/lib/store';
import { db } from '../../../src/offline/db';

const seller = (id: string) => store.set(userAtom, { id, username: id, email: `${id}@shop.example` });
const unreachable = () => Promise.reject(new ApiError(0, 'NETWORK', 'Cannot reach the server.'));
const taskList = z.object({ tasks: z.array(z.string()) });
const names = z.array(z.string());

afterEach(async () => {
  vi.restoreAllMocks();
  await db.lists.clear();
  store.set(userAtom, null);
});

describe('loadList', () => {
  it('keeps what the server answered and shows it, marked offline, when the server cannot be reached', async () => {
    seller('anna');
    const fresh = await loadList('tasks', taskList, async () => ({ tasks: ['t1', 't2'] }));
    expect(fresh).toMatchObject({ value: { tasks: ['t1', 't2'] }, offline: false });

    const offline = await loadList('tasks', taskList, unreachable);
    expect(offline).toMatchObject({ value: { tasks: ['t1', 't2'] }, offline: true });
    expect(offline.savedAt).toBeLessThanOrEqual(Date.now());
    // A newer answer replaces the copy.
    await loadList('tasks', taskList, async () => ({ tasks: ['t3'] }));
    expect((await loadList('tasks', taskList, unreachable)).value).toEqual({ tasks: ['t3'] });
  });

  it('never shows one seller’s list to another', async () => {
    seller('anna');
    await loadList('tasks', names, async () => ['anna’s task']);
    seller('boris');
    await expect(loadList('tasks', names, unreachable)).rejects.toMatchObject({ code: 'NETWORK' });
    expect(await savedList('tasks', names)).toBeNull();
  });

  it('passes a refusal on instead of the copy, and keeps lists apart by name', async () => {
    seller('anna');
    await loadList('assets:POSTER:1', names, async () => ['poster']);
    await expect(loadList('assets:POSTER:1', names, () => Promise.reject(new ApiError(500, 'HTTP_500', 'Internal server error.')))).rejects.toMatchObject({ status: 500 });
    await expect(loadList('assets:POSTER:2', names, unreachable)).rejects.toMatchObject({ code: 'NETWORK' });
  });

  it('keeps nothing while signed out', async () => {
    expect(await loadList('tasks', z.array(z.number()), async () => [1])).toMatchObject({ offline: false });
    expect(await db.lists.count()).toBe(0);
  });

  it('does not show a copy an older build kept in another shape: it is deleted, with a log line', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    seller('anna');
    await loadList('tasks', names, async () => ['t1', 't2']);
    await expect(loadList('tasks', taskList, unreachable)).rejects.toMatchObject({ code: 'NETWORK' });
    expect(await db.lists.count()).toBe(0);
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/^IndexedDB lists "anna:tasks": deleted/));
  });
});
