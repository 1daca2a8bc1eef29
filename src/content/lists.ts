// The last loaded history lists, kept per seller in IndexedDB (DESIGN §3), so task history and
// material history still show what was there on a train with no signal, marked as offline.
import type * as z from 'zod/v4/core';
import { safeParse } from 'zod/v4/core';
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

/**
 * The kept copy of a list, checked against the shape the page now reads (`schema`, the API's): a
 * copy an older build kept in another shape is deleted with a log line, as if there were none.
 */
export async function savedList<S extends z.$ZodType>(name: string, schema: S): Promise<{ value: z.output<S>; savedAt: number } | null> {
  const userId = store.get(userAtom)?.id;
  if (!userId) return null;
  const key = keyOf(userId, name);
  const record = await db.lists.get(key).catch(() => undefined);
  if (!record) return null;
  const checked = safeParse(schema, record.value);
  if (checked.success) return { value: checked.data, savedAt: record.savedAt };
  console.warn(`IndexedDB lists ${JSON.stringify(key)}: deleted, not a list this build reads (${checked.error.issues[0]?.path.join('.')})`);
  await db.lists.delete(key).catch(() => undefined);
  return null;
}

/**
 * Loads a list from the server and keeps it; when the server cannot be reached, answers with the
 * kept copy (if any, and if it is what `schema` describes) instead.
 */
export async function loadList<S extends z.$ZodType>(name: string, schema: S, load: () => Promise<z.output<S>>): Promise<Loaded<z.output<S>>> {
  try {
    const value = await load();
    await saveList(name, value);
    return { value, offline: false, savedAt: Date.now() };
  } catch (error) {
    if (error instanceof ApiError && error.status === 0) {
      const saved = await savedList(name, schema);
      if (saved) return { ...saved, offline: true };
    }
    throw error;
  }
}
