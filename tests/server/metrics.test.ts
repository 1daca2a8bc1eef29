// GET /metrics through the real server: absent without METRICS_TOKEN, refused without the token,
// and, with it, what the server measures — requests by route pattern and status, a job's tries,
// retries and failures with the log lines that name it, an engine's time over an output (the
// remote engine, against a local server that speaks its protocol), payment steps and
// notifications by provider and outcome, open event streams, the job queue read from the
// database, the data directory's disk — and a worker's own metrics listener. The Grafana
// dashboard and the alert rules read only metrics a scrape of the real server declares.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { createTestApp, borrowed, type TestApp } from '../support/test-app';
import { signedInSeller } from '../support/sellers';
import { uploadViews } from '../support/photos';
import { postToSandboxWebhook, signedSandboxNotification, withForgedSignature } from '../support/sandbox';
import { jobs, materials, taskOutputs, tasks } from '../../server/db/schema';
import { buildApp } from '../../server/app';
import { loadConfig } from '../../server/config/env';
import { listenForMetrics } from '../../server/metrics/listener';
import { countOf, declaredMetrics, metricNamesIn, readSamples, sampleOf, type Sample } from '../support/metrics';

const TOKEN = 'scrape-me-if-you-can-0123456789';
let t: TestApp;
let base: string;
let ai: http.Server;
const lines: string[] = [];

beforeAll(async () => {
  // The remote engine's service: a picture for a half-body model photo, a refusal for anything else.
  const png = (await sharp({ create: { width: 1024, height: 1536, channels: 3, background: '#c8b4a0' } }).png().toBuffer()).toString('base64');
  ai = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      if (/name="prompt"\r\n\r\n[^\r]*half-body/.test(body)) response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data: [{ b64_json: png }] }));
      else response.writeHead(500, { 'content-type': 'application/json' }).end('{"error":{"message":"model overloaded"}}');
    });
  });
  await new Promise<void>((resolve) => ai.listen(0, '127.0.0.1', resolve));
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  const aiUrl = `http://127.0.0.1:${(ai.address() as AddressInfo).port}/v1`;
  t = await createTestApp({ METRICS_TOKEN: TOKEN, SANDBOX_NOTIFY_DELAY_MS: '20', PUBLIC_URL: 'http://shop.test', AI_BASE_URL: aiUrl }, undefined, { level: 'info', stream });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
});

afterAll(async () => {
  await t?.close();
  await new Promise((resolve) => ai?.close(resolve));
});

/** The metrics as Prometheus reads them, over HTTP. */
async function scrape(): Promise<Sample[]> {
  const answer = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(answer.status).toBe(200);
  return readSamples(await answer.text());
}

const valueOf = async (name: string, labels: Record<string, string> = {}) => sampleOf(await scrape(), name, labels);

describe('GET /metrics', () => {
  it('is absent, as any unknown address, without METRICS_TOKEN, and nothing is measured', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'solestudio-test-'));
    const config = loadConfig({ DATA_DIR: dataDir, STATIC_DIR: path.join(dataDir, 'no-web-build'), RUN_JOBS: 'false', PAYMENTS_SANDBOX: 'true' });
    const plain = await buildApp({ config, database: borrowed(t.app.database), logger: false });
    try {
      const answer = await plain.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
      expect(answer.statusCode).toBe(404);
      expect(answer.json()).toMatchObject({ code: 404, error: 'ROUTE_NOT_FOUND' });
      expect(plain.metrics).toBeNull();
    } finally {
      await plain.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('refuses a scrape without the token, with another token or another scheme', async () => {
    for (const authorization of [undefined, 'Bearer not-the-token-0123456789', `Basic ${TOKEN}`, `Bearer ${TOKEN}x`, `Bearer ${TOKEN.slice(0, -1)}`, TOKEN]) {
      const answer = await fetch(`${base}/metrics`, { headers: authorization ? { authorization } : {} });
      expect(answer.status, authorization).toBe(401);
      expect(answer.headers.get('www-authenticate')).toBe('Bearer realm="metrics"');
      expect(await answer.text()).not.toContain('solestudio_');
    }
  });

  it('serves the metrics in Prometheus\' text format to the token', async () => {
    const answer = await fetch(`${base}/metrics`, { headers: { authorization: `bearer ${TOKEN}` } });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const text = await answer.text();
    expect(text).toContain('# TYPE solestudio_http_request_duration_seconds histogram');
    const samples = readSamples(text);
    expect(sampleOf(samples, 'solestudio_build_info', { role: 'api', version: '2.0.0' })).toBe(1);
    expect(sampleOf(samples, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(sampleOf(samples, 'nodejs_eventloop_lag_p99_seconds')).toBeGreaterThanOrEqual(0);
    expect(sampleOf(samples, 'solestudio_database_up')).toBe(1);
  });

  it('times a request under its route\'s pattern and status, and every unknown address under one label', async () => {
    const route = '/api/v1/content/tasks/:id';
    const before = countOf(await scrape(), 'solestudio_http_request_duration_seconds_count', { method: 'GET', route, status: '401' });
    const ids = [crypto.randomUUID(), crypto.randomUUID()];
    for (const id of ids) expect((await fetch(`${base}/api/v1/content/tasks/${id}`)).status).toBe(401);
    const unknown = await fetch(`${base}/api/v1/no-such-thing/${ids[0]}?token=a-secret-in-the-address`);
    expect(unknown.status).toBe(404);

    const answer = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    const text = await answer.text();
    const samples = readSamples(text);
    expect(sampleOf(samples, 'solestudio_http_request_duration_seconds_count', { method: 'GET', route, status: '401' })).toBe(before + 2);
    expect(sampleOf(samples, 'solestudio_http_request_duration_seconds_bucket', { method: 'GET', route, status: '401', le: '+Inf' })).toBe(before + 2);
    expect(sampleOf(samples, 'solestudio_http_request_duration_seconds_count', { method: 'GET', route: 'unmatched', status: '404' })).toBeGreaterThanOrEqual(1);
    // No address, id or key in a label; the scrapes themselves are not timed.
    for (const id of ids) expect(text).not.toContain(id);
    expect(text).not.toContain('a-secret-in-the-address');
    expect(text).not.toContain('no-such-thing');
    expect(samples.some((sample) => sample.labels.route === '/metrics')).toBe(false);
  });

  it('counts payment steps and notifications by provider and outcome', async () => {
    const seller = await signedInSeller(t, 'mila');
    const counted = async () => {
      const samples = await scrape();
      return {
        applied: sampleOf(samples, 'solestudio_webhooks_total', { provider: 'sandbox', outcome: 'applied' }),
        unchanged: sampleOf(samples, 'solestudio_webhooks_total', { provider: 'sandbox', outcome: 'unchanged' }),
        rejected: sampleOf(samples, 'solestudio_webhooks_total', { provider: 'sandbox', outcome: 'rejected' }),
        absent: sampleOf(samples, 'solestudio_webhooks_total', { provider: 'stripe', outcome: 'absent' }),
        started: sampleOf(samples, 'solestudio_payments_total', { provider: 'sandbox', outcome: 'started' }),
        completed: sampleOf(samples, 'solestudio_payments_total', { provider: 'sandbox', outcome: 'completed' }),
      };
    };
    const before = await counted();

    const started = await t.app.inject({
      method: 'POST',
      url: '/api/v1/tokens/topup',
      headers: { authorization: `Bearer ${seller.token}` },
      payload: { currency: 'USD', token_amount: 100, pm_id: 'sberpay_ru', payment_provider: 'localpay' },
    });
    expect(started.statusCode, started.body).toBe(200);
    const page = new URL(started.json().data.redirect_url as string).pathname;
    expect((await t.app.inject({ method: 'POST', url: `${page}/pay` })).statusCode).toBe(303);
    // The sandbox notifies twice, as providers repeat themselves: applied once, then a repeat.
    await t.app.billing.sandbox!.idle();
    const forged = withForgedSignature(signedSandboxNotification(t, { id: 'evt_forged', type: 'payment.succeeded' }));
    expect((await postToSandboxWebhook(t, forged)).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/payment/webhooks/stripe', payload: '{}', headers: { 'content-type': 'application/json' } })).statusCode).toBe(404);

    const after = await counted();
    expect(after).toEqual({
      applied: before.applied + 1,
      unchanged: before.unchanged + 1,
      rejected: before.rejected + 1,
      absent: before.absent + 1,
      started: before.started + 1,
      completed: before.completed + 1,
    });
  });

  it('counts a job\'s tries and the engines\' times: a try that fails is retried, then done; a job no handler knows fails; its log lines name it', async () => {
    const db = t.app.database.db;
    const runner = t.app.generation.runner!;
    const seller = await signedInSeller(t, 'jana');
    const photos = await uploadViews(t, seller.token);
    const counts = async () => {
      const samples = await scrape();
      const engine = (category: string, outcome: string) => countOf(samples, 'solestudio_engine_output_duration_seconds_count', { engine: 'remote', category, outcome });
      return {
        retries: sampleOf(samples, 'solestudio_job_retries_total', { kind: 'generate' }),
        retried: countOf(samples, 'solestudio_job_duration_seconds_count', { kind: 'generate', outcome: 'retried' }),
        done: countOf(samples, 'solestudio_job_duration_seconds_count', { kind: 'generate', outcome: 'done' }),
        errors: engine('HALF_BODY', 'error'),
        made: engine('HALF_BODY', 'made'),
        refused: engine('FULL_BODY', 'failed'),
        failures: countOf(samples, 'solestudio_job_failures_total', { kind: 'retired-kind' }),
        failed: countOf(samples, 'solestudio_job_duration_seconds_count', { kind: 'retired-kind', outcome: 'failed' }),
      };
    };
    const before = await counts();

    // A task whose product shot an earlier try made (so its photos are not checked again), and a
    // photo the storage cannot read (a directory where its file was): the remote engine's first
    // output fails on it, and the job is tried again later.
    await runner.stop();
    let taskId: string;
    let file: string;
    let bytes: Buffer;
    try {
      const submitted = await t.app.inject({
        method: 'POST',
        url: '/api/v1/content/generate',
        headers: { authorization: `Bearer ${seller.token}`, 'idempotency-key': `metrics-${Date.now()}` },
        payload: {
          material_ids: photos,
          content_config: [
            { content_module: 'PRODUCT_IMAGE', category: 'PRODUCT', custom_params: { shoe_params: {} }, name: 'PRODUCT', selected: true },
            ...['HALF_BODY', 'FULL_BODY'].map((category) => ({
              content_module: 'REAL_PERSON_IMAGE',
              category,
              background: 'SIMPLE',
              custom_params: { shoe_params: {} },
              name: category,
              selected: true,
            })),
          ],
        },
      });
      expect(submitted.statusCode, submitted.body).toBe(200);
      taskId = submitted.json().data.id as string;
      await db.update(taskOutputs).set({ status: 'completed' }).where(and(eq(taskOutputs.taskId, taskId), eq(taskOutputs.category, 'PRODUCT')));
      const [photo] = await db.select({ key: materials.storageKey }).from(materials).where(eq(materials.id, photos[0]!));
      file = path.join(t.dataDir, 'files', photo!.key);
      bytes = fs.readFileSync(file);
      fs.rmSync(file);
      fs.mkdirSync(file);
    } finally {
      runner.start();
    }
    await expect.poll(async () => (await counts()).retries, { timeout: 20_000 }).toBeGreaterThan(before.retries);
    await runner.stop();
    const retrying = await counts();
    expect(retrying).toMatchObject({ made: before.made, refused: before.refused, done: before.done });
    expect(retrying.retried - before.retried).toBe(retrying.retries - before.retries);

    // The photo back, and the retry brought forward: one model photo made, the other refused.
    fs.rmdirSync(file);
    fs.writeFileSync(file, bytes);
    await db.update(jobs).set({ runAt: sql`now()` }).where(eq(jobs.taskId, taskId));
    runner.start();
    await expect.poll(async () => (await counts()).done, { timeout: 20_000 }).toBe(before.done + 1);
    const after = await counts();
    expect(after).toMatchObject({ made: before.made + 1, refused: before.refused + 1 });
    // Each failed try was one engine error and one retry (a second one if the retry came round before the photo was back).
    const retries = after.retries - before.retries;
    expect(retries === 1 || retries === 2).toBe(true);
    expect(after.errors - before.errors).toBe(retries);
    expect(after.retried - before.retried).toBe(retries);
    const [task] = await db.select({ status: tasks.status }).from(tasks).where(eq(tasks.id, taskId));
    expect(task!.status).toBe('partially_completed');

    // A job of a kind this server no longer runs fails at once, and is counted under its kind.
    const [retired] = await db.insert(jobs).values({ kind: 'retired-kind' }).returning({ id: jobs.id });
    t.app.generation.wake();
    await expect.poll(async () => (await counts()).failures, { timeout: 20_000 }).toBe(before.failures + 1);
    expect((await counts()).failed).toBe(before.failed + 1);

    // The lines the jobs logged name the job, its kind and, for a task's, the task. The seller's
    // mails: the verification link's line names the request that sent it, the finished task's the job.
    const [job] = await db.select({ id: jobs.id }).from(jobs).where(eq(jobs.taskId, taskId));
    const mailLines = () => lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => String(line.msg).startsWith('mail to jana@shop.example written to'));
    await expect.poll(() => mailLines().length).toBe(2);
    const [verification, finished] = mailLines();
    expect(verification).toMatchObject({ reqId: expect.any(String) });
    expect(verification).not.toHaveProperty('job');
    expect(finished).toMatchObject({ job: job!.id, jobKind: 'generate', task: taskId });
    const logged = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    const failedTry = logged.find((line) => line.msg === 'job failed' && line.job === job!.id);
    expect(failedTry).toMatchObject({ jobKind: 'generate', task: taskId, attempt: 1, err: { code: 'EISDIR' } });
    expect(logged.find((line) => line.msg === 'output failed' && line.job === job!.id)).toMatchObject({ jobKind: 'generate', task: taskId, reason: 'ENGINE_REFUSED' });
    expect(logged.find((line) => line.msg === 'job failed' && line.job === retired!.id)).toMatchObject({ jobKind: 'retired-kind' });
  }, 120_000);

  it('reads the queue from the database: due, later, running and lapsed jobs by kind, and how long the oldest has waited', async () => {
    const db = t.app.database.db;
    const runner = t.app.generation.runner!;
    await runner.stop();
    let ids: number[] = [];
    try {
      const rows = await db
        .insert(jobs)
        .values([
          { kind: 'publish', runAt: sql`now() - interval '90 seconds'` },
          { kind: 'publish', runAt: sql`now() - interval '5 seconds'` },
          { kind: 'publish', runAt: sql`now() + interval '1 hour'` },
          { kind: 'publish', status: 'running', attempts: 1, lockedBy: 'a-live-runner', lockedUntil: sql`now() + interval '5 minutes'` },
          { kind: 'publish', status: 'running', attempts: 1, lockedBy: 'a-dead-runner', lockedUntil: sql`now() - interval '10 seconds'` },
        ])
        .returning({ id: jobs.id });
      ids = rows.map((row) => row.id);
      const samples = await scrape();
      const of = (name: string) => sampleOf(samples, name, { kind: 'publish' });
      expect(of('solestudio_jobs_queued')).toBe(2);
      expect(of('solestudio_jobs_scheduled')).toBe(1);
      expect(of('solestudio_jobs_running')).toBe(1);
      expect(of('solestudio_jobs_lapsed')).toBe(1);
      expect(of('solestudio_jobs_oldest_due_seconds')).toBeGreaterThanOrEqual(90);
      expect(of('solestudio_jobs_oldest_due_seconds')).toBeLessThan(90 + 60);
      // A kind with nothing waiting says 0, not nothing.
      expect(sampleOf(samples, 'solestudio_jobs_oldest_due_seconds', { kind: 'generate' })).toBe(0);

      await db.delete(jobs).where(inArray(jobs.id, ids));
      const emptied = await scrape();
      expect(sampleOf(emptied, 'solestudio_jobs_queued', { kind: 'publish' })).toBe(0);
      expect(sampleOf(emptied, 'solestudio_jobs_oldest_due_seconds', { kind: 'publish' })).toBe(0);
    } finally {
      await db.delete(jobs).where(inArray(jobs.id, ids));
      runner.start();
    }
  });

  it('counts the live-event streams open', async () => {
    const seller = await signedInSeller(t, 'oleg');
    const before = await valueOf('solestudio_event_streams');
    const ticket = (await t.app.inject({ method: 'POST', url: '/api/v1/content/events/ticket', headers: { authorization: `Bearer ${seller.token}` } })).json().data.ticket as string;
    const request = http.get(`${base}/api/v1/events?ticket=${encodeURIComponent(ticket)}`);
    await new Promise<void>((resolve, reject) => {
      request.on('response', (response) => response.once('data', () => resolve()));
      request.on('error', reject);
    });
    expect(await valueOf('solestudio_event_streams')).toBe(before + 1);
    request.destroy();
    await expect.poll(() => valueOf('solestudio_event_streams')).toBe(before);
  });

  it('reports the free and total bytes of the data directory\'s filesystem', async () => {
    const samples = await scrape();
    const stat = fs.statfsSync(t.dataDir);
    expect(sampleOf(samples, 'solestudio_data_dir_size_bytes')).toBe(stat.blocks * stat.bsize);
    const free = sampleOf(samples, 'solestudio_data_dir_free_bytes');
    expect(free).toBeGreaterThan(0);
    expect(free).toBeLessThanOrEqual(stat.blocks * stat.bsize);
  });
});

describe('a worker\'s metrics listener', () => {
  it('answers GET /metrics to the token on a port of its own, and nothing else', async () => {
    const listener = await listenForMetrics(t.app.metrics!, { host: '127.0.0.1', port: 0 });
    try {
      const at = `http://127.0.0.1:${listener.port}`;
      const answer = await fetch(`${at}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
      expect(sampleOf(readSamples(await answer.text()), 'solestudio_database_up')).toBe(1);
      expect((await fetch(`${at}/metrics`, { headers: { authorization: 'Bearer not-the-token-0123456789' } })).status).toBe(401);
      expect((await fetch(`${at}/metrics`)).status).toBe(401);
      expect((await fetch(`${at}/api/v1/content/config`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(404);
      expect((await fetch(`${at}/metrics`, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(404);
    } finally {
      await listener.close();
    }
  });
});

describe('the Grafana dashboard and the alert rules', () => {
  /** Every metric an expression reads is one the server declares (a histogram's by its series). */
  const unknownIn = (exprs: string[], declared: Map<string, string>) =>
    exprs.flatMap(metricNamesIn).filter((name) => {
      if (declared.has(name)) return false;
      const histogram = /^(.*)_(bucket|sum|count)$/.exec(name);
      if (histogram && declared.get(histogram[1]!) === 'histogram') return false;
      // Made by Prometheus itself for every target it scrapes.
      return name !== 'up';
    });

  const declared = async () => {
    const answer = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    return declaredMetrics(await answer.text());
  };

  it('the dashboard: a Prometheus datasource variable, and only metrics the server serves', async () => {
    interface Target { expr: string; datasource: { uid: string } }
    interface Panel { type: string; title: string; datasource?: { uid: string }; targets?: Target[] }
    const dashboard = JSON.parse(fs.readFileSync(path.join(import.meta.dirname, '../../ops/grafana/solestudio.json'), 'utf8')) as {
      uid: string;
      panels: Panel[];
      templating: { list: { type: string; name: string; query: string | { query: string } }[] };
    };
    const variables = dashboard.templating.list;
    expect(variables.find((variable) => variable.name === 'datasource')).toMatchObject({ type: 'datasource', query: 'prometheus' });
    const panels = dashboard.panels.filter((panel) => panel.type !== 'row');
    expect(panels.length).toBeGreaterThan(10);
    const exprs: string[] = [];
    for (const panel of panels) {
      expect(panel.datasource?.uid, panel.title).toBe('${datasource}');
      expect(panel.targets?.length, panel.title).toBeGreaterThan(0);
      for (const target of panel.targets!) {
        expect(target.datasource.uid, panel.title).toBe('${datasource}');
        exprs.push(target.expr);
      }
    }
    for (const variable of variables.filter((candidate) => candidate.type === 'query')) {
      const query = typeof variable.query === 'string' ? variable.query : variable.query.query;
      exprs.push(/^label_values\((\w+),\s*\w+\)$/.exec(query)![1]!);
    }
    const read = new Set(exprs.flatMap(metricNamesIn));
    for (const name of ['solestudio_http_request_duration_seconds_bucket', 'solestudio_jobs_oldest_due_seconds', 'solestudio_webhooks_total', 'solestudio_data_dir_free_bytes', 'nodejs_eventloop_lag_p99_seconds']) {
      expect(read).toContain(name);
    }
    expect(unknownIn(exprs, await declared())).toEqual([]);
  });

  it('the alert rules: each with an expression, a severity and a summary, reading only metrics the server serves', async () => {
    const text = fs.readFileSync(path.join(import.meta.dirname, '../../ops/prometheus/alerts.yml'), 'utf8');
    expect(text).toMatch(/^groups:\n {2}- name: solestudio\n {4}rules:\n/m);
    const rules = text.split(/\n {6}- alert: /).slice(1).map((block) => {
      const inline = /\n {8}expr: (?!\|)(.+)/.exec(block)?.[1];
      const folded = /\n {8}expr: \|\n((?: {10}.*\n)+)/.exec(block)?.[1];
      return {
        alert: block.split('\n', 1)[0]!,
        expr: (inline ?? folded ?? '').trim(),
        severity: /\n {8}labels:\n {10}severity: (\w+)/.exec(block)?.[1],
        summary: /\n {8}annotations:\n {10}summary: ".+"\n {10}description: ".+"/.test(block),
      };
    });
    expect(rules.map((rule) => rule.alert)).toEqual(
      expect.arrayContaining(['SoleStudioJobsStuck', 'SoleStudioWebhooksFailing', 'SoleStudioMailFailing', 'SoleStudioDiskNearlyFull']),
    );
    for (const rule of rules) {
      expect(rule.expr, rule.alert).not.toBe('');
      expect(['warning', 'critical'], rule.alert).toContain(rule.severity);
      expect(rule.summary, rule.alert).toBe(true);
    }
    expect(unknownIn(rules.map((rule) => rule.expr), await declared())).toEqual([]);

    // The rules' own tests (promtool test rules) feed series of the same names.
    const tests = fs.readFileSync(path.join(import.meta.dirname, '../../ops/prometheus/alerts.test.yml'), 'utf8');
    const fed = [...tests.matchAll(/series: '([a-zA-Z_:][\w:]*)\{/g)].map((match) => match[1]!);
    expect(fed.length).toBeGreaterThan(5);
    expect(unknownIn(fed, await declared())).toEqual([]);
  });

  it('reads metric names out of expressions, so a renamed metric is caught', () => {
    expect(metricNamesIn('max by (kind) (solestudio_jobs_oldest_due_seconds{instance=~"$instance"}) > 600')).toEqual(['solestudio_jobs_oldest_due_seconds']);
    expect(metricNamesIn('histogram_quantile(0.99, sum by (le, route) (rate(solestudio_http_request_duration_seconds_bucket[$__rate_interval])))')).toEqual([
      'solestudio_http_request_duration_seconds_bucket',
    ]);
    expect(metricNamesIn('predict_linear(a_b[6h], 24 * 3600) < 0 and on (instance) (c / d) < 0.25')).toEqual(['a_b', 'c', 'd']);
    expect(unknownIn(['sum(rate(solestudio_http_requests_total[5m]))'], new Map([['solestudio_http_request_duration_seconds', 'histogram']]))).toEqual(['solestudio_http_requests_total']);
  });
});
