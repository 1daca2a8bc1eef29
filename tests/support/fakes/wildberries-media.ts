// The media half of the Wildberries Content API stand-in (wildberries.ts), as WB's 02-products.yaml
// documents it:
//
// - POST /content/v3/media/save {nmId, data: [links]} is answered 200 {data: {}, error: false,
//   errorText: "", additionalErrors: null} at once; the links are then downloaded and checked, and
//   the card's media replaced whole: pictures in the order given, the video wherever it stands, no
//   video unless one is named. If the video or any one picture fails the checks, nothing is
//   applied although the answer was 200 (WB's words), so a client re-reads the card to know. No
//   nmId is 422; another seller's card, 403 "Access denied".
// - POST /content/v3/media/file (multipart, field `uploadfile`; headers X-Nm-Id and X-Photo-Number
//   from 1): a picture replaces the one at that number, or goes at the end when the number is past
//   the last; a video is number 1. A file that fails the checks is 400; a body that is no
//   multipart form, 400 "Invalid 'boundary' …" in plain text, as WB documents.
// - The checks: pictures JPG, PNG, BMP, static GIF or WebP by their first bytes, at least 700×900
//   px, at most 32 MB, at most 30 on a card; one video, MP4 or MOV by its `ftyp` box, at most
//   50 MB; a link must lead straight to the file, not to a text or HTML page. Not checked: the
//   "minimum quality 65 %" of a JPEG, which no file says of itself.
// - Pictures are shown as WebP in WB's five sizes at /vol…/part…/{nm}/images/{size}/{n}.webp, by
//   position as WB's are (the same address shows whatever picture is at that place now); the video
//   is the file itself, where WB gives an HLS playlist.
import type http from 'node:http';
import sharp from 'sharp';

const LIMITS = {
  photos: 30,
  photoBytes: 32 * 1024 * 1024,
  videoBytes: 50 * 1024 * 1024,
  minWidth: 700,
  minHeight: 900,
} as const;

/** The sizes a card's `photos` name, as [width, height]. */
const PHOTO_SIZES = {
  big: [900, 1200],
  c246x328: [246, 328],
  c516x688: [516, 688],
  square: [600, 600],
  tm: [75, 100],
} as const;
export type PhotoSize = keyof typeof PHOTO_SIZES;

export type ImageFormat = 'jpeg' | 'png' | 'webp' | 'gif' | 'bmp';
export type VideoFormat = 'mp4' | 'mov';

/** A picture on a card: its bytes as received (a seeded one's are still being drawn). */
export interface StoredPhoto {
  format: ImageFormat;
  bytes: Promise<Buffer>;
}
export interface StoredVideo {
  format: VideoFormat;
  bytes: Buffer;
}

/** What of a card its media changes touch. */
export interface CardMedia {
  nmID: number;
  photos: StoredPhoto[];
  video?: StoredVideo;
}

export type WildberriesPhoto = Record<PhotoSize, string>;

export type Checked =
  | { ok: true; kind: 'photo'; photo: StoredPhoto }
  | { ok: true; kind: 'video'; video: StoredVideo }
  | { ok: false; reason: string };

const ascii = (bytes: Buffer, from: number, to: number) => bytes.subarray(from, to).toString('latin1');

/** What a file is by its first bytes, as Wildberries tells them (not by a name or a Content-Type). */
function sniff(bytes: Buffer): ImageFormat | VideoFormat | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  if (bytes.length >= 12 && ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 12) === 'WEBP') return 'webp';
  if (bytes.length >= 6 && (ascii(bytes, 0, 6) === 'GIF87a' || ascii(bytes, 0, 6) === 'GIF89a')) return 'gif';
  if (bytes.length >= 26 && ascii(bytes, 0, 2) === 'BM') return 'bmp';
  // ISO base media (MP4) and QuickTime (MOV) files open with a `ftyp` box; QuickTime's brand is "qt  ".
  if (bytes.length >= 12 && ascii(bytes, 4, 8) === 'ftyp') return ascii(bytes, 8, 12) === 'qt  ' ? 'mov' : 'mp4';
  return null;
}

/** An uncompressed 24- or 32-bit BMP as raw RGB (sharp reads no BMP); null for any other kind. */
function bmpPixels(bytes: Buffer): { data: Buffer; width: number; height: number } | null {
  const offset = bytes.readUInt32LE(10);
  const width = bytes.readInt32LE(18);
  const signedHeight = bytes.readInt32LE(22);
  const depth = bytes.length >= 30 ? bytes.readUInt16LE(28) : 0;
  const compression = bytes.length >= 34 ? bytes.readUInt32LE(30) : -1;
  const height = Math.abs(signedHeight);
  if (compression !== 0 || (depth !== 24 && depth !== 32) || width <= 0 || height === 0) return null;
  const step = depth / 8;
  const row = Math.ceil((depth * width) / 32) * 4;
  if (offset + row * height > bytes.length || width * height > 100_000_000) return null;
  const data = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y += 1) {
    // Rows are stored bottom-up unless the height is negative.
    const source = offset + (signedHeight > 0 ? height - 1 - y : y) * row;
    for (let x = 0; x < width; x += 1) {
      const at = source + x * step;
      const to = (y * width + x) * 3;
      data[to] = bytes[at + 2]!;
      data[to + 1] = bytes[at + 1]!;
      data[to + 2] = bytes[at]!;
    }
  }
  return { data, width, height };
}

const reading = (bytes: Buffer, format: ImageFormat) => {
  if (format !== 'bmp') return sharp(bytes);
  const pixels = bmpPixels(bytes)!;
  return sharp(pixels.data, { raw: { width: pixels.width, height: pixels.height, channels: 3 } });
};

/** Checks one file as Wildberries does, and keeps it if it passes. */
export async function checkMedia(bytes: Buffer): Promise<Checked> {
  const format = sniff(bytes);
  if (format === null) return { ok: false, reason: 'not a JPG, PNG, BMP, GIF or WebP picture nor an MP4 or MOV video' };
  if (format === 'mp4' || format === 'mov') {
    if (bytes.length > LIMITS.videoBytes) return { ok: false, reason: `video of ${bytes.length} bytes is over 50 MB` };
    return { ok: true, kind: 'video', video: { format, bytes } };
  }
  if (bytes.length > LIMITS.photoBytes) return { ok: false, reason: `picture of ${bytes.length} bytes is over 32 MB` };
  let width: number | undefined;
  let height: number | undefined;
  if (format === 'bmp') {
    const pixels = bmpPixels(bytes);
    if (!pixels) return { ok: false, reason: 'BMP that is not uncompressed 24- or 32-bit (this stand-in reads no other)' };
    ({ width, height } = pixels);
  } else {
    try {
      const meta = await sharp(bytes).metadata();
      if (format === 'gif' && (meta.pages ?? 1) > 1) return { ok: false, reason: 'animated GIF' };
      ({ width, height } = meta);
      // Decoded whole, as Wildberries must to show it: a file cut short is refused, not only one without a header.
      await sharp(bytes).stats();
    } catch {
      return { ok: false, reason: `damaged ${format.toUpperCase()} picture` };
    }
  }
  if (!width || !height || width < LIMITS.minWidth || height < LIMITS.minHeight) {
    return { ok: false, reason: `picture of ${width ?? 0}×${height ?? 0} px is under 700×900 px` };
  }
  return { ok: true, kind: 'photo', photo: { format, bytes: Promise.resolve(bytes) } };
}

/** Downloads what a link leads to (a file, not a page) and checks it. */
export async function downloadMedia(url: string): Promise<Checked> {
  let answer: Response;
  try {
    if (!/^https?:\/\//i.test(url)) return { ok: false, reason: `${url}: not an http(s) link` };
    answer = await fetch(url, { signal: AbortSignal.timeout(30_000) });
  } catch (error) {
    return { ok: false, reason: `${url}: could not be downloaded (${(error as Error).message})` };
  }
  if (answer.status !== 200 || !answer.body) {
    await answer.body?.cancel();
    return { ok: false, reason: `${url}: answered ${answer.status}` };
  }
  const type = answer.headers.get('content-type') ?? '';
  if (/^text\//i.test(type)) {
    await answer.body.cancel();
    return { ok: false, reason: `${url}: leads to a ${type.split(';')[0]} page, not a file` };
  }
  if (Number(answer.headers.get('content-length') ?? 0) > LIMITS.videoBytes) {
    await answer.body.cancel();
    return { ok: false, reason: `${url}: over 50 MB` };
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = answer.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > LIMITS.videoBytes) {
      await reader.cancel();
      return { ok: false, reason: `${url}: over 50 MB` };
    }
    chunks.push(value);
  }
  const checked = await checkMedia(Buffer.concat(chunks));
  return checked.ok ? checked : { ok: false, reason: `${url}: ${checked.reason}` };
}

/** A plain coloured 900×1200 JPEG, the pictures seeded cards start with. */
export function plainPhoto(red: number, green: number, blue: number): StoredPhoto {
  const bytes = sharp({ create: { width: 900, height: 1200, channels: 3, background: { r: red, g: green, b: blue } } })
    .jpeg()
    .toBuffer();
  return { format: 'jpeg', bytes };
}

const rendered = new WeakMap<StoredPhoto, Map<PhotoSize, Promise<Buffer>>>();

/** A picture in one of Wildberries' sizes, as WebP (Wildberries shows every picture so). */
function renderPhoto(photo: StoredPhoto, size: PhotoSize): Promise<Buffer> {
  let sizes = rendered.get(photo);
  if (!sizes) rendered.set(photo, (sizes = new Map()));
  let made = sizes.get(size);
  if (!made) {
    const [width, height] = PHOTO_SIZES[size];
    made = photo.bytes.then((bytes) => reading(bytes, photo.format).resize(width, height, { fit: 'cover' }).webp({ quality: 85 }).toBuffer());
    sizes.set(size, made);
  }
  return made;
}

interface FormPart {
  name: string;
  filename?: string;
  contentType?: string;
  data: Buffer;
}

/** The parts of a multipart/form-data body; null when it is not one (no boundary, or broken). */
function parseMultipart(contentType: string | undefined, body: Buffer): FormPart[] | null {
  if (!contentType || !/^multipart\/form-data\s*;/i.test(contentType)) return null;
  const boundary = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  if (!boundary) return null;
  const delimiter = Buffer.from(`--${boundary[1] ?? boundary[2]}`);
  const between = Buffer.concat([Buffer.from('\r\n'), delimiter]);
  const parts: FormPart[] = [];
  let at = body.indexOf(delimiter);
  if (at < 0) return null;
  for (;;) {
    const after = at + delimiter.length;
    if (ascii(body, after, after + 2) === '--') return parts;
    if (ascii(body, after, after + 2) !== '\r\n') return null;
    const headersEnd = body.indexOf('\r\n\r\n', after);
    if (headersEnd < 0) return null;
    const next = body.indexOf(between, headersEnd + 4);
    if (next < 0) return null;
    const headers = body.subarray(after + 2, headersEnd).toString('utf8');
    const disposition = /content-disposition:[^\r\n]*/i.exec(headers)?.[0] ?? '';
    const name = /\bname="([^"]*)"/i.exec(disposition)?.[1];
    if (name === undefined) return null;
    parts.push({
      name,
      filename: /\bfilename="([^"]*)"/i.exec(disposition)?.[1],
      contentType: /content-type:\s*([^\r\n]+)/i.exec(headers)?.[1]?.trim(),
      data: body.subarray(headersEnd + 4, next),
    });
    at = next + 2;
  }
}

/** Where a card's media are shown: by position, under WB's vol/part/nm folders. */
export function mediaUrls(origin: string, card: CardMedia): { photos: WildberriesPhoto[]; video?: string } {
  const home = `${origin}/vol${Math.floor(card.nmID / 100_000)}/part${Math.floor(card.nmID / 1000)}/${card.nmID}`;
  const sizes = Object.keys(PHOTO_SIZES) as PhotoSize[];
  return {
    photos: card.photos.map((_, index) => Object.fromEntries(sizes.map((size) => [size, `${home}/images/${size}/${index + 1}.webp`])) as WildberriesPhoto),
    ...(card.video ? { video: `${home}/video/1.${card.video.format}` } : {}),
  };
}

/** Answers a GET of one of mediaUrls' addresses; false when the path is none of them. */
export async function serveCardMedia(find: (nmID: number) => CardMedia | undefined, path: string, response: http.ServerResponse): Promise<boolean> {
  const picture = /^\/vol\d+\/part\d+\/(\d+)\/images\/(\w+)\/(\d+)\.webp$/.exec(path);
  const film = /^\/vol\d+\/part\d+\/(\d+)\/video\/1\.(mp4|mov)$/.exec(path);
  if (!(picture && picture[2]! in PHOTO_SIZES) && !film) return false;
  const card = find(Number((picture ?? film)![1]));
  const photo = picture ? card?.photos[Number(picture[3]) - 1] : undefined;
  const video = film && card?.video?.format === film[2] ? card?.video : undefined;
  if (photo) {
    const bytes = await renderPhoto(photo, picture![2] as PhotoSize);
    response.writeHead(200, { 'content-type': 'image/webp', 'content-length': bytes.length, 'cache-control': 'no-cache' });
    response.end(bytes);
  } else if (video) {
    response.writeHead(200, { 'content-type': video.format === 'mov' ? 'video/quicktime' : 'video/mp4', 'content-length': video.bytes.length });
    response.end(video.bytes);
  } else {
    response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
    response.end('Not Found');
  }
  return true;
}

/**
 * What a media/save of these links makes of a card: all its pictures, in order, and its video, or
 * — if any file failed, or was refused by a test — why nothing (WB applies all or nothing).
 */
export function savedMedia(links: string[], checked: Checked[], refusedTexts: readonly string[]): { photos: StoredPhoto[]; video?: StoredVideo } | { reasons: string[] } {
  const reasons = checked.flatMap((one) => (one.ok ? [] : [one.reason]));
  for (const link of links) {
    const text = refusedTexts.find((refused) => link.includes(refused));
    if (text !== undefined) reasons.push(`${link}: refused (its link contains "${text}")`);
  }
  const photos = checked.flatMap((one) => (one.ok && one.kind === 'photo' ? [one.photo] : []));
  const videos = checked.flatMap((one) => (one.ok && one.kind === 'video' ? [one.video] : []));
  if (photos.length > LIMITS.photos) reasons.push(`${photos.length} pictures: at most ${LIMITS.photos}`);
  if (videos.length > 1) reasons.push(`${videos.length} videos: at most one`);
  return reasons.length > 0 ? { reasons } : { photos, video: videos[0] };
}

/** Puts an uploaded file on a card at X-Photo-Number: replaces that picture, or adds one at the end. */
export function placeUpload(card: CardMedia, file: Extract<Checked, { ok: true }>, number: number): string | null {
  if (file.kind === 'video') card.video = file.video;
  else if (number <= card.photos.length) card.photos[number - 1] = file.photo;
  else if (card.photos.length < LIMITS.photos) card.photos.push(file.photo);
  else return `picture ${number}: the card already holds ${LIMITS.photos} pictures`;
  return null;
}

/** The request of a media/save as read, or the error WB answers it with. */
export function readSave(raw: string): { nmId: number; links: string[] } | { status: 400 | 422; errorText: string } {
  let body: { nmId?: unknown; data?: unknown };
  try {
    body = JSON.parse(raw) as typeof body;
    if (typeof body !== 'object' || body === null) throw new Error('not an object');
  } catch {
    return { status: 400, errorText: 'Request body can not be decoded' };
  }
  if (body.nmId === undefined || body.nmId === null) return { status: 422, errorText: 'nmId is missing' };
  if (!Number.isInteger(body.nmId)) return { status: 400, errorText: 'Invalid nmId' };
  const links = body.data;
  if (!Array.isArray(links) || links.length === 0 || links.some((link) => typeof link !== 'string')) return { status: 400, errorText: 'data: a list of links is required' };
  return { nmId: body.nmId as number, links: links as string[] };
}

/** The request of a media/file as read, or the error WB answers it with (`plain`: as text, not JSON). */
export function readUpload(headers: http.IncomingHttpHeaders, body: Buffer): { nmId: number; number: number; file: Buffer } | { status: 400; errorText: string; plain?: true } {
  const nmId = Number(headers['x-nm-id']);
  const number = Number(headers['x-photo-number']);
  if (!headers['x-nm-id'] || !Number.isInteger(nmId)) return { status: 400, errorText: 'X-Nm-Id header is missing or not a number' };
  if (!Number.isInteger(number) || number < 1) return { status: 400, errorText: 'X-Photo-Number header is missing or below 1' };
  const parts = parseMultipart(headers['content-type'], body);
  if (!parts) return { status: 400, errorText: "Invalid 'boundary' for 'multipart/form-data' request", plain: true };
  const file = parts.find((one) => one.name === 'uploadfile');
  if (!file || file.data.length === 0) return { status: 400, errorText: 'uploadfile is missing' };
  return { nmId, number, file: Buffer.from(file.data) };
}

/** Why an upload that passed the checks cannot go on this card at this number, if it cannot. */
export function uploadRefusal(card: CardMedia, file: Extract<Checked, { ok: true }>, number: number): string | null {
  if (file.kind === 'video') return number === 1 ? null : 'A video is uploaded as X-Photo-Number 1';
  return number > card.photos.length && card.photos.length >= LIMITS.photos ? `A card holds at most ${LIMITS.photos} pictures` : null;
}

/** Media changes applied after a delay, a card's in the order they were accepted; close ends every wait. */
export function applyQueue() {
  const pending = new Set<Promise<void>>();
  const queues = new WeakMap<CardMedia, Promise<void>>();
  const sleepers = new Set<() => void>();
  let closed = false;
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        sleepers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, Math.max(0, ms));
      sleepers.add(wake);
    });
  return {
    /** Prepares now (downloads start at once) and applies `delayMs` later, after the card's earlier changes. */
    accept(card: CardMedia, prepare: Promise<(() => void) | null>, delayMs: number) {
      const applyAt = Date.now() + delayMs;
      const job = (queues.get(card) ?? Promise.resolve()).then(async () => {
        const apply = await prepare;
        await sleep(applyAt - Date.now());
        if (!closed) apply?.();
      });
      queues.set(card, job.catch(() => undefined));
      pending.add(job);
      void job.catch(() => undefined).finally(() => pending.delete(job));
    },
    async settled() {
      while (pending.size > 0) await Promise.allSettled([...pending]);
    },
    close() {
      closed = true;
      for (const wake of sleepers) wake();
    },
  };
}
