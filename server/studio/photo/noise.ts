// Value noise and its fractal sums (fBm), seeded and deterministic. Coarse octaves are worked out
// on a coarse grid and scaled up (a smooth field sampled four times a cell loses nothing the eye
// sees); only the fine octaves are evaluated at every pixel.
import { borrow } from '../arrays';

/** A lattice point's value in [0, 1), from an integer hash of its coordinates and the seed. */
function lattice(ix: number, iy: number, seed: number): number {
  let h = Math.imul(ix, 0x27d4eb2d) ^ Math.imul(iy, 0x165667b1) ^ Math.imul(seed + 0x9e3779b9, 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d);
  h = Math.imul(h ^ (h >>> 12), 0x297a2d39);
  h ^= h >>> 15;
  return (h >>> 0) / 4294967296;
}

const fade = (t: number) => t * t * t * (t * (t * 6 - 15) + 10);

/** Smooth value noise in [−1, 1] with one lattice cell per unit. */
export function valueNoise(x: number, y: number, seed: number): number {
  const ix = Math.floor(x);
  const iy = Math.floor(y);
  const fx = fade(x - ix);
  const fy = fade(y - iy);
  const a = lattice(ix, iy, seed);
  const b = lattice(ix + 1, iy, seed);
  const c = lattice(ix, iy + 1, seed);
  const d = lattice(ix + 1, iy + 1, seed);
  const top = a + (b - a) * fx;
  const bottom = c + (d - c) * fx;
  return (top + (bottom - top) * fy) * 2 - 1;
}

/** `field` (w × h) scaled up bilinearly to W × H, sample centres aligned. */
export function upsample(field: Float32Array, w: number, h: number, W: number, H: number): Float32Array {
  const out = borrow(Float32Array, W * H);
  const sx = w / W;
  const sy = h / H;
  for (let Y = 0; Y < H; Y += 1) {
    const fy = Math.min(h - 1, Math.max(0, (Y + 0.5) * sy - 0.5));
    const y0 = Math.floor(fy);
    const y1 = Math.min(h - 1, y0 + 1);
    const ty = fy - y0;
    for (let X = 0; X < W; X += 1) {
      const fx = Math.min(w - 1, Math.max(0, (X + 0.5) * sx - 0.5));
      const x0 = Math.floor(fx);
      const x1 = Math.min(w - 1, x0 + 1);
      const tx = fx - x0;
      const top = field[y0 * w + x0]! + (field[y0 * w + x1]! - field[y0 * w + x0]!) * tx;
      const bottom = field[y1 * w + x0]! + (field[y1 * w + x1]! - field[y1 * w + x0]!) * tx;
      out[Y * W + X] = top + (bottom - top) * ty;
    }
  }
  return out;
}

export interface FbmOptions {
  /** Size of the coarsest octave's cell, px. */
  cell: number;
  octaves: number;
  /** Each octave's amplitude relative to the last. */
  gain?: number;
  /** Stretch along x (grain lines, fibres): a cell is `stretch` times wider than tall. */
  stretch?: number;
  seed: number;
}

/** One octave of value noise over w × h pixels with cells `cellX` × `cellY` px. */
function octave(width: number, height: number, cellX: number, cellY: number, seed: number): Float32Array {
  // Sampled at a quarter of a cell at most along each axis, then scaled up: the cost follows the
  // detail, and a stretched cell (a grain line) is sampled finely only across its length.
  const stepX = Math.max(1, Math.floor(cellX / 4));
  const stepY = Math.max(1, Math.floor(cellY / 4));
  const w = Math.ceil(width / stepX);
  const h = Math.ceil(height / stepY);
  const coarse = new Float32Array(w * h);
  // Along a row the lattice's two rows are read once per cell, and each sample only blends.
  const cells = Math.ceil((w * stepX) / cellX) + 2;
  const above = new Float32Array(cells);
  const below = new Float32Array(cells);
  const ixs = new Int32Array(w);
  const fxs = new Float32Array(w);
  for (let x = 0; x < w; x += 1) {
    const nx = ((x + 0.5) * stepX - 0.5) / cellX;
    ixs[x] = Math.floor(nx);
    fxs[x] = fade(nx - Math.floor(nx));
  }
  const first = ixs[0]!;
  for (let y = 0; y < h; y += 1) {
    const ny = ((y + 0.5) * stepY - 0.5) / cellY;
    const iy = Math.floor(ny);
    const fy = fade(ny - iy);
    for (let k = 0; k < cells; k += 1) {
      above[k] = lattice(first + k, iy, seed);
      below[k] = lattice(first + k, iy + 1, seed);
    }
    for (let x = 0; x < w; x += 1) {
      const k = ixs[x]! - first;
      const fx = fxs[x]!;
      const top = above[k]! + (above[k + 1]! - above[k]!) * fx;
      const bottom = below[k]! + (below[k + 1]! - below[k]!) * fx;
      coarse[y * w + x] = (top + (bottom - top) * fy) * 2 - 1;
    }
  }
  return stepX === 1 && stepY === 1 ? coarse : upsample(coarse, w, h, width, height);
}

/** Fractal value noise, about −1 to 1, over width × height pixels. */
export function fbm(width: number, height: number, options: FbmOptions): Float32Array {
  const { cell, octaves, gain = 0.5, stretch = 1, seed } = options;
  const sum = new Float32Array(width * height);
  let amplitude = 1;
  let total = 0;
  for (let o = 0; o < octaves; o += 1) {
    const size = cell / 2 ** o;
    if (size < 1) break;
    const layer = octave(width, height, size * stretch, size, seed + o * 1013);
    for (let i = 0; i < sum.length; i += 1) sum[i]! += layer[i]! * amplitude;
    total += amplitude;
    amplitude *= gain;
  }
  const scale = total ? 1 / total : 0;
  for (let i = 0; i < sum.length; i += 1) sum[i]! *= scale;
  return sum;
}

/** A seeded generator (xorshift32), 0–1: the same sequence for the same seed, every time. */
export function random(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 4294967296;
  };
}

/** A fast per-pixel random source for grain and dither: `random`, with its own start for seed 0. */
export function randomSource(seed: number): () => number {
  return random(seed >>> 0 || 0x9e3779b9);
}

/**
 * 65 536 standard normal samples (Box–Muller over `random(seed)`), drawn once: grain reads them at
 * pseudo-random offsets, which is far cheaper than drawing fresh ones.
 */
export function gaussTable(seed: number): Float32Array {
  const next = random(seed);
  const table = new Float32Array(1 << 16);
  for (let i = 0; i < table.length; i += 2) {
    const r = Math.sqrt(-2 * Math.log(1 - next()));
    const a = 2 * Math.PI * next();
    table[i] = r * Math.cos(a);
    table[i + 1] = r * Math.sin(a);
  }
  return table;
}
