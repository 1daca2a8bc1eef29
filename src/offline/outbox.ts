// The outbox (DESIGN §3): every photo becomes an `upload` job in IndexedDB that is worked until
// the server holds it, every submitted task a `generate` job that waits behind its photos'
// uploads, and every photo the seller replaced or deleted after it had gone up a `delete` job
// that takes its material off the server, by the page and by the service worker alike. A job is claimed with a lease inside a
// transaction, so two runners never work the same job; its id is the Idempotency-Key, so a replay
// never makes a second material or a second task (nor a second charge). Network errors and 5xx
// wait and retry with backoff; a 4xx ends the job with the server's message, shown on its slot
// (or its queued task) until the seller retries.
import type { UpdateSpec } from 'dexie';
import { retryDelayMs } from '../../contract/backoff';
import type { ShoeView } from '../../contract/enums';
import type { AppDatabase } from './db';
import type { DeleteJob, DraftKey, DraftRecord, EditJob, GenerateJob, OutboxJob, PhotoRecord, SlotRecord, SlotState, TaskRequest, UploadJob } from './records';
import { workEdit } from './edit-jobs';
import { TransportError } from './transport-error';
import type { UploadTransport } from './upload-transport';

export { TransportError };

/** The Web Lock that keeps the page's and the service worker's runners from overlapping. */
export const OUTBOX_LOCK = 'solestudio-outbox';
/** The Background Sync tag that wakes the service worker to replay the outbox. */
export const OUTBOX_SYNC_TAG = 'outbox';

export const LEASE_MS = 90_000;
const FIRST_RETRY_MS = 2_000;
const LONGEST_WAIT_MS = 5 * 60_000;

/** Doubling waits from 2 s up to 5 min, with ±20 % jitter so many clients do not retry together. */
export function backoffMs(attempts: number, random: () => number = Math.random): number {
  return retryDelayMs(attempts, { firstMs: FIRST_RETRY_MS, longestMs: LONGEST_WAIT_MS, jitter: 0.2 }, random);
}

/** Retry later (network, server trouble, an expired session) or stop and tell the seller. */
function isTransient(status: number): boolean {
  return status === 0 || status === 401 || status === 408 || status === 429 || status >= 500;
}

async function setSlot(
  database: AppDatabase,
  draftKey: DraftKey,
  view: ShoeView,
  jobId: string,
  changes: { state: SlotState; materialId?: string; error?: string },
) {
  await database.drafts
    .where('contentType')
    .equals(draftKey)
    .modify((draft) => {
      const slot = draft.slots[view];
      // The seller may have replaced the photo since: only the slot this job carries changes.
      if (!slot || slot.jobId !== jobId) return;
      draft.slots[view] = { ...slot, ...changes, ...(changes.error === undefined ? { error: undefined } : {}) };
      draft.updatedAt = Date.now();
    });
}

/** What every new job starts with: a fresh Idempotency-Key, due now, never tried. */
function newJob(now: number, state: 'queued' | 'done' = 'queued') {
  return { id: crypto.randomUUID(), state, attempts: 0, nextAttemptAt: now, createdAt: now, updatedAt: now };
}

/** Queues a stored photo for upload and marks its slot queued. */
export async function enqueueUpload(
  database: AppDatabase,
  draftKey: DraftKey,
  view: ShoeView,
  photoId: string,
  now = Date.now(),
): Promise<UploadJob> {
  const job: UploadJob = { ...newJob(now), kind: 'upload', draftKey, view, photoId };
  await database.transaction('rw', database.outbox, database.drafts, async () => {
    await database.outbox.add(job);
    await database.drafts
      .where('contentType')
      .equals(draftKey)
      .modify((draft) => {
        const slot = draft.slots[view];
        if (slot?.photoId === photoId) draft.slots[view] = { ...slot, state: 'queued', jobId: job.id, error: undefined };
      });
  });
  return job;
}

/** Queues the deletion of a material the server holds for a photo the seller no longer wants. */
async function enqueueDelete(database: AppDatabase, draftKey: DraftKey, materialId: string, now: number): Promise<void> {
  const job: DeleteJob = { ...newJob(now), kind: 'delete', draftKey, materialId };
  await database.outbox.add(job);
}

/**
 * Queues the deletion of whatever an upload made on the server: its material when the job knows
 * it, else the one registered under the job's key, if any (the registration may have reached the
 * server while its answer was lost to a dropped network or a closed tab).
 */
async function enqueueCleanup(database: AppDatabase, job: Pick<UploadJob, 'id' | 'draftKey'>, materialId: string | undefined, now: number): Promise<void> {
  if (materialId) return enqueueDelete(database, job.draftKey, materialId, now);
  const cleanup: DeleteJob = { ...newJob(now), kind: 'delete', draftKey: job.draftKey, uploadKey: job.id };
  await database.outbox.add(cleanup);
}

/**
 * Lets go of a slot's upload when its photo is replaced, moved or deleted (call it inside the
 * transaction that changes the slot): a job not yet running is dropped, and a material the server
 * already holds for it is queued for deletion. A running job is left to finish: its runner then
 * finds nobody wants it and deletes what it made (see `work`).
 */
export async function abandonUpload(database: AppDatabase, draftKey: DraftKey, slot: SlotRecord | undefined, now = Date.now()): Promise<void> {
  const job = slot?.jobId ? await database.outbox.get(slot.jobId) : undefined;
  if (!slot || job?.state === 'running') return;
  if (job) await database.outbox.delete(job.id);
  const materialId = slot.materialId ?? (job?.kind === 'upload' ? job.materialId : undefined);
  // A job never tried has made nothing; one tried may have registered without hearing back.
  if (job?.kind === 'upload' && (job.attempts > 0 || job.state !== 'queued')) await enqueueCleanup(database, job, materialId, now);
  else if (materialId) await enqueueDelete(database, draftKey, materialId, now);
}

/** Whether a draft's slot or a queued task still carries this upload. */
async function wanted(database: AppDatabase, job: UploadJob): Promise<boolean> {
  const draft = await database.drafts.get(job.draftKey);
  if (draft?.slots[job.view]?.jobId === job.id) return true;
  const others = await database.outbox.where('draftKey').equals(job.draftKey).toArray();
  return others.some((other) => other.kind === 'generate' && other.task.photos.some((photo) => photo.uploadJobId === job.id));
}

/**
 * Queues every draft photo that has no upload: a draft written by an older build, which stored the
 * photo and queued its upload in two steps, may have been cut between them (the tab was killed).
 * A photo the server already holds gets a finished job carrying its material, any other a new
 * upload. Run at start-up by the page and the service worker; returns how many slots it queued.
 */
export async function queueStrandedPhotos(database: AppDatabase, now = Date.now()): Promise<number> {
  return database.transaction('rw', database.drafts, database.photos, database.outbox, async () => {
    let queued = 0;
    for (const draft of await database.drafts.toArray()) {
      for (const [view, slot] of Object.entries(draft.slots) as [ShoeView, SlotRecord | undefined][]) {
        if (!slot || (slot.jobId && (await database.outbox.get(slot.jobId)))) continue;
        if (!(await database.photos.get(slot.photoId))) continue;
        queued += 1;
        if (slot.state !== 'uploaded' || !slot.materialId) {
          await enqueueUpload(database, draft.contentType, view, slot.photoId, now);
          continue;
        }
        const job: UploadJob = { ...newJob(now, 'done'), kind: 'upload', draftKey: draft.contentType, view, photoId: slot.photoId, materialId: slot.materialId };
        await database.outbox.add(job);
        await database.drafts.update(draft.contentType, (stored) => {
          stored.slots[view] = { ...slot, jobId: job.id };
        });
      }
    }
    return queued;
  });
}

/**
 * Takes the next due job, or one whose runner vanished, under a lease. An `exclusive` caller
 * holds the outbox's Web Lock, so a job still marked running belongs to a runner that is gone
 * (a closed tab) and is taken at once instead of after its lease.
 */
async function claim(database: AppDatabase, now: number, exclusive: boolean, mine: Set<string>): Promise<OutboxJob | undefined> {
  return database.transaction('rw', database.outbox, async () => {
    const candidates = await database.outbox.where('state').anyOf('queued', 'running').sortBy('createdAt');
    const due = candidates.filter((j) =>
      j.state === 'queued' ? j.nextAttemptAt <= now : !mine.has(j.id) && (exclusive || (j.leaseUntil ?? 0) < now),
    );
    let job: OutboxJob | undefined;
    for (const candidate of due) {
      if (candidate.kind !== 'generate' || (await readiness(database, candidate, now)) === 'ready') {
        job = candidate;
        break;
      }
    }
    if (!job) return undefined;
    mine.add(job.id);
    const claimed = { ...job, state: 'running' as const, leaseUntil: now + LEASE_MS, updatedAt: now };
    await database.outbox.put(claimed);
    return claimed;
  });
}

/**
 * Whether a task's photos are all on the server. A photo the server refused for good fails the
 * task with the server's reason (the seller fixes it from the restored draft).
 */
async function readiness(database: AppDatabase, job: GenerateJob, now: number): Promise<'ready' | 'waiting' | 'failed'> {
  const uploads = await database.outbox.bulkGet(job.task.photos.map((photo) => photo.uploadJobId));
  const refused = uploads.find((upload) => !upload || upload.state === 'failed');
  if (refused !== undefined || uploads.includes(undefined)) {
    await database.outbox.update(job.id, {
      state: 'failed',
      error: refused?.error ?? 'photo missing',
      errorStatus: refused?.errorStatus ?? 400,
      leaseUntil: undefined,
      updatedAt: now,
    });
    return 'failed';
  }
  return uploads.every((upload) => upload!.state === 'done') ? 'ready' : 'waiting';
}

/** Changes a job's fields, whichever kind it is. */
function patch(database: AppDatabase, id: string, changes: Partial<Omit<UploadJob, 'kind'> & Omit<GenerateJob, 'kind'>>) {
  return database.outbox.update(id, changes as UpdateSpec<OutboxJob>);
}

/** What a runner tells whoever shows the slots. */
export interface RunObserver {
  /** A slot's state changed (uploading, uploaded, queued again, failed). */
  onChange?: (job: OutboxJob) => void;
  /** Bytes of a job's photo on their way. */
  onProgress?: (job: OutboxJob, sent: number, total: number) => void;
}

/** Sends a task whose photos are all uploaded; once accepted, its local photos are no longer needed. */
async function submit(database: AppDatabase, transport: UploadTransport, job: GenerateJob, now: () => number, observer: RunObserver) {
  try {
    const uploads = await database.outbox.bulkGet(job.task.photos.map((photo) => photo.uploadJobId));
    const materialIds = uploads.map((upload) => (upload?.kind === 'upload' ? upload.materialId : undefined));
    if (materialIds.includes(undefined)) throw new TransportError(400, 'photo missing');
    const { taskId } = await transport.generate(job, [
      ...(job.task.kept ?? []).map((photo) => photo.materialId),
      ...materialIds.filter((id) => id !== undefined),
    ]);
    await database.transaction('rw', database.outbox, database.photos, async () => {
      await patch(database, job.id, { state: 'done', taskId, leaseUntil: undefined, updatedAt: now() });
      await database.photos.bulkDelete(job.task.photos.map((photo) => photo.photoId));
      await database.outbox.bulkDelete(job.task.photos.map((photo) => photo.uploadJobId));
    });
    observer.onChange?.(job);
    return 'done' as const;
  } catch (error) {
    return settleFailure(database, job, error, now, observer);
  }
}

/** A failed attempt: queued again with backoff when the trouble is passing, else failed with the server's message. */
async function settleFailure(database: AppDatabase, job: OutboxJob, error: unknown, now: () => number, observer: RunObserver, slot?: (changes: { state: SlotState; error?: string }) => Promise<void>) {
  const status = error instanceof TransportError ? error.status : 0;
  const message = error instanceof Error ? error.message : String(error);
  if (isTransient(status)) {
    const attempts = job.attempts + 1;
    await database.outbox.update(job.id, {
      state: 'queued',
      attempts,
      nextAttemptAt: now() + backoffMs(attempts),
      leaseUntil: undefined,
      updatedAt: now(),
    });
    if (slot) await slot({ state: 'queued' });
    else observer.onChange?.(job);
    return 'retry' as const;
  }
  await database.outbox.update(job.id, {
    state: 'failed',
    error: message,
    errorStatus: status,
    leaseUntil: undefined,
    updatedAt: now(),
  });
  if (slot) await slot({ state: 'failed', error: message });
  else observer.onChange?.(job);
  return 'failed' as const;
}

/** Deletes a material; one already gone, or kept by the server because a task uses it, counts as done. */
async function remove(database: AppDatabase, transport: UploadTransport, job: DeleteJob, now: () => number, observer: RunObserver) {
  try {
    await transport.remove(job);
  } catch (error) {
    if (!(error instanceof TransportError && (error.status === 404 || error.status === 409))) {
      return settleFailure(database, job, error, now, observer);
    }
  }
  await database.outbox.update(job.id, { state: 'done', leaseUntil: undefined, updatedAt: now() });
  return 'done' as const;
}

/**
 * An upload's photo while the upload is still wanted. One whose photo the seller has replaced,
 * moved or deleted is ended instead, and what it has made on the server is queued for deletion.
 * Once `finished` (the bytes are up), a wanted job ends too and its slot shows the material.
 */
async function unlessAbandoned(database: AppDatabase, job: UploadJob, now: () => number, finished = false): Promise<PhotoRecord | undefined> {
  return database.transaction('rw', database.drafts, database.photos, database.outbox, async () => {
    const stored = await database.outbox.get(job.id);
    const materialId = (stored?.kind === 'upload' ? stored.materialId : undefined) ?? job.materialId;
    const photo = await database.photos.get(job.photoId);
    const keep = photo && (await wanted(database, job)) ? photo : undefined;
    if (keep && !finished) return keep;
    await database.outbox.update(job.id, { state: 'done', leaseUntil: undefined, updatedAt: now() });
    if (keep) await setSlot(database, job.draftKey, job.view, job.id, { state: 'uploaded', materialId });
    else await enqueueCleanup(database, job, materialId, now());
    return keep;
  });
}

async function work(database: AppDatabase, transport: UploadTransport, job: OutboxJob, now: () => number, observer: RunObserver) {
  if (job.kind === 'generate') return submit(database, transport, job, now, observer);
  if (job.kind === 'delete') return remove(database, transport, job, now, observer);
  if (job.kind === 'edit') {
    try {
      await workEdit(database, transport, job, now, (sent, total) => observer.onProgress?.(job, sent, total));
      observer.onChange?.(job);
      return 'done' as const;
    } catch (error) {
      return settleFailure(database, job, error, now, observer);
    }
  }
  const photo = await unlessAbandoned(database, job, now);
  if (!photo) return 'done' as const;
  const slot = async (changes: Parameters<typeof setSlot>[4]) => {
    await setSlot(database, job.draftKey, job.view, job.id, changes);
    observer.onChange?.(job);
  };
  await slot({ state: 'uploading' });
  let current = job;
  try {
    for (let attempt = 0; ; attempt += 1) {
      if (!current.materialId || !current.uploadUrl) {
        const ticket = await transport.register(current, photo);
        current = { ...current, materialId: ticket.materialId, uploadUrl: ticket.uploadUrl ?? undefined };
        await patch(database, job.id, { materialId: ticket.materialId, uploadUrl: ticket.uploadUrl ?? undefined });
        // The server already holds the photo: there is nothing left to send.
        if (ticket.uploadUrl === null) break;
      }
      try {
        await transport.put(current.uploadUrl!, photo, (sent, total) => observer.onProgress?.(job, sent, total));
        break;
      } catch (error) {
        // An upload URL lives 15 minutes: once expired, the same key gets a fresh one.
        if (attempt === 0 && error instanceof TransportError && error.status === 403) {
          current = { ...current, uploadUrl: undefined };
          continue;
        }
        throw error;
      }
    }
    // The seller may have replaced the photo while it went up.
    await unlessAbandoned(database, current, now, true);
    observer.onChange?.(job);
    return 'done' as const;
  } catch (error) {
    return settleFailure(database, job, error, now, observer, slot);
  }
}

export interface RunResult {
  done: number;
  failed: number;
  retrying: number;
}

/** Two photos in flight: while the server checks one, the next one's bytes keep the link busy. */
export const UPLOAD_CONCURRENCY = 2;

export interface RunOptions extends RunObserver {
  now?: () => number;
  concurrency?: number;
  /** The caller holds the outbox's Web Lock (see `claim`). */
  exclusive?: boolean;
}

/**
 * Works every due job once and returns. Callers run it at start-up, on `online`, on
 * `visibilitychange` and from Background Sync. A lane that finds nothing due ends, and is started
 * again as soon as another lane finds work: jobs that fall due during the run (the network came
 * back) still travel `concurrency` at a time.
 */
export async function runOutbox(
  database: AppDatabase,
  transport: UploadTransport,
  { now = Date.now, concurrency = UPLOAD_CONCURRENCY, exclusive = false, ...observer }: RunOptions = {},
): Promise<RunResult> {
  const result: RunResult = { done: 0, failed: 0, retrying: 0 };
  /** Jobs this run has claimed: its own lanes never take them from each other. */
  const mine = new Set<string>();
  const claims = new Map<string, number>();
  const lanes: Promise<void>[] = [];
  let active = 0;
  let woken = false;
  const lane = async () => {
    for (;;) {
      const job = await claim(database, now(), exclusive, mine);
      if (!job) return;
      const times = (claims.get(job.id) ?? 0) + 1;
      claims.set(job.id, times);
      if (times > 2) {
        // Due again at once (the network flapping): leave it to the next run rather than spin.
        await database.outbox.update(job.id, { state: 'queued', leaseUntil: undefined });
        return;
      }
      fill();
      const outcome = await work(database, transport, job, now, observer);
      if (outcome === 'done') result.done += 1;
      else if (outcome === 'failed') result.failed += 1;
      else result.retrying += 1;
      // A job went through, so the link works again: the jobs waiting out a backoff go now, not
      // minutes later (a slow or flapping link recovers without an `online` event).
      if (outcome === 'done' && !woken) {
        woken = true;
        await wakeQueued(database, now());
        fill();
      }
    }
  };
  const fill = () => {
    while (active < Math.max(1, concurrency)) {
      active += 1;
      lanes.push(lane().finally(() => (active -= 1)));
    }
  };
  fill();
  for (let settled = 0; settled < lanes.length; ) {
    const outcomes = await Promise.allSettled(lanes.slice(settled));
    settled += outcomes.length;
    const failure = outcomes.find((outcome) => outcome.status === 'rejected');
    if (failure) throw failure.reason;
  }
  return result;
}

/**
 * The slot's retry button: the refused job is replaced by a new one under a new key, since the
 * server has closed the old material (and the seller may have fixed the photo since).
 */
export async function retryJob(database: AppDatabase, jobId: string, now = Date.now()): Promise<OutboxJob | undefined> {
  return database.transaction('rw', database.outbox, database.drafts, async () => {
    const job = await database.outbox.get(jobId);
    if (!job || job.state !== 'failed' || job.kind !== 'upload') return undefined;
    await database.outbox.delete(jobId);
    await enqueueCleanup(database, job, job.materialId, now);
    return enqueueUpload(database, job.draftKey, job.view, job.photoId, now);
  });
}

/** The network is back or the app is in front again: every waiting photo is due now. */
export async function wakeQueued(database: AppDatabase, now = Date.now()): Promise<void> {
  await database.outbox.where('state').equals('queued').modify({ nextAttemptAt: now });
}

/** Jobs still to be worked (Background Sync keeps asking while any remain). */
export function waitingJobs(database: AppDatabase): Promise<number> {
  return database.outbox.where('state').anyOf('queued', 'running').count();
}

/** Photos still on their way (the "N photos waiting for network" banner). */
export function waitingUploads(database: AppDatabase): Promise<number> {
  return database.outbox
    .where('state')
    .anyOf('queued', 'running')
    .filter((job) => job.kind === 'upload')
    .count();
}

/** A slot with no upload to wait for: the task cannot be sent until the seller retakes or retries it. */
export class UnsendablePhotoError extends Error {
  constructor(readonly view: ShoeView) {
    super(`The ${view} photo has no upload`);
    this.name = 'UnsendablePhotoError';
  }
}

/**
 * Submits a draft's task through the outbox: the job carries the request and the draft as it was,
 * and the draft starts over in the same transaction, so the seller may begin the next shoe while
 * this one waits for its uploads or the network. The photos stay until the server has the task.
 */
export async function enqueueTask(database: AppDatabase, draft: DraftRecord, task: Omit<TaskRequest, 'photos'>, now = Date.now()): Promise<GenerateJob> {
  return database.transaction('rw', database.outbox, database.drafts, async () => {
    // The stored slots are the truth about uploads; the page's copy carries the styles it showed.
    const stored = await database.drafts.get(draft.contentType);
    const current = { ...draft, slots: stored?.slots ?? draft.slots };
    const photos = Object.entries(current.slots).map(([view, slot]) => {
      if (!slot?.jobId) throw new UnsendablePhotoError(view as ShoeView);
      return { view: view as ShoeView, photoId: slot.photoId, uploadJobId: slot.jobId };
    });
    // A retry sends the accepted photos the seller has not replaced along with the new ones.
    const kept = current.retry?.kept.filter(({ view }) => !current.slots[view]).map(({ view, materialId }) => ({ view, materialId }));
    const job: GenerateJob = {
      ...newJob(now),
      kind: 'generate',
      draftKey: current.contentType,
      task: { ...task, photos, ...(kept ? { kept } : {}) },
      draft: current,
    };
    await database.outbox.add(job);
    // A retry's draft has done its work; a content type's starts over for the next shoe.
    if (current.retry) await database.drafts.delete(current.contentType);
    else await database.drafts.put({ contentType: current.contentType, page: 1, slots: {}, shoeParams: {}, styles: null, updatedAt: now });
    return job;
  });
}

/**
 * Takes a queued or refused task back into its draft (the server refused it, or the seller wants
 * to change it): slots show where their uploads stand now. Refused if a newer draft has photos.
 */
export async function restoreTask(database: AppDatabase, jobId: string, now = Date.now()): Promise<DraftRecord | undefined> {
  return database.transaction('rw', database.outbox, database.drafts, async () => {
    const job = await database.outbox.get(jobId);
    if (!job || job.kind !== 'generate' || job.state === 'done' || job.state === 'running') return undefined;
    const current = await database.drafts.get(job.draftKey);
    if (current && Object.keys(current.slots).length > 0) return undefined;
    const slots: DraftRecord['slots'] = {};
    for (const photo of job.task.photos) {
      const stored = await database.outbox.get(photo.uploadJobId);
      const upload = stored?.kind === 'upload' ? stored : undefined;
      const state: SlotState = !upload
        ? 'stored'
        : upload.state === 'done'
          ? 'uploaded'
          : upload.state === 'running'
            ? 'uploading'
            : upload.state;
      slots[photo.view] = {
        ...job.draft.slots[photo.view],
        photoId: photo.photoId,
        jobId: photo.uploadJobId,
        state,
        materialId: upload?.materialId,
        error: upload?.state === 'failed' ? upload.error : undefined,
      };
    }
    const draft: DraftRecord = { ...job.draft, page: 2, slots, updatedAt: now };
    await database.drafts.put(draft);
    await database.outbox.delete(jobId);
    return draft;
  });
}

/** Gives up a queued or refused task: its photos and uploads go with it, off the server too. */
export async function discardTask(database: AppDatabase, jobId: string, now = Date.now()): Promise<void> {
  await database.transaction('rw', database.outbox, database.photos, async () => {
    const job = await database.outbox.get(jobId);
    if (!job || job.kind !== 'generate' || job.state === 'running' || job.state === 'done') return;
    await database.photos.bulkDelete(job.task.photos.map((photo) => photo.photoId));
    await database.outbox.delete(jobId);
    for (const photo of job.task.photos) await abandonUpload(database, job.draftKey, { photoId: photo.photoId, state: 'stored', jobId: photo.uploadJobId }, now);
  });
}

type JobOf<K extends OutboxJob['kind']> = Extract<OutboxJob, { kind: K }>;

/** Jobs of a kind waiting to be sent or refused by the server, oldest first. */
async function pendingJobs<K extends OutboxJob['kind']>(database: AppDatabase, kind: K): Promise<JobOf<K>[]> {
  const jobs = await database.outbox.where('state').anyOf('queued', 'running', 'failed').sortBy('createdAt');
  return jobs.filter((job): job is JobOf<K> => job.kind === kind);
}

/** Asks the server again for a job of a kind it refused, under the same key (nothing is made twice). */
async function sendAgain(database: AppDatabase, jobId: string, kind: OutboxJob['kind'], now: number): Promise<void> {
  await database.outbox
    .where('id')
    .equals(jobId)
    .modify((job) => {
      if (job.kind !== kind || job.state !== 'failed') return;
      Object.assign(job, { state: 'queued', nextAttemptAt: now, attempts: 0, error: undefined, errorStatus: undefined, updatedAt: now });
    });
}

/** Tasks waiting to be sent or refused by the server, oldest first. */
export function pendingTasks(database: AppDatabase): Promise<GenerateJob[]> {
  return pendingJobs(database, 'generate');
}

/** Asks the server again for a task it refused (after a top-up, say). */
export function resendTask(database: AppDatabase, jobId: string, now = Date.now()): Promise<void> {
  return sendAgain(database, jobId, 'generate', now);
}

/** Edits still to be saved, or refused by the server, oldest first. */
export function pendingEdits(database: AppDatabase): Promise<EditJob[]> {
  return pendingJobs(database, 'edit');
}

/** Tries a refused save again (the seller's retry). */
export function retryEdit(database: AppDatabase, jobId: string, now = Date.now()): Promise<void> {
  return sendAgain(database, jobId, 'edit', now);
}

/**
 * Finished jobs a day old are forgotten (and deletions the server refused for good: its own sweep
 * takes those materials), except uploads a draft or a queued task still carries.
 */
export async function purgeDone(database: AppDatabase, now = Date.now()): Promise<void> {
  await database.transaction('rw', database.outbox, database.drafts, async () => {
    const carried = new Set<string>();
    for (const draft of await database.drafts.toArray()) for (const slot of Object.values(draft.slots)) if (slot?.jobId) carried.add(slot.jobId);
    for (const job of await database.outbox.toArray()) if (job.kind === 'generate') for (const photo of job.task.photos) carried.add(photo.uploadJobId);
    await database.outbox
      .where('state')
      .anyOf('done', 'failed')
      .filter((job) => job.updatedAt < now - 24 * 60 * 60_000 && !carried.has(job.id) && (job.state === 'done' || job.kind === 'delete'))
      .delete();
  });
}
