// One simulated seller on the fleet: registers (the verification link read from the mail the
// nodes write to the shared DATA_DIR/mail), signs in and opens the live event stream; then,
// until the run's end, uploads the six views of a shoe (the repository's phone-photo fixtures),
// submits an OUTFIT_COLOR task (the cheapest category: one output, made by the studio from five
// cut-outs after the intake check of all six photos), reads the wallet, follows the task to its
// end on the stream, reads it and downloads its results as a zip. What it sent is kept, for the
// database to be checked against afterwards.
import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { linkIn, readMessage } from '../../tests/support/mime';
import { drain, json, type FleetClient } from './fleet-nodes';
import { TaskFollower } from './fleet-stream';

/** Waits for the verification links in DATA_DIR/mail, reading each new message once. */
export class Mailbox {
  private readonly seen = new Set<string>();
  private readonly links = new Map<string, string>();
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly dir: string) {
    this.timer = setInterval(() => this.look(), 200);
    this.timer.unref();
  }

  private look() {
    if (!fs.existsSync(this.dir)) return;
    for (const name of fs.readdirSync(this.dir)) {
      if (!name.endsWith('.eml') || this.seen.has(name)) continue;
      this.seen.add(name);
      const message = readMessage(fs.readFileSync(path.join(this.dir, name), 'utf8'));
      const to = /[^\s<>"]+@[^\s<>"]+/.exec(message.to)?.[0];
      if (to && message.text.includes('/verify-email?token=')) this.links.set(to, linkIn(message));
    }
  }

  async linkFor(email: string, deadline: number): Promise<string> {
    for (;;) {
      const link = this.links.get(email);
      if (link) return link;
      if (Date.now() > deadline) throw new Error(`no verification mail to ${email}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  stop(): void {
    clearInterval(this.timer);
  }
}

export interface SellerContext {
  client: FleetClient;
  mailbox: Mailbox;
  photos: readonly { view: string; jpeg: Buffer }[];
  /** No new task is started after this (Date.now() ms). */
  until: number;
  /** Nothing is waited for after this. */
  deadline: number;
}

/** What one seller sent and got. */
export interface SellerRecord {
  username: string;
  /** Every Idempotency-Key of a generate request, with the task it answered (null: no answer). */
  generated: { key: string; taskId: string | null }[];
  materials: string[];
  /** Tasks followed to completed and downloaded. */
  done: number;
  heardLive: number;
  heardByReading: number;
  /** Why the event stream was opened again, each time. */
  streamBreaks: string[];
}

const GENERATE = { content_module: 'OUTFIT_IMAGE', category: 'OUTFIT_COLOR', custom_params: { shoe_params: {} }, name: 'OUTFIT_COLOR', selected: true };

export async function sellerJourney(context: SellerContext, username: string): Promise<SellerRecord> {
  const { client } = context;
  const record: SellerRecord = { username, generated: [], materials: [], done: 0, heardLive: 0, heardByReading: 0, streamBreaks: [] };
  const email = `${username}@shop.example`;
  const password = 'Shoes4ever!';
  const plain = { 'content-type': 'application/json', 'accept-language': 'en' };
  await client.call(
    'POST /api/v1/auth/register',
    '/api/v1/auth/register',
    { method: 'POST', headers: plain, body: JSON.stringify({ username, email, password, password_confirm: password, channel: JSON.stringify({ key: 'online', extra: '' }) }) },
    drain,
  );
  const link = new URL(await context.mailbox.linkFor(email, context.deadline));
  await client.call('GET /api/v1/auth/verify-email', `/api/v1/auth/verify-email${link.search}`, {}, drain);
  const login = await client.call(
    'POST /api/v1/auth/login/custom',
    '/api/v1/auth/login/custom',
    { method: 'POST', headers: plain, body: JSON.stringify({ username_or_email: username, password, remember_me: true }) },
    json<{ data: { access_token: string } }>,
  );
  const headers = { ...plain, authorization: `Bearer ${login.data.access_token}` };
  const reading = { authorization: headers.authorization, 'accept-language': 'en' };
  const follower = new TaskFollower(client, reading);
  await follower.open();
  try {
    while (Date.now() < context.until) {
      try {
        await oneShoe(context, record, headers, reading, follower);
      } catch {
        // recorded where it failed; the seller goes on with the next shoe after a pause
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    }
  } finally {
    follower.close();
    record.streamBreaks = follower.breaks;
  }
  return record;
}

async function oneShoe(context: SellerContext, record: SellerRecord, headers: Record<string, string>, reading: Record<string, string>, follower: TaskFollower) {
  const { client } = context;
  const materialIds: string[] = [];
  for (const photo of context.photos) {
    const ticket = await client.call(
      'POST /api/v1/materials/upload',
      '/api/v1/materials/upload',
      {
        method: 'POST',
        headers: { ...headers, 'idempotency-key': randomUUID() },
        body: JSON.stringify({ file_name: `${photo.view}.jpg`, file_type: 'image/jpeg', file_size: photo.jpeg.length, description: JSON.stringify({ view: photo.view }) }),
      },
      json<{ data: { material_id: string; presigned_url: string } }>,
    );
    record.materials.push(ticket.data.material_id);
    await client.call(
      'PUT /api/v1/storage/:key',
      ticket.data.presigned_url,
      { method: 'PUT', headers: { 'content-type': 'image/jpeg' }, body: new Uint8Array(photo.jpeg), timeoutMs: 60_000 },
      drain,
    );
    materialIds.push(ticket.data.material_id);
  }
  const generated = { key: randomUUID(), taskId: null as string | null };
  record.generated.push(generated);
  const task = await client.call(
    'POST /api/v1/content/generate',
    '/api/v1/content/generate',
    { method: 'POST', headers: { ...headers, 'idempotency-key': generated.key }, body: JSON.stringify({ content_config: [GENERATE], material_ids: materialIds }) },
    json<{ data: { id: string } }>,
  );
  generated.taskId = task.data.id;
  // The page reads the wallet again after each submission.
  await client.call('GET /api/v1/tokens/balance', '/api/v1/tokens/balance', { headers: reading }, drain);
  const heard = await follower.waitFor(task.data.id, context.deadline).catch((error: unknown) => {
    client.fail('following the task live', error instanceof Error ? error.message : String(error));
    throw error;
  });
  if (heard.by === 'event') record.heardLive += 1;
  else record.heardByReading += 1;
  if (heard.status !== 'completed') {
    client.fail('the task', `task ${task.data.id} ended ${heard.status}`);
    return;
  }
  const read = await client.call(
    'GET /api/v1/content/tasks/:id',
    `/api/v1/content/tasks/${task.data.id}`,
    { headers: reading },
    json<{ data: { status: string; result: { id: string }[] } }>,
  );
  if (read.data.result.length === 0) {
    client.fail('the task', `task ${task.data.id} completed without results`);
    return;
  }
  const download = await client.call(
    'POST /api/v1/content/assets/download',
    '/api/v1/content/assets/download',
    { method: 'POST', headers, body: JSON.stringify({ asset_ids: read.data.result.map((r) => r.id) }) },
    json<{ data: { download_url: string } }>,
  );
  const zip = await client.call('GET /api/v1/content/assets/download', download.data.download_url, { timeoutMs: 60_000 }, async (answer) => Buffer.from(await answer.arrayBuffer()));
  if (zip.subarray(0, 2).toString('latin1') !== 'PK') {
    client.fail('the download', `the zip of task ${task.data.id} is not a zip (${zip.length} bytes)`);
    return;
  }
  record.done += 1;
}
