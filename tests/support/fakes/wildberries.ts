// A local stand-in for Wildberries' Content API (content-api.wildberries.ru), speaking its protocol
// for what a publisher of a seller's pictures and video uses, as WB's OpenAPI documents ("Общее"
// 01-general.yaml, "Работа с товарами" 02-products.yaml) and knowledge base describe it. Media —
// /content/v3/media/save and /content/v3/media/file, their checks, and the pictures' addresses —
// are in wildberries-media.ts.
//
// - Auth: `Authorization: <token>` (a `Bearer ` before it is taken too, as WB's newer articles
//   write it). Tokens are JWTs this stand-in mints, signed with HMAC over its own secret (WB signs
//   with ES256): `exp` in seconds, `sid` the seller's UUID, `oid` its number, `s` the bitmask of
//   the categories granted — bit 1 Контент, 3 Цены и скидки, 5 Статистика (WB's "Как устроен
//   токен"). A missing, garbled, forged or expired token is 401 in WB's problem shape (title,
//   detail, code, requestId, origin, status, statusText, timestamp; application/problem+json) with
//   the golang-jwt wording of WB's example; a token without Контент is 401 "token scope not
//   allowed", on /ping too, which checks that the token's category matches the service.
// - GET /ping → {TS, Status: "OK"}; at most 3 in 30 s.
// - POST /content/v2/get/cards/list: settings.cursor {limit ≤ 100, default 10; updatedAt, nmID},
//   settings.filter {withPhoto: -1 all, 0 (the default) without photos, 1 with; textSearch: vendor
//   code, nmID or barcode}, settings.sort.ascending (by updatedAt; newest first unless true). The
//   answer's cursor names the page's last card and `total` counts the page: the last page is the
//   one shorter than `limit`. A body that is no JSON is 400 in plain text, as WB documents.
// - Errors 400/403/409/422 as {data: null, error: true, errorText, additionalErrors}.
// - Limits per seller account for the Content methods, a token bucket: 100 a minute in bursts of
//   5 (WB's table: period 1 min, limit 100, interval 600 ms, burst 5). Answers carry
//   X-Ratelimit-Remaining; a 429 carries X-Ratelimit-Retry (seconds until one more request may
//   go), X-Ratelimit-Limit (the burst) and X-Ratelimit-Reset (seconds until the burst is whole).
//
// Where WB's documents differ from what the team was told: textSearch does not search titles; a
// media/save with one failing file applies nothing (not "only what passes"); the success
// envelope's data is {} (not null); /ping refuses a token of another category and has its own
// limit; the Content limit counts per seller account, in bursts of 5.
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  type CardMedia,
  type WildberriesPhoto,
  applyQueue,
  checkMedia,
  downloadMedia,
  mediaUrls,
  placeUpload,
  plainPhoto,
  readSave,
  readUpload,
  savedMedia,
  serveCardMedia,
  uploadRefusal,
} from './wildberries-media';

export type { WildberriesPhoto };

/** A card as a reader of it sees it (the list answers more fields: sizes, dimensions, …). */
export interface WildberriesCard {
  nmID: number;
  imtID: number;
  vendorCode: string;
  title: string;
  brand: string;
  subjectName: string;
  photos: WildberriesPhoto[];
  video?: string;
  createdAt: string;
  updatedAt: string;
}

type Category = 'content' | 'prices' | 'statistics';
/** Positions in the token's `s` bitmask. */
const CATEGORY_BITS: Record<Category, number> = { content: 1, prices: 3, statistics: 5 };
const CONTENT = 1 << CATEGORY_BITS.content;

interface Seller {
  name: string;
  sid: string;
  oid: number;
  cards: Card[];
}

interface Card extends CardMedia {
  seller: Seller;
  imtID: number;
  nmUUID: string;
  chrtID: number;
  barcode: string;
  vendorCode: string;
  title: string;
  createdAt: string;
  updatedAt: string;
}

type FaultStatus = 401 | 403 | 409 | 422 | 429 | 500;
const ROUTES: Record<string, { method: string; ping?: true }> = {
  '/ping': { method: 'GET', ping: true },
  '/content/v2/get/cards/list': { method: 'POST' },
  '/content/v3/media/save': { method: 'POST' },
  '/content/v3/media/file': { method: 'POST' },
};
const MAX_BODY = 60 * 1024 * 1024;
const DAY = 24 * 60 * 60_000;
const PING_LIMIT = { count: 3, windowMs: 30_000 };

export async function startFakeWildberries(options: { port?: number; ratePerMinute?: number; burst?: number } = {}) {
  const ratePerMinute = options.ratePerMinute ?? 100;
  const burst = options.burst ?? Math.min(5, ratePerMinute);
  const secret = crypto.randomBytes(32);
  const keyId = crypto.randomUUID();
  const sellers = new Map<string, Seller>();
  const cardsByNm = new Map<number, Card>();
  const requests: { method: string; path: string; token: string | null; at: number }[] = [];
  const refusals: { nmID: number; reasons: string[]; at: number }[] = [];
  const limited: number[] = [];
  const buckets = new Map<string, { tokens: number; at: number }>();
  const pings = new Map<string, number[]>();
  const faults: { status: FaultStatus; errorText?: string }[] = [];
  const refusedTexts: string[] = [];
  const queue = applyQueue();
  let applyDelay = 0;
  let answersToLose = 0;
  let origin = '';
  let nextNm = 100_000_000 + crypto.randomInt(100_000_000);
  let nextOid = 1_000_000 + crypto.randomInt(1_000_000);
  let lastStamp = 0;

  /** updatedAt stamps, strictly increasing so that a cursor never ties. */
  const stamp = () => {
    lastStamp = Math.max(Date.now(), lastStamp + 1);
    return new Date(lastStamp).toISOString();
  };
  // Tokens -----------------------------------------------------------------------------------
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const sign = (text: string) => crypto.createHmac('sha256', secret).update(text).digest();
  const mint = (payload: object) => {
    const signed = `${part({ alg: 'HS256', kid: keyId, typ: 'JWT' })}.${part(payload)}`;
    return `${signed}.${sign(signed).toString('base64url')}`;
  };
  /** The seller and categories of a token, or why it is refused (WB's `detail`). */
  const verify = (token: string | null, now = Date.now()): { seller: Seller; scopes: number } | string => {
    if (!token) return 'empty Authorization header';
    const pieces = token.split('.');
    if (pieces.length !== 3) return 'token problem; token is malformed: token contains an invalid number of segments';
    const [head, body, signature] = pieces as [string, string, string];
    let payload: { exp?: unknown; s?: unknown; sid?: unknown };
    try {
      JSON.parse(Buffer.from(head, 'base64url').toString('utf8'));
      payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as typeof payload;
    } catch {
      return 'token problem; token is malformed: could not JSON decode claims';
    }
    if (!/^[A-Za-z0-9_-]+$/.test(signature)) return 'token problem; token is malformed: could not base64 decode signature';
    const expected = sign(`${head}.${body}`);
    const given = Buffer.from(signature, 'base64url');
    if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) return 'token problem; token signature is invalid: signature is invalid';
    if (typeof payload.exp !== 'number' || payload.exp * 1000 <= now) return 'token problem; token has invalid claims: token is expired';
    const seller = sellers.get(String(payload.sid));
    if (!seller) return 'token problem; seller not found';
    return { seller, scopes: Number(payload.s) };
  };

  // Answers ----------------------------------------------------------------------------------
  const send = (response: http.ServerResponse, status: number, body: unknown, headers: http.OutgoingHttpHeaders = {}) => {
    response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
    response.end(JSON.stringify(body));
  };
  const plain = (response: http.ServerResponse, status: number, text: string) => {
    response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' });
    response.end(text);
  };
  const envelope = (response: http.ServerResponse, status: number, errorText: string, additionalErrors: unknown = null) =>
    send(response, status, { data: null, error: true, errorText, additionalErrors });
  const done = (response: http.ServerResponse) => send(response, 200, { data: {}, error: false, errorText: '', additionalErrors: null });
  const problem = (response: http.ServerResponse, status: 401 | 429, detail: string, headers: http.OutgoingHttpHeaders = {}) => {
    response.writeHead(status, { 'content-type': 'application/problem+json', ...headers });
    response.end(
      JSON.stringify({
        title: status === 401 ? 'unauthorized' : 'too many requests',
        detail,
        code: `07e4668e-${crypto.randomBytes(6).toString('hex')}-[UK-${crypto.randomBytes(8).toString('base64url').slice(0, 11)}]`,
        requestId: crypto.randomBytes(16).toString('hex'),
        origin: 's2s-api-auth-catalog',
        status,
        statusText: http.STATUS_CODES[status],
        timestamp: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
      }),
    );
  };
  const tooMany = (response: http.ServerResponse, retry: number, reset: number, limit: number) => {
    limited.push(Date.now());
    problem(response, 429, `limited by ${crypto.randomUUID()}`, {
      'X-Ratelimit-Retry': String(retry),
      'X-Ratelimit-Limit': String(limit),
      'X-Ratelimit-Reset': String(reset),
    });
  };

  /** Takes one request from the seller's bucket: how many are left, or how long to wait. */
  const takeContent = (seller: Seller) => {
    const now = Date.now();
    const perMs = ratePerMinute / 60_000;
    const bucket = buckets.get(seller.sid) ?? { tokens: burst, at: now };
    bucket.tokens = Math.min(burst, bucket.tokens + (now - bucket.at) * perMs);
    bucket.at = now;
    buckets.set(seller.sid, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return { remaining: Math.floor(bucket.tokens) };
    }
    return { retry: Math.ceil((1 - bucket.tokens) / perMs / 1000), reset: Math.ceil((burst - bucket.tokens) / perMs / 1000), limit: burst };
  };
  const takePing = (seller: Seller) => {
    const now = Date.now();
    const recent = (pings.get(seller.sid) ?? []).filter((at) => at > now - PING_LIMIT.windowMs);
    pings.set(seller.sid, recent);
    if (recent.length < PING_LIMIT.count) {
      recent.push(now);
      return { remaining: PING_LIMIT.count - recent.length };
    }
    const wait = Math.ceil((recent[0]! + PING_LIMIT.windowMs - now) / 1000);
    return { retry: wait, reset: Math.ceil((recent.at(-1)! + PING_LIMIT.windowMs - now) / 1000), limit: PING_LIMIT.count };
  };

  // Cards ------------------------------------------------------------------------------------
  const view = (card: Card): WildberriesCard => ({
    nmID: card.nmID,
    imtID: card.imtID,
    vendorCode: card.vendorCode,
    title: card.title,
    brand: card.seller.name,
    subjectName: 'Кроссовки',
    ...mediaUrls(origin, card),
    createdAt: card.createdAt,
    updatedAt: card.updatedAt,
  });
  /** The card as /content/v2/get/cards/list answers it. */
  const wire = (card: Card) => {
    const { video, ...seen } = view(card);
    return {
      ...seen,
      nmUUID: card.nmUUID,
      subjectID: 105,
      description: `${card.title}.`,
      needKiz: false,
      ...(video ? { video } : {}),
      wholesale: { enabled: false, quantum: 0 },
      dimensions: { length: 33, width: 21, height: 12, weightBrutto: 0.9, isValid: true },
      characteristics: [],
      sizes: [{ chrtID: card.chrtID, techSize: '42', wbSize: '42', skus: [card.barcode] }],
      tags: [],
    };
  };

  const listCards = (seller: Seller, raw: string, response: http.ServerResponse) => {
    let body: { settings?: { sort?: { ascending?: unknown }; filter?: { withPhoto?: unknown; textSearch?: unknown }; cursor?: { limit?: unknown; updatedAt?: unknown; nmID?: unknown } } };
    try {
      body = JSON.parse(raw) as typeof body;
      if (typeof body !== 'object' || body === null) throw new Error('not an object');
    } catch {
      return plain(response, 400, 'Request body can not be decoded');
    }
    const { sort = {}, filter = {}, cursor = {} } = body.settings ?? {};
    const limit = cursor.limit ?? 10;
    if (!Number.isInteger(limit) || (limit as number) < 1 || (limit as number) > 100) return envelope(response, 400, 'Invalid cursor.limit: from 1 to 100');
    const withPhoto = filter.withPhoto ?? 0;
    if (withPhoto !== -1 && withPhoto !== 0 && withPhoto !== 1) return envelope(response, 400, 'Invalid filter.withPhoto: -1, 0 or 1');
    const ascending = sort.ascending === true;
    let from: [number, number] | null = null;
    if (cursor.updatedAt !== undefined || cursor.nmID !== undefined) {
      const at = cursor.updatedAt === undefined ? (ascending ? 0 : Infinity) : Date.parse(String(cursor.updatedAt));
      if (Number.isNaN(at) || !Number.isFinite(Number(cursor.nmID ?? 0))) return envelope(response, 400, 'Invalid cursor');
      from = [at, Number(cursor.nmID ?? 0)];
    }
    const search = typeof filter.textSearch === 'string' ? filter.textSearch.trim().toLowerCase() : '';
    const order = (a: [number, number], b: [number, number]) => (a[0] - b[0] || a[1] - b[1]) * (ascending ? 1 : -1);
    const key = (card: Card): [number, number] => [Date.parse(card.updatedAt), card.nmID];
    const page = seller.cards
      .filter((card) => withPhoto === -1 || (withPhoto === 1) === card.photos.length > 0)
      .filter((card) => !search || card.vendorCode.toLowerCase().includes(search) || String(card.nmID) === search || card.barcode === search)
      .filter((card) => !from || order(key(card), from) > 0)
      .sort((a, b) => order(key(a), key(b)))
      .slice(0, limit as number);
    const last = page.at(-1);
    return send(response, 200, {
      cards: page.map(wire),
      cursor: last ? { updatedAt: last.updatedAt, nmID: last.nmID, total: page.length } : { updatedAt: cursor.updatedAt, nmID: cursor.nmID, total: 0 },
    });
  };

  const refuse = (card: Card, reasons: string[]) => refusals.push({ nmID: card.nmID, reasons, at: Date.now() });
  const ownCard = (seller: Seller, nm: unknown) => {
    const card = typeof nm === 'number' ? cardsByNm.get(nm) : undefined;
    return card?.seller === seller ? card : undefined;
  };

  const saveMedia = (seller: Seller, raw: string, request: http.IncomingMessage, response: http.ServerResponse) => {
    const read = readSave(raw);
    if ('errorText' in read) return envelope(response, read.status, read.errorText);
    const card = ownCard(seller, read.nmId);
    if (!card) return envelope(response, 403, 'Access denied');
    const prepare = Promise.all(read.links.map((link) => downloadMedia(link))).then((checked) => () => {
      const outcome = savedMedia(read.links, checked, refusedTexts);
      if ('reasons' in outcome) return void refuse(card, outcome.reasons);
      card.photos = outcome.photos;
      card.video = outcome.video;
      card.updatedAt = stamp();
    });
    queue.accept(card, prepare, applyDelay);
    return acknowledge(request, response);
  };

  const uploadMedia = async (seller: Seller, body: Buffer, request: http.IncomingMessage, response: http.ServerResponse) => {
    const read = readUpload(request.headers, body);
    if ('errorText' in read) return read.plain ? plain(response, read.status, read.errorText) : envelope(response, read.status, read.errorText);
    const card = ownCard(seller, read.nmId);
    if (!card) return envelope(response, 403, 'Access denied');
    const checked = await checkMedia(read.file);
    if (!checked.ok) return envelope(response, 400, checked.reason);
    const refused = uploadRefusal(card, checked, read.number);
    if (refused) return envelope(response, 400, refused);
    const apply = () => {
      const late = placeUpload(card, checked, read.number);
      if (late) refuse(card, [late]);
      else card.updatedAt = stamp();
    };
    queue.accept(card, Promise.resolve(apply), applyDelay);
    return acknowledge(request, response);
  };

  /** The answer to an accepted media request, unless it is to be lost on the way. */
  const acknowledge = (request: http.IncomingMessage, response: http.ServerResponse) => {
    if (answersToLose > 0) {
      answersToLose -= 1;
      request.socket.destroy();
      return;
    }
    done(response);
  };

  const fault = (response: http.ServerResponse, failure: { status: FaultStatus; errorText?: string }) => {
    if (failure.status === 401) return problem(response, 401, failure.errorText ?? 'token problem; token is revoked');
    if (failure.status === 429) return tooMany(response, 1, 1, burst);
    const texts: Record<number, string> = { 403: 'Access denied', 409: 'Failed to save some of the links', 422: 'Unprocessable request', 500: 'Internal Server Error' };
    const errorText = failure.errorText ?? texts[failure.status]!;
    return envelope(response, failure.status, errorText, failure.status === 403 ? errorText : null);
  };

  const api = async (request: http.IncomingMessage, body: Buffer, response: http.ServerResponse, path: string) => {
    const header = request.headers.authorization;
    const token = header ? header.replace(/^Bearer\s+/i, '').trim() : null;
    requests.push({ method: request.method ?? 'GET', path, token, at: Date.now() });
    const route = ROUTES[path];
    if (!route) return plain(response, 404, '404 page not found');
    if (request.method !== route.method) return plain(response, 405, 'Method Not Allowed');
    const auth = verify(token);
    if (typeof auth === 'string') return problem(response, 401, auth);
    if ((auth.scopes & CONTENT) === 0) return problem(response, 401, 'token scope not allowed');
    const taken = route.ping ? takePing(auth.seller) : takeContent(auth.seller);
    if (taken.retry !== undefined) return tooMany(response, taken.retry, taken.reset, taken.limit);
    response.setHeader('X-Ratelimit-Remaining', String(taken.remaining));
    const failure = faults.shift();
    if (failure) return fault(response, failure);
    if (body.length > MAX_BODY) return envelope(response, 413, 'Request body is too large');
    if (route.ping) {
      const moscow = new Date(Date.now() + 3 * 60 * 60_000).toISOString().slice(0, 19);
      return send(response, 200, { TS: `${moscow}+03:00`, Status: 'OK' });
    }
    if (path === '/content/v2/get/cards/list') return listCards(auth.seller, body.toString('utf8'), response);
    if (path === '/content/v3/media/save') return saveMedia(auth.seller, body.toString('utf8'), request, response);
    return uploadMedia(auth.seller, body, request, response);
  };

  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY + 1) chunks.push(chunk);
    });
    request.on('end', () => {
      const path = new URL(request.url ?? '/', 'http://content-api.wildberries.local').pathname;
      // A card's pictures and video, where its URLs point, are no API requests: neither recorded nor limited.
      const handling = (request.method === 'GET' ? serveCardMedia((nm) => cardsByNm.get(nm), path, response) : Promise.resolve(false)).then(
        async (served) => void (served || (await api(request, Buffer.concat(chunks), response, path))),
      );
      void handling.catch((error: unknown) => {
        if (!response.headersSent) plain(response, 500, `stand-in failure: ${(error as Error).message}`);
        else response.destroy();
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const sellerOf = (token: string) => {
    const auth = verify(token, 0);
    if (typeof auth === 'string') throw new Error(`not a token of this stand-in: ${auth}`);
    return auth.seller;
  };

  return {
    /** The adapter's base URL (https://content-api.wildberries.ru in production). */
    origin,
    close(): Promise<void> {
      queue.close();
      return new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
    },
    /** A seller with cards; answers their token (valid 180 days from now unless expiresAt). */
    addSeller(seller: { name: string; categories?: Category[]; expiresAt?: Date; cards?: { vendorCode: string; title: string; photos?: number }[] }): {
      token: string;
      supplierId: string;
    } {
      const made: Seller = { name: seller.name, sid: crypto.randomUUID(), oid: (nextOid += 1), cards: [] };
      sellers.set(made.sid, made);
      for (const [index, wanted] of (seller.cards ?? []).entries()) {
        const nmID = (nextNm += 1 + crypto.randomInt(50));
        const at = stamp();
        const photos = Array.from({ length: wanted.photos ?? 0 }, (_, n) =>
          plainPhoto((70 + index * 47 + n * 31) % 256, (140 + index * 23 + n * 59) % 256, (200 + index * 71 + n * 17) % 256),
        );
        const card: Card = {
          seller: made,
          nmID,
          imtID: nmID + 250_000_000,
          nmUUID: crypto.randomUUID(),
          chrtID: nmID + 400_000_000,
          barcode: `20${String(nmID).padStart(11, '0')}`,
          vendorCode: wanted.vendorCode,
          title: wanted.title,
          photos,
          createdAt: at,
          updatedAt: at,
        };
        made.cards.push(card);
        cardsByNm.set(nmID, card);
      }
      const scopes = (seller.categories ?? ['content']).reduce((bits, category) => bits | (1 << CATEGORY_BITS[category]), 0);
      const expires = seller.expiresAt?.getTime() ?? Date.now() + 180 * DAY;
      const token = mint({ id: crypto.randomUUID(), oid: made.oid, sid: made.sid, s: scopes, t: false, exp: Math.floor(expires / 1000) });
      return { token, supplierId: made.sid };
    },
    /** A seller's cards as they stand now (what a reader of the card would see). */
    cards(token: string): WildberriesCard[] {
      return sellerOf(token).cards.map(view);
    },
    /** Every API request received, in order (not the pictures' and videos' downloads). */
    requests: requests as readonly { method: string; path: string; token: string | null; at: number }[],
    /** When each 429 was answered (the limits, or failNext's), in order. */
    limited: limited as readonly number[],
    /** Media changes that were accepted (200) but not applied, with why. */
    refusals: refusals as readonly { nmID: number; reasons: string[]; at: number }[],
    /** The next `count` API requests (with a valid token, within the limits) answer this error. */
    failNext(count: number, status: FaultStatus, errorText?: string): void {
      for (let i = 0; i < count; i += 1) faults.push({ status, errorText });
    },
    /** Media applies this long after it was accepted (default 0 = at once, still asynchronously after the answer). */
    applyAfter(ms: number): void {
      applyDelay = ms;
    },
    /** The next `count` accepted media requests are applied but their answer is lost (the socket is destroyed before a response). */
    loseNextAnswers(count: number): void {
      answersToLose += count;
    },
    /**
     * Pictures whose URL contains this text are refused when applying, as if WB refused them: as
     * WB documents, the media/save naming one then applies nothing.
     */
    refuseUrlsContaining(text: string): void {
      refusedTexts.push(text);
    },
    /** Resolves when every accepted media change has been applied (or refused). */
    settled(): Promise<void> {
      return queue.settled();
    },
  };
}
