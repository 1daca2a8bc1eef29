// A local stand-in for ComfyUI's server, speaking its HTTP protocol as server.py and execution.py
// do, for the ComfyUI engine's tests: multipart uploads into an input folder (`POST /upload/image`
// with `image`, `type`, `subfolder`, `overwrite`, answering `{name, subfolder, type}`), prompts
// validated against a node registry like /object_info (400 `{error, node_errors}` for an unknown
// node class, a missing input, a wrong link type, a value out of range or not in its list, an
// image file that is not there), a queue run by one worker — pending → running → history — with
// a configurable time per prompt (a slow queue), history entries with `status.status_str`,
// `completed` and the messages an execution leaves (`execution_start`, `execution_cached`,
// `execution_success`, `execution_error` with node_id, node_type, exception_message…,
// `execution_interrupted`), `/view` serving the PNGs SaveImage wrote, `POST /queue {delete}`
// and `POST /interrupt` (only the named prompt when it runs, everything without a name).
//
// The nodes do with the pictures what their names promise, cheaply: the sampler paints the masked
// part of the latent in a colour drawn from the prompt and seed, and the VAE's round trip blurs and
// brightens every pixel a little, as a real one changes pixels it was not asked to paint.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';

type Json = Record<string, unknown>;
type Graph = Record<string, { class_type?: unknown; inputs?: Record<string, unknown>; _meta?: unknown }>;

/** What one prompt does when it runs: how long it takes, and a node class that raises. */
export interface Behaviour {
  runMs?: number;
  fail?: { classType: string; message: string; type?: string };
}

/** A picture on the fake GPU: RGB 0–255 and its size. */
interface Picture {
  width: number;
  height: number;
  rgb: Float32Array;
}
/** A mask: 1 is painted. */
interface Mask {
  width: number;
  height: number;
  values: Float32Array;
}
interface Latent {
  picture: Picture;
  mask: Mask | null;
}

interface QueueItem {
  number: number;
  id: string;
  prompt: Graph;
  extraData: Json;
  outputs: string[];
  behaviour: Behaviour;
}

export interface HistoryEntry {
  prompt: unknown[];
  outputs: Record<string, { images: { filename: string; subfolder: string; type: string }[] }>;
  status: { status_str: 'success' | 'error'; completed: boolean; messages: [string, Json][] };
  meta: Record<string, Json>;
}

const SAMPLERS = ['euler', 'euler_ancestral', 'heun', 'dpm_2', 'dpmpp_2m', 'dpmpp_sde', 'ddim', 'uni_pc'];
const SCHEDULERS = ['normal', 'karras', 'exponential', 'sgm_uniform', 'simple', 'ddim_uniform'];
/** ComfyUI's seed range ends at 0xffffffffffffffff (a float here, as in JSON). */
const INT_MAX = 2 ** 64 - 1;

interface NodeType {
  input: { required: Record<string, [unknown, Json?]> };
  output: string[];
  output_node?: boolean;
  category: string;
  /** Inputs checked by the node's own VALIDATE_INPUTS (their list is not checked). */
  validates?: string[];
}

function registry(checkpoints: readonly string[], inputFiles: () => string[]): Record<string, NodeType> {
  return {
    CheckpointLoaderSimple: { input: { required: { ckpt_name: [checkpoints] } }, output: ['MODEL', 'CLIP', 'VAE'], category: 'loaders' },
    CLIPTextEncode: { input: { required: { text: ['STRING', { multiline: true, dynamicPrompts: true }], clip: ['CLIP'] } }, output: ['CONDITIONING'], category: 'conditioning' },
    LoadImage: { input: { required: { image: [inputFiles(), { image_upload: true }] } }, output: ['IMAGE', 'MASK'], category: 'image', validates: ['image'] },
    LoadImageMask: {
      input: { required: { image: [inputFiles(), { image_upload: true }], channel: [['alpha', 'red', 'green', 'blue']] } },
      output: ['MASK'],
      category: 'mask',
      validates: ['image'],
    },
    InvertMask: { input: { required: { mask: ['MASK'] } }, output: ['MASK'], category: 'mask' },
    VAEEncodeForInpaint: {
      input: { required: { pixels: ['IMAGE'], vae: ['VAE'], mask: ['MASK'], grow_mask_by: ['INT', { default: 6, min: 0, max: 64, step: 1 }] } },
      output: ['LATENT'],
      category: 'latent/inpaint',
    },
    KSampler: {
      input: {
        required: {
          model: ['MODEL'],
          seed: ['INT', { default: 0, min: 0, max: INT_MAX }],
          steps: ['INT', { default: 20, min: 1, max: 10000 }],
          cfg: ['FLOAT', { default: 8, min: 0, max: 100, step: 0.1 }],
          sampler_name: [SAMPLERS],
          scheduler: [SCHEDULERS],
          positive: ['CONDITIONING'],
          negative: ['CONDITIONING'],
          latent_image: ['LATENT'],
          denoise: ['FLOAT', { default: 1, min: 0, max: 1, step: 0.01 }],
        },
      },
      output: ['LATENT'],
      category: 'sampling',
    },
    VAEDecode: { input: { required: { samples: ['LATENT'], vae: ['VAE'] } }, output: ['IMAGE'], category: 'latent' },
    SaveImage: { input: { required: { images: ['IMAGE'], filename_prefix: ['STRING', { default: 'ComfyUI' }] } }, output: [], output_node: true, category: 'image' },
    PreviewImage: { input: { required: { images: ['IMAGE'] } }, output: [], output_node: true, category: 'image' },
  };
}

function objectInfo(name: string, type: NodeType): Json {
  return {
    input: type.input,
    input_order: { required: Object.keys(type.input.required) },
    output: type.output,
    output_is_list: type.output.map(() => false),
    output_name: type.output,
    name,
    display_name: name,
    description: '',
    python_module: 'nodes',
    category: type.category,
    output_node: Boolean(type.output_node),
  };
}

const isLink = (value: unknown): value is unknown[] => Array.isArray(value);

interface ValidationError {
  type: string;
  message: string;
  details: string;
  extra_info: Json;
}

/** execution.validate_prompt: (valid, error, good outputs, node_errors). */
function validatePrompt(prompt: Graph, nodes: Record<string, NodeType>, exists: (file: string) => boolean) {
  const outputs: string[] = [];
  for (const [id, node] of Object.entries(prompt)) {
    if (!node || typeof node !== 'object' || !('class_type' in node)) {
      const error = { type: 'invalid_prompt', message: 'Cannot execute because a node is missing the class_type property.', details: `Node ID '#${id}'`, extra_info: {} };
      return { valid: false, error, outputs: [], nodeErrors: {} };
    }
    const classType = String(node.class_type);
    const type = nodes[classType];
    if (!type) {
      const title = (node._meta as { title?: string } | undefined)?.title ?? classType;
      const error = {
        type: 'missing_node_type',
        message: `Node '${classType}' not found. The custom node may not be installed.`,
        details: `Node ID '#${id}'`,
        extra_info: { node_id: id, class_type: classType, node_title: title },
      };
      return { valid: false, error, outputs: [], nodeErrors: {} };
    }
    if (type.output_node) outputs.push(id);
  }
  if (outputs.length === 0) {
    return { valid: false, error: { type: 'prompt_no_outputs', message: 'Prompt has no outputs', details: '', extra_info: {} }, outputs: [], nodeErrors: {} };
  }

  const validated = new Map<string, ValidationError[] | null>();
  const validateInputs = (id: string): boolean => {
    if (validated.has(id)) return validated.get(id) === null;
    const node = prompt[id]!;
    const type = nodes[String(node.class_type)]!;
    const inputs = node.inputs ?? {};
    const errors: ValidationError[] = [];
    let valid = true;
    for (const [name, info] of Object.entries(type.input.required)) {
      const [kind, options = {}] = info;
      if (!(name in inputs)) {
        errors.push({ type: 'required_input_missing', message: 'Required input is missing', details: name, extra_info: { input_name: name } });
        continue;
      }
      const value = inputs[name];
      if (isLink(value)) {
        const [from, slot] = value;
        const source = typeof from === 'string' ? prompt[from] : undefined;
        if (value.length !== 2 || !source || typeof slot !== 'number') {
          errors.push({ type: 'bad_linked_input', message: 'Bad linked input, must be a length-2 list of [node_id, slot_index]', details: name, extra_info: { input_name: name, received_value: value } });
          continue;
        }
        const received = nodes[String(source.class_type)]!.output[slot];
        if (received !== kind) {
          errors.push({
            type: 'return_type_mismatch',
            message: 'Return type mismatch between linked nodes',
            details: `${name}, received_type(${received}) mismatch input_type(${String(kind)})`,
            extra_info: { input_name: name, received_type: received, linked_node: value },
          });
          continue;
        }
        if (!validateInputs(from as string)) valid = false;
        continue;
      }
      let v: unknown = value;
      if (kind === 'INT' || kind === 'FLOAT') {
        const n = Number(value);
        if (typeof value === 'boolean' || value === null || value === '' || !Number.isFinite(n) || (kind === 'INT' && !Number.isInteger(n))) {
          errors.push({ type: 'invalid_input_type', message: `Failed to convert an input value to a ${kind} value`, details: `${name}, ${String(value)}`, extra_info: { input_name: name, received_value: value } });
          continue;
        }
        v = n;
        const { min, max } = options as { min?: number; max?: number };
        if (min !== undefined && n < min) {
          errors.push({ type: 'value_smaller_than_min', message: `Value ${n} smaller than min of ${min}`, details: name, extra_info: { input_name: name, received_value: n } });
          continue;
        }
        if (max !== undefined && n > max) {
          errors.push({ type: 'value_bigger_than_max', message: `Value ${n} bigger than max of ${max}`, details: name, extra_info: { input_name: name, received_value: n } });
          continue;
        }
      }
      if (kind === 'STRING' && typeof value !== 'string') v = String(value);
      if (type.validates?.includes(name)) {
        if (typeof v !== 'string' || !exists(v)) {
          errors.push({ type: 'custom_validation_failed', message: 'Custom validation failed for node', details: `${name} - Invalid image file: ${String(v)}`, extra_info: { input_name: name, received_value: v } });
        }
        continue;
      }
      if (Array.isArray(kind) && !kind.includes(v)) {
        errors.push({ type: 'value_not_in_list', message: 'Value not in list', details: `${name}: '${String(v)}' not in ${JSON.stringify(kind)}`, extra_info: { input_name: name, received_value: v } });
      }
    }
    const ok = errors.length === 0 && valid;
    validated.set(id, ok ? null : errors);
    return ok;
  };

  const good: string[] = [];
  const nodeErrors: Record<string, { errors: ValidationError[]; dependent_outputs: string[]; class_type: string }> = {};
  const failures: string[] = [];
  for (const output of outputs) {
    if (validateInputs(output)) {
      good.push(output);
      continue;
    }
    for (const [id, errors] of validated) {
      // Nodes downstream of a bad one are invalid without errors of their own: not reported.
      if (!errors || errors.length === 0) continue;
      nodeErrors[id] ??= { errors, dependent_outputs: [], class_type: String(prompt[id]!.class_type) };
      nodeErrors[id].dependent_outputs.push(output);
      for (const error of errors) failures.push(`${error.message}: ${error.details}`);
    }
  }
  if (good.length === 0) {
    const error = { type: 'prompt_outputs_failed_validation', message: 'Prompt outputs failed validation', details: [...new Set(failures)].join('\n'), extra_info: {} };
    return { valid: false, error, outputs: [], nodeErrors };
  }
  return { valid: true, error: null, outputs: good, nodeErrors };
}

class Interrupted extends Error {}

/** A 32-bit hash of text, for colours that follow the prompt. */
function hash(text: string): number {
  let h = 2166136261;
  for (const char of text) h = Math.imul(h ^ char.charCodeAt(0), 16777619) >>> 0;
  return h;
}

async function decode(bytes: Buffer): Promise<{ width: number; height: number; rgba: Buffer }> {
  const { data, info } = await sharp(bytes).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, rgba: data };
}

function resizeMask(mask: Mask, width: number, height: number): Mask {
  if (mask.width === width && mask.height === height) return mask;
  const values = new Float32Array(width * height);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      values[y * width + x] = mask.values[Math.min(mask.height - 1, Math.floor((y * mask.height) / height)) * mask.width + Math.min(mask.width - 1, Math.floor((x * mask.width) / width))]!;
    }
  }
  return { width, height, values };
}

export interface FakeComfyUi {
  /** `http://127.0.0.1:{port}` */
  url: string;
  /** Every request, `METHOD /path?query`, oldest first. */
  seen: string[];
  /** What each queued prompt was sent with, by prompt id. */
  prompts: Map<string, { prompt: Graph; clientId: string | undefined }>;
  /** Files in the input folder by `subfolder/name`. */
  inputs: Map<string, Buffer>;
  /** Prompt ids `POST /queue {delete}` named, and each `POST /interrupt` (the prompt it named, or null). */
  deleted: string[];
  interrupts: (string | null)[];
  history: Map<string, HistoryEntry>;
  /** The files in models/checkpoints (the loader's list); change it to take one away. */
  checkpoints: string[];
  /** Node classes this ComfyUI lacks (a custom node not installed). */
  missingNodes: Set<string>;
  /** Decides how each prompt behaves when it runs; every prompt runs at once and well by default. */
  behaviour: (prompt: Graph) => Behaviour;
  /** Puts another client's prompt in the queue that keeps the GPU busy for `ms`. */
  occupy(ms: number): string;
  /** Whether a prompt is running or pending now. */
  state(id: string): 'pending' | 'running' | 'done' | 'unknown';
  close(): Promise<void>;
}

export async function fakeComfyUi(options: { checkpoints?: string[] } = {}): Promise<FakeComfyUi> {
  const inputs = new Map<string, Buffer>();
  const outputs = new Map<string, Buffer>();
  const nodes = () =>
    Object.fromEntries(Object.entries(registry(fake.checkpoints, () => [...inputs.keys()].sort())).filter(([name]) => !fake.missingNodes.has(name)));
  const pending: QueueItem[] = [];
  let running: QueueItem | null = null;
  let interruptFlag = false;
  let number = 0;
  let counter = 0;
  let closed = false;
  let wake: (() => void) | null = null;
  const seen: string[] = [];
  const prompts = new Map<string, { prompt: Graph; clientId: string | undefined }>();
  const history = new Map<string, HistoryEntry>();
  const deleted: string[] = [];
  const interrupts: (string | null)[] = [];

  const fake: FakeComfyUi = {
    url: '',
    seen,
    prompts,
    inputs,
    deleted,
    interrupts,
    history,
    checkpoints: options.checkpoints ?? ['sd-v1-5-inpainting.ckpt'],
    missingNodes: new Set(),
    behaviour: () => ({}),
    occupy(ms) {
      const id = randomUUID();
      pending.push({ number: (number += 1), id, prompt: {}, extraData: { client_id: 'someone-else' }, outputs: [], behaviour: { runMs: ms } });
      wake?.();
      return id;
    },
    state(id) {
      if (running?.id === id) return 'running';
      if (pending.some((item) => item.id === id)) return 'pending';
      return history.has(id) ? 'done' : 'unknown';
    },
    close: async () => {},
  };

  /** Waits `ms`, checking for an interrupt as ComfyUI checks before each node. */
  const work = async (ms: number) => {
    const end = Date.now() + ms;
    for (;;) {
      if (interruptFlag) throw new Interrupted();
      if (closed) throw new Interrupted();
      const left = end - Date.now();
      if (left <= 0) return;
      await new Promise((resolve) => setTimeout(resolve, Math.min(left, 20)));
    }
  };

  /** Runs one node, as the node's FUNCTION would. */
  const runNode = async (classType: string, inputs_: Record<string, unknown>): Promise<unknown[]> => {
    switch (classType) {
      case 'CheckpointLoaderSimple':
        return [{ model: inputs_.ckpt_name }, { clip: inputs_.ckpt_name }, { vae: inputs_.ckpt_name }];
      case 'CLIPTextEncode':
        return [{ text: String(inputs_.text) }];
      case 'LoadImage': {
        const image = await decode(inputs.get(String(inputs_.image))!);
        const rgb = new Float32Array(image.width * image.height * 3);
        const hasAlpha = image.rgba.some((_, i) => i % 4 === 3 && image.rgba[i]! < 255);
        const values = new Float32Array(hasAlpha ? image.width * image.height : 64 * 64);
        for (let i = 0; i < image.width * image.height; i += 1) {
          for (let c = 0; c < 3; c += 1) rgb[i * 3 + c] = image.rgba[i * 4 + c]!;
          if (hasAlpha) values[i] = 1 - image.rgba[i * 4 + 3]! / 255;
        }
        const mask = hasAlpha ? { width: image.width, height: image.height, values } : { width: 64, height: 64, values };
        return [{ width: image.width, height: image.height, rgb } satisfies Picture, mask satisfies Mask];
      }
      case 'LoadImageMask': {
        const image = await decode(inputs.get(String(inputs_.image))!);
        const channel = ['red', 'green', 'blue', 'alpha'].indexOf(String(inputs_.channel));
        const values = new Float32Array(image.width * image.height);
        for (let i = 0; i < values.length; i += 1) {
          const v = image.rgba[i * 4 + channel]! / 255;
          values[i] = channel === 3 ? 1 - v : v;
        }
        return [{ width: image.width, height: image.height, values } satisfies Mask];
      }
      case 'InvertMask': {
        const mask = inputs_.mask as Mask;
        return [{ ...mask, values: mask.values.map((v) => 1 - v) } satisfies Mask];
      }
      case 'VAEEncodeForInpaint': {
        const pixels = inputs_.pixels as Picture;
        // The latent's cells are 8 px: the picture is cropped to a multiple of 8.
        const width = Math.floor(pixels.width / 8) * 8;
        const height = Math.floor(pixels.height / 8) * 8;
        const mask = resizeMask(inputs_.mask as Mask, pixels.width, pixels.height);
        const grow = Number(inputs_.grow_mask_by);
        // The mask rounded and grown by `grow` px (a square max filter, one axis at a time).
        const across = new Float32Array(width * height);
        for (let y = 0; y < height; y += 1) {
          for (let x = 0; x < width; x += 1) {
            let m = 0;
            for (let dx = -grow; dx <= grow && m < 1; dx += 1) m = Math.max(m, Math.round(mask.values[y * pixels.width + Math.min(width - 1, Math.max(0, x + dx))]!));
            across[y * width + x] = m;
          }
        }
        const grown = new Float32Array(width * height);
        const rgb = new Float32Array(width * height * 3);
        for (let y = 0; y < height; y += 1) {
          for (let x = 0; x < width; x += 1) {
            let m = 0;
            for (let dy = -grow; dy <= grow && m < 1; dy += 1) m = Math.max(m, across[Math.min(height - 1, Math.max(0, y + dy)) * width + x]!);
            grown[y * width + x] = m;
            // What is to be painted is set to grey before encoding, as ComfyUI does.
            for (let c = 0; c < 3; c += 1) rgb[(y * width + x) * 3 + c] = m ? 127.5 : pixels.rgb[(y * pixels.width + x) * 3 + c]!;
          }
        }
        return [{ picture: { width, height, rgb }, mask: { width, height, values: grown } } satisfies Latent];
      }
      case 'KSampler': {
        const latent = inputs_.latent_image as Latent;
        const text = (inputs_.positive as { text: string }).text;
        const h = hash(`${text}|${String(inputs_.seed)}`);
        const base = [60 + (h & 0x7f), 40 + ((h >> 8) & 0x7f), 70 + ((h >> 16) & 0x7f)];
        const { width, height } = latent.picture;
        const rgb = Float32Array.from(latent.picture.rgb);
        for (let y = 0; y < height; y += 1) {
          for (let x = 0; x < width; x += 1) {
            const i = y * width + x;
            const m = latent.mask ? latent.mask.values[i]! * Number(inputs_.denoise) : Number(inputs_.denoise);
            if (m <= 0) continue;
            for (let c = 0; c < 3; c += 1) {
              const painted = base[c]! * (0.7 + (0.6 * y) / height) + ((x * 7 + y * 13 + c * 5) % 11);
              rgb[i * 3 + c] = painted * m + rgb[i * 3 + c]! * (1 - m);
            }
          }
        }
        return [{ picture: { width, height, rgb }, mask: null } satisfies Latent];
      }
      case 'VAEDecode': {
        // The round trip through the VAE: every pixel a little blurred and brightened.
        const { picture } = inputs_.samples as Latent;
        const { width, height } = picture;
        const rgb = new Float32Array(picture.rgb.length);
        for (let y = 0; y < height; y += 1) {
          for (let x = 0; x < width; x += 1) {
            for (let c = 0; c < 3; c += 1) {
              let sum = 0;
              let n = 0;
              for (let dy = -1; dy <= 1; dy += 1) {
                for (let dx = -1; dx <= 1; dx += 1) {
                  const yy = Math.min(height - 1, Math.max(0, y + dy));
                  const xx = Math.min(width - 1, Math.max(0, x + dx));
                  sum += picture.rgb[(yy * width + xx) * 3 + c]!;
                  n += 1;
                }
              }
              rgb[(y * width + x) * 3 + c] = Math.min(255, sum / n + 12);
            }
          }
        }
        return [{ width, height, rgb } satisfies Picture];
      }
      default:
        throw new Error(`no implementation for ${classType}`);
    }
  };

  /** SaveImage and PreviewImage: the picture written as PNG, named as ComfyUI names it. */
  const save = async (classType: string, picture: Picture, prefix: string) => {
    const type = classType === 'SaveImage' ? 'output' : 'temp';
    const slash = prefix.lastIndexOf('/');
    const subfolder = slash >= 0 ? prefix.slice(0, slash) : '';
    const base = slash >= 0 ? prefix.slice(slash + 1) : prefix;
    counter += 1;
    const filename = `${base}_${String(counter).padStart(5, '0')}_.png`;
    const bytes = await sharp(Buffer.from(Uint8ClampedArray.from(picture.rgb)), { raw: { width: picture.width, height: picture.height, channels: 3 } })
      .png()
      .toBuffer();
    outputs.set(`${type}/${subfolder ? `${subfolder}/` : ''}${filename}`, bytes);
    return { filename, subfolder, type };
  };

  /** The PromptExecutor: runs the outputs' nodes in dependency order, stopping at the first error. */
  const execute = async (item: QueueItem): Promise<HistoryEntry> => {
    const messages: [string, Json][] = [];
    const now = () => Date.now();
    messages.push(['execution_start', { prompt_id: item.id, timestamp: now() }]);
    messages.push(['execution_cached', { nodes: [], prompt_id: item.id, timestamp: now() }]);
    const results = new Map<string, unknown[]>();
    const ui: HistoryEntry['outputs'] = {};
    const executed: string[] = [];
    const order: string[] = [];
    const visit = (id: string) => {
      if (order.includes(id)) return;
      for (const value of Object.values(item.prompt[id]!.inputs ?? {})) if (isLink(value)) visit(value[0] as string);
      order.push(id);
    };
    item.outputs.forEach(visit);
    const steps = Math.max(1, order.length);
    const entry = (status: HistoryEntry['status']): HistoryEntry => ({
      prompt: [item.number, item.id, item.prompt, item.extraData, item.outputs],
      outputs: ui,
      status,
      meta: Object.fromEntries(Object.keys(ui).map((id) => [id, { node_id: id, display_node: id, parent_node: null, real_node_id: id }])),
    });
    if (order.length === 0) {
      // Another client's prompt: it only keeps the GPU busy.
      try {
        await work(item.behaviour.runMs ?? 0);
      } catch {
        messages.push(['execution_interrupted', { prompt_id: item.id, node_id: null, node_type: null, executed: [], timestamp: now() }]);
        return entry({ status_str: 'error', completed: false, messages });
      }
      messages.push(['execution_success', { prompt_id: item.id, timestamp: now() }]);
      return entry({ status_str: 'success', completed: true, messages });
    }
    for (const id of order) {
      const node = item.prompt[id]!;
      const classType = String(node.class_type);
      const values: Record<string, unknown> = {};
      try {
        await work((item.behaviour.runMs ?? 0) / steps);
        for (const [name, value] of Object.entries(node.inputs ?? {})) values[name] = isLink(value) ? results.get(value[0] as string)![value[1] as number] : value;
        if (item.behaviour.fail?.classType === classType) {
          const error = new Error(item.behaviour.fail.message);
          error.name = item.behaviour.fail.type ?? 'RuntimeError';
          throw error;
        }
        if (classType === 'SaveImage' || classType === 'PreviewImage') {
          ui[id] = { images: [await save(classType, values.images as Picture, String(values.filename_prefix ?? 'ComfyUI'))] };
          results.set(id, []);
        } else {
          results.set(id, await runNode(classType, values));
        }
        executed.push(id);
      } catch (error) {
        if (error instanceof Interrupted) {
          messages.push(['execution_interrupted', { prompt_id: item.id, node_id: id, node_type: classType, executed, timestamp: now() }]);
        } else {
          const e = error as Error;
          messages.push([
            'execution_error',
            {
              prompt_id: item.id,
              node_id: id,
              node_type: classType,
              executed,
              exception_message: e.message,
              exception_type: e.name === 'Error' ? 'Exception' : e.name,
              traceback: [`  File "execution.py", line 1, in execute\n`, `    raise ${e.name}(${JSON.stringify(e.message)})\n`],
              current_inputs: Object.fromEntries(Object.entries(node.inputs ?? {}).map(([k, v]) => [k, isLink(v) ? [null] : [v]])),
              current_outputs: {},
              timestamp: now(),
            },
          ]);
        }
        return entry({ status_str: 'error', completed: false, messages });
      }
    }
    messages.push(['execution_success', { prompt_id: item.id, timestamp: now() }]);
    return entry({ status_str: 'success', completed: true, messages });
  };

  // The prompt worker: one prompt at a time, lowest number first.
  const worker = (async () => {
    while (!closed) {
      pending.sort((a, b) => a.number - b.number);
      const item = pending.shift();
      if (!item) {
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, 50);
        });
        continue;
      }
      running = item;
      interruptFlag = false;
      const done = await execute(item).catch((error: unknown): HistoryEntry => ({
        prompt: [item.number, item.id, item.prompt, item.extraData, item.outputs],
        outputs: {},
        status: { status_str: 'error', completed: false, messages: [['execution_error', { prompt_id: item.id, exception_message: String(error) }]] },
        meta: {},
      }));
      history.set(item.id, done);
      running = null;
      interruptFlag = false;
    }
  })();

  const queueItem = (item: QueueItem) => [item.number, item.id, item.prompt, item.extraData, item.outputs];

  const readBody = (request: http.IncomingMessage) =>
    new Promise<Buffer>((resolve, reject) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => resolve(Buffer.concat(chunks)));
      request.on('error', reject);
    });

  const send = (response: http.ServerResponse, status: number, body?: unknown, type = 'application/json; charset=utf-8') => {
    if (body === undefined) {
      response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' }).end(status === 200 ? '' : `${status}`);
      return;
    }
    const bytes = Buffer.isBuffer(body) ? body : Buffer.from(JSON.stringify(body));
    response.writeHead(status, { 'content-type': type, 'content-length': bytes.length }).end(bytes);
  };

  const handle = async (request: http.IncomingMessage, response: http.ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://comfyui.local');
    seen.push(`${request.method} ${url.pathname}${url.search}`);
    // Every route is also served under /api, as ComfyUI does.
    const path = url.pathname.startsWith('/api/') ? url.pathname.slice(4) : url.pathname;
    const body = await readBody(request);
    const parsed = (): Json => {
      try {
        return JSON.parse(body.toString('utf8') || 'null') as Json;
      } catch {
        return {};
      }
    };
    const route = `${request.method} ${path}`;

    if (route === 'POST /upload/image') {
      const form = await new Response(body, { headers: { 'content-type': request.headers['content-type'] ?? '' } }).formData().catch(() => null);
      const image = form?.get('image');
      if (!form || !image || typeof image === 'string' || !image.name) return send(response, 400);
      const type = String(form.get('type') ?? 'input');
      const subfolder = String(form.get('subfolder') ?? '');
      const overwrite = ['true', '1'].includes(String(form.get('overwrite')));
      if (type !== 'input' || subfolder.includes('..') || subfolder.startsWith('/') || image.name.includes('/') || image.name.includes('..')) return send(response, 400);
      const bytes = Buffer.from(await image.arrayBuffer());
      let name = image.name;
      const key = (n: string) => (subfolder ? `${subfolder}/${n}` : n);
      if (!overwrite) {
        const dot = name.lastIndexOf('.');
        for (let i = 1; inputs.has(key(name)) && !inputs.get(key(name))!.equals(bytes); i += 1) name = `${image.name.slice(0, dot)} (${i})${image.name.slice(dot)}`;
      }
      inputs.set(key(name), bytes);
      return send(response, 200, { name, subfolder, type });
    }

    if (route === 'POST /prompt') {
      const json = parsed();
      if (!('prompt' in json)) {
        return send(response, 400, { error: { type: 'no_prompt', message: 'No prompt provided', details: 'No prompt provided', extra_info: {} }, node_errors: {} });
      }
      const prompt = (json.prompt ?? {}) as Graph;
      const id = String(json.prompt_id ?? randomUUID());
      const valid = validatePrompt(prompt, nodes(), (file) => inputs.has(file));
      if (!valid.valid) return send(response, 400, { error: valid.error, node_errors: valid.nodeErrors });
      const num = typeof json.number === 'number' ? json.number : (number += 1);
      const extraData: Json = { ...((json.extra_data as Json | undefined) ?? {}), ...(json.client_id ? { client_id: json.client_id } : {}), create_time: Date.now() };
      prompts.set(id, { prompt, clientId: json.client_id as string | undefined });
      pending.push({ number: num, id, prompt, extraData, outputs: valid.outputs, behaviour: fake.behaviour(prompt) });
      wake?.();
      return send(response, 200, { prompt_id: id, number: num, node_errors: valid.nodeErrors });
    }

    if (route === 'GET /prompt') return send(response, 200, { exec_info: { queue_remaining: pending.length + (running ? 1 : 0) } });

    if (route === 'GET /queue') {
      return send(response, 200, { queue_running: running ? [queueItem(running)] : [], queue_pending: [...pending].sort((a, b) => a.number - b.number).map(queueItem) });
    }

    if (route === 'POST /queue') {
      const json = parsed();
      if (json.clear) pending.length = 0;
      for (const id of (json.delete as string[] | undefined) ?? []) {
        deleted.push(id);
        const at = pending.findIndex((item) => item.id === id);
        if (at >= 0) pending.splice(at, 1);
      }
      return send(response, 200);
    }

    if (route === 'POST /interrupt') {
      const promptId = (parsed() ?? {}).prompt_id;
      interrupts.push(typeof promptId === 'string' ? promptId : null);
      // A named prompt is interrupted only while it runs; no name interrupts whatever runs.
      if (running && (!promptId || running.id === promptId)) interruptFlag = true;
      return send(response, 200);
    }

    const historyOf = /^\/history\/([^/]+)$/.exec(path);
    if (request.method === 'GET' && historyOf) {
      const id = decodeURIComponent(historyOf[1]!);
      const entry = history.get(id);
      return send(response, 200, entry ? { [id]: entry } : {});
    }
    if (route === 'GET /history') return send(response, 200, Object.fromEntries(history));

    if (route === 'GET /view') {
      const filename = url.searchParams.get('filename');
      if (!filename) return send(response, 404);
      if (filename.startsWith('/') || filename.includes('..')) return send(response, 400);
      const type = url.searchParams.get('type') ?? 'output';
      const subfolder = url.searchParams.get('subfolder') ?? '';
      if (subfolder.includes('..') || subfolder.startsWith('/')) return send(response, 403);
      const store = type === 'input' ? new Map([...inputs].map(([k, v]) => [`input/${k}`, v])) : outputs;
      const file = store.get(`${type}/${subfolder ? `${subfolder}/` : ''}${filename}`);
      if (!file) return send(response, 404);
      response.setHeader('content-disposition', `filename="${filename}"`);
      return send(response, 200, file, 'image/png');
    }

    if (route === 'GET /object_info') return send(response, 200, Object.fromEntries(Object.entries(nodes()).map(([name, type]) => [name, objectInfo(name, type)])));
    const infoOf = /^\/object_info\/([^/]+)$/.exec(path);
    if (request.method === 'GET' && infoOf) {
      const name = decodeURIComponent(infoOf[1]!);
      const type = nodes()[name];
      return send(response, 200, type ? { [name]: objectInfo(name, type) } : {});
    }
    return send(response, 404);
  };

  const server = http.createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      // aiohttp answers an exception in a handler with 500.
      if (!response.headersSent) send(response, 500, undefined);
      console.error(error);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.close = async () => {
    closed = true;
    wake?.();
    await worker;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return fake;
}
