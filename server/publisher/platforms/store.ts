// What every marketplace adapter is: it checks a seller's keys live and says whose account they
// open, or why the platform refused them in words the seller can act on (a wrong, expired or
// under-scoped key; the platform down or asking to slow down).
import type { MessageKey } from '../../lib/i18n';

/** Why a platform refused, each with the message the seller reads. */
export const REFUSALS = {
  wrong: 'STORE_KEY_WRONG',
  expired: 'STORE_KEY_EXPIRED',
  scope: 'STORE_KEY_SCOPE',
  unreachable: 'STORE_UNREACHABLE',
  busy: 'STORE_BUSY',
} as const satisfies Record<string, MessageKey>;
export type Refusal = keyof typeof REFUSALS;

export class StoreRefused extends Error {
  constructor(
    readonly refusal: Refusal,
    /** What the platform said, for the log and the seller's details. */
    readonly detail: string,
    readonly vars: { date?: Date; scope?: string; seconds?: number } = {},
  ) {
    super(`${refusal}: ${detail}`);
    this.name = 'StoreRefused';
  }
}

/** The account a seller's keys open, as the platform answers it. */
export interface StoreAccount {
  accountId: string;
  accountName: string;
  /** When the platform says the keys stop working, where it says so. */
  expiresAt: Date | null;
}

/** How long one call to a platform may take. */
export const STORE_TIMEOUT_MS = 15_000;

/** The seconds a 429 asks to wait: its Retry-After (or the platform's own header), at least one. */
export function retryAfterSeconds(headers: Headers, ...names: string[]): number {
  for (const name of ['retry-after', ...names]) {
    const value = Number(headers.get(name));
    if (Number.isFinite(value) && value > 0) return Math.ceil(value);
  }
  return 1;
}

/** `fetch` with the platforms' timeout; a network failure or a timeout is the platform not answering. */
export async function storeFetch(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, { ...init, signal: AbortSignal.timeout(STORE_TIMEOUT_MS) });
  } catch (error) {
    throw new StoreRefused('unreachable', `${new URL(url).host}: ${(error as Error).message}`);
  }
}

/** An answer's body as text, for a refusal's detail (bounded: a platform's error page can be long). */
export async function answerText(answer: Response): Promise<string> {
  const text = await answer.text().catch(() => '');
  return `${answer.status} ${text.slice(0, 500)}`;
}

/** A page cursor this server did not give out. */
export class BadCursor extends Error {
  constructor() {
    super('the cursor is not one this server gave');
    this.name = 'BadCursor';
  }
}

/** Calls again while the platform asks to slow down, waiting as long as it asks, a few times over. */
export async function patiently<T>(wait: (ms: number) => Promise<void>, call: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await call();
    } catch (error) {
      if (!(error instanceof StoreRefused) || error.refusal !== 'busy' || attempt >= 8) throw error;
      await wait((error.vars.seconds ?? 1) * 1000);
    }
  }
}
