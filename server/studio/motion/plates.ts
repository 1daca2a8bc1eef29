// Pieces of sets the scenes share: ridgelines (dunes, mountains, hills) as silhouettes, the floor
// the shoe stands on (a surface receding to a soft horizon, with its own texture and sheen), and
// out-of-focus lights (bokeh).
import type { Rgb } from '../../../contract/colour';
import type { Still } from './film';
import { loadSharp } from '../../lib/sharp';
import { css, drawn, grained, noise01, random, type Canvas } from './raster';

/** A ridgeline: heights (px from the top) every `step` px across `width`. */
export function ridge(width: number, options: { base: number; amplitude: number; seed: number; roughness?: number; octaves?: number; step?: number; jagged?: boolean; span?: number }): number[] {
  const step = options.step ?? 8;
  const next = random(options.seed);
  const roughness = options.roughness ?? 0.5;
  const octaves = options.octaves ?? 6;
  const waves = Array.from({ length: octaves }, (_, k) => ({
    length: (options.span ?? width) / (1.2 + k * 1.9) / (1 + next() * 0.6),
    phase: next() * Math.PI * 2,
    weight: roughness ** k,
  }));
  const total = waves.reduce((sum, w) => sum + w.weight, 0);
  const points: number[] = [];
  for (let x = 0; x <= width + step; x += step) {
    let v = 0;
    for (const w of waves) {
      const wave = Math.sin((x / w.length) * Math.PI * 2 + w.phase);
      // Jagged: each wave folded into sharp crests and rounded troughs, as rock weathers.
      v += (options.jagged ? 1 - 2 * Math.abs(wave) : wave) * w.weight;
    }
    points.push(options.base - (v / total) * options.amplitude);
  }
  return points;
}

/** The SVG path of the land under a ridgeline, down to `bottom`. */
export function ridgePath(points: readonly number[], step: number, bottom: number): string {
  const parts = points.map((y, i) => `${i === 0 ? 'M' : 'L'}${i * step} ${y.toFixed(1)}`);
  return `${parts.join(' ')} L${(points.length - 1) * step} ${bottom} L0 ${bottom} Z`;
}

export interface FloorOptions {
  width: number;
  height: number;
  /** Colour at the far edge (the horizon) and at the near edge. */
  far: Rgb;
  near: Rgb;
  /** Px over which the far edge melts into what is behind it. */
  melt: number;
  /** Ripples across the surface (sand), their strength 0–1. */
  ripples?: number;
  /** A mottled texture (stone, moss), its strength 0–1. */
  mottle?: number;
  /** A soft sheen band across the floor (a polished surface), its strength 0–1. */
  sheen?: number;
  grain: number;
  seed: number;
}

/** A floor receding to a soft far edge, as an rgba still. */
export function floor(options: FloorOptions): Still {
  const { width, height } = options;
  const pixels = Buffer.alloc(width * height * 4);
  const small = { width: Math.ceil(width / 4), height: Math.ceil(height / 4) };
  const noise = options.ripples || options.mottle ? noise01(small.width, small.height, 40, 4, options.seed) : null;
  const noiseAt = (x: number, y: number) => {
    if (!noise) return 0.5;
    const fx = Math.min(small.width - 1.001, x / 4);
    const fy = Math.min(small.height - 1.001, y / 4);
    const ix = Math.floor(fx);
    const iy = Math.floor(fy);
    const tx = fx - ix;
    const ty = fy - iy;
    const i = iy * small.width + ix;
    const top = noise[i]! + (noise[i + 1]! - noise[i]!) * tx;
    const bottom = noise[i + small.width]! + (noise[i + small.width + 1]! - noise[i + small.width]!) * tx;
    return top + (bottom - top) * ty;
  };
  for (let y = 0; y < height; y += 1) {
    const depth = y / height;
    const alpha = Math.min(1, y / Math.max(1, options.melt));
    const a = alpha * alpha * (3 - 2 * alpha);
    const base: Rgb = [0, 1, 2].map((c) => options.far[c]! + (options.near[c]! - options.far[c]!) * depth ** 0.8) as Rgb;
    for (let x = 0; x < width; x += 1) {
      const n = noiseAt(x, y);
      let shade = 1;
      if (options.ripples) {
        // Ripples evenly spaced on the ground are ever closer on screen towards the horizon (a
        // ground plane's distance goes as 1 / height below it); where they would be finer than
        // a few pixels they fade, rather than shimmer.
        const below = y + height * 0.18;
        const phase = 26000 / below + n * 6 + Math.sin(x * 0.0035 + n * 2.5) * 1.6;
        const spacing = (below * below) / 26000;
        const wave = Math.sin(phase);
        const visible = Math.min(1, Math.max(0, (spacing - 5) / 12));
        // A ripple's face to the light is bright and narrow, its back broad and dark.
        shade += options.ripples * visible * (wave > 0.5 ? (wave - 0.5) * 0.8 : (wave - 0.5) * 0.1);
      }
      if (options.mottle) shade += options.mottle * (n - 0.5);
      if (options.sheen) shade += options.sheen * Math.exp(-(((depth - 0.35) / 0.18) ** 2)) * (0.7 + 0.3 * Math.sin(x * 0.003));
      const o = (y * width + x) * 4;
      pixels[o] = Math.max(0, Math.min(255, base[0] * shade));
      pixels[o + 1] = Math.max(0, Math.min(255, base[1] * shade));
      pixels[o + 2] = Math.max(0, Math.min(255, base[2] * shade));
      pixels[o + 3] = Math.round(a * 255);
    }
  }
  return grained(pixels, width, height, options.grain, options.seed);
}

/**
 * Liquid chrome: a rippling surface mirroring a studio's softboxes, as an opaque rgba still.
 * `recede` lays it down as a floor (ripples closer together towards the far edge); `periodX`
 * makes it repeat across, so a window moving over it is metal flowing by.
 */
export async function chrome(width: number, height: number, options: { tint: Rgb; seed: number; recede?: boolean; periodX?: number; grain: number; darkTop?: number; melt?: number }): Promise<Still> {
  const sharp = await loadSharp();
  const step = 2;
  const next = random(options.seed);
  const period = options.periodX ?? 0;
  const fullWidth = width + period;
  // The surface is a few long swells in different directions: smooth everywhere, as a liquid is.
  // Across, each repeats a whole number of times per period, so the surface repeats too.
  const waves = Array.from({ length: 5 }, (_, k) => {
    const length = 900 / (1 + k * 0.5);
    const angle = next() * Math.PI;
    let kx = (Math.cos(angle) * 2 * Math.PI) / length;
    if (period) kx = (Math.round((kx * period) / (2 * Math.PI)) * 2 * Math.PI) / period;
    return { kx, ky: (Math.sin(angle) * 2 * Math.PI) / length, phase: next() * Math.PI * 2, amplitude: length / 2 / Math.PI / (1 + k * 0.6) };
  });
  const gw = Math.ceil(fullWidth / step) + 1;
  const gh = Math.ceil(height / step) + 1;
  const rgb = Buffer.alloc(gw * gh * 3);
  for (let gy = 0; gy < gh; gy += 1) {
    const depth = gy / gh;
    // A floor's far rows take in more of the surface: its swells crowd together there.
    const wy = options.recede ? 1300 * (1 / (0.3 + depth * 0.7) - 1) : gy * step;
    const squeeze = options.recede ? 0.45 + 0.55 * depth : 1;
    for (let gx = 0; gx < gw; gx += 1) {
      const wx = gx * step;
      let dx = 0;
      let dy = 0;
      for (const w of waves) {
        const c = Math.cos(w.kx * wx + w.ky * wy + w.phase) * w.amplitude;
        dx += c * w.kx;
        dy += c * w.ky;
      }
      // The reflected ray's tilt picks what the metal mirrors: two long softboxes, a strip
      // light to one side, and the dark studio between them.
      const ry = dy * 0.3 * (options.recede ? 1 / squeeze : 1) + (options.recede ? 0.22 - depth * 0.75 : (gy / gh - 0.5) * 0.6);
      const rx = dx * 0.3 + (gx / gw - 0.5) * 0.2;
      const light =
        0.06 +
        1.1 * Math.exp(-(((ry + 0.2) / 0.1) ** 2)) +
        0.45 * Math.exp(-(((ry - 0.35) / 0.16) ** 2)) +
        0.6 * Math.exp(-(((rx - 0.3) / 0.09) ** 2)) * Math.exp(-((ry / 0.6) ** 2)) +
        0.1 * Math.max(0, 1 - Math.abs(ry));
      const dark = options.darkTop ? 1 - options.darkTop * Math.max(0, 1 - (gy / gh) * 2.2) : 1;
      const o = (gy * gw + gx) * 3;
      for (let ch = 0; ch < 3; ch += 1) rgb[o + ch] = Math.max(0, Math.min(255, options.tint[ch]! * light * dark));
    }
  }
  const pixels = await sharp(rgb, { raw: { width: gw, height: gh, channels: 3 } })
    .resize(gw * step, gh * step, { kernel: 'cubic' })
    .extract({ left: 0, top: 0, width: fullWidth, height })
    .ensureAlpha()
    .raw()
    .toBuffer();
  const melt = options.melt ?? 0;
  for (let y = 0; y < melt; y += 1) {
    const u = y / melt;
    const a = Math.round(255 * u * u * (3 - 2 * u));
    for (let x = 0; x < fullWidth; x += 1) pixels[(y * fullWidth + x) * 4 + 3] = a;
  }
  return grained(pixels, fullWidth, height, options.grain, options.seed);
}

/**
 * A spotlight's beam through haze, added to the canvas: a cone from (x, top) widening to
 * `spread` px at `reach`, brightest along its axis, broken up by drifting fog.
 */
export function beam(c: Canvas, options: { x: number; top: number; spread: number; reach: number; colour: Rgb; strength: number; seed: number }): void {
  const step = 4;
  const gw = Math.ceil(c.width / step) + 1;
  const gh = Math.ceil(c.height / step) + 1;
  const fog = noise01(gw, gh, 20, 4, options.seed);
  for (let y = Math.max(0, Math.floor(options.top)); y < c.height; y += 1) {
    const down = (y - options.top) / options.reach;
    const halfWidth = 30 + (options.spread / 2) * down;
    const fade = Math.exp(-down * 0.9) * Math.min(1, down * 6);
    for (let x = 0; x < c.width; x += 1) {
      const across = (x - options.x) / halfWidth;
      const core = Math.exp(-across * across * 2.2);
      if (core < 0.01) continue;
      const haze = 0.55 + 0.9 * fog[Math.floor(y / step) * gw + Math.floor(x / step)]!;
      const k = options.strength * core * fade * haze;
      const o = (y * c.width + x) * 3;
      for (let ch = 0; ch < 3; ch += 1) c.data[o + ch] = c.data[o + ch]! + options.colour[ch]! * k;
    }
  }
}

/** Out-of-focus lights: discs of `colours`, sizes `radius`, over `width` × `height`, soft-edged. */
export async function bokeh(width: number, height: number, options: { count: number; radius: [number, number]; colours: readonly Rgb[]; opacity: [number, number]; blur: number; seed: number; band?: [number, number] }): Promise<Buffer> {
  const next = random(options.seed);
  const [top, bottom] = options.band ?? [0, height];
  const discs = Array.from({ length: options.count }, () => {
    const r = options.radius[0] + (options.radius[1] - options.radius[0]) * next() ** 2;
    const colour = options.colours[Math.floor(next() * options.colours.length)]!;
    const opacity = options.opacity[0] + (options.opacity[1] - options.opacity[0]) * next();
    // A lens's bokeh disc is brighter at its rim than inside.
    return `<circle cx="${(next() * width).toFixed(1)}" cy="${(top + next() * (bottom - top)).toFixed(1)}" r="${r.toFixed(1)}" fill="${css(colour, opacity * 0.75)}" stroke="${css(colour, opacity)}" stroke-width="${(r * 0.08).toFixed(1)}"/>`;
  });
  return drawn(`<defs><filter id="b" x="-20%" y="-20%" width="140%" height="140%"><feGaussianBlur stdDeviation="${options.blur}"/></filter></defs><g filter="url(#b)">${discs.join('')}</g>`, width, height, 0.25);
}
