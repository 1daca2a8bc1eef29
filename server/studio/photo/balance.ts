// The shoe balanced for the scene without changing its colour. The cut-out comes white-balanced on
// its backdrop (segment.ts), as far as the light's tint is known; nothing here moves its colour
// again. A touch of local contrast brings out the material, as a photographer's clarity does,
// and keeps the mean.
import { gaussianBlur } from './blur';
import { borrow } from '../arrays';

/** Strength of the local contrast, 0 none. */
const CLARITY = 0.22;

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
 * The cut-out's pixels (straight RGBA, the white balance already applied) with a touch of local
 * contrast: new RGBA, the mean colour kept.
 */
export function balanceShoe(rgba: Uint8Array, width: number, height: number, clarity = CLARITY): Uint8Array {
  const out = new Uint8Array(rgba.length);
  const factor = clarity > 0 ? clarityFactors(rgba, width, height, clarity) : null;
  for (let p = 0, i = 0; p < width * height; p += 1, i += 4) {
    const a = rgba[i + 3]!;
    if (a === 0) continue;
    const f = factor ? factor[p]! : 1;
    for (let c = 0; c < 3; c += 1) {
      const v = rgba[i + c]! * f + 0.5;
      out[i + c] = v >= 255 ? 255 : v | 0;
    }
    out[i + 3] = a;
  }
  return out;
}
