// Cuts the shoe out of a photo taken on the plain light background the shooting requirements ask
// for. The shoe is found on a smoothed copy, so a phone sensor's grain is not taken for it. The
// background is modelled from the frame's edge (its colour changing across the frame with the
// light); a pixel belongs to the shoe when its hue differs from the background's or it is much
// darker or lighter. A shadow is the background's hue, only somewhat darker, so it stays
// out. Specks are dropped, holes (laces, highlights) filled, and the mask scaled back to full size.
// The photo is colour-corrected by the same background: it is made neutral and bright.
import type { Sharp } from 'sharp';
import { loadSharp } from '../lib/sharp';
import { MAX_IMAGE_PIXELS } from '../../contract/materials';

/** The longest side the mask is worked out at; the cut-out keeps the photo's full size. */
const WORK_SIDE = 1024;
const EDGE = 6;
/** Normalised-colour distance from the background that marks the shoe. */
const HUE_DISTANCE_SQUARED = 0.022 ** 2;
/** Brightness relative to the background below (shadows stop above it) or above which is shoe. */
const DARKER = 0.5;
const LIGHTER = 1.12;
/** Blur sigma, px on a 512 px copy, that smooths a phone sensor's grain before the shoe is found. */
const SMOOTHING = 1.5;
/** Pieces smaller than this share of the largest are specks. */
const MIN_PIECE = 0.02;
/** The background is brought to this brightness by the correction. */
const TARGET_WHITE = 246;

export interface Cutout {
  /** The shoe on transparency, cropped to it: RGBA PNG. */
  png: Buffer;
  width: number;
  height: number;
  /** Where the crop sits in the corrected photo. */
  box: { left: number; top: number; width: number; height: number };
  /** The photo's size (after EXIF rotation). */
  source: { width: number; height: number };
  /** The mask at full size: 255 shoe, 0 background. */
  mask: Uint8Array;
  /** Per-channel gains that made the background neutral and bright. */
  gains: [number, number, number];
}

export const median = (values: ArrayLike<number>) => Float64Array.from(values).sort()[Math.floor(values.length / 2)] ?? 0;

/** Indices of the pixels in a band `EDGE` px wide along the frame's edge. */
export function edgeRing(w: number, h: number): Int32Array {
  const ring: number[] = [];
  for (let y = 0; y < h; y += 1) {
    for (let x = 0; x < w; x += 1) {
      if (x >= EDGE && x < w - EDGE && y >= EDGE && y < h - EDGE) continue;
      ring.push(y * w + x);
    }
  }
  return Int32Array.from(ring);
}

/** Least-squares plane a + b·x + c·y through one channel of the chosen pixels. */
function fitPlane(data: Buffer, pixels: ArrayLike<number>, w: number, c: number): Plane {
  // Normal equations, centred on the pixels' mean position so they stay well conditioned.
  let n = 0;
  let mx = 0;
  let my = 0;
  let mv = 0;
  for (let k = 0; k < pixels.length; k += 1) {
    const i = pixels[k]!;
    n += 1;
    mx += i % w;
    my += Math.floor(i / w);
    mv += data[i * 3 + c]!;
  }
  if (!n) return [0, 0, 0];
  mx /= n;
  my /= n;
  mv /= n;
  let sxx = 0;
  let syy = 0;
  let sxy = 0;
  let sxv = 0;
  let syv = 0;
  for (let k = 0; k < pixels.length; k += 1) {
    const i = pixels[k]!;
    const dx = (i % w) - mx;
    const dy = Math.floor(i / w) - my;
    const dv = data[i * 3 + c]! - mv;
    sxx += dx * dx;
    syy += dy * dy;
    sxy += dx * dy;
    sxv += dx * dv;
    syv += dy * dv;
  }
  const det = sxx * syy - sxy * sxy;
  const b = det ? (sxv * syy - syv * sxy) / det : 0;
  const cy = det ? (syv * sxx - sxv * sxy) / det : 0;
  return [mv - b * mx - cy * my, b, cy];
}

type Plane = [number, number, number];

export interface BackgroundModel {
  /** Per channel: a + b·x + c·y. */
  planes: [Plane, Plane, Plane];
  /** The background's expected value of channel `c` at (x, y). */
  at(x: number, y: number, c: number): number;
  /** Luma of each edge-band pixel minus the model's: what the edge holds besides the backdrop. */
  residuals: Float32Array;
}

/**
 * The background as a plane per channel (the light may fall off across the frame in any
 * direction), fitted to the frame's edge band. Pixels far from a first fit, such as a shoe that
 * crosses the edge, are left out of the next one.
 */
export function backgroundModel(data: Buffer, w: number, h: number): BackgroundModel {
  const ring = edgeRing(w, h);
  let kept: ArrayLike<number> = ring;
  let planes = [[0, 0, 0], [0, 0, 0], [0, 0, 0]] as [Plane, Plane, Plane];
  const distance = new Float32Array(ring.length);
  for (let round = 0; round < 3; round += 1) {
    planes = [fitPlane(data, kept, w, 0), fitPlane(data, kept, w, 1), fitPlane(data, kept, w, 2)];
    for (let k = 0; k < ring.length; k += 1) {
      const i = ring[k]!;
      const x = i % w;
      const y = Math.floor(i / w);
      let sum = 0;
      for (let c = 0; c < 3; c += 1) sum += (data[i * 3 + c]! - (planes[c]![0] + planes[c]![1] * x + planes[c]![2] * y)) ** 2;
      distance[k] = Math.sqrt(sum);
    }
    const limit = Math.max(6, 3 * median(distance));
    kept = ring.filter((_, k) => distance[k]! <= limit);
  }
  const at = (x: number, y: number, c: number) => planes[c]![0] + planes[c]![1] * x + planes[c]![2] * y;
  const residuals = new Float32Array(ring.length);
  for (let k = 0; k < ring.length; k += 1) {
    const i = ring[k]!;
    const x = i % w;
    const y = Math.floor(i / w);
    const luma = (c: number) => data[i * 3 + c]! - at(x, y, c);
    residuals[k] = 0.299 * luma(0) + 0.587 * luma(1) + 0.114 * luma(2);
  }
  return { planes, at, residuals };
}

/** Labels 4-connected pieces of `mask` (1 = on); returns labels and each piece's size. */
function pieces(mask: Uint8Array, w: number, h: number) {
  const labels = new Int32Array(w * h);
  const sizes = [0];
  const stack = new Int32Array(w * h);
  for (let start = 0; start < mask.length; start += 1) {
    if (!mask[start] || labels[start]) continue;
    const label = sizes.length;
    let top = 0;
    let size = 0;
    stack[top++] = start;
    labels[start] = label;
    while (top > 0) {
      const i = stack[--top]!;
      size += 1;
      const x = i % w;
      // The four neighbours, written out: this loop runs once per pixel of the shoe.
      let n = i - 1;
      if (x > 0 && mask[n] && !labels[n]) {
        labels[n] = label;
        stack[top++] = n;
      }
      n = i + 1;
      if (x < w - 1 && mask[n] && !labels[n]) {
        labels[n] = label;
        stack[top++] = n;
      }
      n = i - w;
      if (n >= 0 && mask[n] && !labels[n]) {
        labels[n] = label;
        stack[top++] = n;
      }
      n = i + w;
      if (n < mask.length && mask[n] && !labels[n]) {
        labels[n] = label;
        stack[top++] = n;
      }
    }
    sizes.push(size);
  }
  return { labels, sizes };
}

/**
 * Grows (any pixel on in the window) or shrinks (every pixel on) the mask by `r` pixels with a
 * square window, separably, with running counts so the cost does not depend on `r`.
 */
function morph(mask: Uint8Array, w: number, h: number, r: number, grow: boolean): Uint8Array<ArrayBuffer> {
  const pass = (input: Uint8Array, length: number, lines: number, stride: number, step: number) => {
    const output = new Uint8Array(input.length);
    for (let line = 0; line < lines; line += 1) {
      const base = line * stride;
      let on = 0;
      let size = 0;
      // Window [i - r, i + r], clamped to the line.
      for (let i = 0; i < Math.min(r, length); i += 1) {
        on += input[base + i * step]!;
        size += 1;
      }
      for (let i = 0; i < length; i += 1) {
        const enter = i + r;
        const leave = i - r - 1;
        if (enter < length) {
          on += input[base + enter * step]!;
          size += 1;
        }
        if (leave >= 0) {
          on -= input[base + leave * step]!;
          size -= 1;
        }
        output[base + i * step] = grow ? (on > 0 ? 1 : 0) : on === size ? 1 : 0;
      }
    }
    return output;
  };
  const rows = pass(mask, w, h, w, 1);
  return pass(rows, h, w, 1, w);
}

/** The shoe's mask at working size (1 shoe, 0 background), found on a `smoothed` copy. */
export function maskOf(data: Buffer, w: number, h: number): { mask: Uint8Array; background: BackgroundModel } {
  const background = backgroundModel(data, w, h);
  let mask = new Uint8Array(w * h);
  const [pr, pg, pb] = background.planes;
  for (let y = 0; y < h; y += 1) {
    for (let x = 0; x < w; x += 1) {
      const br = pr[0] + pr[1] * x + pr[2] * y;
      const bg = pg[0] + pg[1] * x + pg[2] * y;
      const bb = pb[0] + pb[1] * x + pb[2] * y;
      const bSum = br + bg + bb + 1;
      const i = y * w + x;
      const r = data[i * 3]!;
      const g = data[i * 3 + 1]!;
      const b = data[i * 3 + 2]!;
      const sum = r + g + b + 1;
      const dr = r / sum - br / bSum;
      const dg = g / sum - bg / bSum;
      const db = b / sum - bb / bSum;
      const ratio = sum / bSum;
      mask[i] = dr * dr + dg * dg + db * db > HUE_DISTANCE_SQUARED || ratio < DARKER || ratio > LIGHTER ? 1 : 0;
    }
  }
  // Close small gaps (stitching, laces against the edge), then keep the shoe's pieces.
  mask = morph(morph(mask, w, h, 2, true), w, h, 2, false);
  const { labels, sizes } = pieces(mask, w, h);
  const largest = Math.max(0, ...sizes.slice(1));
  for (let i = 0; i < mask.length; i += 1) mask[i] = labels[i] && sizes[labels[i]!]! >= largest * MIN_PIECE ? 1 : 0;
  // Fill holes: background not reachable from the frame's edge is inside the shoe.
  const inverse = new Uint8Array(w * h);
  for (let i = 0; i < mask.length; i += 1) inverse[i] = mask[i] ? 0 : 1;
  const gaps = pieces(inverse, w, h);
  const outside = new Uint8Array(gaps.sizes.length);
  for (let x = 0; x < w; x += 1) {
    outside[gaps.labels[x]!] = 1;
    outside[gaps.labels[(h - 1) * w + x]!] = 1;
  }
  for (let y = 0; y < h; y += 1) {
    outside[gaps.labels[y * w]!] = 1;
    outside[gaps.labels[y * w + w - 1]!] = 1;
  }
  for (let i = 0; i < mask.length; i += 1) mask[i] = inverse[i] && outside[gaps.labels[i]!] ? 0 : 1;
  return { mask, background };
}

/** Whether the mask reaches the frame's outermost row or column: the shoe goes on beyond it. */
export function touchesFrame(mask: Uint8Array, w: number, h: number): boolean {
  for (let x = 0; x < w; x += 1) if (mask[x] || mask[(h - 1) * w + x]) return true;
  for (let y = 0; y < h; y += 1) if (mask[y * w] || mask[y * w + w - 1]) return true;
  return false;
}

/**
 * A copy of the photo, `side` px at most, with the sensor's grain smoothed away (a median takes
 * out single noisy pixels, a blur what is left), so the shoe is told from noise. The blur grows
 * with the copy, so the grain of a phone's sensor is smoothed alike at any working size.
 */
export async function smoothedCopy(raw: Buffer, width: number, height: number, side: number) {
  const sharp = await loadSharp();
  const scale = Math.min(1, side / Math.max(width, height));
  const w = Math.max(1, Math.round(width * scale));
  const h = Math.max(1, Math.round(height * scale));
  const data = await sharp(raw, { raw: { width, height, channels: 3 } })
    .resize(w, h, { kernel: 'linear' })
    .blur(SMOOTHING * Math.max(w, h) / 512)
    .raw()
    .toBuffer();
  return { data, w, h };
}

export class NoShoeFound extends Error {
  constructor() {
    super('no shoe stands out from the background');
    this.name = 'NoShoeFound';
  }
}

/** The corrected photo, for layouts that show it whole. */
export async function correctedPhoto(bytes: Buffer, gains: [number, number, number]): Promise<Sharp> {
  const sharp = await loadSharp();
  return sharp(bytes, { limitInputPixels: MAX_IMAGE_PIXELS }).rotate().linear(gains, [0, 0, 0]);
}

export async function cutOut(bytes: Buffer): Promise<Cutout> {
  const sharp = await loadSharp();
  const oriented = await sharp(bytes, { limitInputPixels: MAX_IMAGE_PIXELS }).rotate().removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const { width, height } = oriented.info;
  const { data: small, w, h } = await smoothedCopy(oriented.data, width, height, WORK_SIDE);
  const { mask, background } = maskOf(small, w, h);

  // Gains that bring the background, at the frame's centre, to a neutral white.
  const bgMean = [0, 1, 2].map((c) => background.at(w / 2, h / 2, c));
  const gains = bgMean.map((v) => Math.min(1.6, Math.max(0.85, TARGET_WHITE / Math.max(1, v)))) as [number, number, number];

  // The mask at full size: scaled smoothly, then cut at half.
  const soft = await sharp(Buffer.from(mask.map((v) => v * 255)), { raw: { width: w, height: h, channels: 1 } })
    .resize(width, height, { kernel: 'linear' })
    .extractChannel(0)
    .raw()
    .toBuffer();
  const full = new Uint8Array(width * height);
  let left = width;
  let right = -1;
  let topRow = height;
  let bottom = -1;
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      if (soft[y * width + x]! < 128) continue;
      full[y * width + x] = 255;
      if (x < left) left = x;
      if (x > right) right = x;
      if (y < topRow) topRow = y;
      if (y > bottom) bottom = y;
    }
  }
  if (right < 0) throw new NoShoeFound();
  const box = { left, top: topRow, width: right - left + 1, height: bottom - topRow + 1 };
  // A slightly softened edge for the cut-out, so it sits on any background without a fringe.
  const alpha = await sharp(Buffer.from(full), { raw: { width, height, channels: 1 } }).blur(0.8).extract(box).extractChannel(0).raw().toBuffer();
  const png = await sharp(oriented.data, { raw: { width, height, channels: 3 } })
    .linear(gains, [0, 0, 0])
    .extract(box)
    .joinChannel(alpha, { raw: { width: box.width, height: box.height, channels: 1 } })
    .png({ compressionLevel: 1 })
    .toBuffer();
  return { png, width: box.width, height: box.height, box, source: { width, height }, mask: full, gains };
}
