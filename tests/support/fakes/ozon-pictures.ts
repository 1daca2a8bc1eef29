// The pictures half of the Ozon Seller API stand-in (tests/support/fakes/ozon.ts): what Ozon does
// with a link it is asked to import — it downloads it, accepts only JPG and PNG (told by their first
// bytes, whatever the link's name or Content-Type says), no larger than 10 MB and from 200×200 to
// 7000×7000 pixels — how an import item replaces a product's pictures, and the pictures the
// stand-in serves as Ozon's CDN would: those it took, and plain coloured JPEGs for seeded products.
// Each refusal carries an error code and a sentence, as Ozon's import errors do.
import type http from 'node:http';
import sharp from 'sharp';

/** Pictures one product may have (Ozon: «no more than 30 photos: 1 main and 29 additional»). */
export const MAX_PICTURES = 30;
export const MAX_BYTES = 10 * 1024 * 1024;
export const MIN_SIDE = 200;
export const MAX_SIDE = 7000;
/** How long a download may take before Ozon gives up on the link. */
const DOWNLOAD_TIMEOUT_MS = 15_000;

export type PictureFormat = 'jpeg' | 'png';

export type Checked =
  | { ok: true; bytes: Buffer; format: PictureFormat; width: number; height: number }
  | { ok: false; code: string; message: string };

const JPEG = [0xff, 0xd8, 0xff];
const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const startsWith = (bytes: Buffer, magic: number[]) => bytes.length >= magic.length && magic.every((byte, i) => bytes[i] === byte);

/** JPG or PNG by the file's own first bytes; anything else is not a picture Ozon takes. */
export const sniff = (bytes: Buffer): PictureFormat | null => (startsWith(bytes, JPEG) ? 'jpeg' : startsWith(bytes, PNG) ? 'png' : null);

const refused = (code: string, message: string): Checked => ({ ok: false, code, message });

/** Reads a body up to `limit` bytes; more than that is answered as null without reading the rest. */
async function readCapped(response: Response, limit: number): Promise<Buffer | null> {
  if (!response.body) return Buffer.alloc(0);
  const reader = response.body.getReader();
  const chunks: Buffer[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return null;
    }
    chunks.push(Buffer.from(value));
  }
  return Buffer.concat(chunks);
}

/** Downloads a link as Ozon would and checks what came back. `signal` ends the download early (the stand-in closing). */
export async function checkPicture(url: string, signal: AbortSignal): Promise<Checked> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return refused('image_invalid_url', 'The link is not a valid URL');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return refused('image_invalid_url', 'The link must be a public http(s) address');
  let response: Response;
  try {
    response = await fetch(parsed, { signal: AbortSignal.any([signal, AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS)]), redirect: 'follow' });
  } catch (error) {
    const reason = error instanceof Error && error.name === 'TimeoutError' ? 'the server did not answer in time' : 'the server could not be reached';
    return refused('image_download_failed', `Failed to download the image: ${reason}`);
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => undefined);
    return refused('image_download_failed', `Failed to download the image: HTTP ${response.status}`);
  }
  let bytes: Buffer | null;
  try {
    bytes = await readCapped(response, MAX_BYTES);
  } catch {
    return refused('image_download_failed', 'Failed to download the image: the connection broke');
  }
  if (bytes === null) return refused('image_too_large', 'The image is larger than 10 MB');
  const format = sniff(bytes);
  if (!format) return refused('image_invalid_format', 'Unsupported image format: only JPG and PNG are accepted');
  let width: number | undefined;
  let height: number | undefined;
  try {
    ({ width, height } = await sharp(bytes).metadata());
  } catch {
    return refused('image_corrupted', 'The image file is damaged and cannot be read');
  }
  if (!width || !height) return refused('image_corrupted', 'The image file is damaged and cannot be read');
  if (width < MIN_SIDE || height < MIN_SIDE) {
    return refused('image_too_small', `The image is ${width}×${height} px; the minimum is ${MIN_SIDE}×${MIN_SIDE} px`);
  }
  if (width > MAX_SIDE || height > MAX_SIDE) {
    return refused('image_too_big', `The image is ${width}×${height} px; the maximum is ${MAX_SIDE}×${MAX_SIDE} px`);
  }
  return { ok: true, bytes, format, width, height };
}

/** A seeded product's n-th picture: a plain JPEG whose colour tells products and pictures apart. */
export function seededJpeg(productId: number, n: number): Promise<Buffer> {
  const hue = (productId * 47 + n * 83) % 360;
  // HSL with full saturation and half lightness, as RGB.
  const channel = (shift: number) => {
    const k = (shift + hue / 30) % 12;
    return Math.round(255 * (0.5 - 0.5 * Math.max(-1, Math.min(k - 3, 9 - k, 1))));
  };
  return sharp({ create: { width: 600, height: 800, channels: 3, background: { r: channel(0), g: channel(8), b: channel(4) } } })
    .jpeg({ quality: 80 })
    .toBuffer();
}

/** A product as the stand-in holds it (on the wire, info/list answers primary_image and color_image as arrays). */
export interface OzonProduct {
  product_id: number;
  offer_id: string;
  name: string;
  images: string[];
  primary_image: string | null;
  color_image: string;
  updated_at: string;
}

/** A product with what the stand-in keeps beside it. */
export interface Held {
  product: OzonProduct;
  sku: number;
  createdAt: string;
  /** The link each of its current pictures was imported from (its own link for seeded ones). */
  sources: Map<string, string>;
  /** The errors of its last import, per link (what /v2/product/pictures/info answers). */
  errors: { url: string; message: string }[];
}

/** One item of a /v2/product/pictures/import request. */
export interface Wanted {
  offer_id: string;
  primary_image?: string;
  color_image?: string;
  images: string[];
}

/** An error of an import item, in the shape of Ozon's v1ItemError. */
interface ItemError {
  code: string;
  field: string;
  attribute_id: number;
  attribute_name: string;
  state: string;
  level: string;
  description: string;
  message: string;
}

/** An item of an import task as /v1/product/import/info answers it. */
export interface TaskItem {
  offer_id: string;
  product_id: number;
  status: 'pending' | 'imported' | 'failed' | 'skipped';
  errors: ItemError[];
}

type Resolved = { ok: true; url: string; source: string } | { ok: false; code: string; message: string };

export const itemError = (code: string, field: string, description: string, subject: string): ItemError => ({
  code,
  field,
  attribute_id: 0,
  attribute_name: '',
  state: '',
  level: 'error',
  description,
  message: `${description}: ${subject}`,
});

/**
 * The stand-in's picture host: applies import items to products (downloading what it does not
 * have yet) and serves what it holds. `refusals` are the links tests make fail, read at each import.
 */
export function pictureHost(options: { origin: () => string; signal: AbortSignal; refusals: readonly { text: string; message: string }[]; isProduct: (productId: number) => boolean }) {
  const hosted = new Map<string, { bytes: Buffer; format: PictureFormat }>();
  const seeded = new Map<string, Promise<Buffer>>();
  let nextPicture = 6_000_000_000 + Math.floor(Math.random() * 1_000_000_000);

  /** A link to a picture this stand-in serves (as Ozon's CDN links are Ozon's). */
  const isOwn = (url: string) => {
    const origin = options.origin();
    if (!url.startsWith(`${origin}/`)) return false;
    const path = url.slice(origin.length);
    const seededPicture = /^\/images\/(\d+)\/\d+\.jpg$/.exec(path);
    return hosted.has(path) || (seededPicture !== null && options.isProduct(Number(seededPicture[1])));
  };

  const resolve = async (held: Held, url: string): Promise<Resolved> => {
    const refusal = options.refusals.find((rule) => url.includes(rule.text));
    if (refusal) return { ok: false, code: 'image_refused', message: refusal.message };
    for (const [own, source] of held.sources) if (own === url || source === url) return { ok: true, url: own, source };
    if (isOwn(url)) return { ok: true, url, source: url };
    const checked = await checkPicture(url, options.signal);
    if (!checked.ok) return checked;
    const path = `/s3/multimedia-1/${(nextPicture += 1)}.${checked.format === 'jpeg' ? 'jpg' : 'png'}`;
    hosted.set(path, { bytes: checked.bytes, format: checked.format });
    return { ok: true, url: `${options.origin()}${path}`, source: url };
  };

  return {
    /**
     * Replaces a product's pictures with an item's: links that fail are left out and named in the
     * errors; when every link fails the product keeps its pictures; nothing changed is `skipped`.
     */
    async apply(held: Held | undefined, wanted: Wanted, item: TaskItem): Promise<void> {
      if (!held) {
        item.status = 'failed';
        item.errors = [itemError('offer_id_not_found', 'offer_id', 'There is no product with this offer_id in the seller account', wanted.offer_id)];
        return;
      }
      const links = [
        ...(wanted.primary_image ? [{ field: 'primary_image', url: wanted.primary_image }] : []),
        ...wanted.images.map((url) => ({ field: 'images', url })),
        ...(wanted.color_image ? [{ field: 'color_image', url: wanted.color_image }] : []),
      ];
      const resolved = await Promise.all(links.map((link) => resolve(held, link.url)));
      if (options.signal.aborted) return;
      const taken = links.map((link, i) => ({ ...link, got: resolved[i]! }));
      const failed = taken.flatMap(({ field, url, got }) => (got.ok ? [] : [{ field, url, code: got.code, message: got.message }]));
      held.errors = failed.map(({ url, message }) => ({ url, message }));
      item.errors = failed.map(({ field, url, code, message }) => itemError(code, field, message, url));
      if (links.length > 0 && failed.length === links.length) {
        item.status = 'failed';
        return;
      }
      const own = (field: string) => taken.flatMap((link) => (link.field === field && link.got.ok ? [link.got] : []));
      const next = { primary_image: own('primary_image')[0]?.url ?? null, images: own('images').map((got) => got.url), color_image: own('color_image')[0]?.url ?? '' };
      const product = held.product;
      const unchanged = next.primary_image === product.primary_image && next.color_image === product.color_image && next.images.join('\n') === product.images.join('\n');
      if (!unchanged) {
        Object.assign(product, next, { updated_at: new Date().toISOString() });
        held.sources = new Map([...own('primary_image'), ...own('images'), ...own('color_image')].map((got) => [got.url, got.source]));
      }
      item.status = failed.length > 0 ? 'failed' : unchanged ? 'skipped' : 'imported';
    },

    /** GET of a picture path; false when the path is not a picture's. */
    serve(path: string, response: http.ServerResponse): boolean {
      const own = hosted.get(path);
      if (own) {
        response.writeHead(200, { 'content-type': own.format === 'jpeg' ? 'image/jpeg' : 'image/png', 'content-length': own.bytes.length });
        response.end(own.bytes);
        return true;
      }
      const match = /^\/images\/(\d+)\/(\d+)\.jpg$/.exec(path);
      if (!match || !options.isProduct(Number(match[1]))) return false;
      if (!seeded.has(path)) seeded.set(path, seededJpeg(Number(match[1]), Number(match[2])));
      void seeded.get(path)!.then((bytes) => {
        response.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': bytes.length });
        response.end(bytes);
      });
      return true;
    },
  };
}
