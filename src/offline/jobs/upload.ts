// `upload` jobs: every photo the seller takes is registered as a material and its bytes PUT to
// the address the server gives, until the server holds it. Its state shows on the draft's slot;
// a photo the seller replaces, moves or deletes meanwhile lets its upload go, and what the upload
// made on the server is queued for deletion (delete.ts).
import type { ShoeView } from '../../../contract/enums';
import type { AppDatabase } from '../db';
import type { DraftKey, OutboxJob, PhotoRecord, SlotRecord, SlotState, UploadJob } from '../records';
import { TransportError } from '../transport-error';
import { enqueueCleanup, enqueueDelete } from './delete';
import type { JobKind, JobRun } from './job-kind';
import { newJob, patch, settleFailure } from './lifecycle';

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

/**
 * Lets go of a slot's upload when its photo is replaced, moved or deleted (call it inside the
 * transaction that changes the slot): a job not yet running is dropped, and a material the server
 * already holds for it is queued for deletion. A running job is left to finish: its runner then
 * finds nobody wants it and deletes what it made (see `unlessAbandoned`).
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

/** Photos still on their way (the "N photos waiting for network" banner). */
export function waitingUploads(database: AppDatabase): Promise<number> {
  return database.outbox
    .where('state')
    .anyOf('queued', 'running')
    .filter((job) => job.kind === 'upload')
    .count();
}

/** Photos going up right now (the task page's photo checks wait for them). */
export function sendingUploads(database: AppDatabase): Promise<number> {
  return database.outbox
    .where('state')
    .equals('running')
    .filter((job) => job.kind === 'upload')
    .count();
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

/**
 * How much of a photo has gone when the next photo's bytes may start: not at once (the two would
 * arrive together and the link idle while the server takes both in), and not only after its last
 * byte (each request takes a moment to get going, which the link would wait out).
 */
const SENT_TO_FOLLOW = 0.75;

/**
 * PUTs a photo's bytes once the photo before has mostly gone (link.ts), and lets the next photo's
 * start once this one has, where the transport tells how much has gone; the server's answer is
 * awaited meanwhile. Without that, the photos go side by side.
 */
async function sendBytes({ transport, observer, link }: JobRun, job: UploadJob, url: string, photo: PhotoRecord): Promise<void> {
  const release = transport.tellsProgress ? await link.take() : () => {};
  try {
    await transport.put(url, photo, (sent, total) => {
      observer.onProgress?.(job, sent, total);
      if (sent >= total * SENT_TO_FOLLOW) release();
    });
  } finally {
    release();
  }
}

export const uploadKind: JobKind<UploadJob> = {
  async work(run, job) {
    const { database, transport, now, observer } = run;
    const photo = await unlessAbandoned(database, job, now);
    if (!photo) return 'done';
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
          await sendBytes(run, job, current.uploadUrl!, photo);
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
      return 'done';
    } catch (error) {
      return settleFailure(run, job, error, slot);
    }
  },
};
