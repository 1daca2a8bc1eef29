// Small things the sets are dressed with, drawn once: fruit, leaves (and a leaf tumbling, frame
// by frame), crystal shards, a miniature town, birds, a puff of dust. Each is lit from the same
// side as the shoe and blurred as much as its distance from the focus asks.
import type { Rgb } from '../../../contract/colour';
import type { Still } from './film';
import { css, drawn, grained, mottle, random } from './raster';

/** How much of its size art blurred by `sigma` px needs drawing at: librsvg's blurs cost by the pixel. */
const detailFor = (sigma: number) => (sigma >= 8 ? 0.25 : sigma >= 2 ? 0.5 : 1);

const blurFilter = (id: string, sigma: number) => (sigma > 0 ? `<filter id="${id}" x="-30%" y="-30%" width="160%" height="160%"><feGaussianBlur stdDeviation="${sigma}"/></filter>` : '');
const filtered = (id: string, sigma: number) => (sigma > 0 ? ` filter="url(#${id})"` : '');

/** A still of `width` × `height` from SVG, with texture and grain when asked. */
async function sprite(svg: string, width: number, height: number, options: { detail?: number; texture?: number; grain?: number; seed?: number } = {}): Promise<Still> {
  const pixels = await drawn(svg, width, height, options.detail ?? 1);
  if (options.texture) mottle(pixels, width, height, { scale: Math.max(8, width / 10), strength: options.texture, seed: options.seed ?? 1 });
  return options.grain ? grained(pixels, width, height, options.grain, options.seed) : { width, height, format: 'rgba', pixels };
}

export interface FruitKind {
  skin: Rgb;
  shade: Rgb;
  /** Dimpled peel (citrus) or smooth and glossy (cherry, grape). */
  peel: number;
  stem?: boolean;
}

export const FRUITS: Record<'orange' | 'lemon' | 'lime' | 'cherry' | 'peach', FruitKind> = {
  orange: { skin: [255, 150, 30], shade: [190, 70, 10], peel: 0.14 },
  lemon: { skin: [255, 226, 70], shade: [200, 150, 20], peel: 0.12 },
  lime: { skin: [140, 200, 60], shade: [50, 110, 20], peel: 0.12 },
  cherry: { skin: [215, 20, 45], shade: [110, 0, 20], peel: 0.03, stem: true },
  peach: { skin: [255, 176, 120], shade: [220, 90, 70], peel: 0.05 },
};

/** A piece of fruit: a lit sphere with a soft key, a bright specular window and a warm bounce. */
export async function fruit(kind: FruitKind, radius: number, blur: number, seed: number, lightSide = -1): Promise<Still> {
  const size = Math.ceil(radius * 2 + blur * 4 + radius * 0.6);
  const c = size / 2;
  const hx = c + lightSide * radius * 0.35;
  const hy = c - radius * 0.4;
  const svg = `<defs>${blurFilter('f', blur)}
    <radialGradient id="b" cx="${(hx / size).toFixed(3)}" cy="${(hy / size).toFixed(3)}" r="${((radius * 1.5) / size).toFixed(3)}" gradientUnits="objectBoundingBox" fx="${(hx / size).toFixed(3)}" fy="${(hy / size).toFixed(3)}">
      <stop offset="0" stop-color="${css(kind.skin.map((v) => Math.min(255, v + 40)) as Rgb)}"/><stop offset="0.45" stop-color="${css(kind.skin)}"/><stop offset="1" stop-color="${css(kind.shade)}"/></radialGradient>
    <radialGradient id="s"><stop offset="0" stop-color="#fff" stop-opacity="0.95"/><stop offset="1" stop-color="#fff" stop-opacity="0"/></radialGradient>
    <radialGradient id="r" cx="${0.5 - lightSide * 0.28}" cy="0.75" r="0.5"><stop offset="0" stop-color="${css(kind.skin)}" stop-opacity="0.55"/><stop offset="1" stop-color="${css(kind.skin)}" stop-opacity="0"/></radialGradient></defs>
    <g${filtered('f', blur)}>
      <rect x="${c - radius}" y="${c - radius}" width="${radius * 2}" height="${radius * 2}" rx="${radius}" fill="url(#b)"/>
      <circle cx="${c}" cy="${c}" r="${radius}" fill="url(#r)"/>
      <ellipse cx="${hx}" cy="${hy}" rx="${radius * 0.28}" ry="${radius * 0.18}" fill="url(#s)" transform="rotate(${lightSide * -30} ${hx} ${hy})"/>
      <circle cx="${hx + lightSide * radius * 0.05}" cy="${hy}" r="${radius * 0.05}" fill="#fff" fill-opacity="0.9"/>
      ${kind.stem ? `<path d="M${c} ${c - radius * 0.85} q ${radius * 0.2} ${-radius * 0.6} ${radius * 0.55} ${-radius * 0.85}" stroke="#4E6B1E" stroke-width="${Math.max(2, radius * 0.07)}" fill="none" stroke-linecap="round"/>` : ''}
    </g>`;
  return sprite(svg, size, size, { texture: blur < 2 ? kind.peel : 0, grain: 2, seed });
}

/** A leaf, pointing up, `length` px long, lit from the left; `turn` degrees. Its veins stay inside it. */
function leafPath(cx: number, cy: number, length: number, width: number, turn: number, colours: [Rgb, Rgb], id: string): string {
  const half = length / 2;
  const outline = `M${cx} ${cy + half} C ${cx - width} ${cy + half * 0.3}, ${cx - width * 0.8} ${cy - half * 0.6}, ${cx} ${cy - half} C ${cx + width * 0.8} ${cy - half * 0.6}, ${cx + width} ${cy + half * 0.3}, ${cx} ${cy + half} Z`;
  const clip = `${id}c${Math.round(cx)}_${Math.round(cy)}`;
  const veins = Array.from({ length: 6 }, (_, k) => {
    const y = cy + half * 0.7 - k * half * 0.28;
    return `M${cx} ${y} q ${-width * 0.4} ${-half * 0.06} ${-width} ${-half * 0.3} M${cx} ${y} q ${width * 0.4} ${-half * 0.06} ${width} ${-half * 0.3}`;
  }).join(' ');
  return `<g transform="rotate(${turn.toFixed(1)} ${cx.toFixed(1)} ${cy.toFixed(1)})">
    <clipPath id="${clip}"><path d="${outline}"/></clipPath>
    <path d="${outline}" fill="url(#${id})"/>
    <g clip-path="url(#${clip})">
      <path d="${veins}" stroke="${css(colours[0], 0.35)}" stroke-width="${Math.max(1, width * 0.03).toFixed(1)}" fill="none"/>
      <path d="M${cx} ${cy + half} L ${cx} ${cy - half * 0.9}" stroke="${css(colours[0], 0.55)}" stroke-width="${Math.max(1, width * 0.06).toFixed(1)}"/>
    </g>
  </g>`;
}

const leafGradient = (id: string, [light, dark]: [Rgb, Rgb]) =>
  `<linearGradient id="${id}" x1="0" y1="0" x2="1" y2="0.3"><stop offset="0" stop-color="${css(light)}"/><stop offset="0.5" stop-color="${css(dark)}"/><stop offset="1" stop-color="${css(dark.map((v) => v * 0.7) as Rgb)}"/></linearGradient>`;

/** A spray of leaves, as a set piece at the side of the frame: `count` leaves fanning from a stem at the bottom. */
export async function foliage(width: number, height: number, options: { count: number; colours: [Rgb, Rgb]; blur: number; seed: number; fromRight?: boolean }): Promise<Still> {
  const next = random(options.seed);
  const leaves: string[] = [];
  const base = { x: options.fromRight ? width * 0.85 : width * 0.15, y: height };
  for (let i = 0; i < options.count; i += 1) {
    const length = height * (0.3 + next() * 0.3);
    const angle = (options.fromRight ? -1 : 1) * (-20 + next() * 75);
    const rad = (angle * Math.PI) / 180;
    const reach = height * (0.3 + next() * 0.45);
    const cx = base.x + Math.sin(rad) * reach;
    const cy = base.y - Math.cos(rad) * reach;
    const shade = 0.75 + next() * 0.35;
    const light = options.colours[0].map((v) => Math.min(255, v * shade)) as Rgb;
    const dark = options.colours[1].map((v) => Math.min(255, v * shade)) as Rgb;
    leaves.push(`<defs>${leafGradient(`l${i}`, [light, dark])}</defs>`);
    leaves.push(`<path d="M${base.x} ${base.y} Q ${(base.x + cx) / 2 + (next() - 0.5) * 40} ${(base.y + cy) / 2} ${cx} ${cy + length / 2}" stroke="${css(dark)}" stroke-width="${Math.max(2, width * 0.008)}" fill="none"/>`);
    leaves.push(leafPath(cx, cy, length, length * (0.28 + next() * 0.14), angle + (next() - 0.5) * 30, [light, dark], `l${i}`));
  }
  return sprite(`<defs>${blurFilter('f', options.blur)}</defs><g${filtered('f', options.blur)}>${leaves.join('')}</g>`, width, height, { detail: detailFor(options.blur), texture: 0.08, grain: 2, seed: options.seed });
}

/** A leaf turning over as it falls: `frames` square frames down a strip, one rotation in all. */
export async function tumblingLeaf(size: number, frames: number, colours: [Rgb, Rgb], blur: number): Promise<Still> {
  const parts: string[] = [`<defs>${leafGradient('l', colours)}${blurFilter('f', blur)}</defs>`];
  for (let f = 0; f < frames; f += 1) {
    const turn = (360 * f) / frames;
    // Turning about its length, the leaf narrows to an edge and widens again.
    const face = Math.abs(Math.cos((2 * Math.PI * f) / frames)) * 0.85 + 0.15;
    parts.push(`<g${filtered('f', blur)}>${leafPath(size / 2, f * size + size / 2, size * 0.7, size * 0.28 * face, turn, colours, 'l')}</g>`);
  }
  return sprite(parts.join(''), size, size * frames);
}

/** A cluster of crystal shards rising from the bottom, faceted and lit, partly see-through. */
export async function crystals(width: number, height: number, options: { count: number; tint: Rgb; glow: Rgb; blur: number; seed: number }): Promise<{ still: Still; tips: { x: number; y: number }[] }> {
  const next = random(options.seed);
  const shapes: string[] = [];
  const tips: { x: number; y: number }[] = [];
  for (let i = 0; i < options.count; i += 1) {
    const base = width * (0.15 + next() * 0.7);
    const tall = height * (0.35 + next() * 0.6);
    const wide = tall * (0.12 + next() * 0.1);
    const lean = (next() - 0.5) * 40;
    const tip = { x: base + Math.sin((lean * Math.PI) / 180) * tall, y: height - tall };
    tips.push(tip);
    const light = options.tint.map((v) => Math.min(255, v + 70)) as Rgb;
    const dark = options.tint.map((v) => v * 0.45) as Rgb;
    shapes.push(`<g transform="rotate(${lean} ${base} ${height})">
      <polygon points="${base - wide},${height} ${base - wide},${height - tall * 0.78} ${base},${height - tall} ${base},${height}" fill="${css(light, 0.55)}"/>
      <polygon points="${base},${height} ${base},${height - tall} ${base + wide},${height - tall * 0.78} ${base + wide},${height}" fill="${css(dark, 0.7)}"/>
      <polygon points="${base - wide * 0.4},${height} ${base - wide * 0.2},${height - tall * 0.7} ${base + wide * 0.15},${height - tall * 0.75} ${base + wide * 0.2},${height}" fill="${css(options.tint, 0.35)}"/>
      <polyline points="${base - wide},${height - tall * 0.78} ${base},${height - tall} ${base + wide},${height - tall * 0.78}" fill="none" stroke="${css([255, 255, 255], 0.85)}" stroke-width="${Math.max(1.5, wide * 0.05)}"/>
      <line x1="${base}" y1="${height - tall}" x2="${base}" y2="${height}" stroke="${css([255, 255, 255], 0.55)}" stroke-width="${Math.max(1, wide * 0.03)}"/>
    </g>`);
  }
  const svg = `<defs>${blurFilter('f', options.blur)}<radialGradient id="g" cx="0.5" cy="1" r="0.8"><stop offset="0" stop-color="${css(options.glow)}" stop-opacity="0.45"/><stop offset="1" stop-color="${css(options.glow)}" stop-opacity="0"/></radialGradient></defs>
    <rect width="${width}" height="${height}" fill="url(#g)"/><g${filtered('f', options.blur)}>${shapes.join('')}</g>`;
  return { still: await sprite(svg, width, height, { detail: detailFor(options.blur), grain: 2, seed: options.seed }), tips };
}

/** A row of miniature buildings on a `width` px strip, `height` px tall: lit faces, windows, trees. */
export async function town(width: number, height: number, options: { blur: number; haze: number; seed: number; scale: number }): Promise<Still> {
  const next = random(options.seed);
  const parts: string[] = [];
  const walls: Rgb[] = [
    [226, 214, 196],
    [196, 182, 168],
    [240, 232, 220],
    [170, 160, 150],
    [214, 190, 160],
  ];
  let x = -10;
  while (x < width) {
    const w = (30 + next() * 60) * options.scale;
    const h = (30 + next() ** 2 * 140) * options.scale;
    const side = w * 0.35;
    const wall = walls[Math.floor(next() * walls.length)]!;
    const top = height - h;
    const dark = wall.map((v) => v * 0.62) as Rgb;
    parts.push(`<rect x="${x}" y="${top}" width="${w}" height="${h}" fill="${css(wall)}"/>`);
    parts.push(`<polygon points="${x + w},${top} ${x + w + side},${top + side * 0.4} ${x + w + side},${height} ${x + w},${height}" fill="${css(dark)}"/>`);
    parts.push(`<polygon points="${x},${top} ${x + w},${top} ${x + w + side},${top + side * 0.4} ${x + side},${top + side * 0.4}" fill="${css(wall.map((v) => Math.min(255, v * 1.08)) as Rgb)}" transform="translate(0 ${-side * 0.4})"/>`);
    const rows = Math.floor(h / (12 * options.scale));
    const cols = Math.max(1, Math.floor(w / (10 * options.scale)));
    for (let r = 1; r < rows; r += 1) {
      for (let c = 0; c < cols; c += 1) {
        const lit = next() < 0.25;
        parts.push(`<rect x="${x + (c + 0.3) * (w / cols)}" y="${top + r * 12 * options.scale}" width="${(w / cols) * 0.4}" height="${5 * options.scale}" fill="${lit ? '#FFE9B0' : '#56606E'}" fill-opacity="${lit ? 0.9 : 0.55}"/>`);
      }
    }
    if (next() < 0.5) {
      const tx = x + w + side + 6 * options.scale;
      const tr = (6 + next() * 8) * options.scale;
      parts.push(`<circle cx="${tx}" cy="${height - tr * 1.2}" r="${tr}" fill="#4F7A3A"/><circle cx="${tx - tr * 0.3}" cy="${height - tr * 1.5}" r="${tr * 0.6}" fill="#6E9A4E"/>`);
    }
    x += w + side + (4 + next() * 20) * options.scale;
  }
  const svg = `<defs>${blurFilter('f', options.blur)}</defs>
    <g${filtered('f', options.blur)}>${parts.join('')}</g>`;
  const pixels = await drawn(svg, width, height);
  // Haze over the town: the farther the row, the more of the sky's colour it takes.
  for (let o = 0; o < pixels.length; o += 4) {
    if (pixels[o + 3] === 0) continue;
    for (let ch = 0; ch < 3; ch += 1) pixels[o + ch] = Math.round(pixels[o + ch]! * (1 - options.haze) + [214, 226, 238][ch]! * options.haze);
  }
  return grained(pixels, width, height, 2, options.seed);
}

/** A bird in flight, a few frames of its wingbeat down a strip. */
export async function birdStrip(size: number, frames: number, colour: Rgb): Promise<Still> {
  const parts = Array.from({ length: frames }, (_, f) => {
    const lift = Math.sin((2 * Math.PI * f) / frames) * size * 0.3;
    const cy = f * size + size / 2;
    return `<path d="M${size * 0.1} ${cy - lift} Q ${size * 0.3} ${cy - lift * 0.4 - size * 0.05} ${size / 2} ${cy} Q ${size * 0.7} ${cy - lift * 0.4 - size * 0.05} ${size * 0.9} ${cy - lift}" stroke="${css(colour)}" stroke-width="${Math.max(1.5, size * 0.07)}" fill="none" stroke-linecap="round"/>`;
  });
  return sprite(parts.join(''), size, size * frames);
}

/** A puff of dust bursting out along the ground: `frames` frames down a strip, from nothing to gone. */
export async function dustPuff(width: number, height: number, frames: number, colour: Rgb, seed: number): Promise<Still> {
  const next = random(seed);
  const grains = Array.from({ length: 26 }, () => ({ angle: Math.PI * (1.05 + next() * 0.9), speed: 0.4 + next() * 0.6, size: 0.5 + next() }));
  const parts = [`<defs>${blurFilter('f', 6)}</defs>`];
  for (let f = 1; f < frames - 1; f += 1) {
    const life = f / (frames - 1);
    const spread = 1 - (1 - life) ** 2;
    const fade = 1 - life;
    const cy = f * height + height * 0.8;
    const blobs = grains.map((g) => {
      const x = width / 2 + Math.cos(g.angle) * spread * width * 0.45 * g.speed * (next() < 0.5 ? 1 : -1);
      const y = cy + Math.sin(g.angle) * spread * height * 0.5 * g.speed;
      return `<circle cx="${x.toFixed(1)}" cy="${y.toFixed(1)}" r="${(height * 0.12 * g.size * (0.6 + spread)).toFixed(1)}" fill="${css(colour, 0.22 * fade)}"/>`;
    });
    parts.push(`<g filter="url(#f)">${blobs.join('')}</g>`);
  }
  return sprite(parts.join(''), width, height * frames, { detail: 0.5 });
}
