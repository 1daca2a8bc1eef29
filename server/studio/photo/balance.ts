// The shoe balanced for the scene without changing its colour. The cut-out comes with the gains
// that made the photo's background neutral and bright (white point and exposure). A background
// that is off-white rather than lit off-white is not told apart by them, so they are kept only as
// far as the shoe's mean colour stays within a bound of the photo's (CIEDE2000): all the way for
// a photo on a neutral background, part of the way when they would shift the shoe's colour. A
// touch of local contrast brings out the material, as a photographer's clarity does. The mean
// colour is measured after all of it, so the bound holds for the result.
import { deltaE2000, rgbToCieLab, type Rgb } from '../../../contract/colour';
import { gaussianBlur } from './blur';
import { borrow } from '../arrays';

export interface BalanceOptions {
  /** Largest CIEDE2000 difference allowed between the photo's mean shoe colour and ours. */
  maxDeltaE: number;
  /** Strength of the local contrast, 0 none. */
  clarity: number;
}

export const DEFAULT_BALANCE: BalanceOptions = { maxDeltaE: 1.8, clarity: 0.22 };

const MEAN_SAMPLES = 24_000;

/** Mean sRGB colour of the opaque pixels of RGBA data after `transform` of each channel value. */
function meanColour(rgba: Uint8Array, factor: Float32Array | null, multiplier: readonly number[]): Rgb {
  const pixels = rgba.length / 4;
  const step = Math.max(1, Math.floor(pixels / MEAN_SAMPLES));
  const sum = [0, 0, 0];
  let n = 0;
  for (let p = 0; p < pixels; p += step) {
    if (rgba[p * 4 + 3]! < 128) continue;
    const f = factor ? factor[p]! : 1;
    for (let c = 0; c < 3; c += 1) sum[c]! += Math.min(255, rgba[p * 4 + c]! * f * multiplier[c]!);
    n += 1;
  }
  return sum.map((v) => v / Math.max(1, n)) as Rgb;
}

/**
 * A factor per pixel that lifts detail above its surroundings (luma against a blur of the shoe's
 * own luma, the background left out), so the mean is kept.
 */
function clarityFactors(rgba: Uint8Array, width: number, height: number, clarity: number): Float32Array {
  const step = 4;
  const w = Math.ceil(width / step);
  const h = Math.ceil(height / step);
  const luma = new Float32Array(w * h);
  const weight = new Float32Array(w * h);
  const cellOf = Int32Array.from({ length: width }, (_, x) => Math.floor(x / step));
  for (let y = 0; y < height; y += 1) {
    const row = Math.floor(y / step) * w;
    for (let x = 0, i = y * width * 4; x < width; x += 1, i += 4) {
      const a = rgba[i + 3]!;
      if (a === 0) continue;
      const t = row + cellOf[x]!;
      luma[t]! += (a / 255) * (0.2126 * rgba[i]! + 0.7152 * rgba[i + 1]! + 0.0722 * rgba[i + 2]!);
      weight[t]! += a / 255;
    }
  }
  const sigma = Math.max(1, (Math.max(width, height) * 0.02) / step);
  const blurredLuma = gaussianBlur(luma, w, h, sigma);
  const blurredWeight = gaussianBlur(weight, w, h, sigma);
  // The surround, bilinear between the coarse grid's points: down first (a row of the grid per
  // picture row), then across, from positions worked out once.
  const x0s = new Int32Array(width);
  const x1s = new Int32Array(width);
  const txs = new Float32Array(width);
  for (let x = 0; x < width; x += 1) {
    const fx = Math.min(w - 1, Math.max(0, (x + 0.5) / step - 0.5));
    x0s[x] = Math.floor(fx);
    x1s[x] = Math.min(w - 1, x0s[x]! + 1);
    txs[x] = fx - x0s[x]!;
  }
  const rowLuma = new Float32Array(w);
  const rowWeight = new Float32Array(w);
  const factor = borrow(Float32Array, width * height);
  for (let y = 0; y < height; y += 1) {
    const fy = Math.min(h - 1, Math.max(0, (y + 0.5) / step - 0.5));
    const y0 = Math.floor(fy) * w;
    const y1 = Math.min(h - 1, Math.floor(fy) + 1) * w;
    const ty = fy - Math.floor(fy);
    for (let k = 0; k < w; k += 1) {
      rowLuma[k] = blurredLuma[y0 + k]! + (blurredLuma[y1 + k]! - blurredLuma[y0 + k]!) * ty;
      rowWeight[k] = blurredWeight[y0 + k]! + (blurredWeight[y1 + k]! - blurredWeight[y0 + k]!) * ty;
    }
    for (let x = 0, p = y * width; x < width; x += 1, p += 1) {
      const i = p * 4;
      if (rgba[i + 3] === 0) continue;
      const a = x0s[x]!;
      const b = x1s[x]!;
      const t = txs[x]!;
      const sumLuma = rowLuma[a]! + (rowLuma[b]! - rowLuma[a]!) * t;
      const sumWeight = rowWeight[a]! + (rowWeight[b]! - rowWeight[a]!) * t;
      const lum = 0.2126 * rgba[i]! + 0.7152 * rgba[i + 1]! + 0.0722 * rgba[i + 2]!;
      const surround = sumWeight > 1e-3 ? sumLuma / sumWeight : lum;
      const f = 1 + (clarity * (lum - surround)) / (lum > 24 ? lum : 24);
      factor[p] = f < 0.8 ? 0.8 : f > 1.25 ? 1.25 : f;
    }
  }
  return factor;
}

/**
 * The cut-out's pixels (straight RGBA, the gains already applied) balanced: returns new RGBA and
 * the CIEDE2000 difference of its mean colour from the photo's.
 */
export function balanceShoe(rgba: Uint8Array, width: number, height: number, gains: readonly [number, number, number], options: BalanceOptions = DEFAULT_BALANCE): { rgba: Uint8Array; deltaE: number } {
  const photoMean = meanColour(rgba, null, gains.map((g) => 1 / g));
  const photoLab = rgbToCieLab(photoMean);
  const factor = options.clarity > 0 ? clarityFactors(rgba, width, height, options.clarity) : null;
  // The gains' correction taken a share t of the way (per channel g^t over the photo, so
  // g^(t − 1) on the cut-out): all of it when the colour stays within the bound, else the largest
  // share that does.
  const multipliers = (t: number) => gains.map((g) => g ** (t - 1));
  const differenceAt = (t: number) => deltaE2000(photoLab, rgbToCieLab(meanColour(rgba, factor, multipliers(t))));
  let t = 1;
  let deltaE = differenceAt(t);
  if (deltaE > options.maxDeltaE) {
    let near = 0;
    let far = 1;
    for (let k = 0; k < 12; k += 1) {
      const mid = (near + far) / 2;
      if (differenceAt(mid) > options.maxDeltaE) far = mid;
      else near = mid;
    }
    t = near;
    deltaE = differenceAt(t);
  }
  const [mr, mg, mb] = multipliers(t) as [number, number, number];
  const out = new Uint8Array(rgba.length);
  for (let p = 0, i = 0; p < width * height; p += 1, i += 4) {
    const a = rgba[i + 3]!;
    if (a === 0) continue;
    const f = factor ? factor[p]! : 1;
    const r = rgba[i]! * f * mr + 0.5;
    const g = rgba[i + 1]! * f * mg + 0.5;
    const b = rgba[i + 2]! * f * mb + 0.5;
    out[i] = r >= 255 ? 255 : r | 0;
    out[i + 1] = g >= 255 ? 255 : g | 0;
    out[i + 2] = b >= 255 ? 255 : b | 0;
    out[i + 3] = a;
  }
  return { rgba: out, deltaE };
}
