// `delete` jobs: a photo the seller replaced, moved or deleted after it had gone up takes its
// material off the server. The server keeps a material a task uses, and one already gone counts
// as deleted.
import type { AppDatabase } from '../db';
import type { DeleteJob, DraftKey, UploadJob } from '../records';
import { TransportError } from '../transport-error';
import type { JobKind } from './job-kind';
import { newJob, settleFailure } from './lifecycle';

/** Queues the deletion of a material the server holds for a photo the seller no longer wants. */
export async function enqueueDelete(database: AppDatabase, draftKey: DraftKey, materialId: string, now: number): Promise<void> {
  const job: DeleteJob = { ...newJob(now), kind: 'delete', draftKey, materialId };
  await database.outbox.add(job);
}

/**
 * Queues the deletion of whatever an upload made on the server: its material when the job knows
 * it, else the one registered under the job's key, if any (the registration may have reached the
 * server while its answer was lost to a dropped network or a closed tab).
 */
export async function enqueueCleanup(database: AppDatabase, job: Pick<UploadJob, 'id' | 'draftKey'>, materialId: string | undefined, now: number): Promise<void> {
  if (materialId) return enqueueDelete(database, job.draftKey, materialId, now);
  const cleanup: DeleteJob = { ...newJob(now), kind: 'delete', draftKey: job.draftKey, uploadKey: job.id };
  await database.outbox.add(cleanup);
}

export const deleteKind: JobKind<DeleteJob> = {
  /** Deletes the material; one already gone, or kept by the server because a task uses it, counts as done. */
  async work(run, job) {
    try {
      await run.transport.remove(job);
    } catch (error) {
      if (!(error instanceof TransportError && (error.status === 404 || error.status === 409))) {
        return settleFailure(run, job, error);
      }
    }
    await run.database.outbox.update(job.id, { state: 'done', leaseUntil: undefined, updatedAt: run.now() });
    return 'done';
  },
  // The server's own sweep takes what a refused deletion leaves.
  forgetRefused: true,
};
