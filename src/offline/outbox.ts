// The outbox (DESIGN §3): every photo becomes an `upload` job in IndexedDB that is worked until
// the server holds it, every submitted task a `generate` job that waits behind its photos'
// uploads, every photo the seller replaced or deleted after it had gone up a `delete` job that
// takes its material off the server, and every saved edit an `edit` job, by the page and by the
// service worker alike. This module is the runner; each kind lives in jobs/ behind one interface
// (jobs/job-kind.ts). A job is claimed with a lease inside a transaction, so two runners never
// work the same job; its id is the Idempotency-Key, so a replay never makes a second material or
// a second task (nor a second charge). Network errors and 5xx wait and retry with backoff; a 4xx
// ends the job with the server's message, shown on its slot (or its queued task) until the seller
// retries.
import type { AppDatabase } from './db';
import type { OutboxJob } from './records';
import type { UploadTransport } from './upload-transport';
import { deleteKind } from './jobs/delete';
import { editKind } from './jobs/edit';
import { generateKind } from './jobs/generate';
import type { JobKind, JobOf, JobRun, Outcome, RunObserver } from './jobs/job-kind';
import { uploadKind } from './jobs/upload';
import { sharedLink } from './link';

/** The Web Lock that keeps the page's and the service worker's runners from overlapping. */
export const OUTBOX_LOCK = 'solestudio-outbox';
/** The Background Sync tag that wakes the service worker to replay the outbox. */
export const OUTBOX_SYNC_TAG = 'outbox';

export const LEASE_MS = 90_000;

const KINDS: { [K in OutboxJob['kind']]: JobKind<JobOf<K>> } = {
  upload: uploadKind,
  generate: generateKind,
  delete: deleteKind,
  edit: editKind,
};

/** A job's kind (the table above pairs each kind with its own jobs, which TypeScript cannot follow through an index). */
function kindOf(job: OutboxJob): JobKind<OutboxJob> {
  return KINDS[job.kind] as JobKind<OutboxJob>;
}

/**
 * Takes the next due job, or one whose runner vanished, under a lease. An `exclusive` caller
 * holds the outbox's Web Lock, so a job still marked running belongs to a runner that is gone
 * (a closed tab) and is taken at once instead of after its lease.
 */
async function claim(database: AppDatabase, now: number, exclusive: boolean, mine: Set<string>): Promise<OutboxJob | undefined> {
  return database.transaction('rw', database.outbox, async () => {
    const candidates = await database.outbox.where('state').anyOf('queued', 'running').sortBy('createdAt');
    const due = candidates.filter((j) =>
      j.state === 'queued' ? j.nextAttemptAt <= now : !mine.has(j.id) && (exclusive || (j.leaseUntil ?? 0) < now),
    );
    let job: OutboxJob | undefined;
    for (const candidate of due) {
      const { ready } = kindOf(candidate);
      if (!ready || (await ready(database, candidate, now))) {
        job = candidate;
        break;
      }
    }
    if (!job) return undefined;
    mine.add(job.id);
    const claimed = { ...job, state: 'running' as const, leaseUntil: now + LEASE_MS, updatedAt: now };
    await database.outbox.put(claimed);
    return claimed;
  });
}

export interface RunResult {
  done: number;
  failed: number;
  retrying: number;
}

/**
 * Photos worked at once: while the server takes one in and the next is registered, another's bytes
 * keep the link busy (link.ts). Two were too few when taking a photo in and registering the next
 * took the server longer than a photo takes to send (a loaded server, a fast link). Three of the
 * browser's six connections to the server; the task page's photo checks take two at most.
 */
export const UPLOAD_CONCURRENCY = 3;

export interface RunOptions extends RunObserver {
  now?: () => number;
  concurrency?: number;
  /** The caller holds the outbox's Web Lock (see `claim`). */
  exclusive?: boolean;
  /**
   * Given, as the run starts, what starts its idle lanes again: the caller calls it when jobs fall
   * due during the run (the network came back while a retry was on its way), which the lanes that
   * found nothing due and ended would otherwise leave until another lane's job ends. It does
   * nothing once the run has ended.
   */
  onRunning?: (refill: () => void) => void;
}

/**
 * Works every due job once and returns. Callers run it at start-up, on `online`, on
 * `visibilitychange` and from Background Sync. A lane that finds nothing due ends, and is started
 * again as soon as another lane finds work, or when the caller says jobs fell due (`onRunning`):
 * jobs that fall due during the run (the network came back) still travel `concurrency` at a time.
 */
export async function runOutbox(
  database: AppDatabase,
  transport: UploadTransport,
  { now = Date.now, concurrency = UPLOAD_CONCURRENCY, exclusive = false, onRunning, ...observer }: RunOptions = {},
): Promise<RunResult> {
  const run: JobRun = { database, transport, now, observer, link: sharedLink() };
  const result: RunResult = { done: 0, failed: 0, retrying: 0 };
  /** Jobs this run has claimed: its own lanes never take them from each other. */
  const mine = new Set<string>();
  const claims = new Map<string, number>();
  const lanes: Promise<void>[] = [];
  let active = 0;
  let woken = false;
  let ended = false;
  const lane = async () => {
    for (;;) {
      const job = await claim(database, now(), exclusive, mine);
      if (!job) return;
      const times = (claims.get(job.id) ?? 0) + 1;
      claims.set(job.id, times);
      if (times > 2) {
        // Due again at once (the network flapping): leave it to the next run rather than spin.
        await database.outbox.update(job.id, { state: 'queued', leaseUntil: undefined });
        return;
      }
      fill();
      const outcome: Outcome = await kindOf(job).work(run, job);
      if (outcome === 'done') result.done += 1;
      else if (outcome === 'failed') result.failed += 1;
      else result.retrying += 1;
      // A job went through, so the link works again: the jobs waiting out a backoff go now, not
      // minutes later (a slow or flapping link recovers without an `online` event).
      if (outcome === 'done' && !woken) {
        woken = true;
        await wakeQueued(database, now());
        fill();
      }
    }
  };
  const fill = () => {
    if (ended) return;
    while (active < Math.max(1, concurrency)) {
      active += 1;
      lanes.push(lane().finally(() => (active -= 1)));
    }
  };
  fill();
  onRunning?.(fill);
  try {
    for (let settled = 0; settled < lanes.length; ) {
      const outcomes = await Promise.allSettled(lanes.slice(settled));
      settled += outcomes.length;
      const failure = outcomes.find((outcome) => outcome.status === 'rejected');
      if (failure) throw failure.reason;
    }
  } finally {
    ended = true;
  }
  return result;
}

/** The network is back or the app is in front again: every waiting photo is due now. */
export async function wakeQueued(database: AppDatabase, now = Date.now()): Promise<void> {
  await database.outbox.where('state').equals('queued').modify({ nextAttemptAt: now });
}

/** Jobs still to be worked (Background Sync keeps asking while any remain). */
export function waitingJobs(database: AppDatabase): Promise<number> {
  return database.outbox.where('state').anyOf('queued', 'running').count();
}

/**
 * Finished jobs a day old are forgotten (and refused ones of a kind that says so: deletions, whose
 * materials the server's own sweep takes), except uploads a draft or a queued task still carries.
 */
export async function purgeDone(database: AppDatabase, now = Date.now()): Promise<void> {
  await database.transaction('rw', database.outbox, database.drafts, async () => {
    const carried = new Set<string>();
    for (const draft of await database.drafts.toArray()) for (const slot of Object.values(draft.slots)) if (slot?.jobId) carried.add(slot.jobId);
    for (const job of await database.outbox.toArray()) for (const id of kindOf(job).carries?.(job) ?? []) carried.add(id);
    await database.outbox
      .where('state')
      .anyOf('done', 'failed')
      .filter((job) => job.updatedAt < now - 24 * 60 * 60_000 && !carried.has(job.id) && (job.state === 'done' || kindOf(job).forgetRefused === true))
      .delete();
  });
}
