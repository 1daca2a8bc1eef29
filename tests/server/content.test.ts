// Tasks through the real server: what the engines offer, submission under an Idempotency-Key
// (checked, priced and charged once), the generation job from photos to stored results,
// rejection at intake with refunds, concurrency against the balance, a runner that dies
// mid-job, task events over SSE, the finished-task mail, and ownership (404 for others).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import sharp from 'sharp';
import { eq, sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../support/test-app';
import { signedInSeller } from '../support/sellers';
import { uploadViews } from '../support/photos';
import { waitForMail } from '../support/outbox';
import { jobs, ledger, wallets } from '../../server/db/schema';
import { claimJob } from '../../server/jobs/runner';
import { runStudioJobsUntilFinished } from '../support/studio-runner';

let t: TestApp;
let anna: { token: string; id: string };
let boris: { token: string; id: string };
let annaPhotos: string[];
let keys = 0;

const auth = (token: string) => ({ authorization: `Bearer ${token}`, 'accept-language': 'en' });
const nextKey = () => `task-key-${Date.now()}-${(keys += 1)}`;

const entry = (category: string, extra: Record<string, unknown> = {}) => ({
  content_module: { PRODUCT: 'PRODUCT_IMAGE', PRODUCT2: 'PRODUCT_IMAGE', POSTER: 'PRODUCT_IMAGE', OUTFIT_COLOR: 'OUTFIT_IMAGE', OUTFIT_STILL_LIFE: 'OUTFIT_IMAGE', HALF_BODY: 'REAL_PERSON_IMAGE', FULL_BODY: 'REAL_PERSON_IMAGE', CREATIVE_VIDEO: 'CREATIVE_VIDEO' }[category],
  category,
  custom_params: { shoe_params: { heel_height: 3 } },
  name: category,
  selected: true,
  ...extra,
});

async function generate(app: TestApp, token: string, payload: unknown, key = nextKey()) {
  return app.app.inject({ method: 'POST', url: '/api/v1/content/generate', headers: { ...auth(token), 'idempotency-key': key }, payload: payload as object });
}

async function balance(app: TestApp, token: string): Promise<number> {
  return (await app.app.inject({ method: 'GET', url: '/api/v1/tokens/balance', headers: auth(token) })).json().data.total_tokens;
}

async function ledgerSum(app: TestApp, userId: string): Promise<number> {
  const [row] = await app.app.database.db.select({ sum: sql<string>`coalesce(sum(${ledger.amount}), 0)` }).from(ledger).where(eq(ledger.userId, userId));
  return Number(row!.sum);
}

/** A task made by the studio (its cut-outs first): sized for a busy machine. */
async function waitForTask(app: TestApp, token: string, id: string, timeoutMs = 240_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const task = (await app.app.inject({ method: 'GET', url: `/api/v1/content/tasks/${id}`, headers: auth(token) })).json().data;
    if (!['pending', 'processing'].includes(task.status)) return task;
    if (Date.now() > deadline) throw new Error(`task ${id} still ${task.status}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

beforeAll(async () => {
  t = await createTestApp({ SIGN_UP_BONUS_TOKENS: '100' });
  anna = await signedInSeller(t, 'anna');
  boris = await signedInSeller(t, 'boris');
  annaPhotos = await uploadViews(t, anna.token);
}, 300_000);

afterAll(async () => {
  await t?.close();
});

describe('GET /content/config', () => {
  it('offers what the studio engine makes, with prices, and says why model photos are unavailable', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/content/config', headers: { 'accept-language': 'en' } });
    expect(res.statusCode).toBe(200);
    const categories = res.json().data.categories as { category: string; available: boolean; reason: string | null; price: number; sub_options: { value: string; available: boolean }[]; custom: { available: boolean } }[];
    const of = (name: string) => categories.find((c) => c.category === name)!;
    expect(of('PRODUCT')).toMatchObject({ available: true, reason: null, price: 2 });
    expect(of('POSTER').custom.available).toBe(true);
    expect(of('PRODUCT2').custom.available).toBe(false);
    expect(of('PRODUCT').sub_options).toEqual(['STUDIO', 'WB_OZON', 'AMAZON'].map((value) => ({ value, available: true, reason: null })));
    expect(of('HALF_BODY').available).toBe(false);
    expect(of('HALF_BODY').reason).toMatch(/AI image service/);
    expect(of('CREATIVE_VIDEO').available).toBe(true);
    expect(of('CREATIVE_VIDEO').sub_options.filter((s) => s.available)).toHaveLength(10);
    expect(of('CREATIVE_VIDEO').sub_options.find((s) => s.value === 'CUSTOM')!.available).toBe(false);
  });
});

describe('POST /content/generate: checks before any charge', () => {
  it('refuses without an Idempotency-Key, with too few views, and an option no engine can make', async () => {
    const before = await balance(t, anna.token);
    const noKey = await t.app.inject({ method: 'POST', url: '/api/v1/content/generate', headers: auth(anna.token), payload: { content_config: [entry('PRODUCT')], material_ids: annaPhotos } });
    expect(noKey.statusCode).toBe(400);
    const four = await generate(t, anna.token, { content_config: [entry('PRODUCT')], material_ids: annaPhotos.slice(0, 4) });
    expect(four.statusCode).toBe(400);
    expect(four.json().message).toMatch(/at least 5 views/);
    const person = await generate(t, anna.token, { content_config: [entry('HALF_BODY', { background: 'SIMPLE', name: 'HALF_BODY:SIMPLE' })], material_ids: annaPhotos });
    expect(person.statusCode).toBe(400);
    expect(person.json().error).toBe('OPTION_UNAVAILABLE');
    const custom = await generate(t, anna.token, { content_config: [entry('PRODUCT2', { custom_params: { shoe_params: {}, custom_scene_description: 'on the moon' } })], material_ids: annaPhotos });
    expect(custom.statusCode).toBe(400);
    const wrongModule = await generate(t, anna.token, { content_config: [{ ...entry('PRODUCT'), content_module: 'OUTFIT_IMAGE' }], material_ids: annaPhotos });
    expect(wrongModule.json().error).toBe('CONFIG_MISMATCH');
    const lookElsewhere = await generate(t, anna.token, { content_config: [entry('PRODUCT2', { preset: 'AMAZON' })], material_ids: annaPhotos });
    expect(lookElsewhere.json().error).toBe('CONFIG_MISMATCH');
    expect(await balance(t, anna.token)).toBe(before);
  });

  it('answers 402 with the cost and balance when the tokens do not cover the task', async () => {
    const config = Array.from({ length: 30 }, (_, i) => entry('POSTER', { name: `POSTER-${i}` }));
    // Read now: tasks of other tests in this file may have spent part of the sign-up bonus.
    const before = await balance(t, anna.token);
    const res = await generate(t, anna.token, { content_config: config, material_ids: annaPhotos });
    expect(res.statusCode).toBe(402);
    expect(res.json().message).toBe(`Not enough tokens: this task costs 120 and the balance is ${before}. Please top up.`);
    expect(await balance(t, anna.token)).toBe(before);
  });
});

describe('a task from submission to results', () => {
  it('charges once, makes every planned output, stores the results, mails the seller and sends an event', async () => {
    // A seller of its own: the only task, mail and events this seller ever has are this test's,
    // whatever other tests (in any order) submitted before.
    const dina = await signedInSeller(t, 'dina');
    const dinaPhotos = await uploadViews(t, dina.token);
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const ticket = (await t.app.inject({ method: 'POST', url: '/api/v1/content/events/ticket', headers: auth(dina.token) })).json().data.ticket;
    const events: string[] = [];
    const stream = http.get(`${address}/api/v1/events?ticket=${encodeURIComponent(ticket)}`, (res) => {
      expect(res.headers['content-type']).toMatch(/text\/event-stream/);
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => events.push(chunk));
    });
    // Ended however the test ends: an open stream would hold the app's close.
    onTestFinished(() => {
      stream.destroy();
    });

    const before = await balance(t, dina.token);
    const submittedAt = Date.now();
    const key = nextKey();
    const payload = { content_config: [entry('PRODUCT'), entry('PRODUCT2'), entry('OUTFIT_COLOR')], material_ids: dinaPhotos };
    const res = await generate(t, dina.token, payload, key);
    expect(res.statusCode, res.body).toBe(200);
    const { id, cost, total_tokens } = res.json().data;
    expect(cost).toBe(5 * 2 + 4 + 3);
    expect(total_tokens).toBe(before - cost);

    // A replay of the same request is the same task, charged once; another body under the key is refused.
    const replay = await generate(t, dina.token, payload, key);
    expect(replay.json().data.id).toBe(id);
    expect(await balance(t, dina.token)).toBe(before - cost);
    const mismatch = await generate(t, dina.token, { ...payload, content_config: [entry('POSTER')] }, key);
    expect(mismatch.statusCode).toBe(409);

    const task = await waitForTask(t, dina.token, id);
    expect(task.status).toBe('completed');
    expect(task.outputs.every((o: { status: string }) => o.status === 'completed')).toBe(true);
    expect(task.result).toHaveLength(7);
    const products = task.result.filter((r: { category: string }) => r.category === 'PRODUCT');
    expect(products).toHaveLength(5);
    const image = await t.app.inject({ method: 'GET', url: products[0].url });
    expect(image.statusCode).toBe(200);
    const meta = await sharp(image.rawPayload).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 1200, 1600]);
    expect(await balance(t, dina.token)).toBe(before - cost);
    expect(await ledgerSum(t, dina.id)).toBe(await balance(t, dina.token));

    const mail = await waitForMail(t.dataDir, 'dina@shop.example', { after: submittedAt });
    expect(mail.subject).toBe('Your content is ready');

    // Complete `data:` lines only: a chunk may end inside one.
    const received = () =>
      events.join('').split('\n').slice(0, -1).filter((line) => line.startsWith('data: ')).map((line) => JSON.parse(line.slice(6)));
    const completed = () => received().find((event) => event.task_id === id && event.status === 'completed');
    const deadline = Date.now() + 10_000;
    while (!completed() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    stream.destroy();
    expect(completed()).toEqual({ type: 'task_updated', task_id: id, status: 'completed', failure_type: null });
    expect(received().every((event) => event.task_id === id)).toBe(true);

    // The ticket opened one stream; it does not open another.
    const again = await t.app.inject({ method: 'GET', url: `/api/v1/events?ticket=${encodeURIComponent(ticket)}` });
    expect(again.statusCode).toBe(401);

    const list = (await t.app.inject({ method: 'GET', url: '/api/v1/content/tasks?page=1&page_size=10', headers: auth(dina.token) })).json();
    expect(list.meta).toMatchObject({ page: 1 });
    expect(list.data.map((x: { id: string }) => x.id)).toContain(id);
  }, 300_000);

  it('rejects a photo far too dark at intake, says why, and refunds everything', async () => {
    const photos = await uploadViews(t, anna.token, { dark: 'front' });
    const before = await balance(t, anna.token);
    const res = await generate(t, anna.token, { content_config: [entry('PRODUCT2')], material_ids: photos });
    expect(res.statusCode, res.body).toBe(200);
    const { id } = res.json().data;
    const task = await waitForTask(t, anna.token, id);
    expect([task.status, task.failure_type]).toEqual(['failed', 'manual_rejection']);
    const details = (await t.app.inject({ method: 'GET', url: `/api/v1/content/tasks/${id}/failure-details`, headers: auth(anna.token) })).json().data;
    expect(details).toHaveLength(1);
    expect(details[0].material_id).toBe(photos[3]);
    expect(details[0].reason).toMatch(/too dark/i);
    expect(await balance(t, anna.token)).toBe(before);
    expect(await ledgerSum(t, anna.id)).toBe(before);
  }, 300_000);

  it("answers 404 for another seller's task everywhere, and refuses to delete a task in progress", async () => {
    const res = await generate(t, anna.token, { content_config: [entry('PRODUCT2')], material_ids: annaPhotos });
    const { id } = res.json().data;
    for (const [method, url] of [
      ['GET', `/api/v1/content/tasks/${id}`],
      ['GET', `/api/v1/content/tasks/${id}/failure-details`],
      ['GET', `/api/v1/content/tasks/${id}/materials`],
      ['DELETE', `/api/v1/content/tasks/${id}`],
    ] as const) {
      expect((await t.app.inject({ method, url, headers: auth(boris.token) })).statusCode, url).toBe(404);
    }
    expect((await generate(t, boris.token, { content_config: [entry('PRODUCT2')], material_ids: annaPhotos })).statusCode).toBe(404);
    // Submitted a moment ago, the task is still pending or processing.
    const busy = await t.app.inject({ method: 'DELETE', url: `/api/v1/content/tasks/${id}`, headers: auth(anna.token) });
    expect(busy.statusCode).toBe(409);
    expect(busy.json().message).toMatch(/still being made/);
    await waitForTask(t, anna.token, id);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/v1/content/tasks/${id}`, headers: auth(anna.token) })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: `/api/v1/content/tasks/${id}`, headers: auth(anna.token) })).statusCode).toBe(404);
  }, 300_000);
});

describe('the ledger under load (jobs not run by the server)', () => {
  let quiet: TestApp;
  let carl: { token: string; id: string };
  let carlPhotos: string[];

  beforeAll(async () => {
    quiet = await createTestApp({ SIGN_UP_BONUS_TOKENS: '40', RUN_JOBS: 'false', RATE_LIMIT_DISABLED: 'true' });
    carl = await signedInSeller(quiet, 'carl');
    carlPhotos = await uploadViews(quiet, carl.token);
  }, 300_000);

  afterAll(async () => {
    await quiet?.close();
  });

  it('50 concurrent submissions against a balance for 10 make exactly 10 tasks and never go below zero', async () => {
    const results = await Promise.all(
      Array.from({ length: 50 }, () => generate(quiet, carl.token, { content_config: [entry('POSTER')], material_ids: carlPhotos })),
    );
    const codes = results.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(10);
    expect(codes.filter((c) => c === 402)).toHaveLength(40);
    expect(await balance(quiet, carl.token)).toBe(0);
    expect(await ledgerSum(quiet, carl.id)).toBe(0);
    const [wallet] = await quiet.app.database.db.select().from(wallets).where(eq(wallets.userId, carl.id));
    expect(wallet!.totalTokens).toBe(0);
  }, 300_000);
});

describe('a runner that dies (jobs not run by the server)', () => {
  // An app of its own: the queue holds this test's one job, whatever other tests left queued.
  let quiet: TestApp;
  let carl: { token: string; id: string };

  beforeAll(async () => {
    quiet = await createTestApp({ SIGN_UP_BONUS_TOKENS: '40', RUN_JOBS: 'false' });
    carl = await signedInSeller(quiet, 'carl');
    const submitted = await generate(quiet, carl.token, { content_config: [entry('POSTER')], material_ids: await uploadViews(quiet, carl.token) });
    expect(submitted.statusCode, submitted.body).toBe(200);
  }, 300_000);

  afterAll(async () => {
    await quiet?.close();
  });

  it('a job whose runner died is claimed again when its lease lapses, and finishes', async () => {
    const db = quiet.app.database.db;
    const queued = await db.select().from(jobs).where(eq(jobs.status, 'queued'));
    expect(queued).toHaveLength(1);
    const [job] = queued;
    // A runner claims the job and dies: its lease lapses at once.
    const dead = await claimJob(db, 'dead-runner', 1);
    expect(dead?.id).toBe(job!.id);
    await new Promise((resolve) => setTimeout(resolve, 20));
    await runStudioJobsUntilFinished(quiet, job!.taskId!, { leaseMs: 60_000 });
    const [after] = await db.select().from(jobs).where(eq(jobs.id, job!.id));
    expect(after!.attempts).toBeGreaterThanOrEqual(2);
    expect(after!.status).toBe('done');
    const task = (await quiet.app.inject({ method: 'GET', url: `/api/v1/content/tasks/${job!.taskId}`, headers: auth(carl.token) })).json().data;
    expect(task.status).toBe('completed');
    expect(task.result).toHaveLength(1);
  }, 300_000);
});

describe('the remote AI engine, against a local server that speaks its protocol', () => {
  let ai: http.Server;
  let remoteApp: TestApp;
  let dana: { token: string; id: string };
  let photos: string[];
  let calls: string[] = [];
  let png: string;

  beforeAll(async () => {
    png = (await sharp({ create: { width: 1024, height: 1536, channels: 3, background: '#c8b4a0' } }).png().toBuffer()).toString('base64');
    ai = http.createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        const prompt = /name="prompt"\r\n\r\n([^\r]*)/.exec(body)?.[1] ?? '';
        calls.push(`${req.method} ${req.url} ${prompt.includes('half-body') ? 'half' : 'full'}`);
        if (prompt.includes('half-body')) {
          // Rate limited once, then an image.
          if (calls.filter((c) => c.endsWith('half')).length === 1) {
            res.writeHead(429, { 'retry-after': '0' }).end('{"error":{"message":"slow down"}}');
            return;
          }
          res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data: [{ b64_json: png }] }));
          return;
        }
        if (prompt.includes('café')) {
          res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":[{"url":"not what was asked"}]}');
          return;
        }
        res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":{"message":"model overloaded"}}');
      });
    });
    await new Promise<void>((resolve) => ai.listen(0, '127.0.0.1', resolve));
    const port = (ai.address() as AddressInfo).port;
    remoteApp = await createTestApp({ AI_BASE_URL: `http://127.0.0.1:${port}/v1`, AI_API_KEY: 'test-key', SIGN_UP_BONUS_TOKENS: '100' });
    dana = await signedInSeller(remoteApp, 'dana');
    photos = await uploadViews(remoteApp, dana.token);
  }, 300_000);

  afterAll(async () => {
    await remoteApp?.close();
    await new Promise((resolve) => ai?.close(resolve));
  });

  it('makes the outputs it can, fails and refunds the rest: partially completed', async () => {
    calls = [];
    const before = await balance(remoteApp, dana.token);
    const res = await generate(remoteApp, dana.token, {
      content_config: [
        entry('HALF_BODY', { background: 'SIMPLE', name: 'HALF_BODY:SIMPLE' }),
        entry('FULL_BODY', { background: 'SIMPLE', name: 'FULL_BODY:SIMPLE' }),
        entry('FULL_BODY', { background: 'CUSTOM', name: 'FULL_BODY:CUSTOM', custom_params: { shoe_params: {}, custom_scene_description: 'a café terrace' } }),
      ],
      material_ids: photos,
    });
    expect(res.statusCode, res.body).toBe(200);
    const task = await waitForTask(remoteApp, dana.token, res.json().data.id);
    expect(task.status).toBe('partially_completed');
    const byName = Object.fromEntries(task.outputs.map((o: { name: string }) => [o.name, o]));
    expect(byName['HALF_BODY:SIMPLE'].status).toBe('completed');
    expect(byName['FULL_BODY:SIMPLE'].error).toMatch(/refused: HTTP 500: model overloaded/);
    expect(byName['FULL_BODY:CUSTOM'].error).toMatch(/malformed answer/);
    expect(task.result).toHaveLength(1);
    expect(calls.filter((c) => c.startsWith('POST /v1/images/edits'))).toHaveLength(4);
    // 8 tokens per model photo: 24 charged, 16 refunded.
    expect(await balance(remoteApp, dana.token)).toBe(before - 8);
    expect(await ledgerSum(remoteApp, dana.id)).toBe(before - 8);
  }, 300_000);
});
