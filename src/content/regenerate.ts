// Following a regenerated result to its end (SPEC §4 retry in material history, §9): the task is
// polled every 5 s until it completes (its first result is shown, and the retry counts as
// finished 20 s later) or fails; a failed poll is reported and tolerated up to 60 times.
import type { TaskStatus } from '../../contract/enums';

export const RETRY_POLL_MS = 5_000;
export const RETRY_MAX_POLL_ERRORS = 60;
export const RETRY_FINISH_WAIT_MS = 20_000;

export type RetryStep =
  | { step: 'waiting' }
  /** Completed: its first result, before the wait that finishes the retry. */
  | { step: 'done'; url: string; poster: string | null; fileType: string }
  | { step: 'finished'; url: string; poster: string | null; fileType: string }
  | { step: 'failed'; message: string | null };

interface PolledTask {
  status: TaskStatus;
  result: { url: string; poster_url: string | null; file_type: string }[];
  outputs: { error: string | null }[];
}

export interface FollowOptions {
  fetchTask: () => Promise<PolledTask>;
  onStep: (step: RetryStep) => void;
  /** A poll failed (the page shows the internal-error toast). */
  onPollError: (error: unknown) => void;
  sleep?: (ms: number) => Promise<void>;
  signal?: AbortSignal;
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Polls until the task ends; resolves with the last step given to `onStep`. */
export async function followRegeneration({ fetchTask, onStep, onPollError, sleep = wait, signal }: FollowOptions): Promise<RetryStep> {
  let errors = 0;
  const report = (step: RetryStep) => {
    if (!signal?.aborted) onStep(step);
    return step;
  };
  report({ step: 'waiting' });
  for (;;) {
    await sleep(RETRY_POLL_MS);
    if (signal?.aborted) return { step: 'failed', message: null };
    let task: PolledTask;
    try {
      task = await fetchTask();
    } catch (error) {
      errors += 1;
      onPollError(error);
      if (errors >= RETRY_MAX_POLL_ERRORS) return report({ step: 'failed', message: null });
      continue;
    }
    const first = task.result[0];
    if ((task.status === 'completed' || task.status === 'partially_completed') && first) {
      report({ step: 'done', url: first.url, poster: first.poster_url, fileType: first.file_type });
      await sleep(RETRY_FINISH_WAIT_MS);
      return report({ step: 'finished', url: first.url, poster: first.poster_url, fileType: first.file_type });
    }
    if (task.status === 'failed' || task.status === 'partially_completed') {
      return report({ step: 'failed', message: task.outputs.find((o) => o.error)?.error ?? null });
    }
  }
}
