// One operation: work the upload outbox from the service worker, with the session the page left
// in IndexedDB. The same outbox and lock as the page (src/offline), so whichever runs first sends
// a photo and the other finds nothing to do.
import { db, readSessionRecord } from '../src/offline/db';
import { OUTBOX_LOCK, runOutbox, waitingJobs, wakeQueued, type RunResult } from '../src/offline/outbox';
import { queueStrandedPhotos } from '../src/offline/jobs/upload';
import { fetchTransport } from '../src/offline/transport';

export { OUTBOX_SYNC_TAG } from '../src/offline/outbox';

export async function replayUploads(origin: string, { wake = false } = {}): Promise<RunResult | null> {
  const session = await readSessionRecord();
  if (!session) return null;
  // A page killed before this build may have left photos with no upload: queue them first.
  await queueStrandedPhotos(db).catch(() => 0);
  if (wake) await wakeQueued(db);
  const transport = fetchTransport({ origin, token: async () => session.token, locale: () => session.locale ?? 'ru' });
  return navigator.locks
    ? navigator.locks.request(OUTBOX_LOCK, { ifAvailable: true }, async (lock) =>
        lock ? runOutbox(db, transport, { exclusive: true }) : null,
      )
    : runOutbox(db, transport);
}

/** For Background Sync: fails while photos still wait, so the browser tries again later. */
export async function replayForSync(origin: string): Promise<void> {
  await replayUploads(origin, { wake: true });
  if ((await waitingJobs(db)) > 0) throw new Error('photos or tasks are still waiting for the network');
}
