// The job runner (DESIGN §4): any number of runners, in the server or in `npm run worker`
// processes, claim due jobs with FOR UPDATE SKIP LOCKED under a lease. A runner holding a job
// renews its lease; a runner that dies lets it lapse, and the job is claimed again. Failures
// are retried with backoff until the job's attempts run out, then handed to `giveUp`. A handler
// logs through the logger it is given, which names the job, its kind and the task it is for, so
// every line of one job can be found together.
import os from 'node:os';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/client';
import type { jobs } from '../db/schema';
import { retryDelayMs } from '../../contract/backoff';

export type JobRow = typeof jobs.$inferSelect;

export interface JobHandler {
  /** `log` names the job (`job`, `jobKind`, and `task` when it is for one). */
  run(job: JobRow, log: FastifyBaseLogger): Promise<void>;
  /** The job failed for the last time (or its runner kept dying): settle what it leaves behind. */
  giveUp(job: JobRow, error: unknown, log: FastifyBaseLogger): Promise<void>;
}

/**
 * How a claimed job ended: `done`; `retried` (it failed and runs again later); `failed` (its last
 * try failed, or no handler knows its kind); `abandoned` (claimed once more after its runners
 * kept dying, and given up without running).
 */
export type JobOutcome = 'done' | 'retried' | 'failed' | 'abandoned';

export interface RunnerOptions {
  db: Database;
  handlers: Record<string, JobHandler>;
  log: FastifyBaseLogger;
  concurrency: number;
  /** How long a claim lasts without renewal. */
  leaseMs?: number;
  /** How often an idle runner looks for due jobs (it is also woken when a job is added here). */
  pollMs?: number;
  /** Backoff before retry `attempt` (1-based). */
  backoffMs?: (attempt: number) => number;
  /** Told how each claimed job ended and how long this runner had it, in seconds (the metrics). */
  onFinished?: (kind: string, outcome: JobOutcome, seconds: number) => void;
}

export const DEFAULT_LEASE_MS = 5 * 60 * 1000;

const defaultBackoff = (attempt: number) => retryDelayMs(attempt, { firstMs: 2000, longestMs: 5 * 60_000, jitter: 0.25 });

/** Claims the next due job, or a running one whose lease lapsed; null when there is none. */
export async function claimJob(db: Database, workerId: string, leaseMs: number): Promise<JobRow | null> {
  const result = await db.execute(sql`
    UPDATE jobs SET status = 'running', attempts = attempts + 1,
      locked_until = now() + make_interval(secs => ${leaseMs / 1000}), locked_by = ${workerId}
    WHERE id = (
      SELECT id FROM jobs
      WHERE (status = 'queued' AND run_at <= now()) OR (status = 'running' AND locked_until < now())
      ORDER BY run_at, id
      FOR UPDATE SKIP LOCKED
      LIMIT 1
    )
    RETURNING id, kind, task_id AS "taskId", status, attempts, max_attempts AS "maxAttempts", run_at AS "runAt",
      locked_until AS "lockedUntil", locked_by AS "lockedBy", last_error AS "lastError", created_at AS "createdAt"`);
  const row = (result as unknown as { rows: JobRow[] }).rows[0];
  return row ? { ...row, id: Number(row.id) } : null;
}

async function finishJob(db: Database, id: number, workerId: string, status: 'done' | 'failed', error?: string) {
  await db.execute(sql`UPDATE jobs SET status = ${status}, locked_until = NULL, last_error = ${error ?? null}
    WHERE id = ${id} AND locked_by = ${workerId}`);
}

async function retryLater(db: Database, id: number, workerId: string, delayMs: number, error: string) {
  await db.execute(sql`UPDATE jobs SET status = 'queued', locked_until = NULL, last_error = ${error},
      run_at = now() + make_interval(secs => ${delayMs / 1000})
    WHERE id = ${id} AND locked_by = ${workerId}`);
}

async function renewLease(db: Database, id: number, workerId: string, leaseMs: number) {
  await db.execute(sql`UPDATE jobs SET locked_until = now() + make_interval(secs => ${leaseMs / 1000})
    WHERE id = ${id} AND locked_by = ${workerId} AND status = 'running'`);
}

export class JobRunner {
  readonly workerId = `${os.hostname()}:${process.pid}:${crypto.randomUUID().slice(0, 8)}`;
  private readonly leaseMs: number;
  private readonly pollMs: number;
  private readonly backoffMs: (attempt: number) => number;
  private readonly running = new Set<Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
  private stopped = true;
  private filling = false;

  constructor(private readonly options: RunnerOptions) {
    this.leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
    this.pollMs = options.pollMs ?? 2000;
    this.backoffMs = options.backoffMs ?? defaultBackoff;
  }

  start(): void {
    this.stopped = false;
    this.wake();
  }

  /** Looks for work now (a job was just added, or one finished). */
  wake(): void {
    if (this.stopped) return;
    clearTimeout(this.timer);
    void this.fill();
  }

  /** Stops claiming, and waits for the jobs in hand to finish. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await Promise.allSettled([...this.running]);
  }

  private async fill(): Promise<void> {
    if (this.filling) return;
    this.filling = true;
    try {
      while (!this.stopped && this.running.size < this.options.concurrency) {
        const job = await claimJob(this.options.db, this.workerId, this.leaseMs);
        if (!job) break;
        const work = this.work(job).finally(() => {
          this.running.delete(work);
          this.wake();
        });
        this.running.add(work);
      }
    } catch (error) {
      this.options.log.error({ err: error }, 'claiming a job failed');
    } finally {
      this.filling = false;
      if (!this.stopped) {
        clearTimeout(this.timer);
        this.timer = setTimeout(() => void this.fill(), this.pollMs);
        this.timer.unref();
      }
    }
  }

  private async work(job: JobRow): Promise<void> {
    const { db, handlers } = this.options;
    const handler = handlers[job.kind];
    const log = this.options.log.child(job.taskId ? { job: job.id, jobKind: job.kind, task: job.taskId } : { job: job.id, jobKind: job.kind });
    const started = performance.now();
    let outcome: JobOutcome = 'failed';
    const renewal = setInterval(() => void renewLease(db, job.id, this.workerId, this.leaseMs).catch(() => {}), this.leaseMs / 3);
    renewal.unref();
    try {
      if (!handler) throw new Error(`no handler for jobs of kind ${job.kind}`);
      // A job claimed again after its runners kept dying gets no further tries.
      if (job.attempts > job.maxAttempts) {
        outcome = 'abandoned';
        await handler.giveUp(job, new Error(job.lastError ?? 'the job was abandoned too many times'), log);
        await finishJob(db, job.id, this.workerId, 'failed', job.lastError ?? 'abandoned');
        return;
      }
      await handler.run(job, log);
      await finishJob(db, job.id, this.workerId, 'done');
      outcome = 'done';
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      log.warn({ err: error, attempt: job.attempts }, 'job failed');
      try {
        if (handler && job.attempts < job.maxAttempts) {
          outcome = 'retried';
          await retryLater(db, job.id, this.workerId, this.backoffMs(job.attempts), message);
        } else {
          await handler?.giveUp(job, error, log);
          await finishJob(db, job.id, this.workerId, 'failed', message);
        }
      } catch (settleError) {
        log.error({ err: settleError }, 'settling a failed job failed; its lease will lapse and it will be claimed again');
      }
    } finally {
      clearInterval(renewal);
      this.options.onFinished?.(job.kind, outcome, (performance.now() - started) / 1000);
    }
  }
}
