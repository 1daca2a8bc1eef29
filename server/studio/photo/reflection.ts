// A faint reflection of a standing shoe on a glossy floor: the shoe mirrored about the line it
// stands on, fading and softening away from it, as on acrylic or a lacquered sweep. Soft, so it is
// worked out at half size.
import { gaussianBlur } from './blur';
import type { Layer } from './layer';
import { groundLine, lowestOpaque } from './shadow';
import type { Canvas } from './raster';
import { borrow } from '../arrays';

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
  const line = groundLine(lowestOpaque(layer));
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
  const planes = [0, 1, 2, 3].map(() => borrow(Float32Array, W * H)) as [Float32Array, Float32Array, Float32Array, Float32Array];
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
  const [r, g, b, a] = planes.map((plane) => gaussianBlur(plane, W, H, Math.max(0.5, options.blur / 2))) as [Float32Array, Float32Array, Float32Array, Float32Array];
  // Laid on at full size, each pixel read bilinearly from the half-size planes (the columns'
  // neighbours and weights worked out once).
  const left = layer.left - pad;
  const originY = layer.top + top;
  const x0s = new Int32Array(W * 2);
  const x1s = new Int32Array(W * 2);
  const txs = new Float64Array(W * 2);
  for (let x = 0; x < W * 2; x += 1) {
    const fx = Math.min(W - 1, Math.max(0, (x + 0.5) / 2 - 0.5));
    x0s[x] = Math.floor(fx);
    x1s[x] = Math.min(W - 1, x0s[x]! + 1);
    txs[x] = fx - x0s[x]!;
  }
  for (let y = 0; y < H * 2; y += 1) {
    const cy = originY + y;
    if (cy < 0 || cy >= canvas.height) continue;
    const fy = Math.min(H - 1, Math.max(0, (y + 0.5) / 2 - 0.5));
    const y0 = Math.floor(fy);
    const y1 = Math.min(H - 1, y0 + 1);
    const ty = fy - y0;
    for (let x = 0; x < W * 2; x += 1) {
      const cx = left + x;
      if (cx < 0 || cx >= canvas.width) continue;
      const tx = txs[x]!;
      const i00 = y0 * W + x0s[x]!;
      const i01 = y0 * W + x1s[x]!;
      const i10 = y1 * W + x0s[x]!;
      const i11 = y1 * W + x1s[x]!;
      const w00 = (1 - tx) * (1 - ty);
      const w01 = tx * (1 - ty);
      const w10 = (1 - tx) * ty;
      const w11 = tx * ty;
      const cover = a[i00]! * w00 + a[i01]! * w01 + a[i10]! * w10 + a[i11]! * w11;
      if (cover < 1 / 512) continue;
      const d = (cy * canvas.width + cx) * 3;
      canvas.data[d] = Math.round(canvas.data[d]! * (1 - cover) + (r[i00]! * w00 + r[i01]! * w01 + r[i10]! * w10 + r[i11]! * w11));
      canvas.data[d + 1] = Math.round(canvas.data[d + 1]! * (1 - cover) + (g[i00]! * w00 + g[i01]! * w01 + g[i10]! * w10 + g[i11]! * w11));
      canvas.data[d + 2] = Math.round(canvas.data[d + 2]! * (1 - cover) + (b[i00]! * w00 + b[i01]! * w01 + b[i10]! * w10 + b[i11]! * w11));
    }
  }
}
