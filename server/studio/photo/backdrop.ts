// A photographer's seamless sweep: a sheet of paper hung from a wall and curved into the floor,
// lit by one key light. The wall faces the camera, the floor faces up, the curve turns between
// them, so each row takes the light at its own angle; the light falls off away from where the key
// points, and the lens darkens the corners a little.
import type { Rgb } from '../../../contract/colour';
import { linearOf, type Raster, type Size } from './raster';
import { fbm } from './noise';
import type { Light } from './light';

export interface SweepOptions {
  /** The paper's colour where the light is brightest (sRGB). */
  colour: Rgb;
  light: Light;
  /** Where the wall starts to curve, and where the curve becomes floor: shares of the height. */
  curveTop: number;
  curveBottom: number;
  /** Where on the picture (shares of width and height) the key light is centred. */
  hotspot?: [number, number];
  /** How quickly the light falls off away from the hotspot: 0 even, 1 strong. */
  falloff?: number;
  /** Darkening at the corners, 0–1. */
  vignette?: number;
  /** Faint unevenness of the paper, 0–1 (a few tenths of a per cent of brightness at 1). */
  texture?: number;
  seed?: number;
}

/** The sweep's light changes slowly: it is worked out on a grid this many pixels apart. */
const STEP = 4;

/** The sweep's surface normal's angle from facing the camera (0, wall) to facing up (π/2, floor) on a row. */
export function sweepAngle(y: number, height: number, curveTop: number, curveBottom: number): number {
  const t = Math.min(1, Math.max(0, (y / height - curveTop) / Math.max(1e-6, curveBottom - curveTop)));
  // Eased at both ends, so the wall and the floor run into the curve without a crease.
  return (Math.PI / 2) * t * t * (3 - 2 * t);
}

/** The sweep's brightness every STEP px (grid point (k, j) is pixel (k·STEP, j·STEP)), 1 at its brightest. */
function sweepLight(size: Size, options: SweepOptions): { coarse: Float32Array; w: number; h: number } {
  const { width, height } = size;
  const { light, curveTop, curveBottom, hotspot = [0.3, 0.25], falloff = 0.5, vignette = 0.25, texture = 1, seed = 3 } = options;
  const [, ly, lz] = light.direction;
  const w = Math.ceil(width / STEP) + 1;
  const h = Math.ceil(height / STEP) + 1;
  // Unevenness of the paper: a very low, soft fBm, cheap because it is coarse.
  const unevenness = texture > 0 ? fbm(w, h, { cell: Math.max(width, height) / 3 / STEP, octaves: 3, seed }) : null;
  const hx = hotspot[0] * width;
  const hy = hotspot[1] * height;
  const reach = Math.hypot(width, height) * 0.75;
  const cx = width / 2;
  const cy = height / 2;
  const corner = Math.hypot(cx, cy);
  const coarse = new Float32Array(w * h);
  let peak = 0;
  for (let j = 0; j < h; j += 1) {
    const y = j * STEP;
    // Light on the row from its angle to the key.
    const angle = sweepAngle(y, height, curveTop, curveBottom);
    const rowLight = light.ambient + (1 - light.ambient) * Math.max(0, Math.sin(angle) * ly + Math.cos(angle) * lz);
    for (let k = 0; k < w; k += 1) {
      const x = k * STEP;
      const d = Math.hypot(x - hx, y - hy) / reach;
      const fall = 1 / (1 + falloff * 2.2 * d * d);
      const r = Math.hypot(x - cx, y - cy) / corner;
      const vig = 1 - vignette * r * r * r;
      const v = rowLight * fall * vig * (1 + (unevenness ? unevenness[j * w + k]! * 0.008 * texture : 0));
      coarse[j * w + k] = v;
      if (v > peak) peak = v;
    }
  }
  for (let i = 0; i < coarse.length; i += 1) coarse[i]! /= peak || 1;
  return { coarse, w, h };
}

/** The sweep row by row, in linear light: `fill(y, row)` writes row y (three values a pixel). */
export function sweepRows(size: Size, options: SweepOptions): (y: number, row: Float32Array) => void {
  const { coarse, w } = sweepLight(size, options);
  const albedo = linearOf(options.colour);
  const line = new Float32Array(w);
  return (y, row) => {
    const j = Math.floor(y / STEP);
    const ty = y / STEP - j;
    for (let k = 0; k < w; k += 1) line[k] = coarse[j * w + k]! + (coarse[(j + 1) * w + k]! - coarse[j * w + k]!) * ty;
    for (let x = 0; x < size.width; x += 1) {
      const k = Math.floor(x / STEP);
      const v = line[k]! + (line[k + 1]! - line[k]!) * (x / STEP - k);
      row[x * 3] = albedo[0] * v;
      row[x * 3 + 1] = albedo[1] * v;
      row[x * 3 + 2] = albedo[2] * v;
    }
  };
}

/** The sweep, in linear light. */
export function sweep(size: Size, options: SweepOptions): Raster {
  const fill = sweepRows(size, options);
  const data = new Float32Array(size.width * size.height * 3);
  for (let y = 0; y < size.height; y += 1) fill(y, data.subarray(y * size.width * 3, (y + 1) * size.width * 3));
  return { width: size.width, height: size.height, data };
}
