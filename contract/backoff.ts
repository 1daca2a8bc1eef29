// The wait before retrying something that failed for a reason that may pass (a network, a busy
// server, a rate limit): used by the outbox, the live-events reconnect, the job runner and the
// remote AI engine.

export interface Backoff {
  /** The wait before the first retry. */
  firstMs: number;
  /** Waits double up to this. */
  longestMs: number;
  /** ± this share of the wait, drawn at random so many clients do not retry together (0: none). */
  jitter: number;
}

/** The wait before retry `attempt` (1-based): doubling from `firstMs` up to `longestMs`, ± jitter. */
export function retryDelayMs(attempt: number, { firstMs, longestMs, jitter }: Backoff, random: () => number = Math.random): number {
  const base = Math.min(longestMs, firstMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(base * (1 - jitter + 2 * jitter * random()));
}
