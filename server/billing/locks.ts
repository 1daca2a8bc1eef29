// One thing at a time across every node, without holding a connection while a provider is called:
// a lease row per key (a seller's checkout, a subscription's upgrade) taken with one statement,
// given back when the work ends, and free again by itself if the node holding it dies.
import crypto from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { billingLocks } from '../db/schema';
import { HttpError } from '../lib/errors';
import type { MessageKey } from '../lib/i18n';

export interface LeaseOptions {
  /** How long the lease holds if its holder never gives it back (a node that died). */
  ttlMs: number;
  /** How long to wait for another holder to finish before refusing; 0 refuses at once. */
  waitMs: number;
  /** The refusal when the wait runs out: its status and code. */
  busy: { status: number; code: MessageKey };
}

const POLL_MS = 100;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Takes the lease on `key` if it is free (or its holder's time ran out); true when taken. */
async function take(db: Database, key: string, holder: string, ttlMs: number): Promise<boolean> {
  const rows = await db
    .insert(billingLocks)
    .values({ key, holder, until: sql`now() + ${ttlMs} * interval '1 millisecond'` })
    .onConflictDoUpdate({
      target: billingLocks.key,
      set: { holder, until: sql`now() + ${ttlMs} * interval '1 millisecond'` },
      setWhere: sql`${billingLocks.until} < now()`,
    })
    .returning({ holder: billingLocks.holder });
  return rows.length > 0;
}

/** Runs `work` holding the lease on `key`; refuses with `busy` when another holder keeps it past the wait. */
export async function withLease<T>(db: Database, key: string, options: LeaseOptions, work: () => Promise<T>): Promise<T> {
  const holder = crypto.randomUUID();
  const giveUpAt = Date.now() + options.waitMs;
  while (!(await take(db, key, holder, options.ttlMs))) {
    if (Date.now() >= giveUpAt) throw new HttpError(options.busy.status, options.busy.code, options.busy.code);
    await sleep(POLL_MS);
  }
  try {
    return await work();
  } finally {
    await db.delete(billingLocks).where(and(eq(billingLocks.key, key), eq(billingLocks.holder, holder)));
  }
}
