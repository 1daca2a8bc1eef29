// Task and material history under load: a seller with 1,000 finished tasks and 5,000 results,
// GET /content/tasks and GET /content/assets from 50 clients at once, and how soon a 50-file zip
// starts streaming.
import fs from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import { sql } from 'drizzle-orm';
import type { Database } from '../../server/db/client';
import { measuredLoad, type SignInLoad } from './auth';

export const HISTORY_TASKS = 1000;
export const HISTORY_ASSETS_PER_TASK = 5;
const SECTIONS = ['PRODUCT', 'PRODUCT2', 'POSTER', 'OUTFIT_COLOR', 'OUTFIT_STILL_LIFE'];
const ENTRY = [{ content_module: 'PRODUCT_IMAGE', category: 'PRODUCT', custom_params: { shoe_params: {} }, name: 'PRODUCT', selected: true }];

/** Finished tasks with their results, written straight into the database. */
export async function seedHistory(db: Database, userId: string): Promise<void> {
  await db.execute(sql`
    INSERT INTO tasks (user_id, idempotency_key, content_config, material_ids, cost, locale, status, created_at, finished_at)
    SELECT ${userId}, 'history-' || g, ${JSON.stringify(ENTRY)}::jsonb, '[]'::jsonb, 5, 'en', 'completed',
      now() - make_interval(mins => g), now() - make_interval(mins => g)
    FROM generate_series(1, ${HISTORY_TASKS}) AS g`);
  await db.execute(sql`
    INSERT INTO assets (user_id, task_id, content_module, category, storage_key, file_type, width, height, byte_size, created_at)
    SELECT ${userId}, t.id, 'PRODUCT_IMAGE', (${`{${SECTIONS.join(',')}}`}::text[])[1 + n % ${SECTIONS.length}],
      'assets/' || ${userId} || '/' || md5(t.id::text || n) || '.jpg', 'image/jpeg', 1200, 1600, 300000, t.created_at
    FROM tasks t, generate_series(1, ${HISTORY_ASSETS_PER_TASK}) AS n
    WHERE t.user_id = ${userId}`);
}

/** Writes a file for each of the seller's newest `count` product results; returns their ids. */
export async function filesForNewest(db: Database, filesDir: string, userId: string, count: number): Promise<string[]> {
  const result = await db.execute(sql`
    SELECT id, storage_key FROM assets WHERE user_id = ${userId} AND category = 'PRODUCT'
    ORDER BY created_at DESC, id DESC LIMIT ${count}`);
  const rows = (result as unknown as { rows: { id: string; storage_key: string }[] }).rows;
  const body = Buffer.alloc(300 * 1024, 7);
  for (const row of rows) {
    const file = path.join(filesDir, row.storage_key);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, body);
  }
  return rows.map((row) => row.id);
}

/** A page of tasks and a page of one material-history section, each from `connections` clients. */
export async function historyUnderLoad(url: string, token: string, connections = 50, seconds = 10) {
  const load = (route: string) => (duration: number) =>
    autocannon({ url: `${url}${route}`, connections, duration, headers: { authorization: `Bearer ${token}` } });
  const tasks: SignInLoad = await measuredLoad(load('/api/v1/content/tasks?page=3'), seconds);
  const assets: SignInLoad = await measuredLoad(load('/api/v1/content/assets?material_category=PRODUCT&page=3'), seconds);
  return { tasks, assets };
}

/** Milliseconds from asking for a zip of these assets to its first bytes, and its total size. */
export async function zipFirstBytes(url: string, token: string, ids: readonly string[]): Promise<{ firstByteMs: number; bytes: number }> {
  const started = performance.now();
  const asked = await fetch(`${url}/api/v1/content/assets/download`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ asset_ids: ids }),
  });
  if (!asked.ok) throw new Error(`download refused: ${await asked.text()}`);
  const { download_url } = ((await asked.json()) as { data: { download_url: string } }).data;
  const zip = await fetch(new URL(download_url, url));
  if (!zip.ok || !zip.body) throw new Error(`zip failed: ${zip.status}`);
  const reader = zip.body.getReader();
  let firstByteMs = 0;
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (bytes === 0) firstByteMs = performance.now() - started;
    bytes += value.length;
  }
  return { firstByteMs, bytes };
}
