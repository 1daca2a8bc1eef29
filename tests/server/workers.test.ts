// Scale-out generation against PostgreSQL: the API node takes tasks without running jobs
// (RUN_JOBS=false), and `npm run worker` processes beside it claim and finish them. Two workers
// share the queue without ever taking the same job. The workers run as `npm run worker` runs them:
// the compiled dist-server/worker.js, built first when it is missing or stale. A worker with
// METRICS_TOKEN and WORKER_METRICS_PORT serves its own metrics there: the jobs it ran.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, inArray } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../support/test-app';
import { signedInSeller } from '../support/sellers';
import { uploadViews } from '../support/photos';
import { jobs } from '../../server/db/schema';
import { freePort } from '../support/listening-app';
import { countOf, readSamples, sampleOf } from '../support/metrics';

const ROOT = path.resolve(import.meta.dirname, '../..');
let t: TestApp;
let seller: { token: string; id: string };
let photos: string[];
const workers: ChildProcess[] = [];

const auth = () => ({ authorization: `Bearer ${seller.token}`, 'accept-language': 'en' });

function startWorker(env: Record<string, string> = {}): ChildProcess {
  const child = spawn(process.execPath, ['dist-server/worker.js'], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: t.databaseUrl, DATA_DIR: t.dataDir, LOG_LEVEL: 'warn', JOB_CONCURRENCY: '1', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  workers.push(child);
  return child;
}

async function submit(category: string) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/content/generate',
    headers: { ...auth(), 'idempotency-key': `worker-${category}-${Date.now()}` },
    payload: {
      content_config: [{ content_module: category === 'OUTFIT_COLOR' ? 'OUTFIT_IMAGE' : 'PRODUCT_IMAGE', category, custom_params: { shoe_params: {} }, name: category, selected: true }],
      material_ids: photos,
    },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.id as string;
}

async function status(id: string): Promise<string> {
  return (await t.app.inject({ method: 'GET', url: `/api/v1/content/tasks/${id}`, headers: auth() })).json().data.status;
}

beforeAll(async () => {
  // What `npm run worker` runs: the build is brought up to date, then the compiled worker starts
  // (and here stops at once, as a worker without DATABASE_URL must).
  const { DATABASE_URL: _, ...env } = process.env;
  const built = spawnSync(process.execPath, ['scripts/start.mjs', 'worker'], { cwd: ROOT, env, encoding: 'utf8' });
  expect(built.status, built.stderr).toBe(1);
  expect(built.stderr).toContain('A worker needs DATABASE_URL');
  expect(fs.statSync(path.join(ROOT, 'dist-server', 'worker.js')).mtimeMs).toBeGreaterThan(fs.statSync(path.join(ROOT, 'server', 'worker.ts')).mtimeMs);

  t = await createTestApp({ RUN_JOBS: 'false', SIGN_UP_BONUS_TOKENS: '100' });
  seller = await signedInSeller(t, 'wera');
  photos = await uploadViews(t, seller.token);
}, 120_000);

afterAll(async () => {
  for (const child of workers) if (child.exitCode === null) child.kill('SIGKILL');
  await t?.close();
});

describe('npm run worker', () => {
  it('finishes tasks the API node only queued, two workers sharing the jobs once each', async () => {
    const ids = [await submit('PRODUCT2'), await submit('OUTFIT_COLOR'), await submit('POSTER')];
    // The API node runs no jobs: the tasks wait.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    for (const id of ids) expect(await status(id)).toBe('pending');

    const running = [startWorker(), startWorker()];
    // Sized for a busy machine: the tasks' cut-outs in two worker processes.
    const deadline = Date.now() + 240_000;
    while ((await Promise.all(ids.map(status))).some((s) => s === 'pending' || s === 'processing')) {
      if (Date.now() > deadline) throw new Error('the workers did not finish the tasks');
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    for (const id of ids) expect(await status(id)).toBe('completed');
    const rows = await t.app.database.db.select().from(jobs).where(inArray(jobs.taskId, ids));
    expect(rows.map((row) => [row.status, row.attempts])).toEqual(ids.map(() => ['done', 1]));

    // SIGTERM: each worker finishes what it holds and exits cleanly.
    const exits = running.map((child) => new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code))));
    for (const child of running) child.kill('SIGTERM');
    expect(await Promise.all(exits)).toEqual([0, 0]);
    const [first] = await t.app.database.db.select().from(jobs).where(eq(jobs.taskId, ids[0]!));
    expect(first?.status).toBe('done');
  }, 300_000);
});

describe('a worker\'s metrics', () => {
  it('are served on WORKER_METRICS_PORT behind the token, and count the jobs that worker ran', async () => {
    const token = 'worker-scrape-token-0123456789';
    const port = await freePort();
    const worker = startWorker({ METRICS_TOKEN: token, WORKER_METRICS_PORT: String(port), HOST: '127.0.0.1' });
    const exited = new Promise<number | null>((resolve) => worker.on('exit', (code) => resolve(code)));
    try {
      const scrape = async () => {
        const answer = await fetch(`http://127.0.0.1:${port}/metrics`, { headers: { authorization: `Bearer ${token}` } });
        expect(answer.status).toBe(200);
        return readSamples(await answer.text());
      };
      await expect.poll(() => scrape().then(() => true, () => false), { timeout: 30_000 }).toBe(true);
      expect(sampleOf(await scrape(), 'solestudio_build_info', { role: 'worker', database: 'postgres' })).toBe(1);
      expect((await fetch(`http://127.0.0.1:${port}/metrics`)).status).toBe(401);
      expect((await fetch(`http://127.0.0.1:${port}/api/health`)).status).toBe(404);

      // A publication's job whose publication was deleted: the worker runs it, with nothing to send.
      const [job] = await t.app.database.db.insert(jobs).values({ kind: 'publish' }).returning({ id: jobs.id });
      await expect.poll(async () => countOf(await scrape(), 'solestudio_job_duration_seconds_count', { kind: 'publish', outcome: 'done' }), { timeout: 30_000 }).toBe(1);
      const [row] = await t.app.database.db.select({ status: jobs.status }).from(jobs).where(eq(jobs.id, job!.id));
      expect(row?.status).toBe('done');
      // The pool it reads the queue through is PostgreSQL's.
      expect(sampleOf(await scrape(), 'solestudio_db_pool_max_connections')).toBe(10);
    } finally {
      worker.kill('SIGTERM');
      expect(await exited).toBe(0);
    }
  }, 120_000);
});
