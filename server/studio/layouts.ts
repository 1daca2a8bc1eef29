// The studio engine's compositions (DESIGN §4 Engines), drawn from the shoe's cut-outs with
// sharp: product shots for marketplaces, a multi-angle card, a poster, a flat-lay still life and
// an outfit colour card. Type is set in the fonts shipped in ./fonts, so every machine draws the
// same letters. Nothing here draws a person.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { OverlayOptions, Sharp } from 'sharp';
import type { Locale } from '../../contract/locales';
import type { ShoeView } from '../../contract/enums';
import { loadSharp } from '../lib/sharp';
import type { Cutout } from './segment';
import { colourName, dominantColours, hex, inkOn, mainColour, outfitPalette, rgbToOklab, oklabToRgb, type Rgb } from './palette';
import { studioCopy, viewLabel } from './copy';

export interface Rendered {
  bytes: Buffer;
  fileType: 'image/jpeg' | 'video/mp4';
  width: number;
  height: number;
  /** A video's poster frame (JPEG, the video's size), stored with the asset as its thumbnail. */
  poster?: Buffer;
}

export interface ViewCutout {
  view: ShoeView;
  cutout: Cutout;
}

/** Marketplace product shots: 3:4 at 1200×1600 (Wildberries and Ozon ask for 3:4 of at least 900×1200). */
export const PRODUCT_SIZE = { width: 1200, height: 1600 } as const;
/** The shoe fills this share of the frame's width or height (marketplaces ask for at least 85 %). */
export const PRODUCT_FILL = 0.88;
export const CARD_SIZE = { width: 1600, height: 1600 } as const;
export const POSTER_SIZE = { width: 1200, height: 1600 } as const;
export const STILL_LIFE_SIZE = { width: 1600, height: 1600 } as const;
export const COLOUR_CARD_SIZE = { width: 1200, height: 1600 } as const;

const FONTS = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fonts');
const FONT_FILE = { regular: path.join(FONTS, 'DejaVuSans.ttf'), bold: path.join(FONTS, 'DejaVuSans-Bold.ttf') };

const css = (rgb: Rgb, alpha = 1) => `rgba(${rgb[0]},${rgb[1]},${rgb[2]},${alpha})`;
const escapeMarkup = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

interface Placed {
  input: Buffer;
  width: number;
  height: number;
}

/** A line or paragraph of type, wrapped to `width`, on transparency. */
async function typeset(
  text: string,
  options: { size: number; bold?: boolean; colour: Rgb; width: number; align?: 'left' | 'centre' },
): Promise<Placed> {
  const sharp = await loadSharp();
  const face = options.bold ? 'DejaVu Sans Bold' : 'DejaVu Sans';
  const { data, info } = await sharp({
    text: {
      text: `<span foreground="${hex(options.colour)}">${escapeMarkup(text)}</span>`,
      font: `${face} ${options.size}`,
      fontfile: options.bold ? FONT_FILE.bold : FONT_FILE.regular,
      width: Math.max(1, Math.round(options.width)),
      align: options.align === 'centre' ? 'centre' : 'left',
      rgba: true,
      dpi: 72,
      wrap: 'word',
    },
  })
    .png()
    .toBuffer({ resolveWithObject: true });
  return { input: data, width: info.width, height: info.height };
}

/** The cut-out scaled to fit inside `box` (keeping its shape), optionally turned. */
async function fitted(cutout: Cutout, box: { width: number; height: number }, angle = 0): Promise<Placed> {
  const sharp = await loadSharp();
  const scale = Math.min(box.width / cutout.width, box.height / cutout.height);
  const width = Math.max(1, Math.round(cutout.width * scale));
  const height = Math.max(1, Math.round(cutout.height * scale));
  let image: Sharp = sharp(cutout.png).resize(width, height, { kernel: 'lanczos3' });
  if (angle) image = sharp(await image.png().toBuffer()).rotate(angle, { background: { r: 0, g: 0, b: 0, alpha: 0 } });
  const { data, info } = await image.png({ compressionLevel: 1 }).toBuffer({ resolveWithObject: true });
  return { input: data, width: info.width, height: info.height };
}

/** A soft elliptical shadow under a shoe whose bottom edge is at (cx, baseY). */
function contactShadow(canvas: { width: number; height: number }, cx: number, baseY: number, shoeWidth: number, strength = 0.38): OverlayOptions {
  const rx = shoeWidth * 0.47;
  const ry = Math.max(6, shoeWidth * 0.035);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${canvas.width}" height="${canvas.height}">
    <defs><filter id="s" x="-50%" y="-200%" width="200%" height="500%"><feGaussianBlur stdDeviation="${(ry * 0.7).toFixed(1)}"/></filter></defs>
    <ellipse cx="${cx}" cy="${baseY - ry * 0.3}" rx="${rx}" ry="${ry}" fill="black" fill-opacity="${strength}" filter="url(#s)"/>
    <ellipse cx="${cx}" cy="${baseY - ry * 0.2}" rx="${rx * 0.8}" ry="${ry * 0.35}" fill="black" fill-opacity="${strength * 0.8}" filter="url(#s)"/>
  </svg>`;
  return { input: Buffer.from(svg), left: 0, top: 0 };
}

/** The shoe's silhouette, blurred and offset: a drop shadow for a flat-lay seen from above. */
async function dropShadow(placed: Placed, blur: number, opacity: number): Promise<Buffer> {
  const sharp = await loadSharp();
  const pad = Math.ceil(blur * 3);
  const alpha = await sharp(placed.input).extractChannel(3).linear(opacity, 0).toBuffer();
  return sharp({ create: { width: placed.width, height: placed.height, channels: 3, background: { r: 20, g: 16, b: 12 } } })
    .joinChannel(alpha)
    .extend({ top: pad, bottom: pad, left: pad, right: pad, background: { r: 0, g: 0, b: 0, alpha: 0 } })
    .blur(blur)
    .png({ compressionLevel: 1 })
    .toBuffer();
}

async function finish(base: Sharp, size: { width: number; height: number }, layers: OverlayOptions[]): Promise<Rendered> {
  const bytes = await base.composite(layers).flatten({ background: '#ffffff' }).jpeg({ quality: 90, chromaSubsampling: '4:4:4' }).toBuffer();
  return { bytes, fileType: 'image/jpeg', ...size };
}

function studioBackground(size: { width: number; height: number }, white: boolean): Buffer {
  const stops = white ? ['#FFFFFF', '#FFFFFF'] : ['#FFFFFF', '#ECEBE8'];
  return Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${size.width}" height="${size.height}">
    <defs><radialGradient id="g" cx="50%" cy="42%" r="75%"><stop offset="0" stop-color="${stops[0]}"/><stop offset="1" stop-color="${stops[1]}"/></radialGradient></defs>
    <rect width="100%" height="100%" fill="url(#g)"/></svg>`);
}

/**
 * PRODUCT: one view on a white (or soft studio) background with a contact shadow, the shoe
 * filling 88 % of the frame's width or height and centred.
 */
export async function productShot(cutout: Cutout, options: { white?: boolean } = {}): Promise<Rendered> {
  const sharp = await loadSharp();
  const size = PRODUCT_SIZE;
  const shoe = await fitted(cutout, { width: size.width * PRODUCT_FILL, height: size.height * PRODUCT_FILL });
  const left = Math.round((size.width - shoe.width) / 2);
  const top = Math.round((size.height - shoe.height) / 2);
  return finish(sharp(studioBackground(size, options.white ?? false)), size, [
    contactShadow(size, size.width / 2, top + shoe.height, shoe.width),
    { input: shoe.input, left, top },
  ]);
}

/** The view that shows a shoe best first: three-quarter, then the sides. */
function heroFirst(views: readonly ViewCutout[]): ViewCutout[] {
  const order: ShoeView[] = ['right_45', 'right_side', 'left_side', 'front', 'back', 'bottom', 'optional1', 'optional2'];
  return [...views].sort((a, b) => order.indexOf(a.view) - order.indexOf(b.view));
}

/** PRODUCT2: one card of every view — the best one large, the others in labelled tiles below. */
export async function multiAngleCard(views: readonly ViewCutout[], locale: Locale): Promise<Rendered> {
  const sharp = await loadSharp();
  const size = CARD_SIZE;
  const [hero, ...others] = heroFirst(views);
  if (!hero) throw new Error('a card needs at least one view');
  const layers: OverlayOptions[] = [];
  const heroShoe = await fitted(hero.cutout, { width: 1300, height: 760 });
  const heroLeft = Math.round((size.width - heroShoe.width) / 2);
  const heroTop = Math.round(100 + (760 - heroShoe.height) / 2);
  layers.push(contactShadow(size, size.width / 2, heroTop + heroShoe.height, heroShoe.width), { input: heroShoe.input, left: heroLeft, top: heroTop });

  const columns = Math.min(4, Math.max(1, others.length));
  const rows = Math.ceil(others.length / columns);
  const gap = 24;
  const margin = 60;
  const tileWidth = Math.floor((size.width - margin * 2 - gap * (columns - 1)) / columns);
  const areaTop = 940;
  const tileHeight = Math.floor((size.height - areaTop - margin - gap * (rows - 1)) / Math.max(1, rows));
  const tiles: string[] = [];
  for (const [i, item] of others.entries()) {
    const col = i % columns;
    const row = Math.floor(i / columns);
    const x = margin + col * (tileWidth + gap);
    const y = areaTop + row * (tileHeight + gap);
    tiles.push(`<rect x="${x}" y="${y}" width="${tileWidth}" height="${tileHeight}" rx="24" fill="#F3F3F1"/>`);
    const label = await typeset(viewLabel(locale, item.view), { size: 26, colour: [90, 90, 96], width: tileWidth - 24, align: 'centre' });
    const shoe = await fitted(item.cutout, { width: tileWidth * 0.82, height: tileHeight - label.height - 56 });
    layers.push({ input: shoe.input, left: Math.round(x + (tileWidth - shoe.width) / 2), top: Math.round(y + 20 + (tileHeight - label.height - 56 - shoe.height) / 2) });
    layers.push({ input: label.input, left: Math.round(x + (tileWidth - label.width) / 2), top: y + tileHeight - label.height - 18 });
  }
  const base = Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${size.width}" height="${size.height}"><rect width="100%" height="100%" fill="#FFFFFF"/>${tiles.join('')}</svg>`);
  return finish(sharp(base), size, layers);
}

const rawPixels = async (cutout: Cutout) => {
  const sharp = await loadSharp();
  return sharp(cutout.png).resize(256, 256, { fit: 'inside' }).ensureAlpha().raw().toBuffer();
};

const shade = (rgb: Rgb, dL: number, chroma = 1): Rgb => {
  const [L, a, b] = rgbToOklab(rgb);
  return oklabToRgb([Math.min(0.98, Math.max(0.08, L + dL)), a * chroma, b * chroma]);
};

/** The shoe's colours: dominant swatches, the main colour, and the outfit palette around it. */
export async function shoeColours(cutouts: readonly Cutout[]) {
  const pixels = Buffer.concat(await Promise.all(cutouts.map(rawPixels)));
  const swatches = dominantColours(pixels, 5);
  const main = mainColour(swatches);
  return { swatches, main, outfit: outfitPalette(main) };
}

/**
 * POSTER: the hero view large and slightly turned on a gradient made from the shoe's own colour,
 * a headline (the seller's description, or the shoe's measurements) and a tagline.
 */
export async function poster(views: readonly ViewCutout[], copy: { headline: string | null; details: string }, locale: Locale): Promise<Rendered> {
  const sharp = await loadSharp();
  const size = POSTER_SIZE;
  const hero = heroFirst(views)[0]!;
  const { main } = await shoeColours([hero.cutout]);
  const deep = shade(main, -0.3, 0.7);
  const light = shade(main, +0.12, 0.5);
  const ink = inkOn(deep);
  const base = Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${size.width}" height="${size.height}">
    <defs>
      <linearGradient id="bg" x1="0" y1="0" x2="0.3" y2="1"><stop offset="0" stop-color="${hex(deep)}"/><stop offset="1" stop-color="${hex(light)}"/></linearGradient>
      <radialGradient id="glow" cx="50%" cy="62%" r="45%"><stop offset="0" stop-color="white" stop-opacity="0.35"/><stop offset="1" stop-color="white" stop-opacity="0"/></radialGradient>
    </defs>
    <rect width="100%" height="100%" fill="url(#bg)"/>
    <circle cx="${size.width / 2}" cy="${size.height * 0.62}" r="${size.width * 0.55}" fill="url(#glow)"/>
    <rect x="80" y="${size.height - 150}" width="${size.width - 160}" height="2" fill="${css(ink, 0.5)}"/>
  </svg>`);
  const c = studioCopy(locale);
  const headline = await typeset(copy.headline ?? c.newIn, { size: copy.headline && copy.headline.length > 40 ? 54 : 80, bold: true, colour: ink, width: size.width - 160 });
  const details = await typeset(copy.details || c.newIn, { size: 32, colour: ink, width: size.width - 160 });
  const shoe = await fitted(hero.cutout, { width: size.width * 0.92, height: size.height * 0.45 }, -8);
  const shoeTop = Math.round(size.height * 0.62 - shoe.height / 2);
  return finish(sharp(base), size, [
    { input: headline.input, left: 80, top: 110 },
    contactShadow(size, size.width / 2, shoeTop + shoe.height * 0.92, shoe.width * 0.9, 0.45),
    { input: shoe.input, left: Math.round((size.width - shoe.width) / 2), top: shoeTop },
    { input: details.input, left: 80, top: size.height - 120 },
  ]);
}

/**
 * OUTFIT_STILL_LIFE: a flat-lay seen from above — a textured backdrop in the palette's neutral,
 * folded clothes and accessories in the harmonised colours, and the shoes laid among them.
 */
export async function stillLife(views: readonly ViewCutout[]): Promise<Rendered> {
  const sharp = await loadSharp();
  const size = STILL_LIFE_SIZE;
  const ordered = heroFirst(views);
  const sides = ordered.filter((v) => v.view === 'right_side' || v.view === 'left_side');
  const pair = (sides.length >= 2 ? sides : ordered).slice(0, 2);
  const { outfit } = await shoeColours(pair.map((v) => v.cutout));
  const [, deep, light, accent, complement, neutral] = outfit as [Rgb, Rgb, Rgb, Rgb, Rgb, Rgb];
  const backdrop = shade(neutral, 0.04, 1);
  const shadowFilter = `<filter id="d" x="-20%" y="-20%" width="140%" height="140%"><feGaussianBlur in="SourceAlpha" stdDeviation="14"/><feOffset dx="10" dy="16"/><feComponentTransfer><feFuncA type="linear" slope="0.35"/></feComponentTransfer><feMerge><feMergeNode/><feMergeNode in="SourceGraphic"/></feMerge></filter>`;
  const props = `<svg xmlns="http://www.w3.org/2000/svg" width="${size.width}" height="${size.height}">
    <defs>${shadowFilter}</defs>
    <g filter="url(#d)">
      <g transform="translate(150 140) rotate(-6)">
        <path d="M0 90 L150 0 L430 0 L580 90 L520 210 L470 180 L470 620 L110 620 L110 180 L60 210 Z" fill="${hex(light)}"/>
        <path d="M230 0 L290 70 L350 0" fill="none" stroke="${hex(shade(light, -0.12))}" stroke-width="10"/>
        <rect x="150" y="300" width="280" height="8" fill="${hex(shade(light, -0.06))}"/>
      </g>
      <g transform="translate(900 120) rotate(8)">
        <rect x="0" y="0" width="440" height="90" rx="10" fill="${hex(deep)}"/>
        <path d="M0 80 L40 760 L200 760 L220 160 L240 760 L400 760 L440 80 Z" fill="${hex(deep)}"/>
        <rect x="200" y="10" width="40" height="70" rx="6" fill="${hex(shade(deep, -0.08))}"/>
      </g>
      <g transform="translate(240 930) rotate(-12)">
        <rect x="0" y="0" width="620" height="54" rx="27" fill="${hex(complement)}"/>
        <rect x="470" y="-10" width="90" height="74" rx="14" fill="none" stroke="${hex(shade(complement, -0.2))}" stroke-width="12"/>
      </g>
      <g transform="translate(1150 1080)">
        <circle cx="0" cy="0" r="95" fill="${hex(shade(accent, -0.15))}"/><circle cx="230" cy="0" r="95" fill="${hex(shade(accent, -0.15))}"/>
        <path d="M85 -20 Q115 -50 145 -20" fill="none" stroke="${hex(shade(accent, -0.3))}" stroke-width="14"/>
        <circle cx="0" cy="0" r="70" fill="${hex(shade(accent, 0.1, 0.6))}"/><circle cx="230" cy="0" r="70" fill="${hex(shade(accent, 0.1, 0.6))}"/>
      </g>
    </g>
  </svg>`;
  // A linen-like grain: noise at a quarter size, scaled up so it reads as weave, under a wash of the neutral.
  const grain = await sharp({ create: { width: size.width / 4, height: size.height / 4, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 12 } } })
    .png()
    .toBuffer();
  const wash = Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${size.width}" height="${size.height}"><rect width="100%" height="100%" fill="${hex(backdrop)}" fill-opacity="0.93"/></svg>`);
  const backdropImage = sharp(await sharp(grain).resize(size.width, size.height).composite([{ input: wash }]).png({ compressionLevel: 1 }).toBuffer());
  const layers: OverlayOptions[] = [{ input: Buffer.from(props), left: 0, top: 0 }];
  const spots = [
    { left: 330, top: 1060, angle: -18 },
    { left: 560, top: 1230, angle: 14 },
  ];
  for (const [i, item] of pair.entries()) {
    const shoe = await fitted(item.cutout, { width: 760, height: 420 }, spots[i]!.angle);
    const shadow = await dropShadow(shoe, 12, 0.4);
    const pad = Math.ceil(12 * 3);
    layers.push({ input: shadow, left: spots[i]!.left - pad + 12, top: spots[i]!.top - Math.round(shoe.height / 2) - pad + 18 });
    layers.push({ input: shoe.input, left: spots[i]!.left, top: spots[i]!.top - Math.round(shoe.height / 2) });
  }
  return finish(backdropImage, size, layers);
}

/**
 * OUTFIT_COLOR: the shoe, its dominant colours with their shares, and an outfit palette
 * harmonised with its main colour — each swatch named, with its hex value.
 */
export async function colourCard(views: readonly ViewCutout[], locale: Locale): Promise<Rendered> {
  const sharp = await loadSharp();
  const size = COLOUR_CARD_SIZE;
  const hero = heroFirst(views)[0]!;
  const { swatches, outfit } = await shoeColours(views.map((v) => v.cutout));
  const c = studioCopy(locale);
  const layers: OverlayOptions[] = [];
  const shoe = await fitted(hero.cutout, { width: 980, height: 520 });
  const shoeTop = 70 + Math.round((520 - shoe.height) / 2);
  layers.push(contactShadow(size, size.width / 2, shoeTop + shoe.height, shoe.width, 0.3), { input: shoe.input, left: Math.round((size.width - shoe.width) / 2), top: shoeTop });

  const shapes: string[] = [];
  const heading1 = await typeset(c.fromShoe, { size: 34, bold: true, colour: [30, 30, 34], width: 1000 });
  layers.push({ input: heading1.input, left: 80, top: 640 });
  const dominant = swatches.slice(0, 5);
  const step = (size.width - 160) / Math.max(1, dominant.length);
  for (const [i, swatch] of dominant.entries()) {
    const cx = 80 + step * i + step / 2;
    shapes.push(`<circle cx="${cx}" cy="790" r="70" fill="${hex(swatch.rgb)}" stroke="#DDDDDA" stroke-width="2"/>`);
    const label = await typeset(`${hex(swatch.rgb)}\n${Math.round(swatch.share * 100)} %`, { size: 22, colour: [70, 70, 76], width: step - 10, align: 'centre' });
    layers.push({ input: label.input, left: Math.round(cx - label.width / 2), top: 875 });
  }

  const heading2 = await typeset(c.toWear, { size: 34, bold: true, colour: [30, 30, 34], width: 1000 });
  layers.push({ input: heading2.input, left: 80, top: 960 });
  const cardWidth = (size.width - 160 - 2 * 30) / 3;
  const cardHeight = 250;
  for (const [i, colour] of outfit.entries()) {
    const x = 80 + (i % 3) * (cardWidth + 30);
    const y = 1030 + Math.floor(i / 3) * (cardHeight + 30);
    shapes.push(`<rect x="${x}" y="${y}" width="${cardWidth}" height="${cardHeight}" rx="20" fill="#F5F5F3"/>`);
    shapes.push(`<rect x="${x}" y="${y}" width="${cardWidth}" height="${cardHeight - 90}" rx="20" fill="${hex(colour)}"/>`);
    shapes.push(`<rect x="${x}" y="${y + cardHeight - 110}" width="${cardWidth}" height="20" fill="${hex(colour)}"/>`);
    const name = await typeset(colourName(colour, locale), { size: 26, bold: true, colour: [30, 30, 34], width: cardWidth - 30 });
    const code = await typeset(hex(colour), { size: 22, colour: [90, 90, 96], width: cardWidth - 30 });
    layers.push({ input: name.input, left: Math.round(x + 18), top: y + cardHeight - 82 });
    layers.push({ input: code.input, left: Math.round(x + 18), top: y + cardHeight - 42 });
  }
  const base = Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${size.width}" height="${size.height}"><rect width="100%" height="100%" fill="#FFFFFF"/>${shapes.join('')}</svg>`);
  return finish(sharp(base), size, layers);
}
