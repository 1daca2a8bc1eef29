// Works the outbox (photos and tasks) from the page: at start, when the network returns, when the app comes
// back to the foreground, and whenever a photo is queued. One runner at a time per browser
// (a Web Lock shared with the service worker); the outbox's leases guard the rest. Pages read
// the slots' states and the queue live from IndexedDB; only the bytes in flight are told here.
import { atom } from 'jotai';
import { db, readSessionRecord } from '../offline/db';
import { OUTBOX_LOCK, OUTBOX_SYNC_TAG, purgeDone, runOutbox, waitingJobs, wakeQueued } from '../offline/outbox';
import type { RunObserver } from '../offline/jobs/job-kind';
import { queueStrandedPhotos } from '../offline/jobs/upload';
import { fetchTransport } from '../offline/transport';
import { currentLocale } from '../lib/i18n';
import { store } from '../lib/store';

/** How much of each uploading job's photo has gone, 0–1, by job id (IndexedDB holds no bytes in flight). */
export const uploadProgressAtom = atom<Readonly<Record<string, number>>>({});

const observer: RunObserver = {
  onChange(job) {
    store.set(uploadProgressAtom, ({ [job.id]: _, ...rest }) => rest);
  },
  onProgress(job, sent, total) {
    store.set(uploadProgressAtom, (all) => ({ ...all, [job.id]: total > 0 ? sent / total : 0 }));
  },
};

const transport = fetchTransport({
  origin: location.origin,
  token: async () => (await readSessionRecord())?.token ?? null,
  locale: currentLocale,
});

let running: Promise<void> | null = null;
let again = false;
/** Starts the current run's idle lanes again (see `RunOptions.onRunning`). */
let refill: (() => void) | null = null;
const options = { ...observer, onRunning: (lanes: () => void) => (refill = lanes) };

async function runOnce() {
  try {
    if (navigator.locks) {
      // When the service worker holds the outbox (Background Sync fired as the network came back),
      // wait for it and then run: what it left (a task whose photos it has just sent) goes at once,
      // and the counts the page shows are read after its work, not before.
      await navigator.locks.request(OUTBOX_LOCK, async () => runOutbox(db, transport, { exclusive: true, ...options }));
    } else {
      await runOutbox(db, transport, options);
    }
  } finally {
    refill = null;
  }
}

/** Runs the outbox now (or right after the current run). */
export function processUploads(): Promise<void> {
  if (running) {
    again = true;
    // What fell due meanwhile (the network is back while a retry is on its way) goes now, beside
    // the job the run is working, not after it.
    refill?.();
    return running;
  }
  running = (async () => {
    do {
      again = false;
      try {
        await runOnce();
      } catch (error) {
        console.warn('The upload outbox stopped', error);
      }
      if ((await waitingJobs(db)) > 0) requestBackgroundSync();
    } while (again);
  })().finally(() => {
    running = null;
    scheduleNext();
  });
  return running;
}

/**
 * Asks the browser to wake the service worker when the network is back, so photos go up even
 * if the seller has closed the app by then (Background Sync, where the browser has it).
 */
function requestBackgroundSync() {
  // A run that ends after its page has gone (a test's document torn down) has no navigator left.
  void globalThis.navigator?.serviceWorker?.ready
    .then((registration) => (registration as ServiceWorkerRegistration & { sync?: { register(tag: string): Promise<void> } }).sync?.register(OUTBOX_SYNC_TAG))
    .catch(() => {});
}

let timer: ReturnType<typeof setTimeout> | undefined;

/**
 * While jobs wait out a backoff, look again when the earliest one is due. A task still waiting
 * for its photos has no time of its own: the run that uploads its last photo sends it, so it is
 * never a reason to look again (that would poll for as long as the photos wait for the network).
 */
async function scheduleNext() {
  clearTimeout(timer);
  const waiting = await db.outbox.where('state').equals('queued').toArray();
  const times = waiting.filter((job) => job.kind !== 'generate' || job.attempts > 0).map((job) => job.nextAttemptAt);
  if (times.length === 0) return;
  const due = Math.min(...times);
  timer = setTimeout(() => void processUploads(), Math.max(500, due - Date.now()));
}

let started = false;

/** Starts the page's runner once. */
export function startUploads(): void {
  if (started) return;
  started = true;
  const wake = () => void wakeQueued(db).then(processUploads);
  window.addEventListener('online', wake);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') wake();
  });
  void purgeDone(db).catch(() => {});
  // Photos an older build stored without queueing them (the tab killed in between) go too.
  void queueStrandedPhotos(db)
    .catch((error: unknown) => console.warn('Queueing stranded photos failed', error))
    .finally(() => void processUploads());
}
