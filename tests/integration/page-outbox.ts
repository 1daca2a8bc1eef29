// The page's outbox in tests: IndexedDB databases of its own per test (fake-indexeddb), deleted
// after it, the real transport to the real server with faults injected in front of it, photos
// queued in a draft, and whether the server still holds a material.
import { afterEach } from 'vitest';
import { eq } from 'drizzle-orm';
import type { ShoeView } from '../../contract/enums';
import { materials } from '../../server/db/schema';
import { AppDatabase } from '../../src/offline/db';
import { enqueueUpload } from '../../src/offline/jobs/upload';
import type { PhotoRecord } from '../../src/offline/records';
import { fetchTransport } from '../../src/offline/transport';
import { createTestApp, type TestApp } from '../support/test-app';
import { signedInSeller } from '../support/sellers';
import { shoePhoto } from '../fixtures/shoes';

/** What a fault does to one call: a response in the server's place, an error thrown, or nothing (the call goes on). */
export type Fault = (url: URL, init?: RequestInit) => Response | Error | undefined;

/** Opens a fresh database per call; every one is closed and deleted after each test. */
export function testDatabases(prefix: string): () => AppDatabase {
  const databases: AppDatabase[] = [];
  afterEach(async () => {
    for (const database of databases.splice(0)) {
      database.close();
      await database.delete();
    }
  });
  return () => {
    const database = new AppDatabase(`${prefix}-${Math.random()}`);
    databases.push(database);
    return database;
  };
}

/** The real transport, with faults injected in front of the real server. */
export function faultyTransport(origin: string, token: string, fault?: Fault) {
  return fetchTransport({
    origin,
    token: async () => token,
    locale: () => 'en',
    fetch: async (input, init) => {
      const url = new URL(String(input instanceof Request ? input.url : input));
      const injected = fault?.(url, init);
      if (injected instanceof Error) throw injected;
      if (injected) return injected;
      return fetch(url, init);
    },
  });
}

/** A product draft with one stored photo per view (these bytes), each queued for upload. */
export async function queuedPhotos(database: AppDatabase, views: ShoeView[], bytes: ArrayBuffer) {
  await database.drafts.put({ contentType: 'product', page: 1, slots: {}, shoeParams: {}, styles: null, updatedAt: 0 });
  const jobs = [];
  for (const view of views) {
    const photo: PhotoRecord = { id: crypto.randomUUID(), draftKey: 'product', view, mime: 'image/jpeg', bytes, width: 1600, height: 1200, createdAt: 0 };
    await database.photos.put(photo);
    await database.drafts.where('contentType').equals('product').modify((draft) => {
      draft.slots[view] = { photoId: photo.id, state: 'stored' };
    });
    jobs.push(await enqueueUpload(database, 'product', view, photo.id));
  }
  return jobs;
}

/** Whether the server still holds a material. */
export async function materialOnServer(t: TestApp, materialId: string) {
  const [row] = await t.app.database.db.select({ id: materials.id }).from(materials).where(eq(materials.id, materialId));
  return row !== undefined;
}

/** The real server listening on loopback, a seller signed in to it, and a photo's bytes to queue. */
export async function outboxServer(): Promise<{ t: TestApp; origin: string; token: string; jpeg: ArrayBuffer }> {
  const t = await createTestApp();
  const origin = await t.app.listen({ host: '127.0.0.1', port: 0 });
  const token = (await signedInSeller(t, 'olga')).token;
  const bytes = (await shoePhoto()).jpeg;
  return { t, origin, token, jpeg: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer };
}
