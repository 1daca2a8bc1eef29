// The one interface the outbox (outbox.ts) works every kind of job through: `upload`, `generate`,
// `delete` and `edit` each have a file here that says when a due job of its kind may go and works
// one claimed job to an outcome. The runner knows nothing else about a kind.
import type { AppDatabase } from '../db';
import type { Link } from '../link';
import type { OutboxJob } from '../records';
import type { UploadTransport } from '../upload-transport';

/** What a runner tells whoever shows the slots. */
export interface RunObserver {
  /** A slot's state changed (uploading, uploaded, queued again, failed). */
  onChange?: (job: OutboxJob) => void;
  /** Bytes of a job's photo on their way. */
  onProgress?: (job: OutboxJob, sent: number, total: number) => void;
}

/** What one run of the outbox works its jobs with. */
export interface JobRun {
  database: AppDatabase;
  transport: UploadTransport;
  now: () => number;
  observer: RunObserver;
  /** The link the run's uploads share: a photo's bytes start once those before have mostly gone. */
  link: Link;
}

/** How an attempt ended: done, failed for good (the seller is told), or queued again with backoff. */
export type Outcome = 'done' | 'failed' | 'retry';

/** The outbox job of one kind. */
export type JobOf<K extends OutboxJob['kind']> = Extract<OutboxJob, { kind: K }>;

export interface JobKind<J extends OutboxJob> {
  /**
   * Whether a due job may be claimed now (absent: always). A task waits for its photos' uploads;
   * called inside the claiming transaction, it may end the job (a photo the server refused).
   */
  ready?(database: AppDatabase, job: J, now: number): Promise<boolean>;
  /**
   * Works a claimed job once. The server's refusals and the network's failures are an outcome,
   * written on the job (and its slot); a throw is a fault of the app, and stops the run.
   */
  work(run: JobRun, job: J): Promise<Outcome>;
  /** The upload jobs this one still needs: finished uploads it carries are not purged. */
  carries?(job: J): string[];
  /**
   * A job the server refused for good is forgotten a day later like a finished one (a deletion:
   * the server's own sweep takes the material). Otherwise it stays until the seller acts on it.
   */
  forgetRefused?: boolean;
}
