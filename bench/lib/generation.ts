// Generation on this machine: the studio engine's PRODUCT shot per view (in each look) and its
// videos measured in-process on the repository's phone-photo fixtures (the six views of one shoe); a six-view PRODUCT task timed from submit to completed
// through the running server; and POST /content/generate under 20 concurrent clients.
import { randomUUID } from 'node:crypto';
import autocannon from 'autocannon';
import { phoneShoePhoto } from '../../tests/fixtures/phone-shoes';
import { PRODUCT_PRESETS, type ProductPreset } from '../../contract/enums';
import { cutOut } from '../../server/studio/segment';
import { productShot, type ViewCutout } from '../../server/studio/layouts';
import { creativeVideo, locateFfmpeg, SCENES } from '../../server/studio/video';
import { measuredLoad, signedInToken, verifiedSeller } from './auth';

const SIX = ['right_45', 'right_side', 'left_side', 'front', 'back', 'bottom'] as const;

/** The six guided views of one shoe, as a phone takes them (the repository's fixtures). */
export async function fixtures() {
  return Promise.all(SIX.map(async (view, i) => ({ view, jpeg: (await phoneShoePhoto({ seed: 21 + i, view })).jpeg })));
}

export interface StudioTimings {
  /** Cut-out plus layout, per view, in ms, for each look. */
  productPerView: Record<ProductPreset, number[]>;
  /** Seconds per named scene. */
  videos: Record<string, number>;
}

export async function studioTimings(): Promise<StudioTimings> {
  const photos = await fixtures();
  // Warm-up, as a worker is after its first task: sharp's pools, each look's cached backdrop, and
  // the JIT, which optimises the engine's functions over the first few photos (each view takes
  // branches of its own), so every view goes through every look once before any is timed.
  for (const photo of photos) for (const preset of PRODUCT_PRESETS) await productShot(await cutOut(photo.jpeg), preset);
  const productPerView = Object.fromEntries(PRODUCT_PRESETS.map((preset) => [preset, [] as number[]])) as Record<ProductPreset, number[]>;
  const views: ViewCutout[] = [];
  for (const photo of photos) {
    for (const preset of PRODUCT_PRESETS) {
      // Each output of a task cuts its photo once; a shot in one look is timed with its cut-out.
      const started = performance.now();
      const cutout = await cutOut(photo.jpeg);
      await productShot(cutout, preset);
      productPerView[preset].push(performance.now() - started);
      if (preset === 'STUDIO') views.push({ view: photo.view, cutout });
    }
  }
  const ffmpeg = locateFfmpeg(process.env.FFMPEG_PATH);
  if (!ffmpeg) throw new Error('ffmpeg is needed for the video bench');
  const videos: Record<string, number> = {};
  for (const scene of Object.keys(SCENES) as (keyof typeof SCENES)[]) {
    const started = performance.now();
    await creativeVideo(ffmpeg, views, scene);
    videos[scene] = (performance.now() - started) / 1000;
  }
  return { productPerView, videos };
}

interface Seller {
  token: string;
  materialIds: string[];
}

/** A verified seller signed in, with the six views uploaded through the API. */
export async function sellerWithPhotos(url: string, dataDir: string, username: string): Promise<Seller> {
  const token = await signedInToken(url, await verifiedSeller(url, dataDir, username));
  const auth = { authorization: `Bearer ${token}` };
  const materialIds: string[] = [];
  for (const photo of await fixtures()) {
    const registered = await fetch(`${url}/api/v1/materials/upload`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
      body: JSON.stringify({ file_name: `${photo.view}.jpg`, file_type: 'image/jpeg', file_size: photo.jpeg.length, description: JSON.stringify({ view: photo.view }) }),
    });
    const ticket = ((await registered.json()) as { data: { material_id: string; presigned_url: string } }).data;
    const put = await fetch(new URL(ticket.presigned_url, url), { method: 'PUT', headers: { 'content-type': 'image/jpeg' }, body: new Uint8Array(photo.jpeg) });
    if (!put.ok) throw new Error(`upload failed: ${put.status}`);
    materialIds.push(ticket.material_id);
  }
  return { token, materialIds };
}

const config = (category: 'PRODUCT' | 'PRODUCT2') => [
  { content_module: 'PRODUCT_IMAGE', category, custom_params: { shoe_params: {} }, name: category, selected: true },
];

/** Seconds from POST /content/generate to the task read back as completed, per run. */
export async function sixViewTask(url: string, seller: Seller, runs = 3): Promise<number[]> {
  const times: number[] = [];
  const headers = { authorization: `Bearer ${seller.token}`, 'content-type': 'application/json' };
  for (let i = 0; i < runs; i += 1) {
    const started = performance.now();
    const res = await fetch(`${url}/api/v1/content/generate`, {
      method: 'POST',
      headers: { ...headers, 'idempotency-key': randomUUID() },
      body: JSON.stringify({ content_config: config('PRODUCT'), material_ids: seller.materialIds }),
    });
    if (!res.ok) throw new Error(`generate failed: ${await res.text()}`);
    const { id } = ((await res.json()) as { data: { id: string } }).data;
    for (;;) {
      const task = ((await (await fetch(`${url}/api/v1/content/tasks/${id}`, { headers })).json()) as { data: { status: string; result: unknown[] } }).data;
      if (task.status === 'completed' && task.result.length === SIX.length) break;
      if (!['pending', 'processing'].includes(task.status)) throw new Error(`task ended ${task.status}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    times.push((performance.now() - started) / 1000);
  }
  return times;
}

/** POST /content/generate from 20 clients at once, each call a new task under a new key. */
export async function generateUnderLoad(url: string, seller: Seller, connections = 20, seconds = 10): ReturnType<typeof measuredLoad> {
  const load = (duration: number) =>
    autocannon({
      url: `${url}/api/v1/content/generate`,
      method: 'POST',
      connections,
      duration,
      headers: { authorization: `Bearer ${seller.token}`, 'content-type': 'application/json', 'accept-language': 'en' },
      body: JSON.stringify({ content_config: config('PRODUCT2'), material_ids: seller.materialIds }),
      requests: [
        {
          setupRequest: (request) => ({
            ...request,
            headers: { ...request.headers, 'idempotency-key': randomUUID() },
          }),
        },
      ],
    });
  return measuredLoad(load, seconds);
}
