// A local stand-in for Amazon's Selling Partner API, speaking what a publisher of listing pictures
// uses of it, with Login with Amazon's token endpoint on the same origin:
//
// - LWA: POST /auth/o2/token, form-encoded (JSON taken too), grant_type=refresh_token with the
//   seller's refresh token and its app's client_id and client_secret → {access_token "Atza|…",
//   refresh_token, token_type "bearer", expires_in}. A wrong client is 401 invalid_client "Client
//   authentication failed"; an unknown or revoked refresh token, or one of another client, is 400
//   invalid_grant; a missing parameter 400 invalid_request; another grant 400 unsupported_grant_type.
// - Listings Items API 2021-08-01 (models/listings-items-api-model/listingsItems_2021-08-01.json):
//   searchListingsItems, getListingsItem and patchListingsItem, with `x-amz-access-token`.
//   Refusals are the SP-API's 403 {errors: [{code: "Unauthorized", message: "Access to requested
//   resource is denied.", details}]} with details telling a missing, an expired or a revoked,
//   malformed or invalid token apart (as Amazon's do), and details "" for another seller's id or a
//   path the API does not have (Amazon's gateway answers 403 for those too, not 404).
// - Rate limits per operation and seller as the model's usage plans give them (search 5/s burst 5,
//   get 5/s burst 10, patch 5/s burst 5; `ratePerSecond` sets rate and burst of all three):
//   429 {errors: [{code: "QuotaExceeded", message: "You exceeded your quota for the requested
//   resource.", details: ""}]}. Per the model, `x-amzn-RateLimit-Limit` (e.g. "5.0") comes on 200,
//   400 and 404 answers only, not on 403, 429 or 500; every answer has `x-amzn-RequestId`.
// - search: there is no text query in the API; a client finds SKUs with `identifiers` and
//   `identifiersType` (SKU or ASIN here; the other types match nothing), `pageSize` 1–20 (10),
//   `pageToken` from `pagination.nextToken`/`previousToken`, sortBy/sortOrder (lastUpdatedDate
//   DESC), the created/lastUpdated bounds and withIssueSeverity/withStatus/withoutStatus.
// - patch: {productType, patches: [{op, path, value}]} on the image attributes only
//   (`/attributes/main_product_image_locator`, `…/other_product_image_locator_1`…`_8`, value
//   [{marketplace_id, media_location}]): 200 INVALID with issues (90000900 "The attributes are
//   invalid." for any other attribute, a wrong productType, a value without media_location), else
//   ACCEPTED, and later — `applyAfter(ms)`, 0 by default — the stand-in downloads each picture with
//   a real fetch and checks it as Amazon does (amazon-listings.ts): taken, or left as it was with an
//   issue on the listing, shown by the next GET with includedData=issues. A malformed body is 400
//   InvalidInput. `mode=VALIDATION_PREVIEW` answers VALID or INVALID and changes nothing.
//
// The checks of a picture are Seller Central's image requirements: JPEG, TIFF, PNG or
// non-animated GIF (told by their first bytes), 500 px or more on the longest side (a WARNING below
// 1,000 px, the size for zoom), at most 10,000 px, and a main image on pure white (RGB 255 255 255;
// here within 3 of 255 on 97% of a two-pixel frame, sampled with sharp). Amazon does not publish the
// issue codes of these checks; the stand-in's own are words (AMAZON_ISSUE_CODES).
//
// Differences from Amazon, on purpose: a PATCH of a SKU the seller does not have is ACCEPTED and
// then changes nothing (Amazon accepts it too and makes an incomplete listing); Amazon may keep a
// main image that breaks a content rule and suppress the listing, where the stand-in keeps the
// previous picture and shows the issue; revoking a refresh token also voids the access tokens it
// gave; no AWS Signature Version 4 is asked for; only the seller's marketplace exists. Seeded
// listings' pictures are served here (/images/<sku>/<n>.jpg, the main one on white), and so are
// the stand-in's copies of the pictures it took (/media/…), as Amazon re-hosts them.
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  INCLUDED_DATA,
  MAIN,
  OTHERS,
  PICTURE_SIDE,
  checkPicture,
  drawPicture,
  itemJson,
  listOf,
  listingView,
  mainImageMissing,
  newAsin,
  notRetrievable,
  readPatch,
  searchListings,
  type AmazonListing,
  type Change,
  type Issue,
  type Listing,
} from './amazon-listings';

export type { AmazonListing } from './amazon-listings';
export { AMAZON_ISSUE_CODES } from './amazon-listings';

/** A request as the stand-in received it (pictures it serves are not recorded). */
export interface AmazonRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  at: number;
}

interface Seller {
  sellerId: string;
  name: string;
  clientId: string;
  clientSecret: string;
  refreshToken: string;
  revoked: boolean;
  listings: Map<string, Listing>;
}

type Operation = 'searchListingsItems' | 'getListingsItem' | 'patchListingsItem';
const PLANS: Record<Operation, { rate: number; burst: number }> = {
  searchListingsItems: { rate: 5, burst: 5 },
  getListingsItem: { rate: 5, burst: 10 },
  patchListingsItem: { rate: 5, burst: 5 },
};
const ERRORS: Record<number, { code: string; message: string }> = {
  400: { code: 'InvalidInput', message: 'Request has missing or invalid parameters and cannot be parsed.' },
  403: { code: 'Unauthorized', message: 'Access to requested resource is denied.' },
  404: { code: 'NOT_FOUND', message: 'Resource not found.' },
  429: { code: 'QuotaExceeded', message: 'You exceeded your quota for the requested resource.' },
  500: { code: 'InternalFailure', message: 'We encountered an internal error. Please try again.' },
};
const INVALID_GRANT = "The request has an invalid grant parameter : refresh_token. User may have revoked or didn't grant the permission.";
const LISTINGS = '/listings/2021-08-01/items/';

const token = (prefix: string, bytes: number) => `${prefix}${crypto.randomBytes(bytes).toString('base64url')}`;
const upperId = (length: number) => Array.from({ length }, () => 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'[crypto.randomInt(36)]).join('');

export async function startFakeAmazon(options: { port?: number; marketplaceId?: string; accessTokenSeconds?: number; ratePerSecond?: number } = {}) {
  const marketplaceId = options.marketplaceId ?? 'A1PA6795UKMFR9';
  const sellers = new Map<string, Seller>();
  const byRefreshToken = new Map<string, Seller>();
  const accessTokens = new Map<string, { seller: Seller; expiresAt: number }>();
  const requests: AmazonRequest[] = [];
  const failures: { status: number; message?: string }[] = [];
  const buckets = new Map<string, { tokens: number; at: number }>();
  const lost = new WeakSet<http.ServerResponse>();
  let losses = 0;
  let delay = 0;
  const pending = new Set<Promise<void>>();
  /** Each listing's submissions, applied in the order they were accepted. */
  const chains = new Map<Listing, Promise<void>>();
  /** Submissions waiting for their time, to let go at once on close. */
  const waiting = new Map<NodeJS.Timeout, () => void>();
  const downloads = new AbortController();
  /** Pictures the stand-in drew or took, by path. */
  const media = new Map<string, { bytes: Buffer; type: string }>();
  let closed = false;
  let origin = '';

  const reply = (response: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    if (lost.has(response)) {
      // The request was handled; its answer never reaches the client.
      response.socket?.destroy();
      return;
    }
    response.writeHead(status, { 'content-type': 'application/json', ...headers });
    response.end(JSON.stringify(body));
  };
  const rateHeader = (operation: Operation | null): Record<string, string> => {
    if (!operation) return {};
    const rate = options.ratePerSecond ?? PLANS[operation].rate;
    return { 'x-amzn-RateLimit-Limit': Number.isInteger(rate) ? rate.toFixed(1) : String(rate) };
  };
  const fail = (response: http.ServerResponse, status: number, operation: Operation | null, message?: string, details?: string) => {
    const error = ERRORS[status] ?? ERRORS[500]!;
    const headers: Record<string, string> = {
      ...(status === 400 || status === 404 ? rateHeader(operation) : {}),
      ...(status === 403 ? { 'x-amzn-ErrorType': 'AccessDeniedException' } : {}),
    };
    reply(response, status, { errors: [{ code: error.code, message: message ?? error.message, details: details ?? '' }] }, headers);
  };

  // Login with Amazon's token endpoint.
  const exchange = (request: http.IncomingMessage, raw: string, response: http.ServerResponse) => {
    if (request.method !== 'POST') return reply(response, 405, { error: 'invalid_request', error_description: 'The request method must be POST' });
    let form: Record<string, unknown>;
    try {
      form = (request.headers['content-type'] ?? '').includes('json') ? (JSON.parse(raw) as Record<string, unknown>) : Object.fromEntries(new URLSearchParams(raw));
    } catch {
      return reply(response, 400, { error: 'invalid_request', error_description: 'The request body could not be parsed' });
    }
    for (const name of ['grant_type', 'client_id', 'client_secret']) {
      if (typeof form[name] !== 'string' || form[name] === '') return reply(response, 400, { error: 'invalid_request', error_description: `The request is missing a required parameter : ${name}` });
    }
    if (form.grant_type !== 'refresh_token') return reply(response, 400, { error: 'unsupported_grant_type', error_description: 'The authorization grant type is not supported by the authorization server' });
    const client = [...sellers.values()].find((seller) => seller.clientId === form.client_id);
    if (!client || client.clientSecret !== form.client_secret) return reply(response, 401, { error: 'invalid_client', error_description: 'Client authentication failed' });
    if (typeof form.refresh_token !== 'string' || form.refresh_token === '') return reply(response, 400, { error: 'invalid_request', error_description: 'The request is missing a required parameter : refresh_token' });
    const seller = byRefreshToken.get(form.refresh_token);
    // A refresh token belongs to one client and cannot be used by another (LWA, "Refresh Tokens").
    if (!seller || seller.revoked || seller !== client) return reply(response, 400, { error: 'invalid_grant', error_description: INVALID_GRANT });
    const lifetime = options.accessTokenSeconds ?? 3600;
    const accessToken = token('Atza|', 96);
    accessTokens.set(accessToken, { seller, expiresAt: Date.now() + lifetime * 1000 });
    return reply(response, 200, { access_token: accessToken, refresh_token: seller.refreshToken, token_type: 'bearer', expires_in: lifetime });
  };

  /** Takes a request from the operation's bucket for this seller, or says it is throttled. */
  const admit = (operation: Operation, sellerId: string) => {
    const rate = options.ratePerSecond ?? PLANS[operation].rate;
    const burst = options.ratePerSecond ?? PLANS[operation].burst;
    const key = `${operation} ${sellerId}`;
    const now = Date.now();
    const bucket = buckets.get(key) ?? { tokens: burst, at: now };
    bucket.tokens = Math.min(burst, bucket.tokens + ((now - bucket.at) / 1000) * rate);
    bucket.at = now;
    buckets.set(key, bucket);
    if (bucket.tokens < 1) return false;
    bucket.tokens -= 1;
    return true;
  };

  const search = (seller: Seller, url: URL, response: http.ServerResponse) => {
    const found = searchListings(seller.listings.values(), url.searchParams, marketplaceId);
    if ('bad' in found) return fail(response, 400, 'searchListingsItems', undefined, found.bad);
    return reply(response, 200, found.body, rateHeader('searchListingsItems'));
  };

  const getItem = (seller: Seller, sku: string, url: URL, response: http.ServerResponse) => {
    const op: Operation = 'getListingsItem';
    const included = url.searchParams.has('includedData') ? listOf(url.searchParams, 'includedData') : ['summaries'];
    if (included.some((name) => !INCLUDED_DATA.includes(name))) return fail(response, 400, op, undefined, 'includedData has a value that is not a data set.');
    const asked = listOf(url.searchParams, 'marketplaceIds');
    const listing = seller.listings.get(sku);
    if (!listing || !asked.includes(marketplaceId)) return fail(response, 404, op, `SKU '${sku}' not found in marketplace ${asked.join(',')}`);
    return reply(response, 200, itemJson(listing, marketplaceId, included), rateHeader(op));
  };

  /** Downloads, checks and applies one accepted submission's changes to the listing. */
  const apply = async (listing: Listing, changes: Change[]) => {
    const results = await Promise.all(
      changes.map(async ({ attribute, url }) => {
        if (url === null) return { attribute, url, checked: null, bytes: null, issues: [] as Issue[] };
        try {
          const answer = await fetch(url, { signal: AbortSignal.any([downloads.signal, AbortSignal.timeout(15_000)]) });
          if (!answer.ok) return { attribute, url, checked: null, bytes: null, issues: [notRetrievable(attribute, url, marketplaceId, `HTTP ${answer.status}`)] };
          const bytes = Buffer.from(await answer.arrayBuffer());
          const checked = await checkPicture(bytes, attribute, url, marketplaceId);
          return { attribute, url, checked, bytes, issues: checked.issues };
        } catch (error) {
          return { attribute, url, checked: null, bytes: null, issues: [notRetrievable(attribute, url, marketplaceId, (error as Error).message)] };
        }
      }),
    );
    if (closed) return;
    for (const { attribute, url, checked, bytes, issues } of results) {
      // A new submission of an attribute replaces what was said of it before.
      listing.issues = listing.issues.filter((issue) => !issue.attributeNames?.includes(attribute));
      if (url === null) listing.pictures.delete(attribute);
      else if (checked?.taken && bytes) {
        const path = `/media/${crypto.createHash('sha256').update(bytes).digest('hex').slice(0, 24)}.${checked.format === 'jpeg' ? 'jpg' : checked.format}`;
        media.set(path, { bytes, type: `image/${checked.format}` });
        listing.pictures.set(attribute, { mediaLocation: url, link: `${origin}${path}`, width: checked.width, height: checked.height });
      }
      listing.issues.push(...issues);
    }
    if (!listing.pictures.has(MAIN) && !listing.issues.some((issue) => issue.attributeNames?.includes(MAIN))) listing.issues.push(mainImageMissing(marketplaceId));
    listing.updatedAt = Date.now();
  };

  /** Runs an accepted submission after the delay, after the listing's earlier ones. */
  const schedule = (listing: Listing | undefined, changes: Change[]) => {
    const wait = delay;
    const run = async () => {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          waiting.delete(timer);
          resolve();
        }, wait);
        waiting.set(timer, resolve);
      });
      if (listing && !closed) await apply(listing, changes);
    };
    const before = listing ? (chains.get(listing) ?? Promise.resolve()) : Promise.resolve();
    const done = before.then(run, run).catch((error: unknown) => console.error('amazon stand-in: a submission failed', error));
    if (listing) chains.set(listing, done);
    pending.add(done);
    void done.finally(() => pending.delete(done));
  };

  const patchItem = (seller: Seller, sku: string, url: URL, raw: string, response: http.ServerResponse) => {
    const listing = seller.listings.get(sku);
    const read = readPatch(raw, url.searchParams, listing, marketplaceId);
    if ('bad' in read) return fail(response, 400, 'patchListingsItem', undefined, read.bad);
    const { issues, changes, mode, included } = read;
    const status = issues.length > 0 ? 'INVALID' : mode ? 'VALID' : 'ACCEPTED';
    if (status === 'ACCEPTED') schedule(listing, changes);
    return reply(
      response,
      200,
      {
        sku,
        status,
        submissionId: crypto.randomBytes(16).toString('hex'),
        ...(included.includes('issues') ? { issues } : {}),
        ...(mode && included.includes('identifiers') ? { identifiers: listing ? [{ marketplaceId, asin: listing.asin }] : [] } : {}),
      },
      rateHeader('patchListingsItem'),
    );
  };

  const api = (request: http.IncomingMessage, url: URL, raw: string, response: http.ServerResponse) => {
    if (losses > 0) {
      losses -= 1;
      lost.add(response);
    }
    const given = request.headers['x-amz-access-token'];
    if (typeof given !== 'string' || given === '') return fail(response, 403, null, undefined, 'Access token is missing in the request header.');
    const access = accessTokens.get(given);
    if (!access || access.seller.revoked) return fail(response, 403, null, undefined, 'The access token you provided is revoked, malformed or invalid.');
    if (Date.now() >= access.expiresAt) return fail(response, 403, null, undefined, 'The access token you provided has expired.');
    const segments = url.pathname
      .slice(LISTINGS.length)
      .split('/')
      .map((part) => {
        try {
          return decodeURIComponent(part);
        } catch {
          return '';
        }
      });
    const operation: Operation | null =
      segments.length === 1 && request.method === 'GET' ? 'searchListingsItems' : segments.length === 2 && request.method === 'GET' ? 'getListingsItem' : segments.length === 2 && request.method === 'PATCH' ? 'patchListingsItem' : null;
    if (!operation || segments.some((part) => part === '')) return fail(response, 403, null);
    const failure = failures.shift();
    if (failure) return fail(response, failure.status, operation, failure.message);
    const [sellerId, sku] = segments as [string, string | undefined];
    if (sellerId !== access.seller.sellerId) return fail(response, 403, null);
    if (!admit(operation, sellerId)) return fail(response, 429, null);
    if (listOf(url.searchParams, 'marketplaceIds').length === 0) return fail(response, 400, operation, undefined, 'marketplaceIds is required.');
    if (operation === 'searchListingsItems') return search(access.seller, url, response);
    if (operation === 'getListingsItem') return getItem(access.seller, sku!, url, response);
    return patchItem(access.seller, sku!, url, raw, response);
  };

  const picture = async (url: URL, response: http.ServerResponse) => {
    const drawn = /^\/images\/([^/]+)\/([0-8])\.jpg$/.exec(url.pathname);
    let found = media.get(url.pathname);
    if (!found && drawn) {
      const sku = decodeURIComponent(drawn[1]!);
      const exists = [...sellers.values()].some((seller) => seller.listings.has(sku));
      if (exists) {
        found = { bytes: await drawPicture(sku, Number(drawn[2])), type: 'image/jpeg' };
        media.set(url.pathname, found);
      }
    }
    if (!found) return reply(response, 404, { errors: [{ code: 'NOT_FOUND', message: 'No such picture.' }] });
    response.writeHead(200, { 'content-type': found.type, 'content-length': String(found.bytes.length) });
    response.end(found.bytes);
  };

  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://amazon.local');
      response.setHeader('x-amzn-RequestId', crypto.randomUUID());
      if (url.pathname.startsWith('/images/') || url.pathname.startsWith('/media/')) {
        picture(url, response).catch(() => reply(response, 500, { errors: [{ code: 'InternalFailure', message: 'The picture could not be drawn.' }] }));
        return;
      }
      requests.push({ method: request.method ?? 'GET', path: url.pathname, query: Object.fromEntries(url.searchParams), at: Date.now() });
      const raw = Buffer.concat(chunks).toString('utf8');
      if (url.pathname === '/auth/o2/token') return exchange(request, raw, response);
      if (url.pathname.startsWith(LISTINGS)) return api(request, url, raw, response);
      // The SP-API's gateway answers a path it does not have as access denied.
      return fail(response, 403, null);
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const sellerOf = (sellerId: string) => {
    const seller = sellers.get(sellerId);
    if (!seller) throw new Error(`no seller ${sellerId}`);
    return seller;
  };

  return {
    /** Both the LWA token URL's base and the SP-API's base. */
    origin,
    tokenUrl: `${origin}/auth/o2/token`,
    marketplaceId,
    /** A seller's private app: answers its credentials (and its seller id). */
    addSeller(seller: { name: string; listings?: { sku: string; itemName: string; productType?: string; pictures?: number }[] }) {
      const made: Seller = {
        sellerId: `A${upperId(13)}`,
        name: seller.name,
        clientId: `amzn1.application-oa2-client.${crypto.randomBytes(16).toString('hex')}`,
        clientSecret: `amzn1.oa2-cs.v1.${crypto.randomBytes(32).toString('hex')}`,
        refreshToken: token('Atzr|', 96),
        revoked: false,
        listings: new Map(),
      };
      const now = Date.now();
      const seeded = seller.listings ?? [];
      seeded.forEach((given, index) => {
        const count = Math.max(0, Math.min(9, given.pictures ?? 1));
        // One second apart, in the order given, so lastUpdatedDate sorts them as seeded.
        const at = now - (seeded.length - index) * 1000;
        const listing: Listing = { sku: given.sku, asin: newAsin(), productType: given.productType ?? 'SHOES', itemName: given.itemName, createdAt: at, updatedAt: at, pictures: new Map(), issues: [] };
        for (let n = 0; n < count; n += 1) {
          const location = `${origin}/images/${encodeURIComponent(given.sku)}/${n}.jpg`;
          listing.pictures.set(n === 0 ? MAIN : OTHERS[n - 1]!, { mediaLocation: location, link: location, width: PICTURE_SIDE, height: PICTURE_SIDE });
        }
        if (count === 0) listing.issues.push(mainImageMissing(marketplaceId));
        made.listings.set(given.sku, listing);
      });
      sellers.set(made.sellerId, made);
      byRefreshToken.set(made.refreshToken, made);
      return { clientId: made.clientId, clientSecret: made.clientSecret, refreshToken: made.refreshToken, sellerId: made.sellerId };
    },
    /** The seller withdraws the app's authorisation: the next exchange is invalid_grant, its access tokens are refused. */
    revoke(refreshToken: string) {
      const seller = byRefreshToken.get(refreshToken);
      if (!seller) throw new Error('no such refresh token');
      seller.revoked = true;
    },
    /** The seller's listings as they are now (a copy). */
    listings(sellerId: string): AmazonListing[] {
      return [...sellerOf(sellerId).listings.values()].map(listingView);
    },
    /** Every token exchange and SP-API request, oldest first. */
    requests: requests as readonly AmazonRequest[],
    /** The next `count` SP-API requests with a valid token answer this error (in the SP-API's shape for that status). */
    failNext(count: number, status: 400 | 403 | 404 | 429 | 500, message?: string) {
      for (let i = 0; i < count; i += 1) failures.push({ status, message });
    },
    /** Submissions accepted from now on are applied `ms` after they were accepted. */
    applyAfter(ms: number) {
      delay = ms;
    },
    /** The next `count` SP-API requests are handled, but their answers are lost (the connection is cut). */
    loseNextAnswers(count: number) {
      losses += count;
    },
    /** Resolves once every accepted submission has been applied. */
    async settled(): Promise<void> {
      while (pending.size > 0) await Promise.all([...pending]);
    },
    close(): Promise<void> {
      closed = true;
      downloads.abort();
      for (const [timer, resolve] of waiting) {
        clearTimeout(timer);
        resolve();
      }
      waiting.clear();
      return new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
    },
  };
}
