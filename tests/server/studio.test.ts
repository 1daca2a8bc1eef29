// The studio engine on fixtures: the cut-out against ground-truth masks (the contact shadow left
// out), the white balance on the cut-out's pixels and on the corrected photo, each category's size
// and format, the Wildberries/Ozon shot's framing.
// How the stills look on the file (colour, shadows, banding, Amazon's white) is studio-stills.test.ts.
import { beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { shoePhoto, type ShoeFixture } from '../fixtures/shoes';
import { correctedPhoto, cutOut, type Cutout } from '../../server/studio/segment';
import { CARD_SIZE, COLOUR_CARD_SIZE, POSTER_SIZE, PRODUCT_SIZE, PRODUCT_SIZES, STILL_LIFE_SIZE, productShot, type ViewCutout } from '../../server/studio/layouts';
import { dominantColours, hex, outfitPalette } from '../../server/studio/palette';
import { studioViews } from '../support/studio-views';

function iou(truth: Uint8Array, found: Uint8Array): number {
  let both = 0;
  let either = 0;
  for (let i = 0; i < truth.length; i += 1) {
    const a = truth[i] ? 1 : 0;
    const b = found[i] ? 1 : 0;
    both += a & b;
    either += a | b;
  }
  return both / either;
}

/** A warm room's light: blue down by almost a fifth, green a little. */
const WARM: [number, number, number] = [1.0, 0.95, 0.82];
const warmed = (jpeg: Buffer) => sharp(jpeg).linear(WARM, [0, 0, 0]).jpeg({ quality: 92 }).toBuffer();

const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** Per-channel medians of a cut-out's opaque pixels that the ground truth calls shoe. */
function cutoutMedians(cut: Cutout, photo: ShoeFixture): number[] {
  const channels: number[][] = [[], [], []];
  for (let y = 0; y < cut.height; y += 1) {
    for (let x = 0; x < cut.width; x += 1) {
      const o = (y * cut.width + x) * 4;
      if (cut.rgba[o + 3] !== 255 || !photo.mask[(y + cut.box.top) * photo.width + x + cut.box.left]) continue;
      for (let c = 0; c < 3; c += 1) channels[c]!.push(cut.rgba[o + c]!);
    }
  }
  return channels.map(median);
}

/** Per-channel medians of an RGB picture the photo's size, over the pixels `where` says. */
async function photoMedians(jpeg: Buffer, where: (i: number) => boolean): Promise<number[]> {
  const data = await sharp(jpeg).removeAlpha().raw().toBuffer();
  const channels: number[][] = [[], [], []];
  for (let i = 0; i < data.length / 3; i += 1) if (where(i)) for (let c = 0; c < 3; c += 1) channels[c]!.push(data[i * 3 + c]!);
  return channels.map(median);
}

const largestGap = (a: number[], b: number[]) => Math.max(...a.map((v, c) => Math.abs(v - b[c]!)));

let views: ViewCutout[];

beforeAll(async () => {
  views = await studioViews();
  // Five segmentations: sized for a busy machine.
}, 300_000);

describe('segmentation', () => {
  it.each([
    { name: 'navy canvas', options: {} },
    { name: 'red leather', options: { seed: 3, colour: [180, 40, 40] as [number, number, number] } },
    { name: 'black, portrait frame', options: { width: 1200, height: 1600, seed: 11, colour: [20, 20, 20] as [number, number, number] } },
    { name: 'beige on off-white', options: { seed: 5, colour: [200, 190, 170] as [number, number, number] } },
    { name: 'noisy phone shot', options: { seed: 9, noise: 30 } },
  ])('cuts out a $name shoe with IoU ≥ 0.95 against the ground truth, leaving the shadow out', async ({ options }) => {
    const photo = await shoePhoto(options);
    const cut = await cutOut(photo.jpeg);
    expect(iou(photo.mask, cut.mask)).toBeGreaterThanOrEqual(0.95);
    // The contact shadow beside and under the sole: (almost) none of it is taken for shoe.
    let shadow = 0;
    let taken = 0;
    for (let i = 0; i < photo.shadow.length; i += 1) {
      if (!photo.shadow[i]) continue;
      shadow += 1;
      if (cut.mask[i]) taken += 1;
    }
    expect(shadow).toBeGreaterThan(photo.width * 10);
    expect(taken / shadow, `${taken} of the shadow's ${shadow} pixels taken`).toBeLessThanOrEqual(0.01);
  });

  it('neutralises the background colour cast', async () => {
    const warm = await shoePhoto({ seed: 2 });
    const cut = await cutOut(await warmed(warm.jpeg));
    // Blue is lifted most, red least: the gains undo the tint.
    expect(cut.gains[2]).toBeGreaterThan(cut.gains[1]);
    expect(cut.gains[1]).toBeGreaterThan(cut.gains[0]);
  });

  it.each([
    { name: 'grey', colour: [140, 140, 140] as [number, number, number] },
    { name: 'navy', colour: [38, 64, 140] as [number, number, number] },
  ])('gives the $name shoe of a photo in warm light the colours of the same photo in neutral light', async ({ colour }) => {
    const photo = await shoePhoto({ seed: 2, colour });
    const warm = await warmed(photo.jpeg);
    // The tint is far from small on the shoe itself: the photos differ by many levels.
    const shoe = (i: number) => photo.mask[i] === 1;
    expect(largestGap(await photoMedians(photo.jpeg, shoe), await photoMedians(warm, shoe))).toBeGreaterThanOrEqual(15);
    const neutral = cutoutMedians(await cutOut(photo.jpeg), photo);
    const corrected = cutoutMedians(await cutOut(warm), photo);
    // The white balance keeps the photo's brightness (the tint took 5 % of it): the shoe's colour,
    // its channels brought to the same sum, is what must come back.
    const sum = (v: number[]) => v.reduce((a, b) => a + b, 0);
    const balanced = corrected.map((v) => (v * sum(neutral)) / sum(corrected));
    expect(largestGap(neutral, balanced), `neutral light ${neutral}, warm light ${corrected}`).toBeLessThanOrEqual(4);
  });

  it('makes the backdrop of the corrected photo neutral when the light was warm', async () => {
    const photo = await shoePhoto({ seed: 2 });
    const warm = await warmed(photo.jpeg);
    const corrected = await (await correctedPhoto(warm, (await cutOut(warm)).gains)).jpeg({ quality: 92 }).toBuffer();
    // The backdrop: the rows well above the shoe's top, where neither it nor its shadow reaches.
    const top = photo.mask.indexOf(1) / photo.width;
    const above = (i: number) => i < (top - 20) * photo.width;
    const before = await photoMedians(warm, above);
    expect(before[0]! - before[2]!, `warm backdrop ${before}`).toBeGreaterThanOrEqual(30);
    const after = await photoMedians(corrected, above);
    expect(Math.max(...after) - Math.min(...after), `corrected backdrop ${after}`).toBeLessThanOrEqual(4);
  });
});

describe('compositions', () => {
  it('PRODUCT with no look asked for is the studio shot, 1200×1600', async () => {
    const shot = await productShot(views[1]!.cutout);
    const meta = await sharp(shot.bytes).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', PRODUCT_SIZE.width, PRODUCT_SIZE.height]);
    expect(PRODUCT_SIZES.STUDIO).toEqual(PRODUCT_SIZE);
  });

  it('PRODUCT for Wildberries and Ozon has the shoe large and centred, inside safe margins', async () => {
    const shot = await productShot(views[1]!.cutout, 'WB_OZON');
    const { data, info } = await sharp(shot.bytes).raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([PRODUCT_SIZES.WB_OZON.width, PRODUCT_SIZES.WB_OZON.height]);
    // The shoe's box on the file: its red upper and dark sole stand out of the light backdrop.
    let [left, right, top, bottom] = [info.width, -1, info.height, -1];
    for (let y = 0; y < info.height; y += 1) {
      for (let x = 0; x < info.width; x += 1) {
        const i = (y * info.width + x) * 3;
        if (data[i]! + data[i + 1]! + data[i + 2]! > 3 * 150) continue;
        [left, right, top, bottom] = [Math.min(left, x), Math.max(right, x), Math.min(top, y), Math.max(bottom, y)];
      }
    }
    const margins = [left, info.width - 1 - right, top, info.height - 1 - bottom];
    expect(Math.min(...margins) / info.width).toBeGreaterThanOrEqual(0.04);
    expect(Math.abs(margins[0]! - margins[1]!) / info.width).toBeLessThan(0.02);
    expect(Math.abs(margins[2]! - margins[3]!) / info.height).toBeLessThan(0.03);
    expect((right - left + 1) / info.width).toBeGreaterThanOrEqual(0.8);
  });

  it('no still is smaller than it was: product 1200×1600 (Amazon 2000×2000), the card and still life 1600×1600, the poster and colour card 1200×1600', () => {
    // studio-stills.test.ts checks each file against these sizes.
    const atLeast = (size: { width: number; height: number }, width: number, height: number) => expect(size.width >= width && size.height >= height, JSON.stringify(size)).toBe(true);
    atLeast(PRODUCT_SIZES.STUDIO, 1200, 1600);
    atLeast(PRODUCT_SIZES.WB_OZON, 1200, 1600);
    atLeast(PRODUCT_SIZES.AMAZON, 2000, 2000);
    atLeast(CARD_SIZE, 1600, 1600);
    atLeast(STILL_LIFE_SIZE, 1600, 1600);
    atLeast(POSTER_SIZE, 1200, 1600);
    atLeast(COLOUR_CARD_SIZE, 1200, 1600);
  });

  it('finds the shoe’s dominant colour and builds a palette around it', async () => {
    const rgba = views[1]!.cutout.rgba;
    const swatches = dominantColours(rgba, 4);
    const main = swatches.find((s) => s.rgb[0] > s.rgb[2] + 40);
    expect(main, JSON.stringify(swatches.map((s) => hex(s.rgb)))).toBeDefined();
    const palette = outfitPalette(main!.rgb);
    expect(palette).toHaveLength(6);
    expect(new Set(palette.map(hex)).size).toBe(6);
  });
});

