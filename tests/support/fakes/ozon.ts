// A local stand-in for the Ozon Seller API (api-seller.ozon.ru), speaking what a publisher of
// product pictures uses: the Client-Id and Api-Key headers, Ozon's gRPC-style errors
// `{code, message, details: []}` (16 unauthenticated, 7 permission denied, 3 invalid argument,
// 5 not found, 8 rate limit, 13 internal), POST /v1/roles (the key's roles, each with its methods,
// and when the key expires), POST /v3/product/list (paged by last_id), POST /v3/product/info/list,
// POST /v2/product/pictures/import (items by offer_id; replaces all of a product's pictures; answers
// a task_id at once and applies later), POST /v1/product/import/info (that task's items: pending,
// then imported, failed with its errors, or skipped when nothing changed) and POST
// /v2/product/pictures/info (a product's pictures and the errors of its last import). Every API
// request is recorded. Tests act as Ozon's side would: seed sellers and products, make requests
// fail, delay imports, lose an answer, refuse links.
//
// As Ozon does, the stand-in downloads each link (real fetch) and takes only JPG or PNG, told by
// their first bytes, of at most 10 MB and from 200×200 to 7000×7000 px (ozon-pictures.ts); the
// pictures it took are then served from its own address (`/s3/multimedia-1/…`, as Ozon's own CDN
// links), so a product's `images` are the stand-in's links, not the ones the seller sent. A link
// that is already one of a product's pictures (its Ozon link, or the link it was imported from) is
// taken again without a download, and an import that changes nothing is `skipped`. Links that
// fail are left out and named in the errors; when every link of an item fails, the product keeps
// the pictures it had. Seeded products' pictures are plain JPEGs at `/images/<product_id>/<n>.jpg`.
//
// From Ozon's Seller API reference (docs.ozon.ru/api/seller, swagger 2.1 as copied into
// github.com/phpsoftbox/ozon docs/swagger.json, Apr 2026, and salacoste/ozon-daytona-seller-api;
// its News section and the v2 import page as copied on 7 Sep 2026): /v2/product/pictures/import
// was added on 3 Sep 2026 (`items` ≤ 100 of `{offer_id, primary_image, color_image, images ≤ 30}`
// → `{task_id}`, read with /v1/product/import/info) and /v1/product/pictures/import was switched
// off on 1 Oct 2026 (/v1/product/pictures/info on 11 Feb 2025): both answer 404 here. In
// /v3/product/info/list `primary_image` and `color_image` are arrays of links. /v1/roles answers
// `{expires_at, roles: [{name, methods}]}`. «Offer not signed» is a 403 any method answers while the
// seller has not accepted Ozon's current offer (failNext(n, 403) answers it). The error messages
// for keys and the rate limit are those of the reference's «Частые ошибки»; their HTTP statuses and
// codes are not documented there and follow answers seen from Ozon (missing headers 401/16, a
// refused key 403/7, the limit 429/8 with Retry-After in seconds). The documented limit is 50
// requests a second per Client-Id (`ratePerSecond`); the per-minute item limit the reference gives
// some product methods (429 with Item-Retry-After in minutes) is not modelled. Not found in Ozon's
// documents: the picture size and resolution limits (the knowledge base says JPG/PNG and at most
// 30 pictures), how long a key lasts (90 days here), the wording of picture errors, what a
// switched-off method answers, and role names. One SDK's changelog (6 Oct 2026) speaks of 50
// images per v2 item; the reference copied in September says 30, which this stand-in enforces.
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { MAX_PICTURES, itemError, pictureHost, type Held, type OzonProduct, type TaskItem, type Wanted } from './ozon-pictures';

export type { OzonProduct };

type Role = 'product' | 'prices' | 'finance';
type Status = 400 | 403 | 404 | 409 | 429 | 500;

/** What /v1/roles lists for each role; the methods this stand-in answers are all the product role's. */
const ROLES: Record<Role, { name: string; methods: string[] }> = {
  product: {
    name: 'Product',
    methods: ['/v3/product/import', '/v1/product/import/info', '/v3/product/list', '/v3/product/info/list', '/v4/product/info/attributes', '/v1/product/attributes/update', '/v2/product/pictures/import', '/v2/product/pictures/info', '/v4/product/info/limit'],
  },
  prices: { name: 'Prices and stocks', methods: ['/v1/product/import/prices', '/v5/product/info/prices', '/v2/products/stocks', '/v4/product/info/stocks'] },
  finance: { name: 'Finance', methods: ['/v3/finance/transaction/list', '/v3/finance/transaction/totals', '/v2/finance/realization'] },
};
const GRPC_CODE: Record<number, number> = { 400: 3, 401: 16, 403: 7, 404: 5, 409: 10, 429: 8, 500: 13 };
const FAULT: Record<Status, string> = {
  400: 'Invalid request',
  403: 'Offer not signed',
  404: 'Not found',
  409: 'Request conflict',
  429: 'You have reached request rate limit per second',
  500: 'Internal error',
};
const SWITCHED_OFF: Record<string, string> = {
  '/v1/product/pictures/import': 'Method /v1/product/pictures/import is switched off since 1 October 2026: use /v2/product/pictures/import',
  '/v1/product/pictures/info': 'Method /v1/product/pictures/info is switched off since 11 February 2025: use /v2/product/pictures/info',
};
const VISIBILITIES = new Set(['ALL', 'VISIBLE', 'INVISIBLE', 'EMPTY_STOCK', 'NOT_MODERATED', 'MODERATED', 'DISABLED', 'STATE_FAILED', 'READY_TO_SUPPLY', 'VALIDATION_STATE_PENDING', 'VALIDATION_STATE_FAIL', 'VALIDATION_STATE_SUCCESS', 'TO_SUPPLY', 'IN_SALE', 'REMOVED_FROM_SALE', 'OVERPRICED', 'CRITICALLY_OVERPRICED', 'EMPTY_BARCODE', 'BARCODE_EXISTS', 'QUARANTINE', 'ARCHIVED', 'OVERPRICED_WITH_STOCK', 'PARTIAL_APPROVED']);
const DAY = 24 * 60 * 60_000;

interface Seller {
  clientId: string;
  apiKey: string;
  name: string;
  roles: Role[];
  expiresAt: Date;
  products: Held[];
  /** The end of its import queue: imports apply one after another, in the order they were accepted. */
  queue: Promise<void>;
}
type Body = Record<string, unknown>;

class Refusal extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}
const invalid = (message: string) => new Refusal(400, message);
const strings = (value: unknown): value is string[] => Array.isArray(value) && value.every((item) => typeof item === 'string');
const ids = (value: unknown): number[] | null => (Array.isArray(value) && value.every((item) => /^\d+$/.test(String(item))) ? value.map(Number) : null);

export async function startFakeOzon(options: { port?: number; ratePerSecond?: number } = {}) {
  const ratePerSecond = options.ratePerSecond ?? 50;
  const sellers = new Map<string, Seller>();
  const requests: { method: string; path: string; clientId: string | null; at: number }[] = [];
  const tasks = new Map<number, { clientId: string; items: TaskItem[] }>();
  const hits = new Map<string, number[]>();
  const faults: { status: Status; message: string }[] = [];
  const refusals: { text: string; message: string }[] = [];
  const running = new Set<Promise<void>>();
  const sleepers = new Set<() => void>();
  const closing = new AbortController();
  let applyDelay = 0;
  let answersToLose = 0;
  let nextProductId = 800_000_000 + crypto.randomInt(100_000_000);
  let nextTaskId = 1_000_000 + crypto.randomInt(8_000_000);
  let origin = '';
  const pictures = pictureHost({
    origin: () => origin,
    signal: closing.signal,
    refusals,
    isProduct: (productId) => [...sellers.values()].some((seller) => seller.products.some((held) => held.product.product_id === productId)),
  });

  const send = (response: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    response.writeHead(status, { 'content-type': 'application/json', ...headers });
    response.end(JSON.stringify(body));
  };
  const fail = (response: http.ServerResponse, status: number, message: string, headers: Record<string, string> = {}) =>
    send(response, status, { code: GRPC_CODE[status] ?? 2, message, details: [] }, headers);

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        sleepers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      sleepers.add(wake);
    });

  const authenticate = (request: http.IncomingMessage): Seller => {
    const clientId = request.headers['client-id'];
    const apiKey = request.headers['api-key'];
    if (typeof clientId !== 'string' || !clientId || typeof apiKey !== 'string' || !apiKey) throw new Refusal(401, 'Client-Id and Api-Key headers are required');
    const seller = sellers.get(clientId);
    if (seller?.apiKey !== apiKey) throw new Refusal(403, 'Invalid Api-Key, please check the key and try again');
    if (seller.expiresAt.getTime() <= Date.now()) throw new Refusal(403, 'Api-key is deactivated, use another one or generate a new one');
    return seller;
  };

  /** At most `ratePerSecond` requests in any second per Client-Id; past that, 429 and how many seconds to wait. */
  const countRequest = (clientId: string) => {
    const now = Date.now();
    const recent = (hits.get(clientId) ?? []).filter((at) => now - at < 1000);
    hits.set(clientId, recent);
    if (recent.length >= ratePerSecond) {
      const wait = Math.max(1, Math.ceil((recent[0]! + 1000 - now) / 1000));
      throw new Refusal(429, FAULT[429], { 'retry-after': String(wait), 'ratelimit-remaining': '0' });
    }
    recent.push(now);
  };

  const productList = (seller: Seller, body: Body) => {
    const filter = (body.filter ?? {}) as Body;
    const limit = body.limit;
    if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > 1000) throw invalid('invalid GetProductListRequest.Limit: value must be inside range [1, 1000]');
    const visibility = filter.visibility ?? 'ALL';
    if (typeof visibility !== 'string' || !VISIBILITIES.has(visibility)) throw invalid(`invalid GetProductListRequest.Filter.Visibility: unknown value ${JSON.stringify(visibility)}`);
    const offerIds = filter.offer_id === undefined ? null : strings(filter.offer_id) ? filter.offer_id : undefined;
    const productIds = filter.product_id === undefined ? null : (ids(filter.product_id) ?? undefined);
    if (offerIds === undefined || productIds === undefined) throw invalid('invalid GetProductListRequest.Filter: offer_id and product_id must be lists of identifiers');
    if (offerIds?.length && productIds?.length) throw invalid('invalid GetProductListRequest.Filter: use one group of identifiers at a time, offer_id or product_id');
    if ((offerIds?.length ?? 0) + (productIds?.length ?? 0) > 1000) throw invalid('invalid GetProductListRequest.Filter: no more than 1000 identifiers');
    let after = 0;
    if (typeof body.last_id === 'string' && body.last_id) {
      const decoded = (() => {
        try {
          return JSON.parse(Buffer.from(body.last_id, 'base64').toString('utf8')) as unknown;
        } catch {
          return undefined;
        }
      })();
      if (decoded !== null && !(Array.isArray(decoded) && typeof decoded[0] === 'number')) throw invalid('invalid GetProductListRequest.LastId: malformed value');
      after = decoded === null ? 0 : (decoded[0] as number);
    }
    const matching = seller.products
      .map((held) => held.product)
      .filter(() => visibility !== 'ARCHIVED')
      .filter((product) => (offerIds?.length ? offerIds.includes(product.offer_id) : true) && (productIds?.length ? productIds.includes(product.product_id) : true));
    const page = matching.filter((product) => product.product_id > after).slice(0, limit);
    const items = page.map((product) => ({ product_id: product.product_id, offer_id: product.offer_id, archived: false, has_fbo_stocks: false, has_fbs_stocks: false, is_discounted: false, quants: [] }));
    const lastId = page.length > 0 ? Buffer.from(JSON.stringify([page.at(-1)!.product_id])).toString('base64') : '';
    return { result: { items, total: matching.length, last_id: lastId } };
  };

  const infoList = (seller: Seller, body: Body) => {
    const offerIds = body.offer_id === undefined ? [] : strings(body.offer_id) ? body.offer_id : null;
    const productIds = body.product_id === undefined ? [] : ids(body.product_id);
    const skus = body.sku === undefined ? [] : ids(body.sku);
    if (!offerIds || !productIds || !skus) throw invalid('invalid GetProductInfoListRequest: offer_id, product_id and sku must be lists of identifiers');
    const count = offerIds.length + productIds.length + skus.length;
    if (count === 0 || count > 1000) throw invalid('invalid GetProductInfoListRequest: pass from 1 to 1000 identifiers in offer_id, product_id and sku together');
    const items = seller.products
      .filter((held) => offerIds.includes(held.product.offer_id) || productIds.includes(held.product.product_id) || skus.includes(held.sku))
      .map(({ product, sku, createdAt }) => ({
        id: product.product_id,
        name: product.name,
        offer_id: product.offer_id,
        sku,
        barcodes: [],
        description_category_id: 17028922,
        type_id: 91248,
        created_at: createdAt,
        updated_at: product.updated_at,
        images: [...product.images],
        images360: [],
        primary_image: product.primary_image ? [product.primary_image] : [],
        color_image: product.color_image ? [product.color_image] : [],
        currency_code: 'RUB',
        price: '1990.00',
        old_price: '',
        min_price: '',
        marketing_price: '',
        vat: '0.2',
        is_archived: false,
        is_autoarchived: false,
        is_discounted: false,
        is_kgt: false,
        has_discounted_fbo_item: false,
        discounted_fbo_stocks: 0,
        statuses: { status: 'price_sent', status_name: 'Готов к продаже', is_created: true, moderate_status: 'approved', validation_status: 'success', status_failed: '', status_updated_at: product.updated_at },
        visibility_details: { has_price: true, has_stock: false },
        errors: [],
      }));
    return { items };
  };

  const picturesImport = (seller: Seller, body: Body, response: http.ServerResponse) => {
    const items = body.items;
    if (!Array.isArray(items) || items.length === 0 || items.length > 100) throw invalid('invalid ProductImportPicturesV2Request.Items: value must contain between 1 and 100 items');
    const wanted: Wanted[] = items.map((raw: unknown, i) => {
      const item = (raw ?? {}) as Body;
      const at = `invalid ProductImportPicturesV2Request.Items[${i}]`;
      if (typeof item.offer_id !== 'string' || !item.offer_id) throw invalid(`${at}.OfferId: value length must be at least 1 runes`);
      if (item.images !== undefined && !strings(item.images)) throw invalid(`${at}.Images: value must be a list of links`);
      for (const field of ['primary_image', 'color_image'] as const) {
        if (item[field] !== undefined && typeof item[field] !== 'string') throw invalid(`${at}: ${field} must be a link`);
      }
      const images = (item.images ?? []) as string[];
      if (images.length > MAX_PICTURES) throw invalid(`${at}.Images: value must contain no more than ${MAX_PICTURES} item(s)`);
      if (images.length + (item.primary_image ? 1 : 0) > MAX_PICTURES) throw invalid(`${at}: a product can have no more than ${MAX_PICTURES} images, the primary one included`);
      return { offer_id: item.offer_id, images, primary_image: (item.primary_image as string | undefined) || undefined, color_image: (item.color_image as string | undefined) || undefined };
    });
    const taskId = (nextTaskId += 1);
    const taskItems: TaskItem[] = wanted.map((item) => ({
      offer_id: item.offer_id,
      product_id: seller.products.find((held) => held.product.offer_id === item.offer_id)?.product.product_id ?? 0,
      status: 'pending',
      errors: [],
    }));
    tasks.set(taskId, { clientId: seller.clientId, items: taskItems });
    const before = seller.queue;
    const job = (async () => {
      await sleep(applyDelay);
      await before;
      for (const [i, item] of wanted.entries()) {
        if (closing.signal.aborted) return;
        const held = seller.products.find((candidate) => candidate.product.offer_id === item.offer_id);
        await pictures.apply(held, item, taskItems[i]!).catch(() => Object.assign(taskItems[i]!, { status: 'failed', errors: [itemError('internal_error', 'images', 'Internal error', item.offer_id)] }));
      }
    })();
    seller.queue = job;
    running.add(job);
    void job.finally(() => running.delete(job));
    if (answersToLose > 0) {
      answersToLose -= 1;
      response.socket?.destroy();
      return undefined;
    }
    return { task_id: taskId };
  };

  const importInfo = (seller: Seller, body: Body) => {
    const taskId = Number(body.task_id);
    if (!Number.isSafeInteger(taskId) || taskId <= 0) throw invalid('invalid GetImportProductsInfoRequest.TaskId: value must be greater than 0');
    const task = tasks.get(taskId);
    if (task?.clientId !== seller.clientId) throw new Refusal(404, 'task not found');
    return { result: { items: structuredClone(task.items), total: task.items.length } };
  };

  const picturesInfo = (seller: Seller, body: Body) => {
    const productIds = ids(body.product_id);
    if (!productIds || productIds.length === 0 || productIds.length > 1000) throw invalid('invalid ProductInfoPicturesV2Request.ProductId: value must contain between 1 and 1000 items');
    const items = seller.products
      .filter((held) => productIds.includes(held.product.product_id))
      .map(({ product, errors }) => ({
        product_id: product.product_id,
        primary_photo: product.primary_image ? [product.primary_image] : [],
        photo: [...product.images],
        color_photo: product.color_image ? [product.color_image] : [],
        photo_360: [],
        errors: errors.map((error) => ({ ...error })),
      }));
    return { items };
  };

  const roles = (seller: Seller) => ({ expires_at: seller.expiresAt.toISOString(), roles: seller.roles.map((role) => ({ name: ROLES[role].name, methods: [...ROLES[role].methods] })) });

  const METHODS: Record<string, { role: Role | null; answer: (seller: Seller, body: Body, response: http.ServerResponse) => unknown }> = {
    '/v1/roles': { role: null, answer: roles },
    '/v3/product/list': { role: 'product', answer: productList },
    '/v3/product/info/list': { role: 'product', answer: infoList },
    '/v2/product/pictures/import': { role: 'product', answer: picturesImport },
    '/v1/product/import/info': { role: 'product', answer: importInfo },
    '/v2/product/pictures/info': { role: 'product', answer: picturesInfo },
  };

  const api = (request: http.IncomingMessage, path: string, raw: string, response: http.ServerResponse) => {
    const clientId = request.headers['client-id'];
    requests.push({ method: request.method ?? 'GET', path, clientId: typeof clientId === 'string' ? clientId : null, at: Date.now() });
    try {
      const seller = authenticate(request);
      const fault = faults.shift();
      if (fault) throw new Refusal(fault.status, fault.message, fault.status === 429 ? { 'retry-after': '1' } : {});
      countRequest(seller.clientId);
      const method = request.method === 'POST' ? METHODS[path] : undefined;
      if (!method) throw new Refusal(404, SWITCHED_OFF[path] ?? 'Not Found');
      if (method.role && !seller.roles.includes(method.role)) throw new Refusal(403, 'Api-Key is missing a required role for a method');
      let body: unknown;
      try {
        body = raw.trim() ? JSON.parse(raw) : {};
      } catch (error) {
        throw invalid(`invalid request body: ${(error as Error).message}`);
      }
      if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalid('invalid request body: a JSON object expected');
      const answer = method.answer(seller, body as Body, response);
      if (answer !== undefined) send(response, 200, answer);
    } catch (error) {
      if (error instanceof Refusal) fail(response, error.status, error.message, error.headers);
      else fail(response, 500, 'Internal error');
    }
  };

  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = new URL(request.url ?? '/', 'http://ozon.local').pathname;
      if (request.method === 'GET' && (path.startsWith('/images/') || path.startsWith('/s3/'))) {
        if (pictures.serve(path, response)) return;
        response.writeHead(404, { 'content-type': 'text/plain' });
        return response.end('not found');
      }
      api(request, path, Buffer.concat(chunks).toString('utf8'), response);
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    origin,
    close(): Promise<void> {
      closing.abort();
      for (const wake of [...sleepers]) wake();
      return new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
    },
    /** A seller with products; answers their Client-Id and Api-Key (roles default to the product role; expiresAt to now + 90 days). */
    addSeller(seller: { name: string; roles?: Role[]; expiresAt?: Date; products?: { offerId: string; name: string; pictures?: number }[] }) {
      let clientId: string;
      do clientId = String(crypto.randomInt(100_000, 9_999_999));
      while (sellers.has(clientId));
      const apiKey = crypto.randomUUID();
      const now = new Date().toISOString();
      const products = (seller.products ?? []).map(({ offerId, name, pictures = 0 }): Held => {
        const productId = (nextProductId += 1);
        const images = Array.from({ length: pictures }, (_, i) => `${origin}/images/${productId}/${i + 1}.jpg`);
        return {
          product: { product_id: productId, offer_id: offerId, name, images, primary_image: null, color_image: '', updated_at: now },
          sku: productId + 1_200_000_000,
          createdAt: now,
          sources: new Map(images.map((url) => [url, url])),
          errors: [],
        };
      });
      sellers.set(clientId, { clientId, apiKey, name: seller.name, roles: [...(seller.roles ?? ['product'])], expiresAt: seller.expiresAt ?? new Date(Date.now() + 90 * DAY), products, queue: Promise.resolve() });
      return { clientId, apiKey };
    },
    /** A seller's products as they stand now. */
    products(clientId: string): OzonProduct[] {
      const seller = sellers.get(clientId);
      if (!seller) throw new Error(`no seller ${clientId}`);
      return seller.products.map((held) => structuredClone(held.product));
    },
    /** Every API request received, in order (pictures fetched from the stand-in are not API requests). */
    requests: requests as readonly { method: string; path: string; clientId: string | null; at: number }[],
    /** The next `count` API requests with a valid key answer this error (403 with no message: «Offer not signed»). */
    failNext(count: number, status: Status, message?: string) {
      for (let i = 0; i < count; i += 1) faults.push({ status, message: message ?? FAULT[status] });
    },
    /** Imports apply this long after they were accepted (default 0 = at once, still asynchronously). */
    applyAfter(ms: number) {
      applyDelay = ms;
    },
    /** The next `count` accepted imports are applied but their answer is lost (socket destroyed). */
    loseNextAnswers(count: number) {
      answersToLose += count;
    },
    /** Picture URLs containing this text fail on import with an Ozon-style error message. */
    refuseUrlsContaining(text: string, message = 'The image did not pass moderation') {
      refusals.push({ text, message });
    },
    /** Resolves when every accepted import has finished. */
    async settled(): Promise<void> {
      while (running.size > 0) await Promise.allSettled([...running]);
    },
  };
}
