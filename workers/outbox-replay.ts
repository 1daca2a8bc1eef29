// One operation: work the upload outbox from the service worker, with the session the page left
// in IndexedDB. The same outbox and lock as the page (src/offline), so whichever runs first sends
// a photo and the other finds nothing to do.
import { db, readSessionRecord } from '../src/offline/db';
import { OUTBOX_LOCK, runOutbox, wakeQueued, type RunResult } from '../src/offline/outbox';
import { fetchTransport } from '../src/offline/transport';

export { OUTBOX_SYNC_TAG } from '../src/offline/outbox';

export async function replayUploads(origin: string, { wake = false } = {}): Promise<RunResult | null> {
  const session = await readSessionRecord();
  if (!session) return null;
  if (wake) await wakeQueued(db);
  const transport = fetchTransport({ origin, token: async () => session.token, locale: () => session.locale ?? 'ru' });
  const work = () => runOutbox(db, transport);
  return navigator.locks
    ? navigator.locks.request(OUTBOX_LOCK, { ifAvailable: true }, async (lock) => (lock ? work() : null))
    : work();
}
