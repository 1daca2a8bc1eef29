// Cuts the shoes out of a seller's photo: on a carpet, a bed, floor tiles, in a hand, beside the
// box. An object detector (detector.ts) finds where the shoes are; a salient-object network
// (saliency.ts) says what stands out in that part of the frame with some room round it (the whole
// frame when the detector is not sure of a shoe), on a 1024 × 1024 copy; which of that is a shoe is
// decided on a working copy 640 px across (keep-shoes.ts); the cut-out is then refined at full size
// along its outline only (refine.ts). Looking only where the shoes are leaves out the box beside
// them and the hand round them, and sees the shoes at a finer scale.
//
// The colour correction is a white balance on the backdrop: it makes the backdrop neutral and keeps
// its brightness, so a grey shoe on a grey carpet stays grey (lifting the backdrop to white lifted
// the shoe with it, almost to white). A backdrop's colour is the light's only as far as the shoe's
// own least coloured bright parts share it: a grey floor in a warm room and a beige floor in
// daylight look alike, but in the warm room a white sole or the gloss on leather is warm too, and
// in daylight it is not (a white sneaker on a green mat, pink slides on brown laminate keep their
// colours).
import type { Sharp } from 'sharp';
import { loadSharp } from '../lib/sharp';
import type { Rgb } from '../../contract/colour';
import { MAX_IMAGE_PIXELS } from '../../contract/materials';
import { lending } from './arrays';
import { detect, shoeRegion } from './detector';
import { keepShoes } from './keep-shoes';
import { chessboard, median, sampleAt } from './masks';
import { edgeColours, keptCutout, refine } from './refine';
import { NET_SIDE, salience, type Salience } from './saliency';
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
/** The shoe's bright parts: this share of its pixels, the brightest short of clipping… */
const BRIGHT = 0.3;
const CLIPPED = 250;
/** …and of those, this share with the least colour. */
const LEAST_COLOURED = 0.2;
/** Shoe pixels looked at for the light's tint, at most. */
const SAMPLES = 20_000;
/** A tint (`tintOf`'s length) a part surely neutral shows, and one no neutral part would. */
const NEUTRAL = [0.04, 0.1] as const;
/** The most tint a room's light leaves on a phone photo, and the least only a coloured surface shows. */
const LIGHT_CAST = 0.18;
const SURFACE_TINT = 0.3;

/** A copy of the photo `side` px across at most (sharp's resize averages the grain away). */
export async function workingCopy(raw: Buffer, width: number, height: number, side = WORK_SIDE) {
  const sharp = await loadSharp();
  const scale = Math.min(1, side / Math.max(width, height));
  const w = Math.max(1, Math.round(width * scale));
  const h = Math.max(1, Math.round(height * scale));
  const data = await sharp(raw, { raw: { width, height, channels: 3 } }).resize(w, h, { kernel: 'linear' }).blur(0.6).raw().toBuffer();
  return { data: new Uint8Array(data.buffer, data.byteOffset, data.length), w, h };
}

/** The network's answer on its square grid, read at each working pixel: nothing stands out off its span. */
function atWorkingSize({ map, span: [left, top, right, bottom] }: Salience, w: number, h: number): Float32Array {
  const out = new Float32Array(w * h);
  for (let y = 0; y < h; y += 1) {
    const v = ((y + 0.5) / h - top) / (bottom - top);
    for (let x = 0; x < w; x += 1) {
      const u = ((x + 0.5) / w - left) / (right - left);
      out[y * w + x] = u < 0 || u > 1 || v < 0 || v > 1 ? 0 : sampleAt(map, NET_SIDE, NET_SIDE, u * NET_SIDE - 0.5, v * NET_SIDE - 0.5);
    }
  }
  return out;
}

/** The shoes on the working copy (`rgb`, w × h), from the network's answer. */
export function segmentation(rgb: Uint8Array, w: number, h: number, net: Salience): Segmentation {
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

/**
 * A colour's tint as log-chromaticity, (ln R/G, ln B/G): a light's cast moves every surface by the
 * same amount in it, dark or bright.
 */
export function tintOf([r, g, b]: Rgb): [number, number] {
  const green = Math.max(1, g);
  return [Math.log(Math.max(1, r) / green), Math.log(Math.max(1, b) / green)];
}

/**
 * The tint of the shoe's least coloured bright parts (a white sole, grey laces, the gloss on
 * leather): what the light does to a neutral surface. Read off the working copy inside the mask,
 * away from its edge and short of clipping; null when the shoe has too few pixels to say.
 */
function neutralTint(rgb: Uint8Array, mask: Uint8Array, edge: Uint8Array): [number, number] | null {
  const pixels: number[] = [];
  for (let i = 0; i < mask.length; i += 1) {
    if (mask[i] && edge[i]! > 2 && Math.max(rgb[i * 3]!, rgb[i * 3 + 1]!, rgb[i * 3 + 2]!) < CLIPPED) pixels.push(i);
  }
  if (pixels.length < 200) return null;
  const step = Math.max(1, Math.floor(pixels.length / SAMPLES));
  const sampled: number[] = [];
  for (let k = 0; k < pixels.length; k += step) sampled.push(pixels[k]!);
  const lumas = sampled.map((i) => 0.299 * rgb[i * 3]! + 0.587 * rgb[i * 3 + 1]! + 0.114 * rgb[i * 3 + 2]!);
  const threshold = [...lumas].sort((a, b) => b - a)[Math.floor(sampled.length * BRIGHT)]!;
  const bright = sampled.filter((_, k) => lumas[k]! >= threshold).map((i) => tintOf([rgb[i * 3]!, rgb[i * 3 + 1]!, rgb[i * 3 + 2]!]));
  bright.sort((a, b) => Math.hypot(a[0], a[1]) - Math.hypot(b[0], b[1]));
  const least = bright.slice(0, Math.max(1, Math.floor(bright.length * LEAST_COLOURED)));
  return [least.reduce((sum, t) => sum + t[0], 0) / least.length, least.reduce((sum, t) => sum + t[1], 0) / least.length];
}

/** Between 1 at `from` and 0 at `to`. */
const fade = (value: number, from: number, to: number) => Math.min(1, Math.max(0, (to - value) / (to - from)));

/**
 * How much of the backdrop's tint is the light's, 0–1. When the shoe has parts that are nearly
 * neutral (`neutralTint` within NEUTRAL of grey), the share of the backdrop's tint they show too
 * (projected on it). When it has none, a tint a room's light gives (up to LIGHT_CAST) is taken
 * whole and one only a coloured surface gives (SURFACE_TINT and beyond) not at all.
 */
export function castShare(backdrop: Rgb, tint: [number, number] | null): number {
  const [r, b] = tintOf(backdrop);
  const square = r * r + b * b;
  if (square < 1e-6) return 1;
  const prior = fade(Math.sqrt(square), LIGHT_CAST, SURFACE_TINT);
  if (!tint) return prior;
  const seen = Math.min(1, Math.max(0, (tint[0] * r + tint[1] * b) / square));
  const evidence = fade(Math.hypot(tint[0], tint[1]), NEUTRAL[0], NEUTRAL[1]);
  return evidence * seen + (1 - evidence) * prior;
}

/**
 * Gains that make the backdrop neutral and keep its brightness (luma), as far as its tint is the
 * light's (`castShare`): a cast, never a recolouring (no gain goes past about 1.2).
 */
export function whiteBalance(backdrop: Rgb, tint: [number, number] | null = null): [number, number, number] {
  const share = castShare(backdrop, tint);
  const y = 0.299 * backdrop[0] + 0.587 * backdrop[1] + 0.114 * backdrop[2];
  return backdrop.map((v) => (y / Math.max(1, v)) ** share) as [number, number, number];
}

/** The photo upright as RGB at full size, its working copy, and the shoes found on it. */
export async function findShoes(bytes: Buffer) {
  const sharp = await loadSharp();
  const oriented = await sharp(bytes, { limitInputPixels: MAX_IMAGE_PIXELS }).rotate().removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const { width, height } = oriented.info;
  const photo = oriented.data;
  const region = shoeRegion(await detect(photo, width, height), width, height);
  const [working, net] = await Promise.all([workingCopy(photo, width, height), salience(photo, width, height, region)]);
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
    return keptCutout(photo, width, height, refine(photo, width, height, found, w, h), whiteBalance(found.backdrop, neutralTint(small, found.mask, found.edge)));
  });
}
