// `generate` jobs: a submitted task waits in the outbox behind its photos' uploads and is sent
// once the server holds them all (DESIGN §3). The job carries the draft as it was, so a task the
// server refuses (or the seller wants to change) goes back into its draft.
import type { ShoeView } from '../../../contract/enums';
import type { AppDatabase } from '../db';
import type { DraftRecord, GenerateJob, SlotState, TaskRequest } from '../records';
import { TransportError } from '../transport-error';
import type { JobKind } from './job-kind';
import { newJob, patch, pendingJobs, sendAgain, settleFailure } from './lifecycle';
import { abandonUpload } from './upload';

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

/** Tasks waiting to be sent or refused by the server, oldest first. */
export function pendingTasks(database: AppDatabase): Promise<GenerateJob[]> {
  return pendingJobs(database, 'generate');
}

/** Asks the server again for a task it refused (after a top-up, say). */
export function resendTask(database: AppDatabase, jobId: string, now = Date.now()): Promise<void> {
  return sendAgain(database, jobId, 'generate', now);
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

export const generateKind: JobKind<GenerateJob> = {
  ready: async (database, job, now) => (await readiness(database, job, now)) === 'ready',
  /** Sends a task whose photos are all uploaded; once accepted, its local photos are no longer needed. */
  async work(run, job) {
    const { database, transport, now, observer } = run;
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
      return 'done';
    } catch (error) {
      return settleFailure(run, job, error);
    }
  },
  carries: (job) => job.task.photos.map((photo) => photo.uploadJobId),
};
