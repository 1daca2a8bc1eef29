// A busy install to back up, and what a restored one must serve: two sellers, photos, a task a
// runner holds (tokens spent, result not made), a result with its file, and an upload registered
// whose bytes have not come. While the backup runs, a seller keeps adding photos and deleting the
// one before. The restored server must show each seller the same balance, ledger, tasks and
// results, every photo there was, a file for every photo it lists, the same bytes for every file,
// the task still with its runner, and let the pending upload finish at the address first given.
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { jobs } from '../../server/db/schema';
import { claimJob } from '../../server/jobs/runner';
import { listCountsOff } from '../../server/db/pages';
import { shoePhoto } from '../fixtures/shoes';
import { createAsset, uploadEditFile } from './edits';
import { uploadPhoto } from './photos';
import { FIVE_VIEWS } from '../fixtures/views';
import { SELLER_PASSWORD, signedInSeller } from './sellers';
import type { TestApp } from './test-app';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** A test app listening on loopback, at `base`. */
export interface Served extends TestApp {
  base: string;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
    probe.on('error', reject);
  });
}

/** `npm run backup` / `npm run restore` as an operator runs them, in a process of their own. */
export function backupTool(name: 'backup' | 'restore', file: string, env: Record<string, string>) {
  const started = Date.now();
  const child = spawn(process.execPath, ['--import', 'tsx', `scripts/${name}.ts`, file], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise<{ code: number | null; stdout: string; stderr: string; ms: number }>((resolve) =>
    child.on('exit', (code) => resolve({ code, stdout, stderr, ms: Date.now() - started })),
  );
}

/** Every name and size under `directory`, to show that a refused restore wrote nothing. */
export function listing(directory: string): string[] {
  if (!fs.existsSync(directory)) return [];
  return fs
    .readdirSync(directory, { recursive: true, encoding: 'utf8' })
    .sort()
    .map((name) => {
      const stat = fs.statSync(path.join(directory, name));
      return `${name} ${stat.isDirectory() ? 'dir' : stat.size}`;
    });
}

const auth = (token: string) => ({ authorization: `Bearer ${token}`, 'accept-language': 'en' });

async function getJson(base: string, url: string, token: string) {
  const res = await fetch(`${base}${url}`, { headers: auth(token) });
  expect(res.status, url).toBe(200);
  return (await res.json()) as { data: unknown; meta?: { total: number } };
}

/** A signed address's query (its expiry and signature) differs with every answer; the rest must not. */
function withoutAddresses(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutAddresses);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).filter(([key]) => !key.endsWith('url')).map(([key, inner]) => [key, withoutAddresses(inner)]));
  }
  return value;
}

/** What a seller sees of their account: balance, ledger, tasks, results, photos. */
async function accountOf(base: string, token: string) {
  const [ledger, tasks, assets, materials] = await Promise.all(
    ['/api/v1/tokens/history?page_size=100', '/api/v1/content/tasks?page_size=50', '/api/v1/content/assets?page_size=50', '/api/v1/materials/list?page_size=50'].map(
      (url) => getJson(base, url, token),
    ),
  );
  return {
    balance: (await getJson(base, '/api/v1/tokens/balance', token)).data,
    ledger: ledger!.data,
    tasks: tasks!.data,
    assets: assets!.data as { id: string; file_url: string }[],
    materials: materials!.data as { id: string; status: string; file_url: string | null }[],
    /** The lists' totals (meta.total), which the restored counts by day give. */
    totals: { ledger: ledger!.meta?.total, tasks: tasks!.meta?.total, assets: assets!.meta?.total, materials: materials!.meta?.total },
  };
}

/** A file at an address the API gave, as its SHA-256 (expect compares big buffers slowly). */
async function download(base: string, url: string): Promise<string> {
  const res = await fetch(new URL(url, base));
  expect(res.status, url).toBe(200);
  return crypto.createHash('sha256').update(Buffer.from(await res.arrayBuffer())).digest('hex');
}

async function signIn(base: string, username: string): Promise<string> {
  const res = await fetch(`${base}/api/v1/auth/login/custom`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username_or_email: username, password: SELLER_PASSWORD }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: { access_token: string } }).data.access_token;
}

const SELLERS = ['anna', 'boris'] as const;

export interface BusyInstall {
  tokens: Record<(typeof SELLERS)[number], string>;
  before: Record<string, Awaited<ReturnType<typeof accountOf>>>;
  /** Every file the sellers saw, by asset or photo id, as its SHA-256. */
  files: Map<string, string>;
  inFlightTask: string;
  pendingUpload: { material_id: string; presigned_url: string; bytes: Buffer };
  smallPhoto: Buffer;
}

/** Makes `t` busy (see the header) and records what its sellers see. `t` must not run jobs itself. */
export async function makeBusy(t: Served): Promise<BusyInstall> {
  const anna = await signedInSeller(t, 'anna');
  const boris = await signedInSeller(t, 'boris');
  // One small picture for every photo: what is kept matters here, not what is in it.
  const smallPhoto = (await shoePhoto({ width: 800, height: 600, seed: 5 })).jpeg;
  const photos: string[] = [];
  for (const view of FIVE_VIEWS) photos.push(await uploadPhoto(t, anna.token, smallPhoto, view));
  const task = await t.app.inject({
    method: 'POST',
    url: '/api/v1/content/generate',
    headers: { ...auth(anna.token), 'idempotency-key': 'backup-task' },
    payload: { content_config: [{ content_module: 'PRODUCT_IMAGE', category: 'PRODUCT', custom_params: { shoe_params: { heel_height: 3 } }, name: 'PRODUCT', selected: true }], material_ids: photos },
  });
  expect(task.statusCode, task.body).toBe(200);
  const inFlightTask = task.json().data.id as string;
  // A runner has the task in hand when the backup is taken.
  expect((await claimJob(t.app.database.db, 'busy-runner', 10 * 60_000))?.taskId).toBe(inFlightTask);

  const edit = await uploadEditFile(t, boris.token, smallPhoto, 'image edit');
  expect((await createAsset(t, boris.token, edit.file_key)).statusCode).toBe(200);
  const ticket = await t.app.inject({
    method: 'POST',
    url: '/api/v1/materials/upload',
    headers: { ...auth(boris.token), 'idempotency-key': 'backup-pending-upload' },
    payload: { file_name: 'left.jpg', file_type: 'image/jpeg', file_size: smallPhoto.length, description: JSON.stringify({ view: 'left_side' }) },
  });
  expect(ticket.statusCode, ticket.body).toBe(200);

  const tokens = { anna: anna.token, boris: boris.token };
  const before: BusyInstall['before'] = {};
  const files = new Map<string, string>();
  for (const name of SELLERS) {
    const account = await accountOf(t.base, tokens[name]);
    before[name] = account;
    for (const asset of account.assets) files.set(asset.id, await download(t.base, asset.file_url));
    for (const material of account.materials) if (material.file_url) files.set(material.id, await download(t.base, material.file_url));
  }
  return { tokens, before, files, inFlightTask, pendingUpload: { ...ticket.json().data, bytes: smallPhoto }, smallPhoto };
}

/** Boris adds photos and deletes the one before, at a seller's pace, until `done` settles; how many rounds. */
export async function keepBusyUntil(t: Served, busy: BusyInstall, done: Promise<unknown>): Promise<number> {
  let over = false;
  void done.finally(() => (over = true));
  let previous: string | null = null;
  let rounds = 0;
  while (!over) {
    const id = await uploadPhoto(t, busy.tokens.boris, busy.smallPhoto, 'front');
    if (previous) {
      const deleted = await t.app.inject({ method: 'DELETE', url: `/api/v1/materials/${previous}`, headers: auth(busy.tokens.boris) });
      expect(deleted.statusCode).toBe(200);
    }
    previous = id;
    rounds += 1;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return rounds;
}

/** What the restored server `b` must serve (see the header). */
export async function expectRestored(b: Served, busy: BusyInstall): Promise<void> {
  for (const name of SELLERS) {
    const after = await accountOf(b.base, await signIn(b.base, name));
    const was = busy.before[name]!;
    expect(after.balance).toEqual(was.balance);
    expect(after.ledger).toEqual(was.ledger);
    expect({ ...after.totals, materials: after.materials.length }).toEqual({ ...was.totals, materials: after.totals.materials });
    expect(withoutAddresses(after.tasks)).toEqual(withoutAddresses(was.tasks));
    expect(withoutAddresses(after.assets)).toEqual(withoutAddresses(was.assets));
    for (const asset of after.assets) expect(await download(b.base, asset.file_url)).toBe(busy.files.get(asset.id));
    // Every photo there was is there; photos added while the backup ran may be too, each with its file.
    const byId = new Map(after.materials.map((material) => [material.id, material]));
    for (const material of was.materials) expect(byId.get(material.id)?.status).toBe(material.status);
    for (const material of after.materials) {
      if (material.status !== 'uploaded') continue;
      const file = await download(b.base, material.file_url!);
      if (busy.files.has(material.id)) expect(file).toBe(busy.files.get(material.id));
    }
  }
  // The counts the lists page by came back with the rows they count.
  expect(await listCountsOff(b.app.database.db)).toBe(0);
  // The task is still with the runner that held it, its tokens still spent on it.
  const [job] = await b.app.database.db.select().from(jobs).where(eq(jobs.taskId, busy.inFlightTask));
  expect(job).toMatchObject({ status: 'running', lockedBy: 'busy-runner' });
  // The upload whose bytes had not come finishes here, at the address the first server gave.
  const { pendingUpload } = busy;
  const put = await fetch(new URL(pendingUpload.presigned_url, b.base), { method: 'PUT', headers: { 'content-type': 'image/jpeg' }, body: pendingUpload.bytes });
  expect(put.status).toBe(200);
  expect(((await put.json()) as { data: unknown }).data).toEqual({ material_id: pendingUpload.material_id, status: 'uploaded' });
}
