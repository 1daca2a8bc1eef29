// The edit's one drawing code (contract/edit-draw.ts), drawn on @napi-rs/canvas with the served
// font files: the crop, white under a JPEG's transparency, a logo where it was placed, a text on
// its plate, aligned and turned — and the same picture at half the size.
import { createRequire } from 'node:module';
import { beforeAll, describe, expect, it } from 'vitest';
import { createCanvas, GlobalFonts, type Canvas, type SKRSContext2D } from '@napi-rs/canvas';
import { editDescriptionSchema, type EditDescription, type EditDescriptionInput } from '../../contract/edit';
import { drawEdit, FONT_FAMILIES, FONT_STACKS, LINE_HEIGHT, measureTextLayer, PLATE_PADDING, textFont, type EditImages } from '../../contract/edit-draw';

type Rgba = [number, number, number, number];
const BLUE: Rgba = [0, 0, 255, 255];
const RED: Rgba = [255, 0, 0, 255];
const GREEN: Rgba = [0, 255, 0, 255];
const WHITE: Rgba = [255, 255, 255, 255];

beforeAll(() => {
  const require = createRequire(import.meta.url);
  for (const weight of [400, 700]) {
    const file = require.resolve(`@fontsource/noto-sans/files/noto-sans-latin-${weight}-normal.woff2`);
    expect(GlobalFonts.registerFromPath(file, FONT_FAMILIES.sans)).toBeTruthy();
  }
});

const asset_id = '7d1c3b1e-2f4a-4c8e-9b51-2a0f6f0c9d10';

function edit(input: Partial<EditDescriptionInput> & Pick<EditDescriptionInput, 'source'>): EditDescription {
  return editDescriptionSchema.parse({ version: 1, crop: { ratio: null, x: 0, y: 0, width: input.source.width, height: input.source.height }, layers: [], ...input });
}

function solid(width: number, height: number, colour: string): Canvas {
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = colour;
  ctx.fillRect(0, 0, width, height);
  return canvas;
}

class Picture {
  constructor(readonly data: Uint8ClampedArray, readonly width: number, readonly height: number) {}

  at(x: number, y: number): Rgba {
    const i = (Math.round(y) * this.width + Math.round(x)) * 4;
    return [this.data[i]!, this.data[i + 1]!, this.data[i + 2]!, this.data[i + 3]!];
  }

  /** The bounding box of the pixels within `tolerance` of a colour, and how many there are. */
  find(colour: Rgba, tolerance = 60, area = { left: 0, top: 0, right: this.width, bottom: this.height }) {
    let count = 0;
    let left = Infinity;
    let top = Infinity;
    let right = -Infinity;
    let bottom = -Infinity;
    for (let y = Math.max(0, Math.floor(area.top)); y < Math.min(this.height, area.bottom); y += 1) {
      for (let x = Math.max(0, Math.floor(area.left)); x < Math.min(this.width, area.right); x += 1) {
        if (!near(this.at(x, y), colour, tolerance)) continue;
        count += 1;
        left = Math.min(left, x);
        right = Math.max(right, x);
        top = Math.min(top, y);
        bottom = Math.max(bottom, y);
      }
    }
    return { count, left, top, right, bottom };
  }
}

const near = (a: Rgba, b: Rgba, tolerance: number) => a.every((value, i) => Math.abs(value - b[i]!) <= tolerance);

function expectColour(actual: Rgba, expected: Rgba, tolerance = 2) {
  expect(near(actual, expected, tolerance), `${actual.join(',')} is not ${expected.join(',')} ± ${tolerance}`).toBe(true);
}

function draw(description: EditDescription, images: EditImages<Canvas>, scale = 1): Picture {
  const width = Math.round(description.crop.width * scale);
  const height = Math.round(description.crop.height * scale);
  const canvas = createCanvas(width, height);
  drawEdit(canvas.getContext('2d'), description, images, scale);
  return new Picture(canvas.getContext('2d').getImageData(0, 0, width, height).data, width, height);
}

const context = (): SKRSContext2D => createCanvas(10, 10).getContext('2d');
const noLogos = new Map<string, Canvas>();

describe('drawing an edit', () => {
  it('draws the crop: the output corners are the source at the crop', () => {
    // Each source pixel says where it is: red = x, green = y (both under 256 here).
    const source = createCanvas(240, 200);
    const ctx = source.getContext('2d');
    const pixels = ctx.createImageData(240, 200);
    for (let y = 0; y < 200; y += 1) {
      for (let x = 0; x < 240; x += 1) pixels.data.set([x, y, 90, 255], (y * 240 + x) * 4);
    }
    ctx.putImageData(pixels, 0, 0);
    const picture = draw(edit({ source: { asset_id, width: 240, height: 200 }, crop: { ratio: '4:3', x: 30, y: 20, width: 160, height: 120 } }), { source, logos: noLogos });
    expect([picture.width, picture.height]).toEqual([160, 120]);
    expectColour(picture.at(0, 0), [30, 20, 90, 255]);
    expectColour(picture.at(159, 0), [189, 20, 90, 255]);
    expectColour(picture.at(0, 119), [30, 139, 90, 255]);
    expectColour(picture.at(159, 119), [189, 139, 90, 255]);
    expectColour(picture.at(80, 60), [110, 80, 90, 255]);
  });

  it('puts white under a transparent source for a JPEG, and keeps the transparency when asked', () => {
    const source = createCanvas(100, 100);
    source.getContext('2d').fillStyle = '#0000ff';
    source.getContext('2d').fillRect(0, 0, 50, 100);
    const jpeg = draw(edit({ source: { asset_id, width: 100, height: 100 } }), { source, logos: noLogos });
    expectColour(jpeg.at(25, 50), BLUE);
    expectColour(jpeg.at(75, 50), WHITE);
    const png = draw(edit({ source: { asset_id, width: 100, height: 100 }, keep_transparency: true }), { source, logos: noLogos });
    expectColour(png.at(25, 50), BLUE);
    expect(png.at(75, 50)[3]).toBe(0);
  });

  it('places a logo at its centre, its size times its scale, turned and at its opacity', () => {
    const source = solid(200, 200, '#0000ff');
    const logos = new Map([['logos/brand.png', solid(40, 20, '#ff0000')]]);
    const logo = { type: 'logo', id: 'logo', file_key: 'logos/brand.png', width: 40, height: 20, x: 0.25, y: 0.5, scale: 2 } as const;
    const flat = draw(edit({ source: { asset_id, width: 200, height: 200 }, layers: [logo] }), { source, logos });
    // 80 × 40 around (50, 100).
    const box = flat.find(RED, 10);
    expect([box.left, box.top, box.right, box.bottom]).toEqual([10, 80, 89, 119]);

    const turned = draw(edit({ source: { asset_id, width: 200, height: 200 }, layers: [{ ...logo, rotation: 90 }] }), { source, logos });
    const upright = turned.find(RED, 10);
    expect(Math.abs(upright.left - 30)).toBeLessThanOrEqual(1);
    expect(Math.abs(upright.right - 69)).toBeLessThanOrEqual(1);
    expect(Math.abs(upright.top - 60)).toBeLessThanOrEqual(1);
    expect(Math.abs(upright.bottom - 139)).toBeLessThanOrEqual(1);
    expectColour(turned.at(80, 100), BLUE);

    const faint = draw(edit({ source: { asset_id, width: 200, height: 200 }, layers: [{ ...logo, opacity: 0.5 }] }), { source, logos });
    expectColour(faint.at(50, 100), [128, 0, 128, 255], 3);
    expectColour(faint.at(150, 100), BLUE);
  });

  it('leaves out a logo whose picture it was not given', () => {
    const source = solid(100, 100, '#0000ff');
    const picture = draw(edit({ source: { asset_id, width: 100, height: 100 }, layers: [{ type: 'logo', id: 'l', file_key: 'gone.png', width: 40, height: 40, x: 0.5, y: 0.5 }] }), { source, logos: noLogos });
    expect(picture.find(BLUE, 2).count).toBe(100 * 100);
  });
});

describe('a text layer', () => {
  const source = { asset_id, width: 600, height: 400 };
  const blue = solid(600, 400, '#0000ff');
  const text = (extra: Record<string, unknown> = {}) => ({ type: 'text', id: 't', text: 'SALE 30%', size: 48, color: '#ff0000', plate: '#00ff00', x: 0.5, y: 0.5, ...extra }) as const;

  it('draws its plate round its letters, a padding wide on every side, and no letter outside it', () => {
    // What is expected comes from the drawn letters and the layout's constants, never from the
    // measuring the drawing itself uses: a plate measured too wide or too narrow shows here.
    const picture = draw(edit({ source, layers: [text()] }), { source: blue, logos: noLogos });
    const fontPx = (48 * 600) / 1080;
    const padding = fontPx * PLATE_PADDING;
    const plate = picture.find(GREEN, 2);
    const letters = picture.find(RED);
    expect(letters.count).toBeGreaterThan(200);
    // The letters' ink sits a side bearing (a few pixels) inside the advance the plate is made round.
    const bearing = 0.12 * fontPx;
    expect(letters.left - plate.left).toBeGreaterThanOrEqual(padding - 1);
    expect(letters.left - plate.left).toBeLessThanOrEqual(padding + bearing);
    expect(plate.right - letters.right).toBeGreaterThanOrEqual(padding - 1);
    expect(plate.right - letters.right).toBeLessThanOrEqual(padding + bearing);
    expect(plate.bottom - plate.top + 1).toBeCloseTo(fontPx * LINE_HEIGHT + 2 * padding, -0.5);
    // Centred on the layer's place, the picture untouched just outside the plate.
    expect(Math.abs((plate.left + plate.right) / 2 - 300)).toBeLessThanOrEqual(1);
    expect(Math.abs((plate.top + plate.bottom) / 2 - 200)).toBeLessThanOrEqual(1);
    expectColour(picture.at(plate.left - 2, 200), BLUE);
    expectColour(picture.at(plate.right + 2, 200), BLUE);
    expectColour(picture.at(300, plate.top - 2), BLUE);
    expectColour(picture.at(300, plate.bottom + 2), BLUE);
    expect(letters.top).toBeGreaterThan(plate.top + padding / 2);
    expect(letters.bottom).toBeLessThan(plate.bottom - padding / 2);
  });

  it('aligns its lines left, centre or right inside the box its widest line makes', () => {
    const layers = (align: string) => [text({ text: 'A WIDE FIRST LINE\nab', align, plate: null })];
    const drawn = (align: string) => draw(edit({ source, layers: layers(align) }), { source: blue, logos: noLogos });
    const firstLine = { left: 0, right: 600, top: 0, bottom: 200 };
    const secondLine = { left: 0, right: 600, top: 200, bottom: 400 };
    const widest = drawn('center').find(RED, 60, firstLine);
    expect(Math.abs((widest.left + widest.right) / 2 - 300)).toBeLessThanOrEqual(3);
    const [left, centre, right] = ['left', 'center', 'right'].map((align) => drawn(align).find(RED, 60, secondLine));
    // The short line starts where the widest one starts, ends where it ends, or sits in its middle.
    expect(Math.abs(left!.left - widest.left)).toBeLessThanOrEqual(4);
    expect(Math.abs(right!.right - widest.right)).toBeLessThanOrEqual(4);
    expect(Math.abs((centre!.left + centre!.right) / 2 - 300)).toBeLessThanOrEqual(3);
    expect(left!.right).toBeLessThan(centre!.left);
    expect(centre!.right).toBeLessThan(right!.left);
  });

  it('turns about its centre', () => {
    const flat = draw(edit({ source, layers: [text({ plate: null })] }), { source: blue, logos: noLogos }).find(RED);
    const turned = draw(edit({ source, layers: [text({ plate: null, rotation: 90 })] }), { source: blue, logos: noLogos }).find(RED);
    expect(flat.right - flat.left).toBeGreaterThan(2 * (flat.bottom - flat.top));
    expect(turned.bottom - turned.top).toBeGreaterThan(2 * (turned.right - turned.left));
    expect(Math.abs(turned.bottom - turned.top - (flat.right - flat.left))).toBeLessThanOrEqual(3);
    expect(Math.abs((turned.top + turned.bottom) / 2 - 200)).toBeLessThanOrEqual(3);
    expect(Math.abs((turned.left + turned.right) / 2 - 300)).toBeLessThanOrEqual(6);
  });

  it('draws the same picture at half the size', () => {
    const logos = new Map([['logo.png', solid(60, 30, '#ffff00')]]);
    const description = edit({
      source,
      layers: [text({ x: 0.4, y: 0.3, rotation: -20, scale: 1.5 }), { type: 'logo', id: 'l', file_key: 'logo.png', width: 60, height: 30, x: 0.8, y: 0.8, rotation: 30, opacity: 0.7 }],
    });
    const full = draw(description, { source: blue, logos });
    const half = draw(description, { source: blue, logos }, 0.5);
    expect([half.width, half.height]).toEqual([300, 200]);
    let difference = 0;
    for (let y = 0; y < 200; y += 1) {
      for (let x = 0; x < 300; x += 1) {
        // The mean of the four full-size pixels this one covers.
        const quad = [full.at(2 * x, 2 * y), full.at(2 * x + 1, 2 * y), full.at(2 * x, 2 * y + 1), full.at(2 * x + 1, 2 * y + 1)];
        const pixel = half.at(x, y);
        for (let c = 0; c < 3; c += 1) difference += Math.abs(pixel[c]! - quad.reduce((sum, p) => sum + p[c]!, 0) / 4);
      }
    }
    const mean = difference / (300 * 200 * 3);
    expect(mean).toBeLessThan(2);
    const fullLetters = full.find(RED);
    const halfLetters = half.find(RED);
    expect(Math.abs(halfLetters.left - fullLetters.left / 2)).toBeLessThanOrEqual(2);
    expect(Math.abs(halfLetters.right - fullLetters.right / 2)).toBeLessThanOrEqual(2);
    expect(Math.abs(halfLetters.bottom - fullLetters.bottom / 2)).toBeLessThanOrEqual(2);
  });
});

describe('measuring a text layer', () => {
  const layer = { text: 'Sale', font: 'sans', size: 24, bold: false, plate: null } as const;

  it('grows with the size, the lines, the weight and a plate', () => {
    const ctx = context();
    const base = measureTextLayer(ctx, layer, 1080);
    expect(base).toMatchObject({ lines: ['Sale'], fontPx: 24, padding: 0 });
    expect(base.lineHeight).toBeCloseTo(28.8);
    expect(base.height).toBeCloseTo(28.8);
    // As wide as the word's letters drawn straight onto a canvas in the same font, give or take
    // their side bearings.
    const canvas = createCanvas(200, 60);
    const direct = canvas.getContext('2d');
    direct.fillStyle = '#0000ff';
    direct.fillRect(0, 0, 200, 60);
    direct.font = textFont(layer, 1080);
    direct.fillStyle = '#ff0000';
    direct.fillText('Sale', 20, 40);
    const ink = new Picture(direct.getImageData(0, 0, 200, 60).data, 200, 60).find(RED);
    expect(base.width).toBeGreaterThanOrEqual(ink.right - ink.left + 1 - 1);
    expect(base.width).toBeLessThanOrEqual(ink.right - ink.left + 1 + 0.25 * 24);

    const larger = measureTextLayer(ctx, { ...layer, size: 48 }, 1080);
    expect(larger.width).toBeCloseTo(2 * base.width, 0);
    expect(larger.height).toBeCloseTo(2 * base.height);

    const lines = measureTextLayer(ctx, { ...layer, text: 'Sale\nSale\nSale' }, 1080);
    expect(lines.lines).toHaveLength(3);
    expect(lines.height).toBeCloseTo(3 * base.height);
    expect(lines.width).toBeCloseTo(base.width);

    expect(measureTextLayer(ctx, { ...layer, bold: true }, 1080).width).toBeGreaterThan(base.width);

    const plated = measureTextLayer(ctx, { ...layer, plate: '#000000' }, 1080);
    expect(plated.padding).toBeGreaterThan(0);
    expect(plated.width).toBeCloseTo(base.width + 2 * plated.padding);
    expect(plated.height).toBeCloseTo(base.height + 2 * plated.padding);
  });

  it('scales with the picture: the same size on half the width is half as large', () => {
    const ctx = context();
    const wide = measureTextLayer(ctx, layer, 2160);
    const narrow = measureTextLayer(ctx, layer, 1080);
    expect(wide.fontPx).toBe(48);
    expect(wide.width).toBeCloseTo(2 * narrow.width, 0);
  });

  it('names its own families first, CJK next, at the layer’s weight', () => {
    expect(textFont({ font: 'serif', size: 36, bold: true }, 1080)).toBe(`700 36px ${FONT_STACKS.serif}`);
    expect(FONT_STACKS.display).toBe('"SoleStudio Display", "SoleStudio CJK", sans-serif');
    expect(textFont({ font: 'sans', size: 12, bold: false }, 540)).toBe(`400 6px ${FONT_STACKS.sans}`);
  });
});
