// A cut-out placed on a picture: its RGBA pixels and where its top-left corner lies, with the
// 8-bit canvas operations every composition shares (laying it on, shading under it).
import { ditherTile, TILE } from './grain';
import { ENCODE_STEPS, LINEAR_TO_SRGB, SRGB_TO_LINEAR, type Canvas, type Region } from './raster';

export interface Layer {
  /** Straight (not premultiplied) RGBA, row by row. */
  rgba: Uint8Array;
  width: number;
  height: number;
  left: number;
  top: number;
}

/** A field of how much light is kept from a surface (0 none blocked, 1 all), over a region. */
export interface Occlusion {
  region: Region;
  data: Float32Array;
}

/** The layer's coverage, 0–1, as floats. */
export function coverage(layer: Pick<Layer, 'rgba' | 'width' | 'height'>): Float32Array {
  const out = new Float32Array(layer.width * layer.height);
  for (let i = 0; i < out.length; i += 1) out[i] = layer.rgba[i * 4 + 3]! / 255;
  return out;
}

/** Lays the layer on the canvas (straight alpha "over", in sRGB as photographs are composited). */
export function lay(canvas: Canvas, layer: Layer, opacity = 1): void {
  const { rgba, width, height, left, top } = layer;
  const pixels = canvas.data;
  // The layer's columns that fall on the canvas.
  const x0 = Math.max(0, -left);
  const x1 = Math.min(width, canvas.width - left);
  for (let y = Math.max(0, -top); y < Math.min(height, canvas.height - top); y += 1) {
    for (let x = x0, s = (y * width + x0) * 4, d = ((top + y) * canvas.width + left + x0) * 3; x < x1; x += 1, s += 4, d += 3) {
      const alpha = rgba[s + 3]!;
      if (alpha === 0) continue;
      if (alpha === 255 && opacity === 1) {
        pixels[d] = rgba[s]!;
        pixels[d + 1] = rgba[s + 1]!;
        pixels[d + 2] = rgba[s + 2]!;
        continue;
      }
      const a = (alpha / 255) * opacity;
      for (let c = 0; c < 3; c += 1) pixels[d + c] = Math.round(pixels[d + c]! + (rgba[s + c]! - pixels[d + c]!) * a);
    }
  }
}

/**
 * Darkens the canvas by an occlusion field, in linear light, re-rounding with dither so a soft
 * shadow's gradient does not band. Occlusion too faint to change a level (`floor`) is skipped, so
 * pure white stays pure white outside a shadow, and so is what the opaque pixels of `under` (the
 * shoe about to be laid on) will cover. `clip` (0–1 at a canvas point) keeps the occlusion only
 * where it says: a shadow that ends with the surface it falls on.
 */
export function shadeCanvas(canvas: Canvas, occlusion: Occlusion, options: { floor?: number; under?: Layer; clip?: (x: number, y: number) => number } = {}): void {
  const { region, data } = occlusion;
  const { floor = 1 / 1024, under, clip } = options;
  const dither = ditherTile();
  const pixels = canvas.data;
  const cover = under?.rgba;
  const [uLeft, uTop, uWidth, uHeight] = under ? [under.left, under.top, under.width, under.height] : [0, 0, 0, 0];
  // The region's columns that fall on the canvas.
  const x0 = Math.max(0, -region.left);
  const x1 = Math.min(region.width, canvas.width - region.left);
  for (let y = Math.max(0, -region.top); y < Math.min(region.height, canvas.height - region.top); y += 1) {
    const cy = region.top + y;
    const row = (cy % TILE) * TILE;
    const uy = cy - uTop;
    const underRow = cover && uy >= 0 && uy < uHeight ? uy * uWidth : -1;
    for (let x = x0; x < x1; x += 1) {
      let o = data[y * region.width + x]!;
      if (o <= floor) continue;
      const cx = region.left + x;
      // What the shoe laid on next will hide entirely need not be shaded.
      if (underRow >= 0) {
        const ux = cx - uLeft;
        if (ux >= 0 && ux < uWidth && cover![(underRow + ux) * 4 + 3] === 255) continue;
      }
      if (clip) {
        o = Math.fround(o * clip(cx + 0.5, cy + 0.5));
        if (o <= floor) continue;
      }
      const keep = o >= 1 ? 0 : 1 - o;
      const d = (cy * canvas.width + cx) * 3;
      const t = (row + (cx % TILE)) * 3;
      const r = pixels[d]!;
      const g = pixels[d + 1]!;
      const b = pixels[d + 2]!;
      // A grey (a white backdrop) is darkened once for its three channels.
      const lr = LINEAR_TO_SRGB[(SRGB_TO_LINEAR[r]! * keep * ENCODE_STEPS + 0.5) | 0]!;
      const lg = g === r ? lr : LINEAR_TO_SRGB[(SRGB_TO_LINEAR[g]! * keep * ENCODE_STEPS + 0.5) | 0]!;
      const lb = b === r ? lr : b === g ? lg : LINEAR_TO_SRGB[(SRGB_TO_LINEAR[b]! * keep * ENCODE_STEPS + 0.5) | 0]!;
      const vr = lr + dither[t]!;
      const vg = lg + dither[t + 1]!;
      const vb = lb + dither[t + 2]!;
      pixels[d] = vr <= 0 ? 0 : vr >= 255 ? 255 : (vr + 0.5) | 0;
      pixels[d + 1] = vg <= 0 ? 0 : vg >= 255 ? 255 : (vg + 0.5) | 0;
      pixels[d + 2] = vb <= 0 ? 0 : vb >= 255 ? 255 : (vb + 0.5) | 0;
    }
  }
}

/** Coverage of a rectangle with rounded corners, antialiased: 0–1 per pixel, width × height. */
export function roundedRect(width: number, height: number, radius: number): Float32Array {
  const out = new Float32Array(width * height);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const qx = Math.abs(x + 0.5 - width / 2) - width / 2 + radius;
      const qy = Math.abs(y + 0.5 - height / 2) - height / 2 + radius;
      const d = Math.hypot(Math.max(qx, 0), Math.max(qy, 0)) + Math.min(Math.max(qx, qy), 0) - radius;
      out[y * width + x] = d <= -0.5 ? 1 : d >= 0.5 ? 0 : 0.5 - d;
    }
  }
  return out;
}

/** Lays one canvas on another at (left, top) through a coverage mask of the smaller one's size. */
export function layCanvas(canvas: Canvas, piece: Canvas, left: number, top: number, mask: Float32Array): void {
  for (let y = 0; y < piece.height; y += 1) {
    const cy = top + y;
    if (cy < 0 || cy >= canvas.height) continue;
    for (let x = 0; x < piece.width; x += 1) {
      const cx = left + x;
      const a = mask[y * piece.width + x]!;
      if (cx < 0 || cx >= canvas.width || a <= 0) continue;
      const s = (y * piece.width + x) * 3;
      const d = (cy * canvas.width + cx) * 3;
      for (let c = 0; c < 3; c += 1) canvas.data[d + c] = Math.round(canvas.data[d + c]! + (piece.data[s + c]! - canvas.data[d + c]!) * a);
    }
  }
}

/** Mean colour of a canvas over a region (to choose ink that reads on it). */
export function meanOver(canvas: Canvas, region: Region): [number, number, number] {
  const sum = [0, 0, 0];
  let n = 0;
  for (let y = Math.max(0, region.top); y < Math.min(canvas.height, region.top + region.height); y += 2) {
    for (let x = Math.max(0, region.left); x < Math.min(canvas.width, region.left + region.width); x += 2) {
      const d = (y * canvas.width + x) * 3;
      sum[0]! += canvas.data[d]!;
      sum[1]! += canvas.data[d + 1]!;
      sum[2]! += canvas.data[d + 2]!;
      n += 1;
    }
  }
  return sum.map((v) => Math.round(v / Math.max(1, n))) as [number, number, number];
}
