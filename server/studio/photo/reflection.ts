// A faint reflection of a standing shoe on a glossy floor: the shoe mirrored about the line it
// stands on, fading and softening away from it, as on acrylic or a lacquered sweep. Soft, so it is
// worked out at half size.
import { gaussianBlur } from './blur';
import type { Layer } from './layer';
import { upsample } from './noise';
import { groundLine } from './shadow';
import type { Canvas } from './raster';

export interface ReflectionOptions {
  /** Opacity right under the sole, 0–1. */
  strength: number;
  /** How far down it fades out, as a share of the shoe's height. */
  reach: number;
  /** Softness, px. */
  blur: number;
}

export function reflect(canvas: Canvas, layer: Layer, options: ReflectionOptions): void {
  const { width: w, height: h, rgba } = layer;
  const bottom = new Int32Array(w).fill(-1);
  for (let x = 0; x < w; x += 1) {
    for (let y = h - 1; y >= 0; y -= 1) {
      if (rgba[(y * w + x) * 4 + 3]! >= 128) {
        bottom[x] = y;
        break;
      }
    }
  }
  const line = groundLine(bottom);
  let highest = Infinity;
  let lowest = -Infinity;
  for (const v of line) {
    if (!Number.isFinite(v)) continue;
    highest = Math.min(highest, v);
    lowest = Math.max(lowest, v);
  }
  if (!Number.isFinite(highest)) return;
  const reach = Math.max(4, Math.round(h * options.reach));
  const pad = Math.ceil(options.blur * 3) + 2;
  const top = Math.floor(highest);
  // The mirrored shoe, premultiplied and faded, at half size.
  const W = Math.ceil((w + pad * 2) / 2);
  const H = Math.ceil((Math.ceil(lowest) - top + reach + pad) / 2);
  const planes = [0, 1, 2, 3].map(() => new Float32Array(W * H)) as [Float32Array, Float32Array, Float32Array, Float32Array];
  for (let x = 0; x < w; x += 2) {
    const ground = line[x]!;
    if (!Number.isFinite(ground)) continue;
    for (let d = 1; d <= reach; d += 2) {
      const sy = Math.round(ground - d);
      const ty = Math.floor((Math.round(ground + d) - top) / 2);
      if (sy < 0 || ty >= H) continue;
      const s = (sy * w + x) * 4;
      const a = (rgba[s + 3]! / 255) * Math.exp((-3 * d) / reach) * options.strength;
      if (a <= 0) continue;
      const t = ty * W + Math.floor((x + pad) / 2);
      planes[0][t] = rgba[s]! * a;
      planes[1][t] = rgba[s + 1]! * a;
      planes[2][t] = rgba[s + 2]! * a;
      planes[3][t] = a;
    }
  }
  const fullW = W * 2;
  const fullH = H * 2;
  const [r, g, b, a] = planes.map((plane) => upsample(gaussianBlur(plane, W, H, Math.max(0.5, options.blur / 2)), W, H, fullW, fullH)) as [Float32Array, Float32Array, Float32Array, Float32Array];
  const left = layer.left - pad;
  const originY = layer.top + top;
  for (let y = 0; y < fullH; y += 1) {
    const cy = originY + y;
    if (cy < 0 || cy >= canvas.height) continue;
    for (let x = 0; x < fullW; x += 1) {
      const cx = left + x;
      if (cx < 0 || cx >= canvas.width) continue;
      const t = y * fullW + x;
      const cover = a[t]!;
      if (cover < 1 / 512) continue;
      const d = (cy * canvas.width + cx) * 3;
      canvas.data[d] = Math.round(canvas.data[d]! * (1 - cover) + r[t]!);
      canvas.data[d + 1] = Math.round(canvas.data[d + 1]! * (1 - cover) + g[t]!);
      canvas.data[d + 2] = Math.round(canvas.data[d + 2]! * (1 - cover) + b[t]!);
    }
  }
}
