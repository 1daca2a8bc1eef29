// The ComfyUI engine (DESIGN §4 Engines): the operator's own GPU, running ComfyUI, paints model
// photos and custom scenes from the workflow templates in ./workflows. The shoe is cut out of the
// seller's photo, ComfyUI paints around it, and the shoe's own pixels are laid back over its
// answer, so the shoe is always as photographed. A prompt is followed through ComfyUI's queue
// until it is done or its deadline passes, when it is taken out of the queue (or interrupted) and
// the output fails. A failed node or a refused prompt fails the output, which is refunded;
// ComfyUI out of reach is transient, and the job is tried again.
import { createHash, randomInt, randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { ComfyUiOptions } from '../config/env';
import { MAX_IMAGE_PIXELS } from '../../contract/materials';
import type { ShoeView } from '../../contract/enums';
import { loadSharp } from '../lib/sharp';
import { cutOut, NoShoeFound, type Cutout } from '../studio/segment';
import { OutputFailed, type Engine, type OutputRequest, type TaskPhotos } from '../studio/engine';
import { PRODUCT_SIZE, type Rendered } from '../studio/layouts';
import { colourName, dominantColours } from '../studio/palette';
import { promptFor } from './remote';
import productBackground from './workflows/product-background.json' with { type: 'json' };
import modelPhoto from './workflows/model-photo.json' with { type: 'json' };

/** A workflow in ComfyUI's API format: node id → class and inputs. */
export type Workflow = Record<string, { class_type: string; inputs: Record<string, unknown>; _meta?: { title?: string } }>;

export const WORKFLOWS = {
  'product-background': productBackground as Workflow,
  'model-photo': modelPhoto as Workflow,
} as const;
type WorkflowName = keyof typeof WORKFLOWS;

/** Where uploads go in ComfyUI's input folder and results in its output folder. */
const SUBFOLDER = 'solestudio';
/** Views a single-view picture is made from, best first. */
const HERO_VIEWS: readonly ShoeView[] = ['right_45', 'right_side', 'left_side', 'front', 'back'];
/** Model photos: how wide the shoe stands in the frame, and where its sole is. */
const SHOE_IN_FRAME = { HALF_BODY: { width: 0.42, bottom: 0.95 }, FULL_BODY: { width: 0.2, bottom: 0.97 } } as const;
/** One call to ComfyUI may take this long before it counts as a lost connection. */
const REQUEST_MS = 60_000;
const CANCEL_MS = 10_000;
/** Following a prompt: the first wait, how it grows, and the longest. */
const POLL = { firstMs: 250, factor: 1.5, longestMs: 4_000 };
/** Polls in a row that may fail (ComfyUI restarting, a dropped connection) before the job is retried. */
const POLL_FAILURES = 5;
const DETAIL_MAX = 200;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A placeholder standing alone as a value: replaced by the value itself, whatever its type. */
const WHOLE = /^\{\{(\w+)\}\}$/;
const INSIDE = /\{\{(\w+)\}\}/g;

/** The template with its placeholders filled; throws when one has no value (a template's bug). */
export function fillWorkflow(template: Workflow, values: Record<string, string | number>): Workflow {
  const fill = (value: unknown): unknown => {
    if (typeof value === 'string') {
      const name = WHOLE.exec(value)?.[1];
      const valueOf = (key: string) => {
        if (!(key in values)) throw new Error(`workflow placeholder {{${key}}} has no value`);
        return values[key]!;
      };
      if (name) return valueOf(name);
      return value.replace(INSIDE, (_, key: string) => String(valueOf(key)));
    }
    if (Array.isArray(value)) return value.map(fill);
    if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v)]));
    return value;
  };
  return fill(template) as Workflow;
}

/** A picture ComfyUI made, as its history names it. */
interface ImageRef {
  filename: string;
  subfolder: string;
  type: string;
}

interface HistoryEntry {
  outputs?: Record<string, { images?: ImageRef[] }>;
  status?: { status_str?: string; completed?: boolean; messages?: [string, Record<string, unknown>][] } | null;
}

interface NodeErrors {
  [nodeId: string]: { class_type?: string; errors?: { type?: string; message?: string; details?: string }[] };
}

/** The deadline passed: the prompt is cancelled and the output fails. */
class PastDeadline extends Error {}
/** ComfyUI no longer knows the prompt (it restarted, or its queue was cleared): the job is tried again. */
class PromptLost extends Error {}

/** The size ComfyUI paints at: the longer side `maxSide`, both multiples of 8 (the latent's cell). */
function paintingSize(width: number, height: number, maxSide: number) {
  const scale = maxSide / Math.max(width, height);
  const side = (v: number) => Math.max(64, Math.round((v * scale) / 8) * 8);
  return { width: side(width), height: side(height) };
}

/** The photo's pixels as they were taken (upright), RGB. */
async function uprightPhoto(bytes: Buffer) {
  const sharp = await loadSharp();
  const { data, info } = await sharp(bytes, { limitInputPixels: MAX_IMAGE_PIXELS }).rotate().removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { rgb: data, width: info.width, height: info.height };
}

/**
 * `painted` with the shoe laid over it: where `alpha` (one byte a pixel) is 255 the result is the
 * shoe's pixel exactly; the mask is softened inwards only, so no old backdrop shows around it.
 */
async function layShoeOver(painted: Buffer, shoe: Buffer, alpha: Buffer, width: number, height: number): Promise<Rendered> {
  const sharp = await loadSharp();
  let background: Buffer;
  try {
    background = await sharp(painted, { limitInputPixels: MAX_IMAGE_PIXELS }).removeAlpha().resize(width, height, { fit: 'fill' }).raw().toBuffer();
  } catch {
    throw new OutputFailed('ENGINE_MALFORMED');
  }
  // sharp writes a one-channel picture as three unless it is asked for one.
  const soft = await sharp(alpha, { raw: { width, height, channels: 1 } }).blur(1).extractChannel(0).raw().toBuffer();
  const out = Buffer.alloc(width * height * 3);
  for (let i = 0; i < width * height; i += 1) {
    const a = Math.min(alpha[i]!, soft[i]!);
    for (let c = 0; c < 3; c += 1) {
      const o = i * 3 + c;
      out[o] = a === 255 ? shoe[o]! : Math.round((shoe[o]! * a + background[o]! * (255 - a)) / 255);
    }
  }
  const bytes = await sharp(out, { raw: { width, height, channels: 3 } }).jpeg({ quality: 92 }).toBuffer();
  return { bytes, fileType: 'image/jpeg', width, height };
}

/** What one output asks ComfyUI for: a workflow, the images it loads, and how its answer becomes the result. */
interface Staged {
  workflow: WorkflowName;
  checkpoint: string;
  /** Placeholder → PNG to upload. */
  uploads: Record<string, Buffer>;
  finish(painted: Buffer): Promise<Rendered>;
}

/** A custom scene: the photo as framed, its backdrop painted over. */
async function stageBackground(bytes: Buffer, cutout: Cutout, options: ComfyUiOptions): Promise<Staged> {
  const sharp = await loadSharp();
  const photo = await uprightPhoto(bytes);
  const { width, height } = photo;
  const size = paintingSize(width, height, options.maxSide);
  const mask = Buffer.from(cutout.mask.buffer, cutout.mask.byteOffset, cutout.mask.byteLength);
  const [photoPng, maskPng] = await Promise.all([
    sharp(photo.rgb, { raw: { width, height, channels: 3 } }).resize(size.width, size.height, { fit: 'fill' }).png().toBuffer(),
    sharp(mask, { raw: { width, height, channels: 1 } }).resize(size.width, size.height, { fit: 'fill' }).toColourspace('b-w').png().toBuffer(),
  ]);
  return {
    workflow: 'product-background',
    checkpoint: options.checkpoints.background,
    uploads: { photo: photoPng, shoe_mask: maskPng },
    finish: (painted) => layShoeOver(painted, photo.rgb, mask, width, height),
  };
}

/** A model photo: the shoe placed low in a 3:4 frame, the model and the scene painted around it. */
async function stageModelPhoto(bytes: Buffer, cutout: Cutout, category: 'HALF_BODY' | 'FULL_BODY', options: ComfyUiOptions): Promise<Staged> {
  const sharp = await loadSharp();
  const photo = await uprightPhoto(bytes);
  const frame = PRODUCT_SIZE;
  const { box } = cutout;
  const place = SHOE_IN_FRAME[category];
  const scale = Math.min((frame.width * place.width) / box.width, (frame.height * 0.3) / box.height);
  const w = Math.max(1, Math.round(box.width * scale));
  const h = Math.max(1, Math.round(box.height * scale));
  const left = Math.round((frame.width - w) / 2);
  const top = Math.round(frame.height * place.bottom - h);
  const region = { left: box.left, top: box.top, width: box.width, height: box.height };
  const [shoe, shoeMask] = await Promise.all([
    sharp(photo.rgb, { raw: { width: photo.width, height: photo.height, channels: 3 } }).extract(region).resize(w, h, { fit: 'fill' }).raw().toBuffer(),
    sharp(Buffer.from(cutout.mask), { raw: { width: photo.width, height: photo.height, channels: 1 } }).extract(region).resize(w, h, { fit: 'fill' }).extractChannel(0).raw().toBuffer(),
  ]);
  // The frame: mid grey and transparent where ComfyUI paints, the shoe opaque.
  const pixels = frame.width * frame.height;
  const rgb = Buffer.alloc(pixels * 3, 128);
  const alpha = Buffer.alloc(pixels);
  for (let y = 0; y < h; y += 1) {
    for (let x = 0; x < w; x += 1) {
      const i = (top + y) * frame.width + left + x;
      const j = y * w + x;
      alpha[i] = shoeMask[j]!;
      for (let c = 0; c < 3; c += 1) rgb[i * 3 + c] = shoe[j * 3 + c]!;
    }
  }
  const rgba = Buffer.alloc(pixels * 4);
  for (let i = 0; i < pixels; i += 1) {
    rgb.copy(rgba, i * 4, i * 3, i * 3 + 3);
    rgba[i * 4 + 3] = alpha[i]!;
  }
  const size = paintingSize(frame.width, frame.height, options.maxSide);
  const staged = await sharp(rgba, { raw: { width: frame.width, height: frame.height, channels: 4 } }).resize(size.width, size.height, { fit: 'fill' }).png().toBuffer();
  return {
    workflow: 'model-photo',
    checkpoint: options.checkpoints.modelPhoto,
    uploads: { staged },
    finish: (painted) => layShoeOver(painted, rgb, alpha, frame.width, frame.height),
  };
}

/** The shoe's colours in words for the prompt: its one or two largest colours. */
async function colourWords(cutout: Cutout): Promise<string> {
  const names = [...new Set(dominantColours(cutout.rgba, 4).filter((s) => s.share >= 0.2).slice(0, 2).map((s) => colourName(s.rgb, 'en')))];
  return names.length ? `The shoes are ${names.join(' and ')}.` : '';
}

const truncate = (text: string) => (text.length > DETAIL_MAX ? `${text.slice(0, DETAIL_MAX - 1)}…` : text);

/** A ComfyUI engine for one task: each photo is cut out once and shared by its outputs. */
export function comfyuiEngine(options: ComfyUiOptions, log: FastifyBaseLogger, fetchImpl: typeof fetch = fetch): Engine {
  // Credentials in the URL (a proxy in front of ComfyUI) go in a header: fetch refuses them in a URL.
  const url = new URL(options.baseUrl);
  const authorization = url.username ? `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64')}` : null;
  url.username = '';
  url.password = '';
  const base = url.href.replace(/\/+$/, '');
  /** This server as one ComfyUI client: its prompts carry this id. */
  const clientId = randomUUID();

  const cutouts = new Map<ShoeView, Promise<Cutout>>();
  const cutoutOf = (photos: TaskPhotos, view: ShoeView) => {
    let pending = cutouts.get(view);
    if (!pending) {
      pending = photos.bytes(view).then(cutOut);
      pending.catch(() => cutouts.delete(view));
      cutouts.set(view, pending);
    }
    return pending;
  };

  /** One call. A lost connection or a 5xx is transient (thrown as is); past the deadline, PastDeadline. */
  const call = async (path: string, init: RequestInit, deadline: number | null): Promise<Response> => {
    const left = deadline === null ? CANCEL_MS : deadline - Date.now();
    if (left <= 0) throw new PastDeadline();
    let response: Response;
    try {
      response = await fetchImpl(`${base}${path}`, {
        ...init,
        headers: { ...(authorization ? { authorization } : {}), ...(init.headers as Record<string, string> | undefined) },
        signal: AbortSignal.timeout(Math.min(left, REQUEST_MS)),
      });
    } catch (error) {
      if (deadline !== null && Date.now() >= deadline) throw new PastDeadline();
      throw new Error(`ComfyUI at ${base} did not answer ${init.method ?? 'GET'} ${path}: ${(error as Error).message}`, { cause: error });
    }
    if (response.status >= 500) {
      await response.body?.cancel();
      throw new Error(`ComfyUI at ${base} answered ${init.method ?? 'GET'} ${path} with HTTP ${response.status}`);
    }
    return response;
  };

  const json = async <T>(response: Response): Promise<T> => {
    try {
      return (await response.json()) as T;
    } catch {
      throw new OutputFailed('ENGINE_MALFORMED');
    }
  };

  /** Uploads a PNG into ComfyUI's input folder under a name made from its content. */
  const upload = async (role: string, png: Buffer, deadline: number): Promise<string> => {
    const name = `${role}-${createHash('sha256').update(png).digest('hex').slice(0, 24)}.png`;
    const form = new FormData();
    form.set('image', new Blob([new Uint8Array(png)], { type: 'image/png' }), name);
    form.set('type', 'input');
    form.set('subfolder', SUBFOLDER);
    form.set('overwrite', 'true');
    const response = await call('/upload/image', { method: 'POST', body: form }, deadline);
    if (!response.ok) {
      await response.body?.cancel();
      throw new OutputFailed('ENGINE_REFUSED', { detail: `upload HTTP ${response.status}` });
    }
    const stored = await json<{ name?: unknown; subfolder?: unknown }>(response);
    if (typeof stored.name !== 'string') throw new OutputFailed('ENGINE_MALFORMED');
    // LoadImage names a file in a subfolder of the input folder by its relative path.
    return typeof stored.subfolder === 'string' && stored.subfolder ? `${stored.subfolder}/${stored.name}` : stored.name;
  };

  /** Queues the prompt; a prompt ComfyUI finds invalid (400 with node_errors) fails the output. */
  const queue = async (promptId: string, workflow: Workflow, name: WorkflowName, deadline: number) => {
    const response = await call(
      '/prompt',
      { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ prompt: workflow, client_id: clientId, prompt_id: promptId }) },
      deadline,
    );
    if (response.status === 400) {
      const body = await json<{ error?: { type?: string; message?: string; details?: string } | string; node_errors?: NodeErrors | unknown[] }>(response);
      const error = typeof body.error === 'string' ? { message: body.error } : (body.error ?? {});
      const nodeErrors = body.node_errors && !Array.isArray(body.node_errors) ? (body.node_errors as NodeErrors) : {};
      log.warn({ workflow: name, error, node_errors: nodeErrors }, 'ComfyUI refused the prompt');
      const [nodeId, node] = Object.entries(nodeErrors)[0] ?? [];
      const first = node?.errors?.[0];
      const detail = first
        ? `${node?.class_type ?? 'node'} ${nodeId}: ${first.message ?? first.type ?? 'invalid'}${first.details ? ` (${first.details})` : ''}`
        : [error.message ?? error.type ?? 'invalid prompt', error.details].filter(Boolean).join(': ');
      throw new OutputFailed('ENGINE_REFUSED', { detail: truncate(detail) });
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw new OutputFailed('ENGINE_REFUSED', { detail: `HTTP ${response.status}` });
    }
    const queued = await json<{ prompt_id?: unknown }>(response);
    if (typeof queued.prompt_id !== 'string') throw new OutputFailed('ENGINE_MALFORMED');
    // A ComfyUI older than client-chosen ids makes its own.
    return queued.prompt_id;
  };

  const queueState = async (promptId: string, deadline: number | null) => {
    const body = await json<{ queue_running?: unknown[][]; queue_pending?: unknown[][] }>(await call('/queue', { method: 'GET' }, deadline));
    const running = (body.queue_running ?? []).some((item) => item[1] === promptId);
    const pending = body.queue_pending ?? [];
    const mine = pending.find((item) => item[1] === promptId);
    // Pending prompts run in order of their number; what runs now goes first.
    const ahead = mine ? pending.filter((item) => Number(item[0]) < Number(mine[0])).length + (body.queue_running?.length ?? 0) : 0;
    return { running, pending: Boolean(mine), ahead };
  };

  /** Takes the prompt out of the queue, or stops it if it is running (only it: the interrupt names it). */
  const cancel = async (promptId: string) => {
    try {
      const post = (path: string, body: unknown) =>
        call(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }, null).then((r) => r.body?.cancel());
      await post('/queue', { delete: [promptId] });
      // An older ComfyUI ignores the prompt id and stops whatever runs: ask only when it is ours.
      if ((await queueState(promptId, null)).running) await post('/interrupt', { prompt_id: promptId });
      log.info({ prompt: promptId }, 'ComfyUI prompt cancelled');
    } catch (error) {
      log.warn({ err: error, prompt: promptId }, 'cancelling a ComfyUI prompt failed');
    }
  };

  /** A finished prompt: its entry when it succeeded; a failed node fails the output with the node named in the log. */
  const settled = (promptId: string, name: WorkflowName, entry: HistoryEntry): HistoryEntry => {
    const status = entry.status;
    if (!status || status.status_str === 'success' || status.completed) return entry;
    const messages = status.messages ?? [];
    const failed = messages.find(([event]) => event === 'execution_error')?.[1];
    if (failed) {
      log.warn(
        { prompt: promptId, workflow: name, node_id: failed.node_id, node_type: failed.node_type, exception_type: failed.exception_type, exception_message: failed.exception_message },
        'a ComfyUI node failed',
      );
      const message = typeof failed.exception_message === 'string' ? failed.exception_message.trim() : 'failed';
      throw new OutputFailed('ENGINE_REFUSED', { detail: truncate(`${String(failed.node_type ?? 'a node')} failed: ${message}`) });
    }
    const interrupted = messages.find(([event]) => event === 'execution_interrupted')?.[1];
    log.warn({ prompt: promptId, workflow: name, interrupted, status: status.status_str }, 'a ComfyUI prompt did not finish');
    throw new OutputFailed('ENGINE_REFUSED', { detail: interrupted ? 'stopped on the ComfyUI server' : `status ${String(status.status_str)}` });
  };

  /** Follows the prompt until ComfyUI has finished it; its history entry when it succeeded. */
  const follow = async (promptId: string, name: WorkflowName, deadline: number): Promise<HistoryEntry> => {
    let wait = POLL.firstMs;
    let failures = 0;
    let ahead = -1;
    for (;;) {
      try {
        const history = await json<Record<string, HistoryEntry>>(await call(`/history/${encodeURIComponent(promptId)}`, { method: 'GET' }, deadline));
        const entry = history[promptId];
        if (entry) return settled(promptId, name, entry);
        const state = await queueState(promptId, deadline);
        if (!state.running && !state.pending) {
          // It may have finished between the two questions; if not, it is gone (ComfyUI restarted, the queue was cleared).
          const again = (await json<Record<string, HistoryEntry>>(await call(`/history/${encodeURIComponent(promptId)}`, { method: 'GET' }, deadline)))[promptId];
          if (again) return settled(promptId, name, again);
          throw new PromptLost(`ComfyUI lost prompt ${promptId}: it is neither queued nor in its history`);
        }
        if (state.ahead !== ahead) {
          ahead = state.ahead;
          log.debug({ prompt: promptId, running: state.running, ahead }, 'ComfyUI prompt waiting');
        }
        failures = 0;
      } catch (error) {
        if (error instanceof OutputFailed || error instanceof PastDeadline || error instanceof PromptLost) throw error;
        failures += 1;
        if (failures >= POLL_FAILURES) throw error;
        log.warn({ err: error, prompt: promptId }, 'asking ComfyUI about a prompt failed; asking again');
      }
      if (Date.now() + wait >= deadline) {
        await sleep(Math.max(0, deadline - Date.now()));
        throw new PastDeadline();
      }
      await sleep(wait);
      wait = Math.min(POLL.longestMs, wait * POLL.factor);
    }
  };

  /** The first picture the workflow's output node saved. */
  const result = async (entry: HistoryEntry, workflow: Workflow, deadline: number): Promise<Buffer> => {
    const saver = Object.keys(workflow).find((id) => ['SaveImage', 'PreviewImage'].includes(workflow[id]!.class_type));
    const images = (saver ? entry.outputs?.[saver]?.images : undefined) ?? Object.values(entry.outputs ?? {}).flatMap((o) => o.images ?? []);
    const image = images[0];
    if (!image || typeof image.filename !== 'string') throw new OutputFailed('ENGINE_MALFORMED');
    const query = new URLSearchParams({ filename: image.filename, subfolder: image.subfolder ?? '', type: image.type ?? 'output' });
    const response = await call(`/view?${query}`, { method: 'GET' }, deadline);
    if (!response.ok) {
      await response.body?.cancel();
      throw new OutputFailed('ENGINE_MALFORMED');
    }
    return Buffer.from(await response.arrayBuffer());
  };

  const make = async (request: OutputRequest, photos: TaskPhotos): Promise<Rendered> => {
    const deadline = Date.now() + options.timeoutMs;
    const view = request.view ?? HERO_VIEWS.find((v) => photos.views.includes(v)) ?? photos.views[0]!;
    let cutout: Cutout;
    try {
      cutout = await cutoutOf(photos, view);
    } catch (error) {
      if (error instanceof NoShoeFound) throw new OutputFailed('SUBJECT_MISSING');
      throw error;
    }
    const bytes = await photos.bytes(view);
    const staged =
      request.category === 'HALF_BODY' || request.category === 'FULL_BODY'
        ? await stageModelPhoto(bytes, cutout, request.category, options)
        : await stageBackground(bytes, cutout, options);
    const template = WORKFLOWS[staged.workflow];
    const values: Record<string, string | number> = {
      checkpoint: staged.checkpoint,
      prompt: [promptFor(request), await colourWords(cutout)].filter(Boolean).join(' '),
      seed: randomInt(0, 2 ** 47),
      output_prefix: `${SUBFOLDER}/${staged.workflow}`,
    };
    const promptId = randomUUID();
    let queuedId: string | null = null;
    try {
      for (const [placeholder, png] of Object.entries(staged.uploads)) values[placeholder] = await upload(placeholder, png, deadline);
      const workflow = fillWorkflow(template, values);
      queuedId = promptId;
      queuedId = await queue(promptId, workflow, staged.workflow, deadline);
      log.info({ prompt: queuedId, workflow: staged.workflow, category: request.category }, 'ComfyUI prompt queued');
      const entry = await follow(queuedId, staged.workflow, deadline);
      return await staged.finish(await result(entry, workflow, deadline));
    } catch (error) {
      if (error instanceof PastDeadline) {
        if (queuedId) await cancel(queuedId);
        throw new OutputFailed('ENGINE_TIMEOUT');
      }
      // A prompt left behind by a transient failure would paint for nobody.
      if (queuedId && !(error instanceof OutputFailed)) await cancel(queuedId);
      throw error;
    }
  };

  return {
    make(request, photos) {
      // Routing sends ComfyUI pictures only; refuse anything else rather than pretend.
      if (request.category === 'CREATIVE_VIDEO') return Promise.reject(new OutputFailed('NEEDS_AI_VIDEO'));
      return make(request, photos);
    },
  };
}
