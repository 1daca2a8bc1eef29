// Publishing 30 pictures to one Wildberries card through the real publisher (POST
// /api/v1/publisher/publish and its `publish` job), against the Wildberries stand-in at its own
// limits: 100 Content requests a minute per seller, in bursts of 5. The stand-in runs in this
// process and the server in its own (WILDBERRIES_API_URL names the stand-in); the seller, the 30
// results and the store connection are made through the API, as a seller makes them.
import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { startFakeWildberries } from '../../tests/support/fakes/wildberries';
import { signedInToken, verifiedSeller } from './auth';
import { startServer } from './server';

const PICTURES = 30;
/** The stand-in's defaults, which are Wildberries' own. */
const RATE_PER_MINUTE = 100;
const BURST = 5;
/** The fewest requests 30 uploads to a card with no pictures take: read the card, upload each, read it back. */
const FEWEST_REQUESTS = 1 + PICTURES + 1;

interface PublishFigures {
  /** POST → the publication `done` with every item `applied`, in seconds. */
  seconds: number;
  status: string;
  applied: number;
  onCard: number;
  /** The API requests the stand-in received for the publication, by method and path. */
  requests: Record<string, number>;
  total: number;
  /** 429s answered while the publication ran. */
  tooMany: number;
  /** The most of this seller's requests (the connection's check too) in any 60 s: all received, and those not answered 429. */
  peakReceived: number;
  peakAccepted: number;
  fewestRequests: number;
  /** What the limit alone allows for the fewest requests: the burst at once, then one every 60 / rate seconds. */
  floorSeconds: number;
}

/** A distinct 1200×1600 product-shot-like JPEG: a coloured backdrop and a shape placed by `n`. */
function picture(n: number): Promise<Buffer> {
  const hue = Math.round((n * 360) / PICTURES);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="1600">
    <defs><linearGradient id="g" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="hsl(${hue},45%,92%)"/><stop offset="1" stop-color="hsl(${hue},35%,70%)"/></linearGradient></defs>
    <rect width="1200" height="1600" fill="url(#g)"/>
    <ellipse cx="600" cy="${1000 + (n % 5) * 20}" rx="${380 + (n % 7) * 10}" ry="150" fill="hsl(${(hue + 180) % 360},60%,35%)"/>
    <rect x="${300 + (n % 6) * 40}" y="700" width="420" height="260" rx="90" fill="hsl(${(hue + 90) % 360},55%,45%)"/>
  </svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 88 }).toBuffer();
}

async function json<T>(answer: Response, what: string): Promise<T> {
  if (!answer.ok) throw new Error(`${what}: ${answer.status} ${await answer.text()}`);
  return ((await answer.json()) as { data: T }).data;
}

/** A result in the seller's materials, made as an edit is saved: the upload, then batch-create. */
async function result(url: string, token: string, jpeg: Buffer): Promise<string> {
  const auth = { authorization: `Bearer ${token}`, 'accept-language': 'en' };
  const ticket = await json<{ presigned_url: string; file_key: string }>(
    await fetch(`${url}/api/v1/materials/upload`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
      body: JSON.stringify({ file_name: 'edit.jpg', file_type: 'image/jpeg', file_size: jpeg.length, description: 'image edit' }),
    }),
    'upload',
  );
  const put = await fetch(new URL(ticket.presigned_url, url), { method: 'PUT', headers: { 'content-type': 'image/jpeg' }, body: new Uint8Array(jpeg) });
  if (!put.ok) throw new Error(`upload failed: ${put.status}`);
  const made = await json<{ id: string }[]>(
    await fetch(`${url}/api/v1/content/assets/batch-create`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify([{ file_key: ticket.file_key, content_config: { category: 'PRODUCT', content_module: 'PRODUCT_IMAGE' } }]),
    }),
    'batch-create',
  );
  return made[0]!.id;
}

/** The most of `times` (ms, ascending) within any 60 s. */
function peakPerMinute(times: number[]): number {
  let peak = 0;
  for (let from = 0, to = 0; from < times.length; from += 1) {
    while (to < times.length && times[to]! < times[from]! + 60_000) to += 1;
    peak = Math.max(peak, to - from);
  }
  return peak;
}

export async function publishFigures(dataDir: string): Promise<PublishFigures> {
  const wb = await startFakeWildberries();
  const server = await startServer(dataDir, { RATE_LIMIT_DISABLED: 'true', WILDBERRIES_API_URL: wb.origin });
  try {
    const url = server.url;
    const token = await signedInToken(url, await verifiedSeller(url, dataDir, 'benchpublish'));
    const auth = { authorization: `Bearer ${token}`, 'accept-language': 'en' };
    const assetIds: string[] = [];
    for (let n = 0; n < PICTURES; n += 1) assetIds.push(await result(url, token, await picture(n)));

    const store = wb.addSeller({ name: 'Bench shoes', cards: [{ vendorCode: 'bench-1', title: 'Кроссовки', photos: 0 }] });
    const nmID = wb.cards(store.token)[0]!.nmID;
    const connection = await json<{ id: string }>(
      await fetch(`${url}/api/v1/publisher/auth`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ platform: 'wildberries', token: store.token }),
      }),
      'connecting the store',
    );
    // The connection's check took one request of the burst: the publication starts with it whole,
    // as it would once the seller has picked the card and the pictures.
    await new Promise((resolve) => setTimeout(resolve, (BURST * 60_000) / RATE_PER_MINUTE));

    const fromRequest = wb.requests.length;
    const fromLimited = wb.limited.length;
    const started = performance.now();
    const publication = await json<{ id: string }>(
      await fetch(`${url}/api/v1/publisher/publish`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
        body: JSON.stringify({ connection_id: connection.id, product_id: String(nmID), asset_ids: assetIds, placement: 'gallery', mode: 'append' }),
      }),
      'publishing',
    );
    let ended: { status: string; items: { status: string }[] };
    for (;;) {
      ended = await json(await fetch(`${url}/api/v1/publisher/publish/${publication.id}`, { headers: auth }), 'the publication');
      if (['done', 'partial', 'failed'].includes(ended.status)) break;
      if (performance.now() - started > 300_000) throw new Error(`the publication is still ${ended.status} after 300 s`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const seconds = (performance.now() - started) / 1000;

    const sent = wb.requests.slice(fromRequest).filter((request) => request.token === store.token);
    const requests: Record<string, number> = {};
    for (const request of sent) requests[`${request.method} ${request.path}`] = (requests[`${request.method} ${request.path}`] ?? 0) + 1;
    // Only this seller calls the stand-in, so every 429 is theirs.
    const limited = wb.limited;
    const received = wb.requests.filter((request) => request.token === store.token).map((request) => request.at);
    // A 429 is answered in the same turn its request is received: each takes out the latest request before it.
    const accepted = [...received];
    for (const at of limited) {
      const index = accepted.findLastIndex((time) => time <= at);
      if (index >= 0) accepted.splice(index, 1);
    }
    return {
      seconds,
      status: ended.status,
      applied: ended.items.filter((item) => item.status === 'applied').length,
      onCard: wb.cards(store.token)[0]!.photos.length,
      requests,
      total: sent.length,
      tooMany: limited.length - fromLimited,
      peakReceived: peakPerMinute(received),
      peakAccepted: peakPerMinute(accepted),
      fewestRequests: FEWEST_REQUESTS,
      floorSeconds: ((FEWEST_REQUESTS - BURST) * 60) / RATE_PER_MINUTE,
    };
  } finally {
    await server.stop();
    await wb.close();
  }
}
