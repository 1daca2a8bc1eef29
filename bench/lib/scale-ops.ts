// The scale bench's work on the big database besides the load: the migrations newer than the
// seed's level applied while other connections keep writing to the big tables (PostgreSQL; how
// long each write waited), the sellers counted after them, and the nightly sweeps (material
// retention, lapses, reconciliation) timed in the app itself, with how long the event loop —
// every request on PGlite — waited meanwhile.
import fs from 'node:fs';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import pg from 'pg';
import { buildApp } from '../../server/app';
import { loadConfig } from '../../server/config/env';
import { openDatabase } from '../../server/db/client';

/** How the writes went while some work ran. */
export interface Writes {
  count: number;
  longestMs: number;
  p99Ms: number;
}

/** Each big table's write: a row of the seller's inserted, then deleted, as two statements. */
const WRITES: Record<string, { insert: string; remove: string }> = {
  tasks: {
    insert: `INSERT INTO tasks (user_id, idempotency_key, content_config, material_ids, cost, locale) VALUES ($1, 'bench-' || gen_random_uuid(), '[]', '[]', 0, 'en') RETURNING id`,
    remove: 'DELETE FROM tasks WHERE id = $1',
  },
  assets: {
    insert: `INSERT INTO assets (user_id, content_module, category, storage_key, file_type, width, height, byte_size)
      VALUES ($1, 'PRODUCT_IMAGE', 'PRODUCT', 'bench/' || gen_random_uuid(), 'image/jpeg', 1, 1, 1) RETURNING id`,
    remove: 'DELETE FROM assets WHERE id = $1',
  },
  materials: {
    insert: `INSERT INTO materials (user_id, idempotency_key, file_name, file_type, file_size, description, storage_key)
      VALUES ($1, 'bench-' || gen_random_uuid(), 'a.jpg', 'image/jpeg', 1, '{}', 'bench/' || gen_random_uuid()) RETURNING id`,
    remove: 'DELETE FROM materials WHERE id = $1',
  },
  // A credit and its lot, taken away again with the entry (the lot goes by cascade).
  ledger: {
    insert: `INSERT INTO ledger (user_id, type, amount, reference) VALUES ($1, 'top_up', 1, 'bench:' || gen_random_uuid()) RETURNING id`,
    remove: 'DELETE FROM ledger WHERE id = $1',
  },
};

/**
 * Runs `work` while one connection per big table writes a row of `userId`'s and deletes it again,
 * over and over; answers how many writes ran while `work` did and how long the longest waited.
 */
export async function whileWriting<T>(url: string, userId: string, work: () => Promise<T>): Promise<{ result: T; writes: Writes }> {
  const clients = await Promise.all(
    Object.keys(WRITES).map(async () => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      return client;
    }),
  );
  const timings: { at: number; ms: number }[] = [];
  let writing = true;
  const timed = async <R>(statement: () => Promise<R>) => {
    const at = performance.now();
    const result = await statement();
    timings.push({ at, ms: performance.now() - at });
    return result;
  };
  const loops = Object.values(WRITES).map(async (write, i) => {
    const client = clients[i]!;
    while (writing) {
      const { rows } = await timed(() => client.query<{ id: string }>(write.insert, [userId]));
      await timed(() => client.query(write.remove, [rows[0]!.id]));
    }
  });
  // The writers get going before the work starts.
  await new Promise((resolve) => setTimeout(resolve, 500));
  const started = performance.now();
  let result: T;
  try {
    result = await work();
  } finally {
    writing = false;
    await Promise.allSettled(loops);
    await Promise.all(clients.map((client) => client.end()));
  }
  const ended = performance.now();
  // Every write that was waiting or running while the work ran.
  const during = timings.filter((t) => t.at < ended && t.at + t.ms > started).map((t) => t.ms).sort((a, b) => a - b);
  return {
    result,
    writes: { count: during.length, longestMs: during.at(-1) ?? 0, p99Ms: during[Math.floor(during.length * 0.99)] ?? 0 },
  };
}

/** How long `work` took, and how late the event loop ran meanwhile at worst. */
async function timedWithStalls<T>(work: () => Promise<T>): Promise<{ result: T; ms: number; stallMs: number }> {
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const started = performance.now();
  try {
    const result = await work();
    return { result, ms: performance.now() - started, stallMs: delay.max / 1e6 };
  } finally {
    delay.disable();
  }
}

export interface SweepFigures {
  /** The retention sweep's first run on the seeded database, and the next one (nothing left). */
  retention: { ms: number; stallMs: number; deleted: number };
  retentionAgain: { ms: number; stallMs: number; deleted: number };
  /** The subscription jobs' run: renewals due (none) and the lapses. */
  lapses: { ms: number; stallMs: number; lapsed: number };
  reconciliation: { ms: number; stallMs: number; asked: number };
}

/** The nightly sweeps, each called as its timer calls it, in the app on the big database. */
export async function sweepFigures(dataDir: string, databaseUrl: string | undefined): Promise<SweepFigures> {
  const config = loadConfig({
    DATA_DIR: dataDir,
    STATIC_DIR: path.join(dataDir, 'no-web-build'),
    LOG_LEVEL: 'warn',
    DATABASE_URL: databaseUrl ?? '',
    // The timers stay off: each sweep runs once, here.
    RUN_JOBS: 'false',
    PAYMENTS_SANDBOX: 'true',
  });
  fs.mkdirSync(config.filesDir, { recursive: true });
  const app = await buildApp({ config, database: await openDatabase(config) });
  await app.ready();
  try {
    const first = await timedWithStalls(() => app.sweepMaterials());
    const again = await timedWithStalls(() => app.sweepMaterials());
    const run = await timedWithStalls(() => app.billing.subscriptions.run());
    const asked = await timedWithStalls(() => app.billing.payments.reconcile());
    return {
      retention: { ms: first.ms, stallMs: first.stallMs, deleted: first.result },
      retentionAgain: { ms: again.ms, stallMs: again.stallMs, deleted: again.result },
      lapses: { ms: run.ms, stallMs: run.stallMs, lapsed: run.result.lapsed },
      reconciliation: { ms: asked.ms, stallMs: asked.stallMs, asked: asked.result },
    };
  } finally {
    await app.close();
  }
}
