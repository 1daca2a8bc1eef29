// The last loaded history lists, kept per seller in IndexedDB (DESIGN §3), so task history and
// material history still show what was there on a train with no signal, marked as offline.
import { ApiError } from '../lib/api-client';
import { store, userAtom } from '../lib/store';
import { db } from '../offline/db';

export interface Loaded<T> {
  value: T;
  /** True when the server could not be reached and the saved copy is shown. */
  offline: boolean;
  /** When the shown copy was loaded from the server. */
  savedAt: number;
}

const keyOf = (userId: string, name: string) => `${userId}:${name}`;

export async function saveList(name: string, value: unknown): Promise<void> {
  const userId = store.get(userAtom)?.id;
  if (!userId) return;
  // A full disk only costs the offline copy.
  await db.lists.put({ key: keyOf(userId, name), userId, value, savedAt: Date.now() }).catch(() => undefined);
}

export async function savedList<T>(name: string): Promise<{ value: T; savedAt: number } | null> {
  const userId = store.get(userAtom)?.id;
  if (!userId) return null;
  const record = await db.lists.get(keyOf(userId, name)).catch(() => undefined);
  return record ? { value: record.value as T, savedAt: record.savedAt } : null;
}

/**
 * Loads a list from the server and keeps it; when the server cannot be reached, answers with the
 * kept copy (if any) instead. `keep` decides what is kept (for example the pages loaded so far).
 */
export async function loadList<T>(name: string, load: () => Promise<T>): Promise<Loaded<T>> {
  try {
    const value = await load();
    await saveList(name, value);
    return { value, offline: false, savedAt: Date.now() };
  } catch (error) {
    if (error instanceof ApiError && error.status === 0) {
      const saved = await savedList<T>(name);
      if (saved) return { ...saved, offline: true };
    }
    throw error;
  }
}
