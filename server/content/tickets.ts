// Tickets for the task event stream (SPEC §4 notifications): an EventSource cannot send an
// Authorization header, and the long-lived token must not travel in a URL, so the page trades
// its token for a ticket that names the seller, lives a minute and opens one stream. A used
// ticket is recorded in the database, so it opens one stream whichever API node it reaches.
import crypto from 'node:crypto';
import { lt } from 'drizzle-orm';
import type { Database } from '../db/client';
import { usedEventTickets } from '../db/schema';

export const TICKET_LIFETIME_S = 60;

function sign(key: Uint8Array, payload: string): string {
  return crypto.createHmac('sha256', key).update(`event-ticket:${payload}`).digest('base64url');
}

export function issueTicket(key: Uint8Array, userId: string, now = Date.now()) {
  const expires = Math.floor(now / 1000) + TICKET_LIFETIME_S;
  const payload = `${userId}.${expires}.${crypto.randomBytes(9).toString('base64url')}`;
  return { ticket: `${payload}.${sign(key, payload)}`, expires_at: new Date(expires * 1000).toISOString() };
}

/** The seller a ticket names, once; null when it is forged, expired or already used on any node. */
export async function redeemTicket(db: Database, key: Uint8Array, ticket: string, now = Date.now()): Promise<string | null> {
  const parts = ticket.split('.');
  if (parts.length !== 4) return null;
  const [userId, expires, nonce, signature] = parts as [string, string, string, string];
  const payload = `${userId}.${expires}.${nonce}`;
  const expected = Buffer.from(sign(key, payload));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !crypto.timingSafeEqual(expected, given)) return null;
  const expiresMs = Number(expires) * 1000;
  if (!Number.isFinite(expiresMs) || expiresMs < now) return null;
  // The nonce's row is the ticket's one use: a second insert, here or on another node, finds it.
  const [used] = await db
    .insert(usedEventTickets)
    .values({ nonce, expiresAt: new Date(expiresMs) })
    .onConflictDoNothing()
    .returning({ nonce: usedEventTickets.nonce });
  return used ? userId : null;
}

/**
 * Deletes the records of used tickets that expired a lifetime ago: an expired ticket is refused
 * anyway, and the lifetime's grace covers a node whose clock runs behind this one.
 */
export async function forgetExpiredTickets(db: Database, now = Date.now()): Promise<void> {
  await db.delete(usedEventTickets).where(lt(usedEventTickets.expiresAt, new Date(now - TICKET_LIFETIME_S * 1000)));
}
