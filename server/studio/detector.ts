// The second opinion on what stands out: an object detector that knows footwear (and a box, a
// person's hand and arm, a table) — the SSD MobileNetV2 trained on Open Images V4 that MediaPipe's
// Objectron uses to find shoes, as @mediapipe/objectron ships it (Apache-2.0; server/studio/MODEL.md).
// The package is made for the browser; its model is read here from the package's asset bundle,
// checked against its SHA-256, converted to ONNX (tflite.ts, tflite-to-onnx.ts) once per process,
// and run by onnxruntime-node on the networks' thread (networks.ts). A run takes a 300 × 300 copy
// of the frame: a few tens of ms.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { loadSharp } from '../lib/sharp';
import { openNetwork, runNetwork, type Network } from './networks';
import { onnxModel } from './onnx-proto';
import type { Region } from './segmentation';
import { readTflite } from './tflite';
import { tfliteToOnnx } from './tflite-to-onnx';

const PACKAGE = '@mediapipe/objectron';
const BUNDLE = 'objectron_solution_packed_assets.data';
/** Where the label map and the model sit in the bundle (its loader script lists them so). */
const LABELS_AT = [0, 184] as const;
const MODEL_AT = [184, 9_987_912] as const;
const MODEL_SHA256 = 'd0a5255bf8c4f5a0bc4240741a76c41d5e939f7655078f945f50ab53a9375da6';
const SIDE = 300;
/** The SSD's anchors, as the Objectron graph generates them. */
const STRIDES = [16, 32, 64, 128, 256, 512];
const MIN_SCALE = 0.2;
const MAX_SCALE = 0.95;
const ASPECTS = [1, 2, 0.5, 3, 0.3333];
/** The box coder's scales: centre y and x, height and width. */
const BOX_SCALE = [10, 10, 5, 5];
/** Detections kept: at least this score, overlapping another of its class by less than this IoU. */
const MIN_SCORE = 0.2;
const SUPPRESS_IOU = 0.4;

/** The detector's labels for footwear. */
const FOOTWEAR = new Set(['Footwear', 'Boot', 'High heels']);
/**
 * A shoe the detector is sure of; once it is, the other shoes it saw at ALSO_SHOE or more join it.
 * On the real set, sure at 0.35 took too small a box for a sandal (29) and one clog of a pair (48);
 * from 0.4 up none is lost, and the composites' busy marble needs it below 0.5 (their mean IoU
 * 0.946 at 0.5, 0.955 at 0.45).
 */
const SURE_SHOE = 0.45;
const ALSO_SHOE = 0.2;
/** Room left round the shoes: this share of their box's width and height on each side. */
const ROOM = 0.12;

export interface Detection {
  label: string;
  score: number;
  /** Share of the frame's width and height: left, top, right, bottom. */
  box: [number, number, number, number];
}

export class DetectorDamaged extends Error {
  constructor() {
    super(`the object detector's model does not match its checksum; reinstall ${PACKAGE}`);
    this.name = 'DetectorDamaged';
  }
}

interface Anchor {
  x: number;
  y: number;
  w: number;
  h: number;
}

function anchors(): Anchor[] {
  const scale = (layer: number) => MIN_SCALE + ((MAX_SCALE - MIN_SCALE) * layer) / (STRIDES.length - 1);
  const out: Anchor[] = [];
  STRIDES.forEach((stride, layer) => {
    // The lowest layer has three boxes a place; the others every aspect and one between two scales.
    const shapes =
      layer === 0
        ? [
            [0.1, 1],
            [scale(0), 2],
            [scale(0), 0.5],
          ]
        : [...ASPECTS.map((aspect) => [scale(layer), aspect]), [Math.sqrt(scale(layer) * (layer === STRIDES.length - 1 ? 1 : scale(layer + 1))), 1]];
    const side = Math.ceil(SIDE / stride);
    for (let y = 0; y < side; y += 1)
      for (let x = 0; x < side; x += 1)
        for (const [s, aspect] of shapes) out.push({ x: (x + 0.5) / side, y: (y + 0.5) / side, w: s! * Math.sqrt(aspect!), h: s! / Math.sqrt(aspect!) });
  });
  return out;
}

/** The detector's TFLite model and its labels, as the package ships them, the model checked. */
export async function detectorFiles() {
  const dir = path.dirname(createRequire(import.meta.url).resolve(`${PACKAGE}/package.json`));
  const bundle = await readFile(path.join(dir, BUNDLE));
  const model = bundle.subarray(...MODEL_AT);
  if (createHash('sha256').update(model).digest('hex') !== MODEL_SHA256) throw new DetectorDamaged();
  const labels = bundle.subarray(...LABELS_AT).toString('utf8').trimEnd().split('\n').map((line) => line.trim());
  return { model: new Uint8Array(model.buffer, model.byteOffset, model.length), labels };
}

let loaded: Promise<{ network: Network; labels: string[]; anchors: Anchor[]; input: string; outputs: string[]; loadMs: number }> | undefined;

/** The detector, converted and loaded on first use. */
export function loadDetector() {
  loaded ??= (async () => {
    const started = performance.now();
    const { model, labels } = await detectorFiles();
    const graph = tfliteToOnnx(readTflite(model));
    const network: Network = {
      name: 'detector',
      // One thread that sleeps when done: a run takes milliseconds, and threads left spinning after
      // it would take the cores from the segmentation that follows.
      make: async () => ({
        model: onnxModel(graph, 'oidv4-ssd'),
        options: { graphOptimizationLevel: 'all', enableCpuMemArena: false, intraOpNumThreads: 1, extra: { session: { intra_op: { allow_spinning: '0' } } } },
      }),
    };
    await openNetwork(network);
    const outputs = graph.outputs.map((o) => o.name);
    return { network, labels, anchors: anchors(), input: graph.inputs[0]!.name, outputs, loadMs: performance.now() - started };
  })();
  loaded.catch(() => {
    loaded = undefined;
  });
  return loaded;
}

const overlap = (a: Detection['box'], b: Detection['box']) => {
  const inter = Math.max(0, Math.min(a[2], b[2]) - Math.max(a[0], b[0])) * Math.max(0, Math.min(a[3], b[3]) - Math.max(a[1], b[1]));
  const union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter;
  return union > 0 ? inter / union : 0;
};

/** What the detector finds in the photo (RGB, rows of `width`), best first. */
export async function detect(photo: Buffer | Uint8Array, width: number, height: number): Promise<Detection[]> {
  const [{ network, labels, anchors: all, input, outputs }, sharp] = await Promise.all([loadDetector(), loadSharp()]);
  const square = await sharp(photo, { raw: { width, height, channels: 3 } }).resize(SIDE, SIDE, { fit: 'fill', kernel: 'linear' }).raw().toBuffer();
  const plane = SIDE * SIDE;
  const pixels = new Float32Array(3 * plane);
  for (let i = 0; i < plane; i += 1) for (let c = 0; c < 3; c += 1) pixels[c * plane + i] = square[i * 3 + c]! / 127.5 - 1;
  const result = await runNetwork(network, { [input]: { data: pixels, dims: [1, 3, SIDE, SIDE] } }, outputs);
  const boxes = result[outputs[0]!]!.data;
  const scores = result[outputs[1]!]!.data;
  const classes = result[outputs[1]!]!.dims[2]!;
  const found: Detection[] = [];
  all.forEach((anchor, k) => {
    let best = 0;
    let score = -Infinity;
    for (let c = 1; c < classes; c += 1) if (scores[k * classes + c]! > score) [best, score] = [c, scores[k * classes + c]!];
    const p = 1 / (1 + Math.exp(-score));
    if (p < MIN_SCORE) return;
    const y = (boxes[k * 4]! / BOX_SCALE[0]!) * anchor.h + anchor.y;
    const x = (boxes[k * 4 + 1]! / BOX_SCALE[1]!) * anchor.w + anchor.x;
    const h = Math.exp(boxes[k * 4 + 2]! / BOX_SCALE[2]!) * anchor.h;
    const w = Math.exp(boxes[k * 4 + 3]! / BOX_SCALE[3]!) * anchor.w;
    found.push({ label: labels[best]!, score: p, box: [x - w / 2, y - h / 2, x + w / 2, y + h / 2] });
  });
  found.sort((a, b) => b.score - a.score);
  const kept: Detection[] = [];
  for (const d of found) if (!kept.some((k) => k.label === d.label && overlap(k.box, d.box) > SUPPRESS_IOU)) kept.push(d);
  return kept;
}

/**
 * The part of the photo (`width` × `height`) the shoes are in, with room round them: the box of
 * every shoe detected, once the detector is sure of one; null (look at the whole frame) when not.
 */
export function shoeRegion(found: Detection[], width: number, height: number): Region | null {
  const shoes = found.filter((d) => FOOTWEAR.has(d.label));
  if (!shoes.some((d) => d.score >= SURE_SHOE)) return null;
  const boxes = shoes.filter((d) => d.score >= ALSO_SHOE).map((d) => d.box);
  const left = Math.min(...boxes.map((b) => b[0]));
  const top = Math.min(...boxes.map((b) => b[1]));
  const right = Math.max(...boxes.map((b) => b[2]));
  const bottom = Math.max(...boxes.map((b) => b[3]));
  const x0 = Math.max(0, Math.floor((left - (right - left) * ROOM) * width));
  const y0 = Math.max(0, Math.floor((top - (bottom - top) * ROOM) * height));
  const x1 = Math.min(width, Math.ceil((right + (right - left) * ROOM) * width));
  const y1 = Math.min(height, Math.ceil((bottom + (bottom - top) * ROOM) * height));
  return { left: x0, top: y0, width: Math.max(1, x1 - x0), height: Math.max(1, y1 - y0) };
}
