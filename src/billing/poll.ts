// Asking again until an answer is final (SPEC §9: status polling 24 tries, 5 s apart): the first
// try at once, a wait between tries, and a stop when the page leaves.

export const STATUS_POLL_TRIES = 24;
export const STATUS_POLL_EVERY_MS = 5_000;

export interface PollOptions {
  tries?: number;
  everyMs?: number;
  signal?: AbortSignal;
  /** How a wait is made (tests pass one that does not wait). */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason as Error);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', abort);
      resolve();
    }, ms);
    function abort() {
      clearTimeout(timer);
      reject(signal?.reason as Error);
    }
    signal?.addEventListener('abort', abort, { once: true });
  });
}

/**
 * Calls `read` until `done` says its answer is final, at most `tries` times; answers the last
 * answer read and whether it was final. A failed read counts as a try that was not final.
 */
export async function pollUntil<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  { tries = STATUS_POLL_TRIES, everyMs = STATUS_POLL_EVERY_MS, signal, sleep: wait = sleep }: PollOptions = {},
): Promise<{ value: T | undefined; final: boolean; tries: number }> {
  let value: T | undefined;
  for (let attempt = 1; attempt <= tries; attempt += 1) {
    if (signal?.aborted) throw signal.reason;
    try {
      value = await read();
      if (done(value)) return { value, final: true, tries: attempt };
    } catch (error) {
      if (signal?.aborted) throw error;
    }
    if (attempt < tries) await wait(everyMs, signal);
  }
  return { value, final: false, tries };
}
