// Live events across nodes on PostgreSQL: a task finished by one process (here an app running
// the jobs) reaches a seller's stream open on another (an API node with RUN_JOBS=false) through
// LISTEN/NOTIFY. PostgreSQL nodes do not poll for finished tasks, so only NOTIFY can deliver it;
// the listening connection comes back when it drops.
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app';
import { loadConfig } from '../../server/config/env';
import { openPostgres } from '../../server/db/client';
import { TASK_EVENTS_CHANNEL } from '../../server/plugins/generation';
import { createTestApp, type TestApp } from '../support/test-app';
import { signedInSeller } from '../support/sellers';
import { uploadViews } from '../support/photos';

let t: TestApp;
let apiNode: FastifyInstance;
let seller: { token: string; id: string };
let photos: string[];
let received = '';
let stream: http.ClientRequest;

const auth = () => ({ authorization: `Bearer ${seller.token}`, 'accept-language': 'en' });

async function finishTask(name: string): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/content/generate',
    headers: { ...auth(), 'idempotency-key': `nodes-${name}-${Date.now()}` },
    payload: { content_config: [{ content_module: 'PRODUCT_IMAGE', category: 'PRODUCT2', custom_params: { shoe_params: {} }, name, selected: true }], material_ids: photos },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.id as string;
}

/** The task's event on the other node's stream: the task's cut-outs first, so sized for a busy machine. */
async function arrives(taskId: string) {
  await expect.poll(() => received.includes(`"task_id":"${taskId}"`), { timeout: 240_000, interval: 50 }).toBe(true);
}

/** The API node's listening connection, as PostgreSQL sees it. */
async function listeners(): Promise<number[]> {
  const admin = new pg.Client({ connectionString: t.databaseUrl });
  await admin.connect();
  try {
    const { rows } = await admin.query<{ pid: number }>(
      "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND query = $1",
      [`LISTEN ${TASK_EVENTS_CHANNEL}`],
    );
    return rows.map((row) => row.pid);
  } finally {
    await admin.end();
  }
}

beforeAll(async () => {
  t = await createTestApp({ SIGN_UP_BONUS_TOKENS: '100' });
  seller = await signedInSeller(t, 'nadia');
  photos = await uploadViews(t, seller.token);

  const config = loadConfig({ DATA_DIR: t.dataDir, STATIC_DIR: path.join(t.dataDir, 'no-web-build'), LOG_LEVEL: 'silent', RUN_JOBS: 'false' });
  apiNode = await buildApp({ config, database: await openPostgres(t.databaseUrl!), logger: false });
  const base = await apiNode.listen({ port: 0, host: '127.0.0.1' });
  const ticket = (await apiNode.inject({ method: 'POST', url: '/api/v1/content/events/ticket', headers: auth() })).json().data.ticket;
  await new Promise<void>((resolve) => {
    stream = http.get(`${base}/api/v1/events?ticket=${encodeURIComponent(ticket)}`, (res) => {
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (received += chunk));
      resolve();
    });
  });
}, 120_000);

afterAll(async () => {
  stream?.destroy();
  await apiNode?.close();
  await t?.close();
});

describe('task events on PostgreSQL', () => {
  it('reach a stream on another node when the task finishes', async () => {
    // The stream opened the node's one listening connection.
    await expect.poll(listeners, { timeout: 10_000 }).toHaveLength(1);
    await arrives(await finishTask('first'));
  }, 300_000);

  it('still arrive after the listening connection dropped', async () => {
    const [pid] = await listeners();
    const admin = new pg.Client({ connectionString: t.databaseUrl });
    await admin.connect();
    await admin.query('SELECT pg_terminate_backend($1)', [pid]);
    await admin.end();
    await expect.poll(async () => (await listeners()).filter((other) => other !== pid), { timeout: 15_000 }).toHaveLength(1);
    await arrives(await finishTask('second'));
  }, 300_000);
});
