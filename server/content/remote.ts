// The remote AI engine (DESIGN §4 Engines): an OpenAI-compatible API for what the studio engine
// never draws — model photos with a person, custom-prompt scenes, generative videos. Images are
// edits with the uploaded views as references; videos are created, polled and downloaded.
// Rate limits (429) are waited out and retried; anything else that goes wrong fails the one
// output, which is refunded.
import type { AiOptions } from '../config/env';
import { retryDelayMs } from '../../contract/backoff';
import { loadSharp } from '../lib/sharp';
import type { Engine, OutputRequest, TaskPhotos } from '../studio/engine';
import { OutputFailed } from '../studio/engine';
import type { Rendered } from '../studio/layouts';
import { PRODUCT_SIZE } from '../studio/layouts';

const RATE_LIMIT_TRIES = 4;
/** The size videos are asked for (vertical, as the studio engine's). */
const REMOTE_VIDEO = { width: 720, height: 1280 } as const;
const MAX_RETRY_WAIT_MS = 20_000;
const RATE_LIMIT_BACKOFF = { firstMs: 2_000, longestMs: MAX_RETRY_WAIT_MS, jitter: 0 };
const VIDEO_POLL_MS = 5_000;
/** Reference photos sent with an edit: the views that show the shoe best. */
const REFERENCE_VIEWS = ['right_45', 'right_side', 'front', 'back'] as const;

const BACKGROUND_WORDS: Record<string, string> = {
  SCENE: 'in a natural real-life setting (a city street, a café or a park), soft daylight',
  SIMPLE: 'in front of a plain seamless studio backdrop, soft even light',
};

/** What the model is asked for; the shoe must stay exactly as photographed. */
export function promptFor(request: OutputRequest): string {
  const keep = 'The reference photos show one shoe from several angles: keep its design, colours, materials and details exactly as they are.';
  const scene = request.description ? `Setting: ${request.description}.` : '';
  switch (request.category) {
    case 'HALF_BODY':
    case 'FULL_BODY': {
      const framing = request.category === 'HALF_BODY' ? 'a half-body shot from the waist down' : 'a full-body shot';
      const where = request.background === 'CUSTOM' ? scene : `Photographed ${BACKGROUND_WORDS[request.background ?? 'SIMPLE']}.`;
      return `A professional fashion catalogue photo, ${framing}, of a model wearing this pair of shoes. ${where} ${keep}`;
    }
    case 'CREATIVE_VIDEO':
      return `A short vertical advertising video of this shoe. ${scene} ${keep}`;
    default:
      return `A marketing image of this shoe. ${scene} ${keep}`;
  }
}

function sleep(ms: number) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export function remoteEngine(options: AiOptions, fetchImpl: typeof fetch = fetch): Engine {
  const headers = (): Record<string, string> => (options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {});

  /** One call, with rate limits waited out; timeouts and refusals fail the output. */
  const call = async (path: string, init: RequestInit, deadline: number): Promise<Response> => {
    for (let attempt = 1; ; attempt += 1) {
      const left = deadline - Date.now();
      if (left <= 0) throw new OutputFailed('ENGINE_TIMEOUT');
      let response: Response;
      try {
        response = await fetchImpl(`${options.baseUrl}${path}`, { ...init, headers: { ...headers(), ...init.headers }, signal: AbortSignal.timeout(left) });
      } catch (error) {
        const name = (error as { name?: string }).name;
        if (name === 'TimeoutError' || name === 'AbortError') throw new OutputFailed('ENGINE_TIMEOUT');
        throw new OutputFailed('ENGINE_REFUSED', { detail: (error as Error).message });
      }
      if (response.status === 429 && attempt < RATE_LIMIT_TRIES) {
        const after = Number(response.headers.get('retry-after'));
        await response.body?.cancel();
        await sleep(Math.min(MAX_RETRY_WAIT_MS, Number.isFinite(after) && after > 0 ? after * 1000 : retryDelayMs(attempt, RATE_LIMIT_BACKOFF)));
        continue;
      }
      if (!response.ok) {
        const text = (await response.text().catch(() => '')).slice(0, 300);
        let detail = `HTTP ${response.status}`;
        try {
          const message = (JSON.parse(text) as { error?: { message?: string } }).error?.message;
          if (message) detail = `${detail}: ${message}`;
        } catch {
          // not JSON
        }
        throw new OutputFailed('ENGINE_REFUSED', { detail });
      }
      return response;
    }
  };

  const references = async (photos: TaskPhotos) => {
    const sharp = await loadSharp();
    const views = REFERENCE_VIEWS.filter((view) => photos.views.includes(view));
    return Promise.all(
      views.map(async (view) => ({
        view,
        bytes: await sharp(await photos.bytes(view)).resize(1024, 1024, { fit: 'inside' }).png().toBuffer(),
      })),
    );
  };

  const image = async (request: OutputRequest, photos: TaskPhotos, deadline: number): Promise<Rendered> => {
    const form = new FormData();
    form.set('model', options.imageModel);
    form.set('prompt', promptFor(request));
    form.set('size', '1024x1536');
    form.set('n', '1');
    for (const ref of await references(photos)) form.append('image[]', new Blob([new Uint8Array(ref.bytes)], { type: 'image/png' }), `${ref.view}.png`);
    const response = await call('/images/edits', { method: 'POST', body: form }, deadline);
    const body = (await response.json().catch(() => null)) as { data?: { b64_json?: unknown }[] } | null;
    const encoded = body?.data?.[0]?.b64_json;
    if (typeof encoded !== 'string' || encoded.length === 0) throw new OutputFailed('ENGINE_MALFORMED');
    const sharp = await loadSharp();
    try {
      const bytes = await sharp(Buffer.from(encoded, 'base64'))
        .resize(PRODUCT_SIZE.width, PRODUCT_SIZE.height, { fit: 'cover' })
        .flatten({ background: '#ffffff' })
        .jpeg({ quality: 90 })
        .toBuffer();
      return { bytes, fileType: 'image/jpeg', ...PRODUCT_SIZE };
    } catch {
      throw new OutputFailed('ENGINE_MALFORMED');
    }
  };

  const video = async (request: OutputRequest, photos: TaskPhotos, deadline: number): Promise<Rendered> => {
    const form = new FormData();
    form.set('model', options.videoModel!);
    form.set('prompt', promptFor(request));
    form.set('size', `${REMOTE_VIDEO.width}x${REMOTE_VIDEO.height}`);
    form.set('seconds', '8');
    const [reference] = await references(photos);
    if (reference) form.set('input_reference', new Blob([new Uint8Array(reference.bytes)], { type: 'image/png' }), 'reference.png');
    const created = (await (await call('/videos', { method: 'POST', body: form }, deadline)).json().catch(() => null)) as { id?: unknown } | null;
    if (typeof created?.id !== 'string') throw new OutputFailed('ENGINE_MALFORMED');
    for (;;) {
      const state = (await (await call(`/videos/${encodeURIComponent(created.id)}`, { method: 'GET' }, deadline)).json().catch(() => null)) as {
        status?: unknown;
        error?: { message?: string };
      } | null;
      if (state?.status === 'completed') break;
      if (state?.status === 'failed') throw new OutputFailed('ENGINE_REFUSED', { detail: state.error?.message ?? 'failed' });
      if (state?.status !== 'queued' && state?.status !== 'in_progress') throw new OutputFailed('ENGINE_MALFORMED');
      await sleep(Math.min(VIDEO_POLL_MS, Math.max(0, deadline - Date.now())));
    }
    const content = await call(`/videos/${encodeURIComponent(created.id)}/content`, { method: 'GET' }, deadline);
    const bytes = Buffer.from(await content.arrayBuffer());
    // An MP4 starts with a box whose type is "ftyp".
    if (bytes.length < 12 || bytes.subarray(4, 8).toString('latin1') !== 'ftyp') throw new OutputFailed('ENGINE_MALFORMED');
    return { bytes, fileType: 'video/mp4', ...REMOTE_VIDEO };
  };

  return {
    async make(request, photos) {
      const deadline = Date.now() + options.timeoutMs;
      if (request.category === 'CREATIVE_VIDEO') {
        if (!options.videoModel) throw new OutputFailed('NEEDS_AI_VIDEO');
        return video(request, photos, deadline);
      }
      return image(request, photos, deadline);
    },
  };
}
