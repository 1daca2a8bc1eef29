// Linear light to 8-bit sRGB with grain. A smooth gradient rounded to 8 bits shows bands; a little
// noise before rounding (triangular dither) turns each step into a fine mix of its two levels, and
// a film-like luminance grain, a little coarser than a pixel, keeps that mix through JPEG (whose
// quantiser takes out single-pixel noise first). Both come from tiles made once and repeated: a
// 512-px period is invisible in noise, and the tiles keep this pass cheap.
import { ENCODE_STEPS, LINEAR_TO_SRGB, type Canvas, type Raster, type Size } from './raster';
import { randomSource } from './noise';

export interface GrainOptions {
  /** Standard deviation of the luminance grain, in 8-bit levels (0 for dither alone). */
  amount: number;
  /** Shifts the tiles, so two pictures do not share their grain pixel for pixel. */
  seed: number;
}

export const DEFAULT_GRAIN: GrainOptions = { amount: 1.4, seed: 1 };

export const TILE = 512;

/** Luminance grain, mean 0 and unit deviation, in clumps about two pixels across; one tile. */
const grainTile = (() => {
  let tile: Float32Array | undefined;
  return () => {
    if (tile) return tile;
    const random = randomSource(0x51ed);
    const white = Float32Array.from({ length: TILE * TILE }, () => random() + random() + random() - 1.5);
    tile = new Float32Array(TILE * TILE);
    for (let y = 0; y < TILE; y += 1) {
      const down = ((y + 1) % TILE) * TILE;
      for (let x = 0; x < TILE; x += 1) {
        const right = (x + 1) % TILE;
        // A 2×2 box, the pixel itself counted twice: var (4 + 1 + 1 + 1) × 1/4, scaled to 1.
        tile[y * TILE + x] = (white[y * TILE + x]! * 2 + white[y * TILE + right]! + white[down + x]! + white[down + right]!) * 0.756;
      }
    }
    return tile;
  };
})();

/** Triangular dither, −1 to 1 level, for each channel of each pixel of one tile. */
export const ditherTile = (() => {
  let tile: Float32Array | undefined;
  return () => {
    if (tile) return tile;
    const random = randomSource(0xd17e);
    tile = Float32Array.from({ length: TILE * TILE * 3 }, () => random() - random());
    return tile;
  };
})();

/** The raster as an 8-bit sRGB canvas, dithered, with grain. */
export function toCanvas(raster: Raster, options: GrainOptions = DEFAULT_GRAIN): Canvas {
  const stride = raster.width * 3;
  return rowsToCanvas(raster, (y, row) => row.set(raster.data.subarray(y * stride, (y + 1) * stride)), options);
}

/**
 * A picture given row by row in linear light (`fill(y, row)`), as an 8-bit sRGB canvas with
 * dither and grain: a smooth backdrop goes straight to 8 bits without a full-size float copy.
 */
export function rowsToCanvas(size: Size, fill: (y: number, row: Float32Array) => void, options: GrainOptions = DEFAULT_GRAIN): Canvas {
  const { width, height } = size;
  const out = new Uint8Array(width * height * 3);
  const grain = grainTile();
  const dither = ditherTile();
  const amount = options.amount;
  const shiftX = (options.seed * 131) % TILE;
  const shiftY = (options.seed * 257) % TILE;
  const src = new Float32Array(width * 3);
  // The hot loop of every picture: tile positions are stepped, not divided, and the encoding
  // table is read inline.
  for (let y = 0; y < height; y += 1) {
    fill(y, src);
    const ty = ((y + shiftY) % TILE) * TILE;
    let tx = shiftX;
    let i = y * width * 3;
    for (let x = 0, s3 = 0; x < width; x += 1, i += 3, s3 += 3) {
      const t = ty + tx;
      const g = grain[t]! * amount;
      for (let c = 0; c < 3; c += 1) {
        const s = src[s3 + c]!;
        const v = LINEAR_TO_SRGB[s <= 0 ? 0 : s >= 1 ? ENCODE_STEPS : (s * ENCODE_STEPS + 0.5) | 0]! + g + dither[t * 3 + c]!;
        out[i + c] = v <= 0 ? 0 : v >= 255 ? 255 : (v + 0.5) | 0;
      }
      tx = tx + 1 === TILE ? 0 : tx + 1;
    }
  }
  return { width, height, data: out };
}

