// The studio engine's compositions (DESIGN §4 Engines), photographed rather than drawn: each is a
// scene lit by one light (photo/light.ts) — a seamless sweep or a surface seen from above, props
// shaded as solids, the shoe balanced to the scene with its contact shadow — finished with grain
// and set in type. Product shots for marketplaces, a multi-angle card, a poster, a flat-lay still
// life and an outfit colour card. Type is set in the fonts shipped in ./fonts, so every machine
// draws the same letters. Nothing here draws a person or a garment.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { OverlayOptions } from 'sharp';
import type { Locale } from '../../contract/locales';
import type { ProductPreset, ShoeView } from '../../contract/enums';
import { loadSharp } from '../lib/sharp';
import { lending, recycle } from './arrays';
import type { Cutout } from './segment';
import { colourName, dominantColours, flatLaySurface, hex, inkOn, mainColour, outfitPalette, rgbToOklab, oklabToRgb, studioTint, type Rgb } from './palette';
import { studioCopy, viewLabel } from './copy';
import { sweep, type SweepOptions } from './photo/backdrop';
import { encodeJpeg } from './photo/encode';
import { toCanvas } from './photo/grain';
import { lay, layCanvas, meanOver, roundedRect, shadeCanvas, type Layer } from './photo/layer';
import { STUDIO_KEY, TABLE_KEY } from './photo/light';
import { flatPlate, sweepPlate } from './photo/plates';
import { drawFloorProps, drawTableProps, ellipseDistance, podiumTop, type FloorProp, type TableProp } from './photo/props';
import type { Canvas, Region, Size } from './photo/raster';
import { reflect, type ReflectionOptions } from './photo/reflection';
import { cardShadow, floorShadow, tableShadow, type FloorShadowOptions } from './photo/shadow';
import { fittedSize, shoeLayer } from './photo/shoe';
import { surface } from './photo/surfaces';

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

/** PRODUCT's frame in each look: 3:4 for the studio and for Wildberries and Ozon (≥ 900×1200), 1:1 for Amazon. */
export const PRODUCT_SIZES: Record<ProductPreset, Size> = {
  STUDIO: { width: 1200, height: 1600 },
  WB_OZON: { width: 1200, height: 1600 },
  AMAZON: { width: 2000, height: 2000 },
};
/** The studio look's frame, which the remote engines' product shots are also brought to. */
export const PRODUCT_SIZE = PRODUCT_SIZES.STUDIO;
/** Amazon: the shoe fills this share of the frame's width or height (Amazon asks for at least 85 %). */
export const PRODUCT_FILL = 0.88;
export const CARD_SIZE = { width: 1600, height: 1600 } as const;
export const POSTER_SIZE = { width: 1200, height: 1600 } as const;
export const STILL_LIFE_SIZE = { width: 1600, height: 1600 } as const;
export const COLOUR_CARD_SIZE = { width: 1200, height: 1600 } as const;

/** How much a step away from the camera shortens on a studio floor: the camera looks down a little. */
const FLOOR_DEPTH = 0.3;

const FONTS = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fonts');
const FONT_FILE = { regular: path.join(FONTS, 'DejaVuSans.ttf'), bold: path.join(FONTS, 'DejaVuSans-Bold.ttf') };

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

/** The finished canvas encoded; its pixels are then kept for a later frame. */
async function jpeg(canvas: Canvas, overlays: OverlayOptions[] = []): Promise<Rendered> {
  try {
    return { bytes: await encodeJpeg(canvas, overlays), fileType: 'image/jpeg', width: canvas.width, height: canvas.height };
  } finally {
    recycle(canvas.data);
  }
}

/** A shoe layer moved so its box's top-left corner is at (left, top). */
const placed = <T extends Layer>(layer: T, left: number, top: number): T => ({ ...layer, left: Math.round(left), top: Math.round(top) });

/** Stands a shoe on a floor: its contact (and cast) shadow, an optional reflection, then the shoe. */
function standOn(canvas: Canvas, shoe: Layer, shadow: Omit<FloorShadowOptions, 'light'>, options: { reflection?: ReflectionOptions; clip?: (x: number, y: number) => number } = {}): void {
  const occlusion = floorShadow(shoe, { light: STUDIO_KEY, ...shadow });
  shadeCanvas(canvas, occlusion, { under: shoe, ...(options.clip ? { clip: options.clip } : {}) });
  if (options.reflection) reflect(canvas, shoe, options.reflection);
  lay(canvas, shoe);
}

/** Lays a shoe on a table seen from above: its outline's contact shadow and its drop shadow, then the shoe. */
function layOnTable(canvas: Canvas, shoe: Layer, lift: number): void {
  shadeCanvas(canvas, tableShadow(shoe, { light: TABLE_KEY, height: lift, contact: 0.45, drop: 0.4 }), { under: shoe });
  lay(canvas, shoe);
}

// ——— PRODUCT ———

interface ProductLook {
  /** The box the shoe is fitted into, as shares of the frame. */
  fit: { width: number; height: number };
  /** Where the bottom of the shoe stands (share of the height); null centres the shoe. */
  ground: number | null;
  shadow: Omit<FloorShadowOptions, 'light'>;
  reflection: ReflectionOptions | null;
}

const PRODUCT_LOOKS: Record<ProductPreset, ProductLook> = {
  // A photographic shot: air around the shoe, its own tint on the sweep, a glossy floor.
  STUDIO: {
    fit: { width: 0.8, height: 0.56 },
    ground: 0.7,
    shadow: { depth: FLOOR_DEPTH, contact: 0.75, ambient: 0.5, cast: 0.18 },
    reflection: { strength: 0.2, reach: 0.32, blur: 2 },
  },
  // A marketplace card: large and centred inside safe margins, a light neutral sweep.
  WB_OZON: {
    fit: { width: 0.86, height: 0.8 },
    ground: null,
    shadow: { depth: FLOOR_DEPTH, contact: 0.7, ambient: 0.42, cast: 0 },
    reflection: null,
  },
  // Amazon's main image: pure white around the product and a very light shadow under it.
  AMAZON: {
    fit: { width: PRODUCT_FILL, height: PRODUCT_FILL },
    ground: null,
    shadow: { depth: 0.25, contact: 0.45, ambient: 0.15, cast: 0 },
    reflection: null,
  },
};

/** Where the shoe goes in a product shot of `preset` (the layer's box on the frame). */
export function productPlacement(cutout: Pick<Cutout, 'width' | 'height'>, preset: ProductPreset = 'STUDIO'): Region {
  const size = PRODUCT_SIZES[preset];
  const look = PRODUCT_LOOKS[preset];
  const shoe = fittedSize(cutout, { width: size.width * look.fit.width, height: size.height * look.fit.height });
  const left = Math.round((size.width - shoe.width) / 2);
  const top = look.ground === null ? Math.round((size.height - shoe.height) / 2) : Math.round(size.height * look.ground - shoe.height);
  return { left, top, ...shoe };
}

/** A sweep whose floor begins a little behind `ground` (share of the height), rounded so shots of one look share a plate. */
function sweepFor(ground: number, colour: Rgb, strong: boolean): SweepOptions {
  const curveBottom = Math.max(0.3, Math.round((ground - 0.1) * 50) / 50);
  return {
    colour,
    light: STUDIO_KEY,
    curveTop: curveBottom - 0.26,
    curveBottom,
    hotspot: [0.3, 0.28],
    falloff: strong ? 0.55 : 0.22,
    vignette: strong ? 0.32 : 0.12,
  };
}

/** The colour that characterises a shoe layer (its largest coloured cluster). */
const mainOf = (shoe: Layer) => mainColour(dominantColours(shoe.rgba, 4, 800));

/**
 * PRODUCT: one view in one of three looks — STUDIO, a photographic shot on a sweep tinted to the
 * shoe, with its contact shadow, a soft cast shadow and a faint reflection; WB_OZON, the shoe
 * large and centred on a light neutral sweep; AMAZON, the shoe filling 88 % of a pure white square
 * with a very light contact shadow.
 */
export async function productShot(cutout: Cutout, preset: ProductPreset | null = null): Promise<Rendered> {
  const look = preset ?? 'STUDIO';
  const size = PRODUCT_SIZES[look];
  const style = PRODUCT_LOOKS[look];
  const place = productPlacement(cutout, look);
  const shoe = placed(await shoeLayer(cutout, place), place.left, place.top);
  const ground = (place.top + place.height) / size.height;
  // Composed synchronously, its shadow's and reflection's working arrays lent for it.
  const canvas = lending(() => {
    let plate: Canvas;
    if (look === 'AMAZON') plate = flatPlate(size, [255, 255, 255]);
    else if (look === 'WB_OZON') plate = sweepPlate(size, sweepFor(ground, [244, 244, 242], false));
    else plate = sweepPlate(size, sweepFor(ground, studioTint(mainOf(shoe)), true));
    standOn(plate, shoe, style.shadow, {
      ...(style.reflection ? { reflection: style.reflection } : {}),
      // Amazon's white must stay white: the shadow fades out well inside the frame's edge.
      ...(look === 'AMAZON' ? { clip: insideFrame(size, size.width * 0.03, size.width * 0.02) } : {}),
    });
    return plate;
  });
  return jpeg(canvas);
}

/** 1 inside the frame less `margin`, falling to 0 over `fade` px towards the edge. */
function insideFrame(size: Size, margin: number, fade: number) {
  return (x: number, y: number) => {
    const edge = Math.min(x, y, size.width - x, size.height - y) - margin;
    return edge <= 0 ? 0 : edge >= fade ? 1 : edge / fade;
  };
}

// ——— Shared by the cards ———

/** The view that shows a shoe best first: three-quarter, then the sides. */
function heroFirst(views: readonly ViewCutout[]): ViewCutout[] {
  const order: ShoeView[] = ['right_45', 'right_side', 'left_side', 'front', 'back', 'bottom', 'optional1', 'optional2'];
  return [...views].sort((a, b) => order.indexOf(a.view) - order.indexOf(b.view));
}

const rawPixels = async (cutout: Cutout) => {
  const sharp = await loadSharp();
  return sharp(cutout.rgba, { raw: { width: cutout.width, height: cutout.height, channels: 4 } }).resize(256, 256, { fit: 'inside' }).raw().toBuffer();
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

/** A shoe standing on a podium's lid, centred on it: the layer placed, and a clip for its shadow. */
function onPodium(shoe: Layer, podium: Extract<FloorProp, { kind: 'podium' }>) {
  const lid = podiumTop(podium, FLOOR_DEPTH);
  // Its sole a little in front of the lid's centre line, so its footprint lies on the lid.
  const standY = lid.y + lid.halfDepth * 0.25;
  const layer = placed(shoe, podium.x - shoe.width / 2, standY - shoe.height);
  const clip = (x: number, y: number) => {
    const d = ellipseDistance(x - podium.x, y - lid.y, lid.halfWidth, lid.halfDepth);
    return d <= -2 ? 1 : d >= 0 ? 0 : -d / 2;
  };
  return { layer, clip };
}

// ——— PRODUCT2 ———

/** Where the multi-angle card puts its parts (shared with its test). */
export function cardLayout(others: number) {
  const size = CARD_SIZE;
  const columns = Math.min(4, Math.max(1, others));
  const rows = Math.ceil(others / columns);
  const margin = 60;
  const gap = 28;
  const areaTop = 1010;
  const tile = {
    width: Math.floor((size.width - margin * 2 - gap * (columns - 1)) / columns),
    height: Math.floor((size.height - areaTop - margin - gap * (rows - 1)) / Math.max(1, rows)),
  };
  const tiles = Array.from({ length: others }, (_, i) => ({
    left: margin + (i % columns) * (tile.width + gap),
    top: areaTop + Math.floor(i / columns) * (tile.height + gap),
    ...tile,
  }));
  const podium: Extract<FloorProp, { kind: 'podium' }> = { kind: 'podium', x: size.width / 2, base: 900, radius: 600, height: 64, colour: [0, 0, 0] };
  const sphere: Extract<FloorProp, { kind: 'sphere' }> = { kind: 'sphere', x: 1380, base: 940, radius: 70, colour: [0, 0, 0] };
  return { size, tiles, podium, sphere, hero: { width: 1040, height: 560 } };
}

/** PRODUCT2: one card of every view — the best one on a podium in a studio, the others in tiles below. */
export async function multiAngleCard(views: readonly ViewCutout[], locale: Locale): Promise<Rendered> {
  const [hero, ...others] = heroFirst(views);
  if (!hero) throw new Error('a card needs at least one view');
  const layout = cardLayout(others.length);
  const { size } = layout;
  const heroShoe = await shoeLayer(hero.cutout, layout.hero);
  const main = mainOf(heroShoe);
  const paper = studioTint(main);
  const podium = { ...layout.podium, colour: shade(paper, 0.03, 0.6) };
  const sphere = { ...layout.sphere, colour: shade(main, 0.05, 0.8) };
  const scene = sweep(size, { colour: paper, light: STUDIO_KEY, curveTop: 0.22, curveBottom: 0.5, hotspot: [0.3, 0.2], falloff: 0.45, vignette: 0.25 });
  drawFloorProps(scene, [podium, sphere], STUDIO_KEY, FLOOR_DEPTH);
  const canvas = toCanvas(scene);
  const stand = onPodium(heroShoe, podium);
  standOn(canvas, stand.layer, { depth: FLOOR_DEPTH, contact: 0.75, ambient: 0.45, cast: 0.15 }, { clip: stand.clip });

  const overlays: OverlayOptions[] = [];
  for (const [i, item] of others.entries()) {
    const tile = layout.tiles[i]!;
    // Each tile is a small studio plate of its own, floating a little above the floor.
    const plate = sweepPlate(tile, { colour: shade(paper, 0.03, 0.5), light: STUDIO_KEY, curveTop: 0.15, curveBottom: 0.5, hotspot: [0.3, 0.2], falloff: 0.3, vignette: 0.15 });
    const label = await typeset(viewLabel(locale, item.view), { size: 26, colour: [70, 70, 76], width: tile.width - 24, align: 'centre' });
    const room = { width: tile.width * 0.82, height: tile.height - label.height - 60 };
    const shoe = await shoeLayer(item.cutout, room);
    const stood = placed(shoe, (tile.width - shoe.width) / 2, 24 + (room.height - shoe.height) / 2);
    standOn(plate, stood, { depth: FLOOR_DEPTH, contact: 0.7, ambient: 0.45, cast: 0 });
    shadeCanvas(canvas, cardShadow(tile, 22, 14, 0.3));
    layCanvas(canvas, plate, tile.left, tile.top, roundedRect(tile.width, tile.height, 22));
    overlays.push({ input: label.input, left: Math.round(tile.left + (tile.width - label.width) / 2), top: tile.top + tile.height - label.height - 18 });
  }
  return jpeg(canvas, overlays);
}

// ——— POSTER ———

/** Where the poster puts its stage (shared with its test). */
export function posterLayout() {
  const size = POSTER_SIZE;
  const podium: Extract<FloorProp, { kind: 'podium' }> = { kind: 'podium', x: size.width / 2, base: 1330, radius: 520, height: 130, colour: [0, 0, 0] };
  const arch: Extract<FloorProp, { kind: 'arch' }> = { kind: 'arch', x: size.width * 0.64, base: 1050, width: 500, height: 760, thickness: 36, colour: [0, 0, 0], distance: 70 };
  const sphere: Extract<FloorProp, { kind: 'sphere' }> = { kind: 'sphere', x: 170, base: 1420, radius: 80, colour: [0, 0, 0] };
  return { size, podium, arch, sphere, shoe: { width: 900, height: 480 } };
}

/**
 * POSTER: a stage in the shoe's own colour — a deep-toned sweep, an arch behind, the shoe on a
 * podium — with a headline (the seller's description, or the shoe's measurements) and a tagline.
 */
export async function poster(views: readonly ViewCutout[], copy: { headline: string | null; details: string }, locale: Locale): Promise<Rendered> {
  const layout = posterLayout();
  const { size } = layout;
  const hero = heroFirst(views)[0]!;
  const { main } = await shoeColours([hero.cutout]);
  const deep = shade(main, -0.3, 0.7);
  const light = shade(main, +0.12, 0.5);
  const scene = sweep(size, { colour: shade(deep, 0.12, 1), light: STUDIO_KEY, curveTop: 0.5, curveBottom: 0.72, hotspot: [0.32, 0.45], falloff: 0.8, vignette: 0.45 });
  const podium = { ...layout.podium, colour: light };
  drawFloorProps(scene, [{ ...layout.arch, colour: shade(deep, 0.2, 0.8) }, podium, { ...layout.sphere, colour: shade(main, 0, 1) }], STUDIO_KEY, FLOOR_DEPTH);
  const canvas = toCanvas(scene);
  const stand = onPodium(await shoeLayer(hero.cutout, layout.shoe), podium);
  standOn(canvas, stand.layer, { depth: FLOOR_DEPTH, contact: 0.8, ambient: 0.5, cast: 0.18 }, { clip: stand.clip });

  const c = studioCopy(locale);
  // Ink that reads on what lies under it.
  const headInk = inkOn(meanOver(canvas, { left: 80, top: 100, width: size.width - 160, height: 220 }));
  const footInk = inkOn(meanOver(canvas, { left: 80, top: size.height - 160, width: size.width - 160, height: 120 }));
  const headline = await typeset(copy.headline ?? c.newIn, { size: copy.headline && copy.headline.length > 40 ? 54 : 80, bold: true, colour: headInk, width: size.width - 160 });
  const details = await typeset(copy.details || c.newIn, { size: 32, colour: footInk, width: size.width - 160 });
  const rule = await (await loadSharp())({ create: { width: size.width - 160, height: 2, channels: 4, background: { r: footInk[0], g: footInk[1], b: footInk[2], alpha: 0.5 } } })
    .png()
    .toBuffer();
  return jpeg(canvas, [
    { input: headline.input, left: 80, top: 110 },
    { input: rule, left: 80, top: size.height - 150 },
    { input: details.input, left: 80, top: size.height - 120 },
  ]);
}

// ——— OUTFIT_STILL_LIFE ———

/** Where the still life lays the pair and its props (shared with its test). */
export function stillLifeLayout() {
  const size = STILL_LIFE_SIZE;
  const shoes = [
    { x: 760, y: 690, angle: -14 },
    { x: 860, y: 1060, angle: 10 },
  ];
  const props = {
    ball: { kind: 'ball', x: 1330, y: 330, radius: 95 },
    block: { kind: 'block', x: 260, y: 300, width: 250, length: 250, angle: 0.35, lift: 60 },
    disc: { kind: 'disc', x: 1330, y: 1360, radius: 150, lift: 36 },
    fold: { kind: 'fold', x: 300, y: 1330, width: 330, length: 380, angle: -0.5, rise: 0.8, texture: 'paper' },
    swatch: { kind: 'fold', x: 1390, y: 820, width: 230, length: 300, angle: 0.25, rise: 0.35, texture: 'fabric' },
  } as const;
  return { size, shoes, props, shoe: { width: 760, height: 400 } };
}

/**
 * OUTFIT_STILL_LIFE: a flat-lay seen from above — the pair on a surface (linen, wood, marble,
 * concrete or paper, after the shoe's colour), with lit props in the outfit palette's colours: a
 * ball, a plinth, a round plinth, a folded card and a fabric swatch, all shadowed by one window
 * light from the top left.
 */
export async function stillLife(views: readonly ViewCutout[]): Promise<Rendered> {
  const layout = stillLifeLayout();
  const { size } = layout;
  const ordered = heroFirst(views);
  const sides = ordered.filter((v) => v.view === 'right_side' || v.view === 'left_side');
  const pair = (sides.length >= 2 ? sides : ordered).slice(0, 2);
  const { main, outfit } = await shoeColours(pair.map((v) => v.cutout));
  const [, deep, lightTone, accent, complement, neutral] = outfit as [Rgb, Rgb, Rgb, Rgb, Rgb, Rgb];
  const ground = flatLaySurface(main, shade(neutral, 0.02, 1));
  const scene = surface(ground.kind, size, { colour: ground.colour, light: TABLE_KEY, seed: 5 });
  const p = layout.props;
  const props: TableProp[] = [
    { ...p.block, colour: shade(deep, 0.05, 0.8) },
    { ...p.ball, colour: shade(accent, -0.05, 0.9) },
    { ...p.disc, colour: shade(lightTone, -0.02, 0.8) },
    { ...p.fold, colour: [242, 238, 230] },
    { ...p.swatch, colour: shade(complement, 0.02, 0.9) },
  ];
  drawTableProps(scene, props, TABLE_KEY);
  const canvas = toCanvas(scene);
  // The right and left sides are the two shoes of the pair; with one view only, the other shoe is its mirror image.
  const laid = pair.length >= 2 ? pair.map((item) => ({ item, mirror: false })) : [{ item: pair[0]!, mirror: false }, { item: pair[0]!, mirror: true }];
  for (const [i, { item, mirror }] of laid.entries()) {
    const spot = layout.shoes[i]!;
    const shoe = await shoeLayer(item.cutout, layout.shoe, { angle: spot.angle, mirror });
    layOnTable(canvas, placed(shoe, spot.x - shoe.width / 2, spot.y - shoe.height / 2), 26);
  }
  return jpeg(canvas);
}

// ——— OUTFIT_COLOR ———

/** Where the colour card puts its parts (shared with its test). */
export function colourCardLayout(dominant: number, outfit: number) {
  const size = COLOUR_CARD_SIZE;
  const step = (size.width - 160) / Math.max(1, dominant);
  const chips = Array.from({ length: dominant }, (_, i) => ({ x: 80 + step * i + step / 2, y: 800, radius: 66 }));
  const cardWidth = (size.width - 160 - 2 * 30) / 3;
  const cardHeight = 250;
  const cards = Array.from({ length: outfit }, (_, i) => ({ left: 80 + (i % 3) * (cardWidth + 30), top: 1040 + Math.floor(i / 3) * (cardHeight + 34), width: cardWidth, height: cardHeight }));
  return { size, chips, step, cards, shoe: { left: 110, top: 60, width: 980, height: 520 } };
}

/**
 * OUTFIT_COLOR: the shoe, its dominant colours as paper chips with their shares, and an outfit
 * palette harmonised with its main colour as paper cards — each named, with its hex value — laid
 * on paper under a window light.
 */
export async function colourCard(views: readonly ViewCutout[], locale: Locale): Promise<Rendered> {
  const hero = heroFirst(views)[0]!;
  const { swatches, outfit } = await shoeColours(views.map((v) => v.cutout));
  const dominant = swatches.slice(0, 5);
  const layout = colourCardLayout(dominant.length, outfit.length);
  const { size } = layout;
  const c = studioCopy(locale);
  const scene = surface('paper', size, { colour: [240, 237, 231], light: TABLE_KEY, seed: 9, falloff: 0.16, vignette: 0.16 });
  const props: TableProp[] = [];
  for (const [i, swatch] of dominant.entries()) props.push({ kind: 'disc', ...layout.chips[i]!, lift: 4, colour: swatch.rgb });
  for (const [i, colour] of outfit.entries()) {
    const card = layout.cards[i]!;
    const tilt = ((i * 37) % 5 - 2) * 0.006;
    props.push({ kind: 'block', x: card.left + card.width / 2, y: card.top + card.height / 2, width: card.width, length: card.height, angle: tilt, lift: 5, colour: [246, 245, 242] });
    props.push({ kind: 'block', x: card.left + card.width / 2, y: card.top + (card.height - 90) / 2 + 10, width: card.width - 20, length: card.height - 100, angle: tilt, lift: 2, colour });
  }
  drawTableProps(scene, props, TABLE_KEY);
  const canvas = toCanvas(scene, { amount: 1.2, seed: 4 });
  const shoe = await shoeLayer(hero.cutout, layout.shoe);
  layOnTable(canvas, placed(shoe, layout.shoe.left + (layout.shoe.width - shoe.width) / 2, layout.shoe.top + (layout.shoe.height - shoe.height) / 2), 22);

  const ink: Rgb = [30, 30, 34];
  const overlays: OverlayOptions[] = [];
  const heading1 = await typeset(c.fromShoe, { size: 34, bold: true, colour: ink, width: 1000 });
  overlays.push({ input: heading1.input, left: 80, top: 650 });
  for (const [i, swatch] of dominant.entries()) {
    const chip = layout.chips[i]!;
    const label = await typeset(`${hex(swatch.rgb)}\n${Math.round(swatch.share * 100)} %`, { size: 22, colour: [70, 70, 76], width: layout.step - 10, align: 'centre' });
    overlays.push({ input: label.input, left: Math.round(chip.x - label.width / 2), top: 885 });
  }
  const heading2 = await typeset(c.toWear, { size: 34, bold: true, colour: ink, width: 1000 });
  overlays.push({ input: heading2.input, left: 80, top: 975 });
  for (const [i, colour] of outfit.entries()) {
    const card = layout.cards[i]!;
    const name = await typeset(colourName(colour, locale), { size: 26, bold: true, colour: ink, width: card.width - 30 });
    const code = await typeset(hex(colour), { size: 22, colour: [90, 90, 96], width: card.width - 30 });
    overlays.push({ input: name.input, left: Math.round(card.left + 18), top: card.top + card.height - 80 });
    overlays.push({ input: code.input, left: Math.round(card.left + 18), top: card.top + card.height - 42 });
  }
  return jpeg(canvas, overlays);
}
