// Particles drawn once as fields that repeat, so a window moving over a field is a stream of
// grains, pollen or dust without end; and sprite strips (a glint growing, flaring and going out)
// whose frames a layer steps through.
import type { Rgb } from '../../../contract/colour';
import type { Expr, Layer, Still } from './film';
import { num } from './film';
import { loadSharp } from '../../lib/sharp';
import { css, drawn, random, repeatingNoise } from './raster';

export interface FieldOptions {
  /** The window's size: what is on screen at once. */
  width: number;
  height: number;
  /** The field repeats after this many pixels across (and down, when `periodY` is set). */
  periodX: number;
  periodY?: number;
  count: number;
  /** Each particle's radius across its motion and its length along it, px. */
  radius: [number, number];
  stretch: [number, number];
  /** Direction of the streaks, radians (0 = along x). */
  angle: number;
  colours: readonly Rgb[];
  opacity: [number, number];
  /** Particles fade towards the top or the bottom of the field (a layer near the ground). */
  falloff?: 'none' | 'down' | 'up' | 'middle';
  seed: number;
  /** Drawn at this share of its size (blurred particles need no more). */
  detail?: number;
  /** A glow ring around each particle (pollen, light motes), 0–1. */
  halo?: number;
}

/** A field of soft particles as an rgba still (`width + periodX` × `height + periodY`). */
export async function field(options: FieldOptions): Promise<Still> {
  const next = random(options.seed);
  const periodY = options.periodY ?? 0;
  const width = options.width + options.periodX;
  const height = options.height + periodY;
  const between = ([a, b]: [number, number]) => a + (b - a) * next();
  const gradients = options.colours
    .map(
      (colour, i) =>
        `<radialGradient id="p${i}"><stop offset="0" stop-color="${css(colour)}" stop-opacity="1"/><stop offset="${options.halo ? 0.25 : 0.45}" stop-color="${css(colour)}" stop-opacity="${options.halo ? 0.55 : 0.8}"/><stop offset="1" stop-color="${css(colour)}" stop-opacity="0"/></radialGradient>`,
    )
    .join('');
  const shapes: string[] = [];
  const degrees = (options.angle * 180) / Math.PI;
  for (let i = 0; i < options.count; i += 1) {
    const x = next() * options.periodX;
    const yUnit = next();
    const y = yUnit * (periodY || options.height);
    let opacity = between(options.opacity);
    const depth = periodY ? 0.5 : yUnit;
    if (options.falloff === 'down') opacity *= depth;
    else if (options.falloff === 'up') opacity *= 1 - depth;
    else if (options.falloff === 'middle') opacity *= Math.sin(Math.PI * depth);
    const r = between(options.radius);
    const length = r * between(options.stretch);
    const fill = `url(#p${Math.floor(next() * options.colours.length)})`;
    // Each particle is drawn again one period on, so the field wraps without a seam.
    for (let copyX = x; copyX < width + length; copyX += options.periodX) {
      for (let copyY = y; copyY < height + r * 2; copyY += periodY || Infinity) {
        shapes.push(`<ellipse cx="${copyX.toFixed(1)}" cy="${copyY.toFixed(1)}" rx="${length.toFixed(1)}" ry="${r.toFixed(1)}" fill="${fill}" fill-opacity="${opacity.toFixed(3)}" transform="rotate(${degrees.toFixed(1)} ${copyX.toFixed(1)} ${copyY.toFixed(1)})"/>`);
        if (!periodY) break;
      }
    }
  }
  const pixels = await drawn(`<defs>${gradients}</defs>${shapes.join('')}`, width, height, options.detail ?? 1);
  return { width, height, format: 'rgba', pixels };
}

/**
 * Wisps (blown sand, mist, smoke): soft fractal noise stretched `stretch` times along x, as the
 * alpha of `colour`, repeating every `periodX` px; `density` 0–1 thins it, `falloff` shapes it
 * down the field. Smooth detail, so it costs the encoder little as it moves.
 */
export async function wisps(options: { width: number; height: number; periodX: number; stretch: number; colour: Rgb; opacity: number; density: number; falloff: 'down' | 'up' | 'middle' | 'none'; seed: number; scale?: number }): Promise<Still> {
  const sharp = await loadSharp();
  const gx = 4 * options.stretch;
  const gy = 4;
  const scale = options.scale ?? 24;
  // The period is a whole number of lattice cells at every octave (so close to the one asked for).
  const periodCells = Math.max(1, Math.round(options.periodX / gx / scale)) * scale;
  const width = options.width + periodCells * gx;
  const gridWidth = Math.ceil(width / gx) + 2;
  const gridHeight = Math.ceil(options.height / gy);
  const noise = repeatingNoise(gridWidth, gridHeight, { scale, octaves: 4, seed: options.seed, periodX: periodCells });
  const grey = Buffer.alloc(gridWidth * gridHeight);
  for (let y = 0; y < gridHeight; y += 1) {
    const u = y / gridHeight;
    const shape = options.falloff === 'down' ? u : options.falloff === 'up' ? 1 - u : options.falloff === 'middle' ? Math.sin(Math.PI * u) : 1;
    for (let x = 0; x < gridWidth; x += 1) {
      const n = noise[y * gridWidth + x]!;
      const v = Math.max(0, (n - (1 - options.density)) / options.density);
      grey[y * gridWidth + x] = Math.round(255 * Math.min(1, v * v * shape * options.opacity));
    }
  }
  const alpha = await sharp(grey, { raw: { width: gridWidth, height: gridHeight, channels: 1 } })
    .resize(gridWidth * gx, options.height, { fit: 'fill', kernel: 'cubic' })
    .extract({ left: 0, top: 0, width, height: options.height })
    .toColourspace('b-w')
    .raw()
    .toBuffer();
  const pixels = Buffer.alloc(width * options.height * 4);
  for (let i = 0; i < alpha.length; i += 1) {
    pixels[i * 4] = options.colour[0];
    pixels[i * 4 + 1] = options.colour[1];
    pixels[i * 4 + 2] = options.colour[2];
    pixels[i * 4 + 3] = alpha[i]!;
  }
  return { width, height: options.height, format: 'rgba', pixels };
}

/**
 * A field as a layer placed at `at`, its particles carried `dx` px right and `dy` px down by
 * time t (expressions), wrapping at the field's periods.
 */
export function drifting(still: Still, window: { width: number; height: number }, at: { x: Expr; y: Expr }, dx: Expr, dy: Expr = '0'): Layer {
  const periodX = still.width - window.width;
  const periodY = still.height - window.height;
  // The window moves against the particles: a window moving left shows them moving right.
  const along = (shift: Expr, period: number) => (period > 0 ? `mod(${num(period * 64)}-(${shift}),${num(period)})` : '0');
  return { still, x: at.x, y: at.y, crop: { width: window.width, height: window.height, x: along(dx, periodX), y: along(dy, periodY) } };
}

/** A glint's life in `frames` square frames stacked down a strip: it grows, flares and goes out. */
export async function glintStrip(size: number, frames: number, colour: Rgb, rays = 4): Promise<Still> {
  const parts: string[] = [`<defs><radialGradient id="g"><stop offset="0" stop-color="#fff" stop-opacity="1"/><stop offset="0.2" stop-color="${css(colour)}" stop-opacity="0.7"/><stop offset="1" stop-color="${css(colour)}" stop-opacity="0"/></radialGradient>
    <linearGradient id="r" x1="0" y1="0" x2="1" y2="0"><stop offset="0" stop-color="#fff" stop-opacity="0"/><stop offset="0.5" stop-color="#fff" stop-opacity="1"/><stop offset="1" stop-color="#fff" stop-opacity="0"/></linearGradient></defs>`];
  for (let f = 0; f < frames; f += 1) {
    // The first and the last frame are empty: a glint between flares shows nothing.
    const life = f === 0 || f === frames - 1 ? 0 : Math.sin((Math.PI * f) / (frames - 1));
    if (life === 0) continue;
    const cx = size / 2;
    const cy = f * size + size / 2;
    const reach = (size / 2) * (0.35 + 0.65 * life);
    const turn = f * 6;
    parts.push(`<circle cx="${cx}" cy="${cy}" r="${reach * 0.55}" fill="url(#g)" opacity="${life.toFixed(3)}"/>`);
    for (let k = 0; k < rays; k += 1) {
      const angle = turn + (180 / rays) * k;
      const long = k % 2 === 0 ? reach : reach * 0.55;
      parts.push(`<rect x="${cx - long}" y="${cy - 1.6}" width="${long * 2}" height="3.2" fill="url(#r)" opacity="${life.toFixed(3)}" transform="rotate(${angle} ${cx} ${cy})"/>`);
    }
  }
  const pixels = await drawn(parts.join(''), size, size * frames);
  return { width: size, height: size * frames, format: 'rgba', pixels };
}

/**
 * Glints twinkling at the given places (centres, frame pixels): each steps through the strip at
 * `rate` frames per second, starting at its own moment and resting between flares.
 */
export function twinkles(strip: Still, places: readonly { x: Expr; y: Expr; phase: number }[], rate: number, rest: number): Layer[] {
  const size = strip.width;
  const frames = strip.height / size;
  const cycle = frames + rest;
  return places.map((place) => ({
    still: strip,
    x: `${place.x}-${size / 2}`,
    y: `${place.y}-${size / 2}`,
    crop: { width: size, height: size, x: '0', y: `${size}*min(${frames - 1},floor(mod(t*${num(rate)}+${num(place.phase * cycle)},${cycle})))` },
  }));
}
