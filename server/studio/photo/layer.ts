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
  for (let y = 0; y < height; y += 1) {
    const cy = top + y;
    if (cy < 0 || cy >= canvas.height) continue;
    for (let x = 0; x < width; x += 1) {
      const cx = left + x;
      if (cx < 0 || cx >= canvas.width) continue;
      const s = (y * width + x) * 4;
      const a = (rgba[s + 3]! / 255) * opacity;
      if (a <= 0) continue;
      const d = (cy * canvas.width + cx) * 3;
      for (let c = 0; c < 3; c += 1) canvas.data[d + c] = Math.round(canvas.data[d + c]! + (rgba[s + c]! - canvas.data[d + c]!) * a);
    }
  }
}

/**
 * Darkens the canvas by an occlusion field, in linear light, re-rounding with dither so a soft
 * shadow's gradient does not band. Occlusion too faint to change a level is skipped, so pure
 * white stays pure white outside a shadow.
 */
export function shadeCanvas(canvas: Canvas, occlusion: Occlusion, floor = 1 / 1024): void {
  const { region, data } = occlusion;
  const dither = ditherTile();
  for (let y = 0; y < region.height; y += 1) {
    const cy = region.top + y;
    if (cy < 0 || cy >= canvas.height) continue;
    const row = (cy % TILE) * TILE;
    for (let x = 0; x < region.width; x += 1) {
      const cx = region.left + x;
      if (cx < 0 || cx >= canvas.width) continue;
      const o = data[y * region.width + x]!;
      if (o <= floor) continue;
      const keep = o >= 1 ? 0 : 1 - o;
      const d = (cy * canvas.width + cx) * 3;
      const t = (row + (cx % TILE)) * 3;
      for (let c = 0; c < 3; c += 1) {
        const v = LINEAR_TO_SRGB[(SRGB_TO_LINEAR[canvas.data[d + c]!]! * keep * ENCODE_STEPS + 0.5) | 0]! + dither[t + c]!;
        canvas.data[d + c] = v <= 0 ? 0 : v >= 255 ? 255 : (v + 0.5) | 0;
      }
    }
  }
}

/** The tightest region holding the layer's visible pixels, on the canvas. */
export function bounds(layer: Layer, threshold = 8): Region {
  let left = layer.width;
  let right = -1;
  let top = layer.height;
  let bottom = -1;
  for (let y = 0; y < layer.height; y += 1) {
    for (let x = 0; x < layer.width; x += 1) {
      if (layer.rgba[(y * layer.width + x) * 4 + 3]! < threshold) continue;
      if (x < left) left = x;
      if (x > right) right = x;
      if (y < top) top = y;
      if (y > bottom) bottom = y;
    }
  }
  if (right < 0) return { left: layer.left, top: layer.top, width: 0, height: 0 };
  return { left: layer.left + left, top: layer.top + top, width: right - left + 1, height: bottom - top + 1 };
}
