// A photographer's seamless sweep: a sheet of paper hung from a wall and curved into the floor,
// lit by one key light. The wall faces the camera, the floor faces up, the curve turns between
// them, so each row takes the light at its own angle; the light falls off away from where the key
// points, and the lens darkens the corners a little.
import type { Rgb } from '../../../contract/colour';
import { linearOf, type Raster, type Size } from './raster';
import { fbm, upsample } from './noise';
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

/** The sweep, in linear light. */
export function sweep(size: Size, options: SweepOptions): Raster {
  const { width, height } = size;
  const { light, curveTop, curveBottom, hotspot = [0.3, 0.25], falloff = 0.5, vignette = 0.25, texture = 1, seed = 3 } = options;
  const [, ly, lz] = light.direction;
  const albedo = linearOf(options.colour);

  // Light on each row from its angle to the key.
  const rowLight = new Float32Array(height);
  for (let y = 0; y < height; y += 1) {
    const angle = sweepAngle(y, height, curveTop, curveBottom);
    const lambert = Math.max(0, Math.sin(angle) * ly + Math.cos(angle) * lz);
    rowLight[y] = light.ambient + (1 - light.ambient) * lambert;
  }
  // Unevenness of the paper: a very low, soft fBm, cheap because it is coarse.
  const unevenness = texture > 0 ? fbm(Math.ceil(width / STEP) + 1, Math.ceil(height / STEP) + 1, { cell: Math.max(width, height) / 3 / STEP, octaves: 3, seed }) : null;

  // Everything here is smooth: worked out every STEP px and scaled up.
  const w = Math.ceil(width / STEP) + 1;
  const h = Math.ceil(height / STEP) + 1;
  const hx = hotspot[0] * width;
  const hy = hotspot[1] * height;
  const reach = Math.hypot(width, height) * 0.75;
  const cx = width / 2;
  const cy = height / 2;
  const corner = Math.hypot(cx, cy);
  const coarse = new Float32Array(w * h);
  let peak = 0;
  for (let j = 0; j < h; j += 1) {
    const y = Math.min(height - 1, j * STEP);
    for (let k = 0; k < w; k += 1) {
      const x = Math.min(width - 1, k * STEP);
      const d = Math.hypot(x - hx, y - hy) / reach;
      const fall = 1 / (1 + falloff * 2.2 * d * d);
      const r = Math.hypot(x - cx, y - cy) / corner;
      const vig = 1 - vignette * r * r * r;
      const v = rowLight[y]! * fall * vig * (1 + (unevenness ? unevenness[j * w + k]! * 0.008 * texture : 0));
      coarse[j * w + k] = v;
      if (v > peak) peak = v;
    }
  }
  const brightness = upsample(coarse, w, h, width, height);
  const data = new Float32Array(width * height * 3);
  const scale = 1 / (peak || 1);
  for (let i = 0; i < brightness.length; i += 1) {
    const v = brightness[i]! * scale;
    data[i * 3] = albedo[0] * v;
    data[i * 3 + 1] = albedo[1] * v;
    data[i * 3 + 2] = albedo[2] * v;
  }
  return { width, height, data };
}
