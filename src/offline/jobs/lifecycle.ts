// What every outbox job goes through, whatever its kind: it starts queued under a fresh
// Idempotency-Key; a failed attempt waits with backoff when the trouble is passing (the network,
// the server, an expired session) and otherwise fails with the server's message; a refused job
// waits for the seller, who may send it again under the same key.
import type { UpdateSpec } from 'dexie';
import { retryDelayMs } from '../../../contract/backoff';
import type { AppDatabase } from '../db';
import type { GenerateJob, OutboxJob, SlotState, UploadJob } from '../records';
import { TransportError } from '../transport-error';
import type { JobOf, JobRun, Outcome } from './job-kind';

const FIRST_RETRY_MS = 2_000;
const LONGEST_WAIT_MS = 5 * 60_000;

/** Doubling waits from 2 s up to 5 min, with ±20 % jitter so many clients do not retry together. */
export function backoffMs(attempts: number, random: () => number = Math.random): number {
  return retryDelayMs(attempts, { firstMs: FIRST_RETRY_MS, longestMs: LONGEST_WAIT_MS, jitter: 0.2 }, random);
}

/** Retry later (network, server trouble, an expired session) or stop and tell the seller. */
function isTransient(status: number): boolean {
  return status === 0 || status === 401 || status === 408 || status === 429 || status >= 500;
}

/** What every new job starts with: a fresh Idempotency-Key, due now, never tried. */
export function newJob(now: number, state: 'queued' | 'done' = 'queued') {
  return { id: crypto.randomUUID(), state, attempts: 0, nextAttemptAt: now, createdAt: now, updatedAt: now };
}

/** Changes a job's fields, whichever kind it is. */
export function patch(database: AppDatabase, id: string, changes: Partial<Omit<UploadJob, 'kind'> & Omit<GenerateJob, 'kind'>>) {
  return database.outbox.update(id, changes as UpdateSpec<OutboxJob>);
}

/**
 * A failed attempt: queued again with backoff when the trouble is passing, else failed with the
 * server's message. `slot` shows it on the job's slot; without one the observer hears of the job.
 */
export async function settleFailure(
  { database, now, observer }: JobRun,
  job: OutboxJob,
  error: unknown,
  slot?: (changes: { state: SlotState; error?: string }) => Promise<void>,
): Promise<Outcome> {
  const status = error instanceof TransportError ? error.status : 0;
  const message = error instanceof Error ? error.message : String(error);
  if (isTransient(status)) {
    const attempts = job.attempts + 1;
    await database.outbox.update(job.id, {
      state: 'queued',
      attempts,
      nextAttemptAt: now() + backoffMs(attempts),
      leaseUntil: undefined,
      updatedAt: now(),
    });
    if (slot) await slot({ state: 'queued' });
    else observer.onChange?.(job);
    return 'retry';
  }
  await database.outbox.update(job.id, {
    state: 'failed',
    error: message,
    errorStatus: status,
    leaseUntil: undefined,
    updatedAt: now(),
  });
  if (slot) await slot({ state: 'failed', error: message });
  else observer.onChange?.(job);
  return 'failed';
}

/** Jobs of a kind waiting to be sent or refused by the server, oldest first. */
export async function pendingJobs<K extends OutboxJob['kind']>(database: AppDatabase, kind: K): Promise<JobOf<K>[]> {
  const jobs = await database.outbox.where('state').anyOf('queued', 'running', 'failed').sortBy('createdAt');
  return jobs.filter((job): job is JobOf<K> => job.kind === kind);
}

/** Asks the server again for a job of a kind it refused, under the same key (nothing is made twice). */
export async function sendAgain(database: AppDatabase, jobId: string, kind: OutboxJob['kind'], now: number): Promise<void> {
  await database.outbox
    .where('id')
    .equals(jobId)
    .modify((job) => {
      if (job.kind !== kind || job.state !== 'failed') return;
      Object.assign(job, { state: 'queued', nextAttemptAt: now, attempts: 0, error: undefined, errorStatus: undefined, updatedAt: now });
    });
}
