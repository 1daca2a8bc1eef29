// The upload outbox on fake-indexeddb against the real server: jobs survive failures, wait with
// backoff on network errors and 5xx, stop on a 4xx with the server's message and can be retried,
// replay without duplicates, and two runners never send a photo twice; photos the seller lets go
// are deleted from the server. Tasks in the outbox: outbox-tasks.test.ts.
import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AppDatabase } from '../../src/offline/db';
import type { UploadJob } from '../../src/offline/records';
import type { ShoeView } from '../../contract/enums';
import { runOutbox, wakeQueued } from '../../src/offline/outbox';
import { backoffMs } from '../../src/offline/jobs/lifecycle';
import { abandonUpload, retryJob, waitingUploads } from '../../src/offline/jobs/upload';
import { TransportError } from '../../src/offline/transport-error';
import type { UploadTransport } from '../../src/offline/upload-transport';
import { fetchTransport } from '../../src/offline/transport';
import { faultyTransport, materialOnServer, outboxServer, queuedPhotos, testDatabases, type Fault } from './page-outbox';
import type { TestApp } from '../support/test-app';

let t: TestApp;
let origin: string;
let token: string;
let jpeg: ArrayBuffer;

beforeAll(async () => {
  ({ t, origin, token, jpeg } = await outboxServer());
});
afterAll(() => t.close());
const open = testDatabases('outbox');

/** A draft with one stored photo per view, each queued for upload. */
const queued = (database: AppDatabase, views: ShoeView[], bytes = jpeg) => queuedPhotos(database, views, bytes);

const transport = (fault?: Fault) => faultyTransport(origin, token, fault);

const onServer = (materialId: string) => materialOnServer(t, materialId);

async function serverMaterials() {
  const res = await t.app.inject({ method: 'GET', url: '/api/v1/materials/list?page_size=50', headers: { authorization: `Bearer ${token}` } });
  return res.json().data as { id: string; status: string; view: string }[];
}

describe('the outbox', () => {
  it('uploads every queued photo and marks its slot uploaded with the material', async () => {
    const database = open();
    const before = (await serverMaterials()).length;
    await queued(database, ['right_45', 'front']);
    expect(await waitingUploads(database)).toBe(2);
    expect(await runOutbox(database, transport())).toEqual({ done: 2, failed: 0, retrying: 0 });
    expect(await waitingUploads(database)).toBe(0);
    const draft = await database.drafts.get('product');
    expect(draft?.slots.right_45).toMatchObject({ state: 'uploaded', materialId: expect.any(String) });
    const after = await serverMaterials();
    expect(after.length - before).toBe(2);
    expect(after.find((m) => m.id === draft?.slots.front?.materialId)?.status).toBe('uploaded');
  });

  it('keeps photos queued with growing waits while the network is down, then sends each once', async () => {
    const database = open();
    const before = (await serverMaterials()).length;
    const [job] = await queued(database, ['back']);
    let clock = Date.now();
    const offline = transport(() => new TypeError('Failed to fetch'));
    expect(await runOutbox(database, offline, { now: () => clock })).toEqual({ done: 0, failed: 0, retrying: 1 });
    const waiting = await database.outbox.get(job!.id);
    expect(waiting).toMatchObject({ state: 'queued', attempts: 1 });
    expect(waiting!.nextAttemptAt - clock).toBeGreaterThanOrEqual(1_600);
    // Not due yet: nothing is tried.
    expect(await runOutbox(database, transport(), { now: () => clock })).toEqual({ done: 0, failed: 0, retrying: 0 });
    clock += 10_000;
    expect(await runOutbox(database, transport(), { now: () => clock })).toEqual({ done: 1, failed: 0, retrying: 0 });
    expect((await serverMaterials()).length - before).toBe(1);
  });

  it('sends the photos waiting out a backoff as soon as another goes through: the link is back', async () => {
    const database = open();
    const [first, second] = await queued(database, ['left_side', 'right_side']);
    // A slow link: both fail and wait, the second for minutes. The clock stands still for this run,
    // so on a busy machine the first backoff cannot run out before it ends and try them again.
    const clock = Date.now();
    expect(await runOutbox(database, transport(() => new TypeError('timed out')), { now: () => clock })).toEqual({ done: 0, failed: 0, retrying: 2 });
    await database.outbox.update(first!.id, { nextAttemptAt: Date.now() });
    await database.outbox.update(second!.id, { nextAttemptAt: Date.now() + 5 * 60_000 });
    // The link recovers with no `online` event: the first goes, and the second with it.
    expect(await runOutbox(database, transport(), { concurrency: 1 })).toEqual({ done: 2, failed: 0, retrying: 0 });
  });

  it('retries a 5xx, and a registration whose answer was lost replays to the same material', async () => {
    const database = open();
    const before = (await serverMaterials()).length;
    const [job] = await queued(database, ['left_side']);
    let clock = Date.now();
    // The server registers the material but the answer never arrives; then the PUT meets a 503.
    let dropped = false;
    const flaky = fetchTransport({
      origin,
      token: async () => token,
      locale: () => 'en',
      fetch: async (input, init) => {
        const url = new URL(String(input));
        const response = await fetch(url, init);
        if (url.pathname.endsWith('/materials/upload') && !dropped) {
          dropped = true;
          throw new TypeError('connection reset');
        }
        return response;
      },
    });
    expect((await runOutbox(database, flaky, { now: () => clock })).retrying).toBe(1);
    clock += 10_000;
    const unavailable = transport((url) => (url.pathname.startsWith('/api/v1/storage/') ? new Response('{}', { status: 503 }) : undefined));
    expect((await runOutbox(database, unavailable, { now: () => clock })).retrying).toBe(1);
    expect((await database.outbox.get(job!.id))!.attempts).toBe(2);
    clock += 60_000;
    expect((await runOutbox(database, transport(), { now: () => clock })).done).toBe(1);
    const added = (await serverMaterials()).slice(0, (await serverMaterials()).length - before);
    expect(added).toHaveLength(1);
    expect(added[0]).toMatchObject({ view: 'left_side', status: 'uploaded' });
  });

  it('retries an answer that is off the contract (a proxy’s page, a ticket outside its envelope), never trusting it', async () => {
    const database = open();
    const [job] = await queued(database, ['right_45']);
    let clock = Date.now();
    const offContract = (body: string) =>
      transport((url) => (url.pathname.endsWith('/materials/upload') ? new Response(body, { status: 200, headers: { 'content-type': 'application/json' } }) : undefined));
    // A page from a proxy, and a ticket without the envelope and its own status and expiry.
    const bodies = ['<html>Gateway</html>', JSON.stringify({ data: { material_id: 'm-1', presigned_url: `${origin}/api/v1/storage/m-1` } })];
    for (const [index, body] of bodies.entries()) {
      expect(await runOutbox(database, offContract(body), { now: () => clock })).toEqual({ done: 0, failed: 0, retrying: 1 });
      const waiting = await database.outbox.get(job!.id);
      expect(waiting).toMatchObject({ state: 'queued', attempts: index + 1 });
      expect(waiting).not.toHaveProperty('materialId', 'm-1');
      clock += 600_000;
    }
    expect(await runOutbox(database, transport(), { now: () => clock })).toEqual({ done: 1, failed: 0, retrying: 0 });
    expect((await database.drafts.get('product'))?.slots.right_45).toMatchObject({ state: 'uploaded' });
  });

  it('ends a refused photo with the server’s message on its slot, and sends it again on retry', async () => {
    const database = open();
    const [job] = await queued(database, ['bottom'], new TextEncoder().encode('not a photo').buffer as ArrayBuffer);
    expect(await runOutbox(database, transport())).toEqual({ done: 0, failed: 1, retrying: 0 });
    const failed = await database.outbox.get(job!.id);
    expect(failed).toMatchObject({ state: 'failed', errorStatus: 415 });
    const slot = (await database.drafts.get('product'))?.slots.bottom;
    expect(slot).toMatchObject({ state: 'failed', error: 'Formats: [jpg,jpeg,png]. Only JPEG and PNG photos are accepted.' });
    expect(await waitingUploads(database)).toBe(0);

    // The seller fixes it (here: the stored bytes) and presses retry.
    await database.photos.update((failed as UploadJob).photoId, { bytes: jpeg });
    const again = await retryJob(database, job!.id);
    expect(again?.id).not.toBe(job!.id);
    expect((await database.drafts.get('product'))?.slots.bottom).toMatchObject({ state: 'queued', jobId: again?.id });
    // The new upload, and the deletion of the refused material.
    expect(await runOutbox(database, transport())).toEqual({ done: 2, failed: 0, retrying: 0 });
    expect(await onServer((failed as UploadJob).materialId!)).toBe(false);
  });

  it('gets a fresh upload URL when the old one has expired', async () => {
    const database = open();
    const [job] = await queued(database, ['optional1']);
    let forbidden = true;
    const expiring = transport((url) => {
      if (url.pathname.startsWith('/api/v1/storage/') && forbidden) {
        forbidden = false;
        return new Response(JSON.stringify({ message: 'expired' }), { status: 403 });
      }
      return undefined;
    });
    expect(await runOutbox(database, expiring)).toEqual({ done: 1, failed: 0, retrying: 0 });
    expect((await database.outbox.get(job!.id))!.state).toBe('done');
  });

  it('does not send a photo again that the server already accepted under its key (its answer was lost, its URL expired)', async () => {
    const database = open();
    const [job] = await queued(database, ['optional2']);
    // The bytes went up under the job's key on an earlier run whose answers never came back.
    const registered = await t.app.inject({
      method: 'POST',
      url: '/api/v1/materials/upload',
      headers: { authorization: `Bearer ${token}`, 'idempotency-key': job!.id },
      payload: { file_name: 'optional2.jpg', file_type: 'image/jpeg', file_size: jpeg.byteLength, description: JSON.stringify({ view: 'optional2' }) },
    });
    const ticket = registered.json().data;
    const put = await t.app.inject({ method: 'PUT', url: ticket.presigned_url, headers: { 'content-type': 'image/jpeg' }, payload: Buffer.from(jpeg) });
    expect(put.statusCode).toBe(200);

    const sent: string[] = [];
    const watching = transport((url, init) => {
      sent.push(`${init?.method ?? 'GET'} ${url.pathname}`);
      return undefined;
    });
    expect(await runOutbox(database, watching)).toEqual({ done: 1, failed: 0, retrying: 0 });
    expect(sent).toEqual(['POST /api/v1/materials/upload']);
    expect((await database.drafts.get('product'))?.slots.optional2).toMatchObject({ state: 'uploaded', materialId: ticket.material_id });
  });

  it('never sends a photo twice when two runners work the same outbox', async () => {
    const database = open();
    const before = (await serverMaterials()).length;
    await queued(database, ['right_45', 'right_side', 'left_side', 'front', 'back', 'bottom']);
    const registrations: string[] = [];
    const counting = transport((url, init) => {
      if (url.pathname.endsWith('/materials/upload')) registrations.push(String((init?.headers as Record<string, string>)['idempotency-key']));
      return undefined;
    });
    const [a, b] = await Promise.all([runOutbox(database, counting), runOutbox(database, counting)]);
    expect(a.done + b.done).toBe(6);
    expect(new Set(registrations).size).toBe(registrations.length);
    expect((await serverMaterials()).length - before).toBe(6);
  });

  it('sends photos that fall due during a run two at a time, not one after another', async () => {
    const database = open();
    const [first, ...later] = await queued(database, ['right_45', 'right_side', 'left_side']);
    // Only the first is due when the run starts (the others wait out a backoff) ...
    for (const job of later) await database.outbox.update(job.id, { nextAttemptAt: Date.now() + 60_000 });
    const real = transport();
    let inFlight = 0;
    let most = 0;
    const watching: UploadTransport = {
      ...real,
      async put(url, photo, progress) {
        inFlight += 1;
        most = Math.max(most, inFlight);
        try {
          // ... and the network comes back while it is on its way.
          if (photo.id === first!.photoId) await wakeQueued(database);
          await real.put(url, photo, progress);
        } finally {
          inFlight -= 1;
        }
      },
    };
    expect(await runOutbox(database, watching)).toEqual({ done: 3, failed: 0, retrying: 0 });
    expect(most).toBe(2);
  });

  it('starts a photo that falls due while another is on its way beside it when told, not after it', async () => {
    const database = open();
    const [first, second] = await queued(database, ['front', 'back']);
    // Only the first is due when the run starts: the second waits out a backoff, and the run's
    // other lane finds nothing due and ends.
    await database.outbox.update(second!.id, { nextAttemptAt: Date.now() + 60_000 });
    const real = transport();
    let refill = () => {};
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const sending: string[] = [];
    const watching: UploadTransport = {
      ...real,
      async put(url, photo, progress) {
        sending.push(photo.id);
        // The first photo's bytes stay on their way until the test lets them go.
        if (photo.id === first!.photoId) await held;
        await real.put(url, photo, progress);
      },
    };
    const run = runOutbox(database, watching, { onRunning: (lanes) => (refill = lanes) });
    try {
      await vi.waitFor(() => expect(sending).toEqual([first!.photoId]), { timeout: 10_000 });
      // The network comes back (the page's `online`): every waiting photo is due, and the run is told.
      await wakeQueued(database);
      refill();
      await vi.waitFor(() => expect(sending).toEqual([first!.photoId, second!.photoId]), { timeout: 10_000 });
    } finally {
      release();
    }
    expect(await run).toEqual({ done: 2, failed: 0, retrying: 0 });
  });

  it('starts the next photo’s bytes once most of the one before have gone, not beside them nor after its answer', async () => {
    const database = open();
    const jobs = await queued(database, ['left_side', 'right_side']);
    const real = transport();
    let sentShare = (_share: number) => {};
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const sending: string[] = [];
    // A transport that tells how much has gone, as the page's does; the bytes of whichever photo
    // goes first go as the test says.
    const telling: UploadTransport = {
      ...real,
      tellsProgress: true,
      async put(url, photo, progress) {
        sending.push(photo.id);
        if (sending.length === 1) {
          sentShare = (share) => progress?.(Math.round(share * photo.bytes.byteLength), photo.bytes.byteLength);
          await held;
        }
        await real.put(url, photo, progress);
      },
    };
    const run = runOutbox(database, telling);
    try {
      await vi.waitFor(() => expect(sending).toHaveLength(1), { timeout: 10_000 });
      const other = jobs.find((job) => job.photoId !== sending[0])!;
      sentShare(0.5);
      // The other photo is registered meanwhile (both lanes work), and its bytes wait.
      await vi.waitFor(async () => expect(await database.outbox.get(other.id)).toMatchObject({ uploadUrl: expect.any(String) }), { timeout: 10_000 });
      expect(sending).toHaveLength(1);
      sentShare(0.9);
      // Most of the first has gone: the other's bytes follow while the first waits for its answer.
      await vi.waitFor(() => expect(sending).toEqual([expect.any(String), other.photoId]), { timeout: 10_000 });
    } finally {
      release();
    }
    expect(await run).toEqual({ done: 2, failed: 0, retrying: 0 });
  });

  it('tells its observer of every slot change and of the bytes on their way', async () => {
    const database = open();
    const jobs = await queued(database, ['front', 'back']);
    const real = transport();
    const halfway: UploadTransport = {
      ...real,
      async put(url, photo, progress) {
        progress?.(photo.bytes.byteLength / 2, photo.bytes.byteLength);
        await real.put(url, photo);
      },
    };
    const changes: string[] = [];
    const progress: [string, number][] = [];
    await runOutbox(database, halfway, {
      concurrency: 1,
      onChange: (job) => changes.push(job.id),
      onProgress: (job, sent, total) => progress.push([job.id, sent / total]),
    });
    // Uploading, then uploaded, for each photo in turn (two queued in the same millisecond go in either order).
    const [first, second] = changes[0] === jobs[0]!.id ? [jobs[0]!.id, jobs[1]!.id] : [jobs[1]!.id, jobs[0]!.id];
    expect(changes).toEqual([first, first, second, second]);
    expect(progress).toEqual([
      [first, 0.5],
      [second, 0.5],
    ]);
  });

  it('takes over a job whose runner vanished once its lease ends', async () => {
    const database = open();
    const [job] = await queued(database, ['optional2']);
    await database.outbox.update(job!.id, { state: 'running', leaseUntil: Date.now() + 60_000 });
    expect((await runOutbox(database, transport())).done).toBe(0);
    expect((await runOutbox(database, transport(), { now: () => Date.now() + 120_000 })).done).toBe(1);
  });

  it('takes over at once when it holds the outbox lock (the other runner was a closed tab)', async () => {
    const database = open();
    const [job] = await queued(database, ['optional2']);
    await database.outbox.update(job!.id, { state: 'running', leaseUntil: Date.now() + 60_000 });
    expect((await runOutbox(database, transport(), { exclusive: true })).done).toBe(1);
  });
});

describe('backoff', () => {
  it('doubles from 2 s to at most 5 minutes, with jitter', () => {
    expect(backoffMs(1, () => 0.5)).toBe(2_000);
    expect(backoffMs(3, () => 0.5)).toBe(8_000);
    expect(backoffMs(20, () => 0.5)).toBe(300_000);
    expect(backoffMs(1, () => 0)).toBe(1_600);
    expect(backoffMs(1, () => 1)).toBe(2_400);
  });
});

describe('photos the seller no longer wants', () => {
  /** What putPhoto and removePhoto do to a slot: its upload is let go and the slot emptied. */
  async function dropSlot(database: AppDatabase, view: ShoeView) {
    await database.transaction('rw', database.drafts, database.outbox, async () => {
      const draft = (await database.drafts.get('product'))!;
      await abandonUpload(database, 'product', draft.slots[view]);
      delete draft.slots[view];
      await database.drafts.put(draft);
    });
  }

  it('are deleted from the server once they had gone up, and a deletion replayed counts as done', async () => {
    const database = open();
    await queued(database, ['front']);
    expect(await runOutbox(database, transport())).toMatchObject({ done: 1 });
    const materialId = (await database.drafts.get('product'))!.slots.front!.materialId!;
    expect(await onServer(materialId)).toBe(true);

    await dropSlot(database, 'front');
    // Offline first: the deletion waits in the outbox like an upload.
    expect(await runOutbox(database, transport(() => new TypeError('Failed to fetch')))).toEqual({ done: 0, failed: 0, retrying: 1 });
    expect(await onServer(materialId)).toBe(true);
    await wakeQueued(database);
    expect(await runOutbox(database, transport())).toEqual({ done: 1, failed: 0, retrying: 0 });
    expect(await onServer(materialId)).toBe(false);

    // The same deletion again (its answer was lost): the server's 404 ends it.
    await database.transaction('rw', database.outbox, () => abandonUpload(database, 'product', { photoId: 'p', state: 'uploaded', materialId }));
    expect(await runOutbox(database, transport())).toEqual({ done: 1, failed: 0, retrying: 0 });
  });

  it('replaced after its registration reached the server but the answer was lost: what it made is deleted by its key', async () => {
    const database = open();
    const before = (await serverMaterials()).length;
    const [job] = await queued(database, ['right_side']);
    // The server registers the material; the answer never comes back.
    const lost = transport((url) => (url.pathname.endsWith('/materials/upload') ? undefined : new TypeError('Failed to fetch')));
    const answerLost: UploadTransport = {
      ...lost,
      async register(upload, photo) {
        await lost.register(upload, photo);
        throw new TransportError(0, 'connection reset');
      },
    };
    expect(await runOutbox(database, answerLost)).toEqual({ done: 0, failed: 0, retrying: 1 });
    const waiting = await database.outbox.get(job!.id);
    expect(waiting).toMatchObject({ state: 'queued', attempts: 1 });
    expect(waiting?.kind === 'upload' && waiting.materialId).toBeFalsy();
    expect((await serverMaterials()).length - before).toBe(1);

    await dropSlot(database, 'right_side');
    await wakeQueued(database);
    expect(await runOutbox(database, transport())).toEqual({ done: 1, failed: 0, retrying: 0 });
    expect((await serverMaterials()).length - before).toBe(0);
  });

  it('replaced while it goes up: the upload finishes and deletes what it made', async () => {
    const database = open();
    const [job] = await queued(database, ['back']);
    const real = transport();
    const replacing: UploadTransport = {
      ...real,
      async put(url, photo, progress) {
        await real.put(url, photo, progress);
        await dropSlot(database, 'back');
      },
    };
    expect(await runOutbox(database, replacing)).toEqual({ done: 2, failed: 0, retrying: 0 });
    const materialId = ((await database.outbox.get(job!.id)) as UploadJob).materialId!;
    expect(await onServer(materialId)).toBe(false);
    expect((await database.drafts.get('product'))?.slots.back).toBeUndefined();
  });
});
