// Sending a task (SPEC §4 task submission, DESIGN §3): the task goes into the outbox behind its
// photos' uploads and the draft starts over; online, the page waits a moment for the server's
// answer so a refusal (no tokens, a photo refused) is shown at once and the draft comes back.
// The wait watches the job in IndexedDB (a live query), so it ends the moment the outbox writes
// the answer, and nothing polls.
import { liveQuery } from 'dexie';
import type { ShoeView } from '../../contract/enums';
import type { ContentConfigEntry } from '../../contract/selection';
import { db } from '../offline/db';
import type { DraftRecord, GenerateJob } from '../offline/records';
import { UnsendablePhotoError, enqueueTask, restoreTask } from '../offline/jobs/generate';
import { processUploads } from './uploads';

/** SPEC §9: the wait after a task (or a retry) is added, before the workspace. */
export const POST_SUBMIT_WAIT_MS = 7_000;
/** SPEC §8: post-submit toasts stay 6 s. */
export const SUBMIT_TOAST_MS = 6_000;

/** How long the page waits for the server before leaving the task to the outbox. */
export const ANSWER_WAIT_MS = 20_000;

export type SubmitOutcome =
  | { kind: 'sent'; taskId: string }
  /** Offline, or its photos are still on their way: the outbox will send it. */
  | { kind: 'queued' }
  /** The server refused it: the draft is back as it was. */
  | { kind: 'refused'; status: number; message: string; draft: DraftRecord | undefined }
  /** It never reached the outbox (a photo with no upload, the device's storage failing): the draft is as it was. */
  | { kind: 'failed'; view?: ShoeView };

export interface SubmitInput {
  draft: DraftRecord;
  config: ContentConfigEntry[];
  total: number;
  outputs: number;
}

export async function submitTask({ draft, config, total, outputs }: SubmitInput, waitMs = ANSWER_WAIT_MS): Promise<SubmitOutcome> {
  let job: GenerateJob;
  try {
    job = await enqueueTask(db, draft, { contentConfig: config, total, outputs });
  } catch (error) {
    console.warn('The task could not be queued', error);
    return { kind: 'failed', view: error instanceof UnsendablePhotoError ? error.view : undefined };
  }
  void processUploads();
  try {
    return await answer(job, waitMs);
  } catch (error) {
    // The task is in the outbox; only reading its progress failed.
    console.warn('Waiting for the task’s answer failed', error);
    return { kind: 'queued' };
  }
}

/** The server's answer to a queued task, or `queued` when it does not come in time. */
function answer(job: GenerateJob, waitMs: number): Promise<SubmitOutcome> {
  // No network: the outbox has it.
  if (!navigator.onLine) return Promise.resolve({ kind: 'queued' });
  return new Promise<SubmitOutcome>((resolve, reject) => {
    let settled = false;
    /** Stops watching; the first outcome (or error) is the one the page gets. */
    const settle = (outcome: Promise<SubmitOutcome> | SubmitOutcome) => {
      if (settled) return;
      settled = true;
      subscription.unsubscribe();
      clearTimeout(deadline);
      window.removeEventListener('offline', leave);
      Promise.resolve(outcome).then(resolve, reject);
    };
    // The network gone, or no answer in time: the outbox has it.
    const leave = () => settle({ kind: 'queued' });
    const deadline = setTimeout(leave, waitMs);
    window.addEventListener('offline', leave);
    // Its first answer comes after this returns (a live query always answers asynchronously).
    const subscription = liveQuery(async () => {
      const current = await db.outbox.get(job.id);
      return current?.kind === 'generate' ? current : undefined;
    }).subscribe({
      next(current) {
        if (current?.state === 'done' && current.taskId) settle({ kind: 'sent', taskId: current.taskId });
        else if (current?.state === 'failed') {
          const { errorStatus, error } = current;
          settle(restoreTask(db, job.id).then((draft) => ({ kind: 'refused', status: errorStatus ?? 0, message: error ?? '', draft })));
        }
        // A network error has put it back in the queue: the outbox will send it.
        else if (!current || current.attempts > 0) leave();
      },
      error: (error: unknown) => {
        if (!settled) settle(Promise.reject(error));
      },
    });
  });
}
