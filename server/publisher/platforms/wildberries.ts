// Wildberries' Content API: the seller's personal token in `Authorization` (no scheme). The token
// is a JWT: its payload says when it expires, whose it is and which categories of the API it opens
// (the `s` bitmask, bit 1 Content: WB's "how a token is made"). The cards list then says whether it
// works: one call, since /ping allows only three in 30 s.
import crypto from 'node:crypto';
import { PRODUCT_PAGE_SIZE, type StoreProductPage } from '../../../contract/publisher';
import { answerText, BadCursor, retryAfterSeconds, StoreRefused, storeFetch, type StoreAccount } from './store';

/** The Content category's bit in the token's `s` claim. */
const CONTENT = 1 << 1;

interface TokenClaims {
  exp?: number;
  s?: number;
  /** The seller's id (a number) and the seller account's UUID, as Wildberries puts them in its tokens. */
  oid?: number | string;
  sid?: string;
}

/** The token's claims, read without checking its signature (Wildberries signs it, and says whether it is good). */
export function tokenClaims(token: string): TokenClaims | null {
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  try {
    const claims = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8')) as unknown;
    return typeof claims === 'object' && claims !== null ? (claims as TokenClaims) : null;
  } catch {
    return null;
  }
}

/** What a Content API answer that is not a success means for the seller. */
export async function wildberriesRefusal(answer: Response): Promise<StoreRefused> {
  if (answer.status === 429) return new StoreRefused('busy', await answerText(answer), { seconds: retryAfterSeconds(answer.headers, 'x-ratelimit-retry') });
  if (answer.status === 401) {
    const detail = await answerText(answer);
    // WB's 401 for a token of another category: "token scope not allowed".
    return /scope not allowed/i.test(detail) ? new StoreRefused('scope', detail, { scope: 'SCOPE_CONTENT' }) : new StoreRefused('wrong', detail);
  }
  if (answer.status === 403) return new StoreRefused('scope', await answerText(answer), { scope: 'SCOPE_CONTENT' });
  return new StoreRefused('unreachable', await answerText(answer));
}

/**
 * WB's Content methods allow a burst of 5 and then one request every 600 ms (100 a minute) per
 * seller. An answer says how much of the burst is left (X-Ratelimit-Remaining): once none is, the
 * next call to the same account waits for the next request to be allowed instead of drawing a 429.
 */
const REFILL_MS = 600;
/** When each account (by a hash of its token, never the token) may be called next; gone once past. */
const nextAllowed = new Map<string, number>();

function forget(now: number) {
  for (const [account, at] of nextAllowed) if (at <= now) nextAllowed.delete(account);
}

/** `fetch` to the Content API as `token`'s seller, paced to its limit. */
export async function wildberriesFetch(base: string, token: string, path: string, init: RequestInit = {}): Promise<Response> {
  const account = crypto.createHash('sha256').update(token).digest('base64url');
  forget(Date.now());
  const at = nextAllowed.get(account);
  if (at !== undefined) {
    // Calls waiting together go one interval apart.
    nextAllowed.set(account, at + REFILL_MS);
    await new Promise((resolve) => setTimeout(resolve, at - Date.now()));
  }
  const answer = await storeFetch(`${base}${path}`, { ...init, headers: { ...init.headers, Authorization: token } });
  if (answer.headers.get('x-ratelimit-remaining') === '0') nextAllowed.set(account, Math.max(nextAllowed.get(account) ?? 0, Date.now() + REFILL_MS));
  return answer;
}

/** A call to the Content API; its errors turned into what the seller reads. */
export async function wildberriesCall(base: string, token: string, path: string, init: RequestInit = {}): Promise<Response> {
  const answer = await wildberriesFetch(base, token, path, init);
  if (answer.ok) return answer;
  throw await wildberriesRefusal(answer);
}

export async function checkWildberries(base: string, token: string, now: Date): Promise<StoreAccount> {
  const claims = tokenClaims(token);
  if (!claims) throw new StoreRefused('wrong', 'the token is not a JWT');
  const expiresAt = typeof claims.exp === 'number' ? new Date(claims.exp * 1000) : null;
  if (expiresAt && expiresAt <= now) throw new StoreRefused('expired', `the token expired at ${expiresAt.toISOString()}`, { date: expiresAt });
  if (typeof claims.s === 'number' && (claims.s & CONTENT) === 0) throw new StoreRefused('scope', `the token's categories (${claims.s}) lack Content`, { scope: 'SCOPE_CONTENT' });
  await wildberriesCall(base, token, '/content/v2/get/cards/list', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ settings: { cursor: { limit: 1 }, filter: { withPhoto: -1 } } }),
  });
  const id = String(claims.oid ?? claims.sid ?? crypto.createHash('sha256').update(token).digest('hex').slice(0, 16));
  return { accountId: id, accountName: `Wildberries ${id}`, expiresAt };
}

interface CardsPage {
  cards?: { nmID: number; vendorCode: string; title?: string; photos?: { c246x328?: string; tm?: string }[]; video?: string; updatedAt: string }[];
}

/** Where the last page ended: its last card's updatedAt and nmID, as the cards list asks for them. */
function readCursor(cursor: string): { updatedAt: string; nmID: number } {
  try {
    const after = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { updatedAt?: unknown; nmID?: unknown };
    if (typeof after.updatedAt === 'string' && Number.isInteger(after.nmID)) return { updatedAt: after.updatedAt, nmID: after.nmID as number };
  } catch {
    // not JSON: refused below
  }
  throw new BadCursor();
}

/** A page of the seller's cards, newest first; `q` finds a vendor code or an nmID. */
export async function wildberriesProducts(base: string, token: string, q: string, cursor: string | null): Promise<StoreProductPage> {
  const after = cursor ? readCursor(cursor) : {};
  const answer = await wildberriesCall(base, token, '/content/v2/get/cards/list', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ settings: { cursor: { limit: PRODUCT_PAGE_SIZE, ...after }, filter: { withPhoto: -1, ...(q ? { textSearch: q } : {}) } } }),
  });
  const cards = ((await answer.json()) as CardsPage).cards ?? [];
  const last = cards.at(-1);
  return {
    items: cards.map((card) => ({
      id: String(card.nmID),
      article: card.vendorCode,
      title: card.title ?? card.vendorCode,
      thumbnail: card.photos?.[0]?.c246x328 ?? card.photos?.[0]?.tm ?? null,
      pictures: card.photos?.length ?? 0,
      has_video: !!card.video,
    })),
    next_cursor: last && cards.length === PRODUCT_PAGE_SIZE ? Buffer.from(JSON.stringify({ updatedAt: last.updatedAt, nmID: last.nmID })).toString('base64url') : null,
  };
}
