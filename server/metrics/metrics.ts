// What the server measures, in Prometheus' format (docs/operating/metrics.md lists every metric).
// Kept only when METRICS_TOKEN is set: without it nothing is measured and there is no /metrics.
//
// Two kinds of numbers. What happens in this process — requests, the jobs it ran, engine work,
// payments, notifications, mail, open event streams — is counted as it happens, so an operator
// sums it over every API node and worker. What is shared by every process — the job queue — is
// read from the database at each scrape, in one cheap statement over the queue's index, so any
// one process tells the whole truth (dashboards take the max over processes, never the sum).
//
// Label values are few and fixed: a route's pattern, never its address (no ids, no keys, and a
// bounded number of series); every address no route serves falls under one label.
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import { sql } from 'drizzle-orm';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { DatabaseHandle, PoolUse } from '../db/client';
import type { JobOutcome } from '../jobs/runner';
import type { OutputOutcome } from '../content/pipeline';
import type { EngineName } from '../content/catalogue';
import type { Category } from '../../contract/enums';
import { PROVIDER_NAMES } from '../billing/provider';

export const METRICS_PATH = '/metrics';
/** The route label of every address no route serves. */
export const UNMATCHED_ROUTE = 'unmatched';

/**
 * What became of a provider's notification: `applied` (it changed a payment or subscription),
 * `unchanged` (verified, nothing to do: a repeat), `rejected` (not verified, or from an address
 * the provider does not use), `limited` (too many from one address), `absent` (a provider this
 * server is not configured for), `error` (our failure: the provider sends it again).
 */
export type WebhookOutcome = 'applied' | 'unchanged' | 'rejected' | 'limited' | 'absent' | 'error';
const WEBHOOK_OUTCOMES: WebhookOutcome[] = ['applied', 'unchanged', 'rejected', 'limited', 'absent', 'error'];

/**
 * A payment's steps: `started` (a checkout was made), `checkout_failed` (the provider made none),
 * `completed` (paid and credited), `failed` (declined or expired), `refunded`, `disputed`.
 */
export type PaymentOutcome = 'started' | 'checkout_failed' | 'completed' | 'failed' | 'refunded' | 'disputed';
const PAYMENT_OUTCOMES: PaymentOutcome[] = ['started', 'checkout_failed', 'completed', 'failed', 'refunded', 'disputed'];

export interface Metrics {
  /** The Content-Type of `scrape()`'s text. */
  readonly contentType: string;
  /** Every metric as Prometheus reads it; the database is read for the queue first. */
  scrape(): Promise<string>;
  /** Whether an Authorization header is `Bearer <METRICS_TOKEN>` (compared in constant time). */
  authorizes(header: string | undefined): boolean;
  /** A request answered: its route's pattern (undefined: no route served it), status and time in ms. */
  request(method: string, route: string | undefined, status: number, elapsedMs: number): void;
  jobFinished(kind: string, outcome: JobOutcome, seconds: number): void;
  engineOutput(engine: EngineName, category: Category, outcome: OutputOutcome, seconds: number): void;
  payment(provider: string, outcome: PaymentOutcome): void;
  webhook(provider: string, outcome: WebhookOutcome): void;
  streamOpened(): void;
  streamClosed(): void;
  mailQueued(): void;
  mailSettled(outcome: 'sent' | 'failed'): void;
}

export interface MetricsOptions {
  token: string;
  database: DatabaseHandle;
  /** The filesystem whose free space is reported. */
  dataDir: string;
  version: string;
  /** `api` for the server, `worker` for `npm run worker`. */
  role: 'api' | 'worker';
}

/** The kinds of jobs the server queues; reported at 0 while none are queued, so a panel shows 0, not nothing. */
const JOB_KINDS = ['generate', 'publish'];
/** How long a scrape waits for the database before it answers without the queue (and says so). */
const DATABASE_READ_MS = 3000;

/** Seconds: from a cached page (5 ms) to a slow upload (10 s); 20 ms is the list routes' p99 target. */
const REQUEST_BUCKETS = [0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Seconds: from a job with nothing to do to a long video (30 min). */
const JOB_BUCKETS = [0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800];
/** Seconds: a studio still (under a second) to a remote model's video (10 min). */
const ENGINE_BUCKETS = [0.25, 0.5, 1, 2.5, 5, 10, 20, 40, 60, 120, 300, 600];

const METHODS: Record<string, number> = { GET: 0, HEAD: 1, POST: 2, PUT: 3, PATCH: 4, DELETE: 5, OPTIONS: 6 };

type RequestLabels = { method: string; route: string; status: string };

interface QueueRow {
  kind: string;
  queued: number | string;
  scheduled: number | string;
  running: number | string;
  lapsed: number | string;
  oldest: number | string | null;
}

const digest = (text: string) => crypto.createHash('sha256').update(text).digest();

export function createMetrics(options: MetricsOptions): Metrics {
  const registry = new Registry();
  const registers = [registry];
  collectDefaultMetrics({ register: registry });

  new Gauge({
    name: 'solestudio_build_info',
    help: 'Always 1: the version this process runs, its role (api or worker) and its database (pglite or postgres).',
    labelNames: ['version', 'role', 'database'],
    registers,
  }).set({ version: options.version, role: options.role, database: options.database.kind }, 1);

  const http = new Histogram({
    name: 'solestudio_http_request_duration_seconds',
    help: 'Time to answer a request, by method, route pattern and status (event streams and /metrics are not counted).',
    labelNames: ['method', 'route', 'status'],
    buckets: REQUEST_BUCKETS,
    registers,
  });

  const jobDuration = new Histogram({
    name: 'solestudio_job_duration_seconds',
    help: 'Time a job ran in this process, by kind and outcome (done, retried, failed, abandoned).',
    labelNames: ['kind', 'outcome'],
    buckets: JOB_BUCKETS,
    registers,
  });
  const jobFailures = new Counter({
    name: 'solestudio_job_failures_total',
    help: 'Jobs given up in this process: their last try failed, no handler knows their kind, or their runners kept dying.',
    labelNames: ['kind'],
    registers,
  });
  const jobRetries = new Counter({
    name: 'solestudio_job_retries_total',
    help: 'Tries of a job that failed in this process and were put back to run again later.',
    labelNames: ['kind'],
    registers,
  });

  const engine = new Histogram({
    name: 'solestudio_engine_output_duration_seconds',
    help: 'Time an engine (studio, remote, comfyui) took over one output, by category and outcome (made, failed, error).',
    labelNames: ['engine', 'category', 'outcome'],
    buckets: ENGINE_BUCKETS,
    registers,
  });

  const payments = new Counter({
    name: 'solestudio_payments_total',
    help: 'Payment steps in this process by provider and outcome (started, checkout_failed, completed, failed, refunded, disputed).',
    labelNames: ['provider', 'outcome'],
    registers,
  });
  const webhooks = new Counter({
    name: 'solestudio_webhooks_total',
    help: 'Payment providers\' notifications by provider and outcome (applied, unchanged, rejected, limited, absent, error).',
    labelNames: ['provider', 'outcome'],
    registers,
  });

  const streams = new Gauge({
    name: 'solestudio_event_streams',
    help: 'Live-event streams (server-sent events) open on this process.',
    registers,
  });

  const mailPending = new Gauge({
    name: 'solestudio_mail_pending',
    help: 'Mails this process has to send and has not sent yet (an SMTP server that stops answering keeps this up).',
    registers,
  });
  const mails = new Counter({
    name: 'solestudio_mails_total',
    help: 'Mails this process sent, by outcome (sent, failed: a failed mail is not sent again).',
    labelNames: ['outcome'],
    registers,
  });

  // Series that alerts watch start at 0: the first failure is then an increase Prometheus sees,
  // not a new series it has no earlier sample of.
  for (const outcome of ['sent', 'failed']) mails.inc({ outcome }, 0);
  for (const provider of PROVIDER_NAMES) {
    for (const outcome of WEBHOOK_OUTCOMES) webhooks.inc({ provider, outcome }, 0);
    for (const outcome of PAYMENT_OUTCOMES) payments.inc({ provider, outcome }, 0);
  }
  for (const kind of JOB_KINDS) {
    jobFailures.inc({ kind }, 0);
    jobRetries.inc({ kind }, 0);
  }

  // The disk the embedded database, mail files and local storage are written to.
  const diskFree = new Gauge({
    name: 'solestudio_data_dir_free_bytes',
    help: 'Bytes the server may still write on the filesystem of DATA_DIR.',
    registers,
    async collect() {
      await readDisk();
    },
  });
  const diskSize = new Gauge({
    name: 'solestudio_data_dir_size_bytes',
    help: 'Size in bytes of the filesystem of DATA_DIR.',
    registers,
    async collect() {
      await readDisk();
    },
  });
  let disk: Promise<void> | null = null;
  const readDisk = () =>
    (disk ??= fs
      .statfs(options.dataDir)
      .then(
        (stat) => {
          diskFree.set(stat.bavail * stat.bsize);
          diskSize.set(stat.blocks * stat.bsize);
        },
        // Not there (yet): nothing is reported rather than a made-up number.
        () => {
          diskFree.reset();
          diskSize.reset();
        },
      )
      .finally(() => (disk = null)));

  // The PostgreSQL pool; the embedded database has none, and these stay empty there.
  const poolUse = options.database.poolUse;
  const poolGauge = (name: string, help: string, value: (use: PoolUse) => number) =>
    new Gauge({
      name,
      help,
      registers,
      collect() {
        if (poolUse) this.set(value(poolUse()));
      },
    });
  poolGauge('solestudio_db_pool_connections', 'PostgreSQL connections this process has open.', (use) => use.total);
  poolGauge('solestudio_db_pool_idle_connections', 'PostgreSQL connections open and idle.', (use) => use.idle);
  poolGauge('solestudio_db_pool_waiting_queries', 'Queries waiting for a PostgreSQL connection: the pool is exhausted while above 0.', (use) => use.waiting);
  poolGauge('solestudio_db_pool_max_connections', 'PostgreSQL connections this process opens at most.', (use) => use.max);

  // The queue, read once per scrape by whichever of its gauges is collected first.
  const databaseUp = new Gauge({
    name: 'solestudio_database_up',
    help: `1 when this scrape read the job queue from the database within ${DATABASE_READ_MS / 1000} s, 0 when it did not (the queue gauges are then absent).`,
    registers,
    async collect() {
      await readQueue();
    },
  });
  const queueGauge = (name: string, help: string) =>
    new Gauge({
      name,
      help,
      labelNames: ['kind'],
      registers,
      async collect() {
        await readQueue();
      },
    });
  const queue = {
    queued: queueGauge('solestudio_jobs_queued', 'Jobs due and waiting for a runner, by kind (whole database).'),
    scheduled: queueGauge('solestudio_jobs_scheduled', 'Jobs waiting to be tried again later, by kind (whole database).'),
    running: queueGauge('solestudio_jobs_running', 'Jobs a live runner holds, by kind (whole database).'),
    lapsed: queueGauge('solestudio_jobs_lapsed', 'Jobs whose runner stopped renewing its lease (it died): claimable again, by kind (whole database).'),
    oldest: queueGauge(
      'solestudio_jobs_oldest_due_seconds',
      'How long the job waiting longest has been claimable (due, or its lease lapsed) without a runner taking it, by kind; 0 when none waits.',
    ),
  };
  const kinds = new Set(JOB_KINDS);
  const clearQueue = () => {
    for (const gauge of Object.values(queue)) gauge.reset();
  };
  const fillQueue = (rows: QueueRow[]) => {
    for (const row of rows) kinds.add(row.kind);
    clearQueue();
    for (const kind of kinds) {
      const row = rows.find((candidate) => candidate.kind === kind);
      queue.queued.set({ kind }, Number(row?.queued ?? 0));
      queue.scheduled.set({ kind }, Number(row?.scheduled ?? 0));
      queue.running.set({ kind }, Number(row?.running ?? 0));
      queue.lapsed.set({ kind }, Number(row?.lapsed ?? 0));
      queue.oldest.set({ kind }, Math.max(0, Number(row?.oldest ?? 0)));
    }
  };
  // Over the queue's index (status, run_at): only jobs queued or running are read, however many
  // are done. The database's clock, as the runners claim by it.
  const selectQueue = async (): Promise<QueueRow[]> => {
    const result = await options.database.db.execute(sql`
      SELECT kind,
        count(*) FILTER (WHERE status = 'queued' AND run_at <= now()) AS queued,
        count(*) FILTER (WHERE status = 'queued' AND run_at > now()) AS scheduled,
        count(*) FILTER (WHERE status = 'running' AND locked_until >= now()) AS running,
        count(*) FILTER (WHERE status = 'running' AND locked_until < now()) AS lapsed,
        extract(epoch FROM now() - min(CASE WHEN status = 'queued' AND run_at <= now() THEN run_at
          WHEN status = 'running' AND locked_until < now() THEN locked_until END)) AS oldest
      FROM jobs WHERE status IN ('queued', 'running')
      GROUP BY kind`);
    return (result as unknown as { rows: QueueRow[] }).rows;
  };
  // One read at a time: a scrape while the last read still waits (an exhausted pool) shares it
  // rather than queueing another.
  let reading: Promise<QueueRow[]> | null = null;
  let collecting: Promise<void> | null = null;
  const readQueue = () =>
    (collecting ??= (async () => {
      reading ??= selectQueue().finally(() => (reading = null));
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<null>((resolve) => {
        timer = setTimeout(() => resolve(null), DATABASE_READ_MS);
        timer.unref();
      });
      try {
        const rows = await Promise.race([reading, late]);
        if (!rows) throw new Error('the database did not answer in time');
        fillQueue(rows);
        databaseUp.set(1);
      } catch {
        clearQueue();
        databaseUp.set(0);
      } finally {
        clearTimeout(timer);
      }
    })().finally(() => (collecting = null)));

  // Labels made once per route, method and status: a request allocates none of its own.
  const labelsByRoute = new Map<string, Map<number, RequestLabels>>();
  const requestLabels = (method: string, route: string, status: number): RequestLabels => {
    let byKey = labelsByRoute.get(route);
    if (!byKey) labelsByRoute.set(route, (byKey = new Map()));
    const methodIndex = METHODS[method] ?? 7;
    const key = status * 8 + methodIndex;
    let labels = byKey.get(key);
    if (!labels) byKey.set(key, (labels = { method: methodIndex === 7 ? 'OTHER' : method, route, status: String(status) }));
    return labels;
  };

  const expected = digest(options.token);

  return {
    contentType: registry.contentType,
    scrape: () => registry.metrics(),
    authorizes(header) {
      const match = header ? /^bearer\s+(\S+)\s*$/i.exec(header) : null;
      // Digests of equal length: the comparison takes as long whatever token was sent.
      return match !== null && crypto.timingSafeEqual(digest(match[1]!), expected);
    },
    request(method, route, status, elapsedMs) {
      if (route === METRICS_PATH) return;
      http.observe(requestLabels(method, route ?? UNMATCHED_ROUTE, status), elapsedMs / 1000);
    },
    jobFinished(kind, outcome, seconds) {
      jobDuration.observe({ kind, outcome }, seconds);
      if (outcome === 'retried') jobRetries.inc({ kind });
      else if (outcome !== 'done') jobFailures.inc({ kind });
    },
    engineOutput(name, category, outcome, seconds) {
      engine.observe({ engine: name, category, outcome }, seconds);
    },
    payment(provider, outcome) {
      payments.inc({ provider, outcome });
    },
    webhook(provider, outcome) {
      webhooks.inc({ provider, outcome });
    },
    streamOpened: () => streams.inc(),
    streamClosed: () => streams.dec(),
    mailQueued: () => mailPending.inc(),
    mailSettled(outcome) {
      mailPending.dec();
      mails.inc({ outcome });
    },
  };
}
