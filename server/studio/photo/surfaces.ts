// Surfaces a flat-lay is shot on, generated at full resolution: linen (a plain weave of uneven
// threads), concrete (cloudy cement with pores), marble (veins through a cloudy white), wood
// (planks with grain lines and seams) and paper (fibres and tooth). Each is an albedo and a
// height field; the height is lit by the scene's light (bump shading, normalised so a flat patch
// shows its albedo), and the whole table takes the window's falloff.
import type { Rgb } from '../../../contract/colour';
import { fbm, randomSource, upsample } from './noise';
import { irradiance, type Light } from './light';
import { linearOf, type Raster, type Size } from './raster';

export const SURFACES = ['linen', 'concrete', 'marble', 'wood', 'paper'] as const;
export type SurfaceKind = (typeof SURFACES)[number];

export interface SurfaceOptions {
  /** The surface's mean colour (sRGB). */
  colour: Rgb;
  light: Light;
  seed?: number;
  /** How far the light falls off across the table, 0 even. */
  falloff?: number;
  /** Darkening at the corners, 0–1. */
  vignette?: number;
}

interface Material {
  /** Albedo multiplier around 1, per pixel. */
  tone: Float32Array;
  /** Optional per-channel tint for veins and the like: mixed towards `tint` by `tintAmount`. */
  tint?: { colour: Rgb; amount: Float32Array };
  /** Height in pixels, for the bump shading. */
  height: Float32Array;
  /** Gloss of the surface (marble is polished), 0–1. */
  gloss: number;
}

function linen({ width, height }: Size, seed: number): Material {
  const period = 5; // thread spacing, px
  const tone = new Float32Array(width * height);
  const relief = new Float32Array(width * height);
  const rows = Math.ceil(height / period) + 2;
  const columns = Math.ceil(width / period) + 2;
  // Each thread has its own shade (heathered yarn: streaks along the weave) and its thickness
  // changes along it (slubs); threads wander a little off straight.
  const random = randomSource(seed);
  const warpShade = Float32Array.from({ length: columns }, () => (random() - 0.5) * 0.1 + (random() < 0.06 ? (random() - 0.5) * 0.16 : 0));
  const weftShade = Float32Array.from({ length: rows }, () => (random() - 0.5) * 0.1 + (random() < 0.06 ? (random() - 0.5) * 0.16 : 0));
  const slubX = fbm(width, height, { cell: 40, octaves: 2, stretch: 1 / 8, seed: seed + 1 });
  const slubY = fbm(width, height, { cell: 40, octaves: 2, stretch: 8, seed: seed + 2 });
  const wander = fbm(width, height, { cell: 120, octaves: 2, seed: seed + 4 });
  const cloud = fbm(width, height, { cell: 260, octaves: 4, seed: seed + 3 });
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const i = y * width + x;
      const wx = x + wander[i]! * 2.5;
      const wy = y - wander[i]! * 2.5;
      const column = Math.floor(wx / period);
      const row = Math.floor(wy / period);
      const fx = wx / period - column;
      const fy = wy / period - row;
      // Plain weave: at each crossing the warp or the weft is on top, alternately.
      const warpOnTop = ((row + column) & 1) === 0;
      const across = warpOnTop ? fx : fy;
      const slub = warpOnTop ? slubX[i]! : slubY[i]!;
      const thickness = 0.75 + slub * 0.5;
      const profile = Math.max(0, 1 - ((across - 0.5) * 2) ** 2 / (thickness * thickness));
      relief[i] = Math.sqrt(profile) * (0.8 + slub * 0.6);
      const shade = warpOnTop ? warpShade[(column + columns * 4) % columns]! : weftShade[(row + rows * 4) % rows]!;
      tone[i] = 1 + shade + (profile - 0.6) * 0.1 + slub * 0.04 + cloud[i]! * 0.04;
    }
  }
  return { tone, height: relief, gloss: 0 };
}

function concrete({ width, height }: Size, seed: number): Material {
  const cloud = fbm(width, height, { cell: 420, octaves: 5, gain: 0.55, seed });
  const fine = fbm(width, height, { cell: 6, octaves: 2, seed: seed + 1 });
  const pores = fbm(width, height, { cell: 3, octaves: 1, seed: seed + 2 });
  const mottle = fbm(width, height, { cell: 60, octaves: 3, seed: seed + 3 });
  const tone = new Float32Array(width * height);
  const relief = new Float32Array(width * height);
  for (let i = 0; i < tone.length; i += 1) {
    // A pore where the finest noise dips deep: small dark pits.
    const pit = pores[i]! < -0.72 ? (pores[i]! + 0.72) * 2.2 : 0;
    tone[i] = 1 + cloud[i]! * 0.16 + mottle[i]! * 0.05 + fine[i]! * 0.035 + pit * 0.6;
    relief[i] = fine[i]! * 0.6 + cloud[i]! * 2 + pit * 1.5;
  }
  return { tone, height: relief, gloss: 0 };
}

/** 1 − |sin(π·a)|, with the sine as its parabola 4t(1 − t): 1 on each whole number, 0 half-way. */
const valley = (a: number) => {
  const t = a - Math.floor(a);
  return 1 - 4 * t * (1 - t);
};

function marble({ width, height }: Size, seed: number): Material {
  // Veins: stripes across the slab, bent by turbulence, kept only where they are sharpest; a
  // second, finer network crosses them, and a soft grey cloud follows the main veins.
  const warp = fbm(width, height, { cell: 700, octaves: 5, gain: 0.5, seed });
  const warpFine = fbm(width, height, { cell: 160, octaves: 5, gain: 0.6, seed: seed + 5 });
  const cloud = fbm(width, height, { cell: 380, octaves: 4, seed: seed + 1 });
  const tone = new Float32Array(width * height);
  const amount = new Float32Array(width * height);
  const angle = 0.5 + randomSource(seed)() * 0.6;
  const [c, s] = [Math.cos(angle), Math.sin(angle)];
  const [c2, s2] = [Math.cos(angle + 1.1), Math.sin(angle + 1.1)];
  const span = Math.max(width, height);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const i = y * width + x;
      const along = ((x * c + y * s) / span) * 1.8 + warp[i]! * 0.9 + warpFine[i]! * 0.05;
      const main = valley(along);
      const crossing = ((x * c2 + y * s2) / span) * 3.1 + warp[i]! * 1.4 + warpFine[i]! * 0.3;
      const thin = valley(crossing);
      const m2 = main * main;
      const m8 = m2 * m2 * m2 * m2;
      const t4 = thin * thin * thin * thin;
      const t32 = t4 * t4 * t4 * t4 * t4 * t4 * t4 * t4;
      // A sharp vein inside a soft halo, and the thin network, broken where the fine noise dips.
      const vein = m8 * m8 * 0.55 + m8 * 0.12 + m2 * 0.05 + t32 * 0.3 * Math.max(0, warpFine[i]! + 0.3);
      amount[i] = Math.min(0.8, vein);
      tone[i] = 1 + cloud[i]! * 0.03;
    }
  }
  return { tone, tint: { colour: [112, 112, 120], amount }, height: new Float32Array(width * height), gloss: 0.6 };
}

function wood({ width, height }: Size, seed: number): Material {
  const plank = 300; // plank width, px (planks run across the picture)
  const random = randomSource(seed);
  const count = Math.ceil(height / plank) + 1;
  const plankTone = Float32Array.from({ length: count }, () => (random() - 0.5) * 0.14);
  const plankShift = Float32Array.from({ length: count }, () => random() * 5000);
  const warp = fbm(width, height, { cell: 180, octaves: 3, stretch: 6, seed: seed + 1 });
  const fibre = fbm(width, height, { cell: 8, octaves: 2, stretch: 14, seed: seed + 2 });
  const tone = new Float32Array(width * height);
  const relief = new Float32Array(width * height);
  for (let y = 0; y < height; y += 1) {
    const p = Math.floor(y / plank);
    const local = y - p * plank;
    // A seam between planks: a shallow V, dark at its bottom.
    const seam = Math.min(local, plank - local);
    const groove = seam < 3 ? (3 - seam) / 3 : 0;
    for (let x = 0; x < width; x += 1) {
      const i = y * width + x;
      const rings = Math.sin((local + warp[i]! * 40 + (x + plankShift[p]!) * 0.004 * warp[i]!) * 0.19 + warp[i]! * 6);
      const late = Math.max(0, rings) ** 3;
      tone[i] = 1 + plankTone[p]! - late * 0.12 + fibre[i]! * 0.05 - groove * 0.35;
      relief[i] = -late * 0.4 + fibre[i]! * 0.5 - groove * 2.5;
    }
  }
  return { tone, height: relief, gloss: 0.15 };
}

function paper({ width, height }: Size, seed: number): Material {
  const tooth = fbm(width, height, { cell: 4, octaves: 2, seed });
  const fibres = fbm(width, height, { cell: 40, octaves: 3, stretch: 5, seed: seed + 1 });
  const cloud = fbm(width, height, { cell: 400, octaves: 3, seed: seed + 2 });
  const tone = new Float32Array(width * height);
  const relief = new Float32Array(width * height);
  for (let i = 0; i < tone.length; i += 1) {
    tone[i] = 1 + fibres[i]! * 0.02 + cloud[i]! * 0.02 + tooth[i]! * 0.012;
    relief[i] = tooth[i]! * 0.22 + fibres[i]! * 0.25;
  }
  return { tone, height: relief, gloss: 0 };
}

const MATERIALS: Record<SurfaceKind, (size: Size, seed: number) => Material> = { linen, concrete, marble, wood, paper };

/**
 * The window's light across a table seen from above: brighter towards the side the light comes
 * from, darker at the corners. Smooth, so worked out coarse and scaled up; 1 at its brightest.
 */
export function tableFalloff({ width, height }: Size, light: Light, falloff: number, vignette: number): Float32Array {
  const step = 8;
  const w = Math.ceil(width / step) + 1;
  const h = Math.ceil(height / step) + 1;
  const coarse = new Float32Array(w * h);
  const [lx, ly] = light.direction;
  const across = Math.hypot(lx, ly) || 1;
  let peak = 0;
  for (let j = 0; j < h; j += 1) {
    for (let k = 0; k < w; k += 1) {
      const u = (k * step) / width - 0.5;
      const v = (j * step) / height - 0.5;
      // Towards the light is (lx, −ly) on the picture (its y runs down).
      const towards = (u * lx - v * ly) / across;
      const r = Math.hypot(u, v) / Math.SQRT1_2;
      const value = (1 + falloff * towards) * (1 - vignette * r * r * r);
      coarse[j * w + k] = value;
      peak = Math.max(peak, value);
    }
  }
  for (let i = 0; i < coarse.length; i += 1) coarse[i]! /= peak;
  return upsample(coarse, w, h, width, height);
}

/** A surface seen from above, lit by `options.light`, in linear light. */
export function surface(kind: SurfaceKind, size: Size, options: SurfaceOptions): Raster {
  const { width, height } = size;
  const { light, seed = 11, falloff = 0.22, vignette = 0.22 } = options;
  const material = MATERIALS[kind](size, seed);
  const base = linearOf(options.colour);
  const tint = material.tint ? linearOf(material.tint.colour) : null;
  const lightField = tableFalloff(size, light, falloff, vignette);
  const flat = irradiance([0, 0, 1], light).diffuse;
  const data = new Float32Array(width * height * 3);
  const h = material.height;
  const tintAmount = material.tint?.amount;
  const [lx, ly, lz] = light.direction;
  // The half-vector between the light and the viewer, for the gloss.
  const hl = Math.hypot(lx, ly, lz + 1);
  const [hx, hy, hz] = [lx / hl, ly / hl, (lz + 1) / hl];
  const ambient = light.ambient;
  for (let y = 0; y < height; y += 1) {
    const up = y > 0 ? -width : 0;
    const down = y < height - 1 ? width : 0;
    for (let x = 0; x < width; x += 1) {
      const i = y * width + x;
      // The normal from the height's slope (the picture's y runs down, the light's y up).
      const gx = (h[i + (x < width - 1 ? 1 : 0)]! - h[i - (x > 0 ? 1 : 0)]!) * 0.5;
      const gy = (h[i + down]! - h[i + up]!) * 0.5;
      const norm = 1 / Math.sqrt(gx * gx + gy * gy + 1);
      const nx = -gx * norm;
      const ny = gy * norm;
      const nz = norm;
      const lambert = Math.max(0, nx * lx + ny * ly + nz * lz);
      const shade = ((ambient + (1 - ambient) * lambert) / flat) * lightField[i]!;
      let gloss = 0;
      if (material.gloss > 0) {
        // A broad highlight: (n·h)^32 by repeated squaring.
        let nh = Math.max(0, nx * hx + ny * hy + nz * hz);
        nh *= nh;
        nh *= nh;
        nh *= nh;
        nh *= nh;
        nh *= nh;
        gloss = material.gloss * light.specular * nh * lightField[i]! * 0.25;
      }
      const tone = material.tone[i]!;
      const mix = tintAmount ? tintAmount[i]! : 0;
      for (let c = 0; c < 3; c += 1) {
        const albedo = (tint ? base[c]! + (tint[c]! - base[c]!) * mix : base[c]!) * tone;
        data[i * 3 + c] = albedo * shade + gloss;
      }
    }
  }
  return { width, height, data };
}
