// Pictures as arrays of numbers. A scene is lit and mixed in linear light (a Raster: Float32,
// three channels, 0–1), and becomes 8-bit sRGB (a Canvas) once, with grain (grain.ts).
import type { Rgb } from '../../../contract/colour';

export interface Size {
  width: number;
  height: number;
}

/** Linear-light RGB, 0–1 per channel, row by row, three values a pixel. */
export interface Raster extends Size {
  data: Float32Array;
}

/** 8-bit sRGB, row by row, three bytes a pixel: what is encoded. */
export interface Canvas extends Size {
  data: Uint8Array;
}

/** A linear-light colour, 0–1 per channel. */
export type Linear = [number, number, number];

/** An axis-aligned region of a picture, in whole pixels. */
export interface Region {
  left: number;
  top: number;
  width: number;
  height: number;
}

const toLinear = (v: number) => {
  const c = v / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
};

/** sRGB code value (0–255) to linear light. */
export const SRGB_TO_LINEAR = Float32Array.from({ length: 256 }, (_, v) => toLinear(v));

export const ENCODE_STEPS = 16384;
/** Linear light in ENCODE_STEPS steps to sRGB as a real number 0–255 (rounded with grain later). */
export const LINEAR_TO_SRGB = Float32Array.from({ length: ENCODE_STEPS + 1 }, (_, i) => {
  const v = i / ENCODE_STEPS;
  return 255 * (v <= 0.0031308 ? 12.92 * v : 1.055 * v ** (1 / 2.4) - 0.055);
});

/** Linear light to an sRGB code value, not yet rounded (0–255). */
export function encodeSrgb(v: number): number {
  return LINEAR_TO_SRGB[v <= 0 ? 0 : v >= 1 ? ENCODE_STEPS : Math.round(v * ENCODE_STEPS)]!;
}

export const linearOf = (rgb: Rgb): Linear => [SRGB_TO_LINEAR[rgb[0]]!, SRGB_TO_LINEAR[rgb[1]]!, SRGB_TO_LINEAR[rgb[2]]!];

export function createRaster(size: Size, fill: Linear = [0, 0, 0]): Raster {
  const data = new Float32Array(size.width * size.height * 3);
  for (let i = 0; i < data.length; i += 3) {
    data[i] = fill[0];
    data[i + 1] = fill[1];
    data[i + 2] = fill[2];
  }
  return { width: size.width, height: size.height, data };
}

/**
 * Darkens a raster by an occlusion field over `region` (0 lets all light through, 1 none), as a
 * shadow does: the light is multiplied, in linear light, by 1 − occlusion.
 */
export function shade(raster: Raster, occlusion: Float32Array, region: Region): void {
  for (let y = 0; y < region.height; y += 1) {
    const ry = region.top + y;
    if (ry < 0 || ry >= raster.height) continue;
    for (let x = 0; x < region.width; x += 1) {
      const rx = region.left + x;
      if (rx < 0 || rx >= raster.width) continue;
      const keep = 1 - occlusion[y * region.width + x]!;
      const i = (ry * raster.width + rx) * 3;
      raster.data[i]! *= keep;
      raster.data[i + 1]! *= keep;
      raster.data[i + 2]! *= keep;
    }
  }
}
