// Cuts the shoes out of a seller's photo: on a carpet, a bed, floor tiles, in a hand, beside the
// box. A salient-object network (saliency.ts) says what stands out, on a 1024 × 1024 copy of the
// whole frame; which of that is a shoe is decided on a working copy 640 px across (keep-shoes.ts);
// the cut-out is then refined at full size along its outline only (refine.ts).
//
// The colour correction is a white balance on the backdrop: it makes the backdrop neutral and keeps
// its brightness, so a grey shoe on a grey carpet stays grey (lifting the backdrop to white lifted
// the shoe with it, almost to white).
import type { Sharp } from 'sharp';
import { loadSharp } from '../lib/sharp';
import { MAX_IMAGE_PIXELS } from '../../contract/materials';
import { lending } from './arrays';
import { keepShoes } from './keep-shoes';
import { chessboard, median, sampleAt } from './masks';
import { edgeColours, keptCutout, refine } from './refine';
import { NET_SIDE, salience } from './saliency';
import type { Cutout, Segmentation } from './segmentation';

export { NoShoeFound, type Cutout, type Segmentation } from './segmentation';
export { edgeRing, median } from './masks';

/**
 * The longest side the shoes are told apart at; the cut-out keeps the photo's full size. At 640 a
 * lace (12 px of a 1600 px photo) is about five pixels wide: wide enough to have an inside.
 */
export const WORK_SIDE = 640;
/** Salience the network is sure of: a shoe's pixels mostly above it, unless it blends in. */
const SURE = 0.8;
/** Salience below which a pixel is backdrop for the white balance (above, something else stands out). */
const BACKDROP = 0.2;
/** The most the white balance moves one channel: a cast, not a recolouring. */
const MAX_GAIN = 1.25;
const MIN_GAIN = 0.8;

/** A copy of the photo `side` px across at most (sharp's resize averages the grain away). */
export async function workingCopy(raw: Buffer, width: number, height: number, side = WORK_SIDE) {
  const sharp = await loadSharp();
  const scale = Math.min(1, side / Math.max(width, height));
  const w = Math.max(1, Math.round(width * scale));
  const h = Math.max(1, Math.round(height * scale));
  const data = await sharp(raw, { raw: { width, height, channels: 3 } }).resize(w, h, { kernel: 'linear' }).blur(0.6).raw().toBuffer();
  return { data: new Uint8Array(data.buffer, data.byteOffset, data.length), w, h };
}

/** The network's answer on its square grid, read at each working pixel. */
function atWorkingSize(net: Float32Array, w: number, h: number): Float32Array {
  const out = new Float32Array(w * h);
  const kx = NET_SIDE / w;
  const ky = NET_SIDE / h;
  for (let y = 0; y < h; y += 1) {
    const sy = (y + 0.5) * ky - 0.5;
    for (let x = 0; x < w; x += 1) out[y * w + x] = sampleAt(net, NET_SIDE, NET_SIDE, (x + 0.5) * kx - 0.5, sy);
  }
  return out;
}

/** The shoes on the working copy (`rgb`, w × h), from the network's answer for the whole frame. */
export function segmentation(rgb: Uint8Array, w: number, h: number, net: Float32Array): Segmentation {
  const n = w * h;
  const salient = atWorkingSize(net, w, h);
  const { mask, droppedArea } = keepShoes(salient, rgb, w, h);
  const edge = chessboard(mask, w, h);
  let reach = 0;
  let area = 0;
  let sure = 0;
  let atFrame = 0;
  let unsure = 0;
  const backdropPixels: number[][] = [[], [], []];
  for (let i = 0; i < n; i += 1) {
    reach = Math.max(reach, salient[i]!);
    if (salient[i]! >= BACKDROP && salient[i]! < 0.5) unsure += 1;
    if (mask[i]) {
      area += 1;
      if (salient[i]! >= SURE) sure += 1;
      const x = i % w;
      if (x === 0 || x === w - 1 || i < w || i >= n - w) atFrame += 1;
    } else if (salient[i]! < BACKDROP && edge[i]! > 3 && i % 7 === 0) {
      for (let c = 0; c < 3; c += 1) backdropPixels[c]!.push(rgb[i * 3 + c]!);
    }
  }
  const backdrop = backdropPixels.map((values) => (values.length ? median(values) : 200)) as [number, number, number];
  // Only the kept shoes' soft edge is refined: clutter beside them is not half-kept.
  const soft = new Float32Array(n);
  for (let i = 0; i < n; i += 1) soft[i] = mask[i] || edge[i]! <= 3 ? salient[i]! : 0;
  return {
    mask,
    edge,
    soft,
    ...edgeColours(rgb, mask, edge, backdrop, w, h),
    backdrop,
    solid: area ? sure / area : 0,
    unsure: unsure / n,
    reach,
    clutter: droppedArea / n,
    atFrame,
  };
}

/** Gains that make the backdrop neutral and keep its brightness (luma), each within a cast's reach. */
export function whiteBalance(backdrop: [number, number, number]): [number, number, number] {
  const luma = 0.299 * backdrop[0] + 0.587 * backdrop[1] + 0.114 * backdrop[2];
  return backdrop.map((v) => Math.min(MAX_GAIN, Math.max(MIN_GAIN, luma / Math.max(1, v)))) as [number, number, number];
}

/** The photo upright as RGB at full size, its working copy, and the shoes found on it. */
export async function findShoes(bytes: Buffer) {
  const sharp = await loadSharp();
  const oriented = await sharp(bytes, { limitInputPixels: MAX_IMAGE_PIXELS }).rotate().removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const { width, height } = oriented.info;
  const photo = oriented.data;
  const [working, net] = await Promise.all([workingCopy(photo, width, height), salience(photo, width, height)]);
  return { photo, width, height, working, net };
}

/** The corrected photo, for layouts that show it whole. */
export async function correctedPhoto(bytes: Buffer, gains: [number, number, number]): Promise<Sharp> {
  const sharp = await loadSharp();
  return sharp(bytes, { limitInputPixels: MAX_IMAGE_PIXELS }).rotate().linear(gains, [0, 0, 0]);
}

export async function cutOut(bytes: Buffer): Promise<Cutout> {
  const { photo, width, height, working, net } = await findShoes(bytes);
  const { data: small, w, h } = working;
  // Everything from here on is synchronous: the working arrays are lent for it, and only the
  // cut-out's own mask and pixels are made to keep.
  return lending(() => {
    const found = segmentation(small, w, h, net);
    return keptCutout(photo, width, height, refine(photo, width, height, found, w, h), whiteBalance(found.backdrop));
  });
}
