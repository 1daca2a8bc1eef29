// Tickets for the task event stream (SPEC §4 notifications): an EventSource cannot send an
// Authorization header, and the long-lived token must not travel in a URL, so the page trades
// its token for a ticket that names the seller, lives a minute and opens one stream.
import crypto from 'node:crypto';

export const TICKET_LIFETIME_S = 60;
const used = new Map<string, number>();

function sign(key: Uint8Array, payload: string): string {
  return crypto.createHmac('sha256', key).update(`event-ticket:${payload}`).digest('base64url');
}

export function issueTicket(key: Uint8Array, userId: string, now = Date.now()) {
  const expires = Math.floor(now / 1000) + TICKET_LIFETIME_S;
  const payload = `${userId}.${expires}.${crypto.randomBytes(9).toString('base64url')}`;
  return { ticket: `${payload}.${sign(key, payload)}`, expires_at: new Date(expires * 1000).toISOString() };
}

/** The seller a ticket names, once; null when it is forged, expired or already used. */
export function redeemTicket(key: Uint8Array, ticket: string, now = Date.now()): string | null {
  const parts = ticket.split('.');
  if (parts.length !== 4) return null;
  const [userId, expires, nonce, signature] = parts as [string, string, string, string];
  const payload = `${userId}.${expires}.${nonce}`;
  const expected = Buffer.from(sign(key, payload));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !crypto.timingSafeEqual(expected, given)) return null;
  const expiresMs = Number(expires) * 1000;
  if (!Number.isFinite(expiresMs) || expiresMs < now) return null;
  for (const [seen, until] of used) if (until < now) used.delete(seen);
  if (used.has(nonce)) return null;
  used.set(nonce, expiresMs);
  return userId;
}
