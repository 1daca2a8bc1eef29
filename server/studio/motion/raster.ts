// Painting in Node for the video's stills: smooth gradients and glows worked out in floating
// point, art drawn by librsvg (through sharp) at a fraction of its size where it is soft anyway,
// and film grain added as the picture is brought to 8 bits, so a gradient never bands, even after
// the encoder has had its way with it.
import type { Rgb } from '../../../contract/colour';
import { loadSharp } from '../../lib/sharp';
import { fbm, gaussTable, random } from '../photo/noise';
import type { Still } from './film';

/** An RGB picture in floating point, 0–255 per channel. */
export interface Canvas {
  width: number;
  height: number;
  data: Float32Array;
}

/** The scenes' seeded generator: photo/noise's xorshift32, so a scene looks the same every time it is made. */
export { random };

/** Gaussian samples, drawn once: grain reads them at pseudo-random offsets, which is far cheaper. */
const GAUSS = gaussTable(0x5eed);

export function canvas(width: number, height: number, fill: Rgb = [0, 0, 0]): Canvas {
  const data = new Float32Array(width * height * 3);
  for (let i = 0; i < data.length; i += 3) {
    data[i] = fill[0];
    data[i + 1] = fill[1];
    data[i + 2] = fill[2];
  }
  return { width, height, data };
}

/** Colour stops at positions 0–1, interpolated with a smooth curve between neighbours. */
export type Stops = readonly (readonly [number, Rgb])[];

function sample(stops: Stops, u: number): Rgb {
  const first = stops[0]!;
  if (u <= first[0]) return first[1];
  for (let i = 1; i < stops.length; i += 1) {
    const [p1, c1] = stops[i]!;
    if (u <= p1) {
      const [p0, c0] = stops[i - 1]!;
      const f = (u - p0) / Math.max(1e-6, p1 - p0);
      const s = f * f * (3 - 2 * f);
      return [c0[0] + (c1[0] - c0[0]) * s, c0[1] + (c1[1] - c0[1]) * s, c0[2] + (c1[2] - c0[2]) * s];
    }
  }
  return stops[stops.length - 1]![1];
}

/** Fills the canvas with a gradient along the direction `angle` (radians, 0 = top to bottom). */
export function gradient(c: Canvas, stops: Stops, angle = 0): void {
  const dx = Math.sin(angle);
  const dy = Math.cos(angle);
  const span = Math.abs(dx) * c.width + Math.abs(dy) * c.height;
  const origin = Math.min(0, dx * c.width) + Math.min(0, dy * c.height);
  const colourAt = (u: number) => sample(stops, Math.min(1, Math.max(0, u)));
  if (dx === 0) {
    // Top to bottom: one colour per row.
    for (let y = 0; y < c.height; y += 1) {
      const [r, g, b] = colourAt((dy * y - origin) / span);
      for (let o = y * c.width * 3, end = o + c.width * 3; o < end; o += 3) {
        c.data[o] = r;
        c.data[o + 1] = g;
        c.data[o + 2] = b;
      }
    }
    return;
  }
  for (let y = 0; y < c.height; y += 1) {
    for (let x = 0; x < c.width; x += 1) {
      const [r, g, b] = colourAt((dx * x + dy * y - origin) / span);
      const o = (y * c.width + x) * 3;
      c.data[o] = r;
      c.data[o + 1] = g;
      c.data[o + 2] = b;
    }
  }
}

/**
 * A soft elliptical pool of light (`add`) or shade (`multiply`): falls off as a Gaussian from
 * (cx, cy) with radii rx, ry.
 */
export function glow(c: Canvas, at: { cx: number; cy: number; rx: number; ry: number }, rgb: Rgb, strength: number, mode: 'add' | 'screen' | 'multiply' = 'screen'): void {
  const x0 = Math.max(0, Math.floor(at.cx - at.rx * 3));
  const x1 = Math.min(c.width, Math.ceil(at.cx + at.rx * 3));
  const y0 = Math.max(0, Math.floor(at.cy - at.ry * 3));
  const y1 = Math.min(c.height, Math.ceil(at.cy + at.ry * 3));
  // A Gaussian is the product of one across and one down: each is worked out once.
  const across = Float32Array.from({ length: Math.max(0, x1 - x0) }, (_, i) => Math.exp(-0.5 * ((x0 + i - at.cx) / at.rx) ** 2));
  const light = rgb.map((v) => v / 255);
  for (let y = y0; y < y1; y += 1) {
    const down = strength * Math.exp(-0.5 * ((y - at.cy) / at.ry) ** 2);
    if (down < 0.002) continue;
    for (let x = x0; x < x1; x += 1) {
      const k = down * across[x - x0]!;
      if (k < 0.002) continue;
      const o = (y * c.width + x) * 3;
      for (let ch = 0; ch < 3; ch += 1) {
        const v = c.data[o + ch]!;
        const l = light[ch]!;
        c.data[o + ch] = mode === 'add' ? v + 255 * l * k : mode === 'screen' ? v + (255 - v) * l * k : v * (1 - k + k * l);
      }
    }
  }
}

/** Darkens towards the edges and most in the corners, like a lens: 0 leaves the canvas as it is. */
export function vignette(c: Canvas, strength: number, centre = { x: 0.5, y: 0.5 }): void {
  // The fall-off across times the fall-off down: nearly the round one, at a fraction of the cost.
  const falloff = (d: number) => 1 - strength * 0.45 * d * d * (0.7 + 0.3 * d);
  const across = Float32Array.from({ length: c.width }, (_, x) => falloff(Math.abs(x - c.width * centre.x) / (c.width / 2)));
  for (let y = 0; y < c.height; y += 1) {
    const down = falloff(Math.abs(y - c.height * centre.y) / (c.height / 2));
    for (let x = 0, o = y * c.width * 3; x < c.width; x += 1, o += 3) {
      const k = down * across[x]!;
      c.data[o] = c.data[o]! * k;
      c.data[o + 1] = c.data[o + 1]! * k;
      c.data[o + 2] = c.data[o + 2]! * k;
    }
  }
}

/** An 8-bit RGBA picture of the canvas's size laid over it. */
export function lay(c: Canvas, rgba: Buffer, opacity = 1, mode: 'normal' | 'screen' | 'multiply' = 'normal'): void {
  for (let p = 0, o = 0; p < rgba.length; p += 4, o += 3) {
    const a = (rgba[p + 3]! / 255) * opacity;
    if (a === 0) continue;
    for (let ch = 0; ch < 3; ch += 1) {
      const v = c.data[o + ch]!;
      const s = rgba[p + ch]!;
      const blended = mode === 'normal' ? s : mode === 'screen' ? 255 - ((255 - v) * (255 - s)) / 255 : (v * s) / 255;
      c.data[o + ch] = v + (blended - v) * a;
    }
  }
}

/**
 * Grain samples for a row: a walk through the Gaussian table from a random place with an odd
 * stride, so rows never line up and no two neighbours repeat.
 */
function grainRows(seed: number) {
  const next = random(seed);
  return () => {
    let i = Math.floor(next() * 65536);
    const stride = (Math.floor(next() * 2000) * 2 + 1) & 0xffff;
    return () => {
      i = (i + stride) & 0xffff;
      return GAUSS[i]!;
    };
  };
}

const clamp8 = (v: number) => (v <= 0 ? 0 : v >= 255 ? 255 : Math.round(v));

/** The canvas as an rgb24 still, with grain: luminance noise of standard deviation `grain` (0–255) and a little colour noise. */
export function developed(c: Canvas, grain: number, seed = 1): Still {
  const row = grainRows(seed);
  const pixels = Buffer.allocUnsafe(c.width * c.height * 3);
  const chroma = grain * 0.35;
  for (let y = 0; y < c.height; y += 1) {
    const next = row();
    for (let o = y * c.width * 3, end = o + c.width * 3; o < end; o += 3) {
      const n = next() * grain;
      const tint = next() * chroma;
      pixels[o] = clamp8(c.data[o]! + n + tint);
      pixels[o + 1] = clamp8(c.data[o + 1]! + n);
      pixels[o + 2] = clamp8(c.data[o + 2]! + n - tint);
    }
  }
  return { width: c.width, height: c.height, format: 'rgb24', pixels };
}

/** Grain on an RGBA picture where it is opaque, in place; returns it as an rgba still. */
export function grained(rgba: Buffer, width: number, height: number, grain: number, seed = 2): Still {
  const row = grainRows(seed);
  for (let y = 0; y < height; y += 1) {
    const next = row();
    for (let p = y * width * 4, end = p + width * 4; p < end; p += 4) {
      if (rgba[p + 3] === 0) continue;
      const n = next() * grain;
      rgba[p] = clamp8(rgba[p]! + n);
      rgba[p + 1] = clamp8(rgba[p + 1]! + n);
      rgba[p + 2] = clamp8(rgba[p + 2]! + n);
    }
  }
  return { width, height, format: 'rgba', pixels: rgba };
}

/**
 * An SVG (drawn in `width` × `height` units) rendered as raw RGBA at that size. Soft art is drawn
 * at `detail` of its size and scaled up: librsvg's blurs cost by the pixel, and a blur hides
 * the difference.
 */
export async function drawn(svg: string, width: number, height: number, detail = 1): Promise<Buffer> {
  const sharp = await loadSharp();
  const w = Math.max(1, Math.round(width * detail));
  const h = Math.max(1, Math.round(height * detail));
  const source = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${width} ${height}">${svg}</svg>`;
  let image = sharp(Buffer.from(source)).ensureAlpha();
  if (detail !== 1) image = sharp(await image.raw().toBuffer(), { raw: { width: w, height: h, channels: 4 } }).resize(width, height, { fit: 'fill', kernel: 'cubic' });
  return image.raw().toBuffer();
}

/**
 * Fractal value noise, 0–1, that repeats every `periodX` cells of its coarsest octave across: a
 * field a moving window wraps around without a seam. (Noise that need not repeat is photo/noise.)
 */
export function repeatingNoise(width: number, height: number, options: { scale: number; octaves: number; seed: number; periodX: number }): Float32Array {
  const out = new Float32Array(width * height);
  const lattice = (seed: number) => {
    const next = random(seed);
    const table = new Float32Array(256 * 256);
    for (let i = 0; i < table.length; i += 1) table[i] = next();
    return table;
  };
  let amplitude = 1;
  let total = 0;
  for (let octave = 0; octave < options.octaves; octave += 1) {
    const table = lattice(options.seed + octave * 7919);
    const cell = options.scale / 2 ** octave;
    // The lattice wraps after a whole number of cells: periodX / cell at this octave.
    const wrap = Math.max(1, Math.round(options.periodX / cell));
    for (let y = 0; y < height; y += 1) {
      const fy = y / cell;
      const iy = Math.floor(fy);
      const ty = fy - iy;
      const sy = ty * ty * (3 - 2 * ty);
      for (let x = 0; x < width; x += 1) {
        const fx = x / cell;
        const ix = Math.floor(fx);
        const tx = fx - ix;
        const sx = tx * tx * (3 - 2 * tx);
        const x0 = ix % wrap & 255;
        const x1 = (ix + 1) % wrap & 255;
        const y0 = (iy & 255) * 256;
        const y1 = ((iy + 1) & 255) * 256;
        const top = table[y0 + x0]! + (table[y0 + x1]! - table[y0 + x0]!) * sx;
        const bottom = table[y1 + x0]! + (table[y1 + x1]! - table[y1 + x0]!) * sx;
        out[y * width + x] = out[y * width + x]! + (top + (bottom - top) * sy) * amplitude;
      }
    }
    total += amplitude;
    amplitude *= 0.5;
  }
  for (let i = 0; i < out.length; i += 1) out[i] = out[i]! / total;
  return out;
}

/** Fractal noise, 0–1, over `width` × `height` (photo/noise's fBm, brought to 0–1). */
export function noise01(width: number, height: number, cell: number, octaves: number, seed: number): Float32Array {
  const field = fbm(width, height, { cell, octaves, seed });
  for (let i = 0; i < field.length; i += 1) field[i] = 0.5 + field[i]! * 0.5;
  return field;
}

/**
 * Texture on an RGBA picture, in place: its colour darkened and lightened by fractal noise
 * (`strength` 0–1, features about `scale` px, `stretch` times wider than tall), as light falls
 * unevenly on sand, rock or leaves.
 */
export function mottle(rgba: Buffer, width: number, height: number, options: { scale: number; strength: number; seed: number; stretch?: number }): void {
  const stretch = options.stretch ?? 1;
  const step = Math.max(1, Math.round(options.scale / 6));
  const gw = Math.ceil(width / (step * stretch)) + 2;
  const gh = Math.ceil(height / step) + 2;
  const noise = noise01(gw, gh, 6, 4, options.seed);
  for (let y = 0; y < height; y += 1) {
    const fy = y / step;
    const iy = Math.floor(fy);
    const ty = fy - iy;
    for (let x = 0; x < width; x += 1) {
      const o = (y * width + x) * 4;
      if (rgba[o + 3] === 0) continue;
      const fx = x / (step * stretch);
      const ix = Math.floor(fx);
      const tx = fx - ix;
      const i = iy * gw + ix;
      const top = noise[i]! + (noise[i + 1]! - noise[i]!) * tx;
      const bottom = noise[i + gw]! + (noise[i + gw + 1]! - noise[i + gw]!) * tx;
      const k = 1 + options.strength * 2 * (top + (bottom - top) * ty - 0.5);
      rgba[o] = clamp8(rgba[o]! * k);
      rgba[o + 1] = clamp8(rgba[o + 1]! * k);
      rgba[o + 2] = clamp8(rgba[o + 2]! * k);
    }
  }
}

export const css = (rgb: Rgb, alpha = 1) => `rgba(${rgb.map((v) => Math.round(v)).join(',')},${alpha})`;

/**
 * An rgba still cut down to where it is not transparent, with where the cut begins: a layer costs
 * ffmpeg by its area on every frame, empty or not.
 */
export function trimmed(still: Still): { still: Still; left: number; top: number } {
  const { width, height, pixels } = still;
  let x0 = width;
  let y0 = height;
  let x1 = -1;
  let y1 = -1;
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      if (pixels[(y * width + x) * 4 + 3]! < 2) continue;
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
    }
  }
  if (x1 < 0) return { still: { width: 2, height: 2, format: 'rgba', pixels: Buffer.alloc(16) }, left: 0, top: 0 };
  // Even offsets and sizes: the frame's chroma is at half resolution.
  x0 -= x0 % 2;
  y0 -= y0 % 2;
  const w = Math.min(width - x0, x1 - x0 + 2 - ((x1 - x0 + 1) % 2));
  const h = Math.min(height - y0, y1 - y0 + 2 - ((y1 - y0 + 1) % 2));
  const out = Buffer.alloc(w * h * 4);
  for (let y = 0; y < h; y += 1) pixels.copy(out, y * w * 4, ((y0 + y) * width + x0) * 4, ((y0 + y) * width + x0 + w) * 4);
  return { still: { width: w, height: h, format: 'rgba', pixels: out }, left: x0, top: y0 };
}

/**
 * The canvas seen through a fisheye: the middle magnified, the edges drawn in, straight lines
 * bowed. `strength` 0 leaves it as it is; the corners stay where they are.
 */
export function barrel(c: Canvas, strength: number): Canvas {
  const out = canvas(c.width, c.height);
  const cx = c.width / 2;
  const cy = c.height / 2;
  const half = Math.hypot(cx, cy);
  for (let y = 0; y < c.height; y += 1) {
    for (let x = 0; x < c.width; x += 1) {
      const u = (x - cx) / half;
      const v = (y - cy) / half;
      const s = (1 + strength * (u * u + v * v)) / (1 + strength);
      const sx = Math.min(c.width - 1.001, Math.max(0, cx + u * s * half));
      const sy = Math.min(c.height - 1.001, Math.max(0, cy + v * s * half));
      const ix = Math.floor(sx);
      const iy = Math.floor(sy);
      const fx = sx - ix;
      const fy = sy - iy;
      const a = (iy * c.width + ix) * 3;
      const b = a + c.width * 3;
      const o = (y * c.width + x) * 3;
      for (let ch = 0; ch < 3; ch += 1) {
        const top = c.data[a + ch]! + (c.data[a + 3 + ch]! - c.data[a + ch]!) * fx;
        const bottom = c.data[b + ch]! + (c.data[b + 3 + ch]! - c.data[b + ch]!) * fx;
        out.data[o + ch] = top + (bottom - top) * fy;
      }
    }
  }
  return out;
}
