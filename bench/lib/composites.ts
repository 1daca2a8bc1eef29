// Composites for scale: shoes cut from the real photos by their hand-made masks, laid on real
// photos of floors with a soft contact shadow under them, mirrored, scaled and placed by a fixed
// seed, so the same command makes the same pictures. The composite's truth is exactly the shoe it
// was given, whatever the hand mask missed.
import sharp from 'sharp';
import { loadPhotos, type LoadedPhoto } from './real-photos';

const FRAME = { width: 1600, height: 1200 };

export interface Composite {
  name: string;
  jpeg: Buffer;
  truth: Uint8Array;
  width: number;
  height: number;
}

/** A small seeded generator (mulberry32): the same seed, the same composites. */
function random(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The shoes of a real photo on transparency, cropped, cut by its hand-made mask (so the composite's truth is exact). */
async function maskedShoe(photo: LoadedPhoto) {
  const { data } = await sharp(photo.bytes).rotate().removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const { width: w, height: h } = photo;
  const truth = photo.truth!;
  let [left, right, top, bottom] = [w, -1, h, -1];
  for (let i = 0; i < w * h; i += 1) {
    if (!truth[i]) continue;
    const x = i % w;
    const y = Math.floor(i / w);
    [left, right, top, bottom] = [Math.min(left, x), Math.max(right, x), Math.min(top, y), Math.max(bottom, y)];
  }
  const cw = right - left + 1;
  const ch = bottom - top + 1;
  const rgba = Buffer.alloc(cw * ch * 4);
  for (let y = 0; y < ch; y += 1) {
    for (let x = 0; x < cw; x += 1) {
      const i = (y + top) * w + x + left;
      const o = (y * cw + x) * 4;
      rgba[o] = data[i * 3]!;
      rgba[o + 1] = data[i * 3 + 1]!;
      rgba[o + 2] = data[i * 3 + 2]!;
      rgba[o + 3] = truth[i] ? 255 : 0;
    }
  }
  return { rgba, width: cw, height: ch };
}

/** `count` composites made one at a time, each a catalogue shoe on a floor, placed, sized and lit by the seed. */
export async function* composites(count: number, seed = 20261127): AsyncGenerator<Composite> {
  const next = random(seed);
  // Catalogue shots on pure white would be cut exactly by their white; none with a licence to keep
  // was found, so the shoes come from the real photos, cut by their hand-made masks.
  const shoes = await Promise.all((await loadPhotos('photo')).filter((p) => p.truth && p.entry.wellFramed).map(maskedShoe));
  const floors = await Promise.all(
    (await loadPhotos('floor')).map((floor) => sharp(floor.bytes).rotate().resize(FRAME.width, FRAME.height, { fit: 'cover' }).removeAlpha().raw().toBuffer()),
  );
  if (!shoes.length || !floors.length) throw new Error('the real-photo set has no masked photos or floors to compose');
  for (let k = 0; k < count; k += 1) {
    const s = Math.floor(next() * shoes.length);
    const f = Math.floor(next() * floors.length);
    const shoe = shoes[s]!;
    const flip = next() < 0.5;
    // The shoe 35–65 % of the frame's width, its sole in the lower middle.
    const width = Math.round(FRAME.width * (0.35 + 0.3 * next()));
    const height = Math.min(Math.round(FRAME.height * 0.8), Math.round((shoe.height * width) / shoe.width));
    const scaledWidth = Math.round((shoe.width * height) / shoe.height);
    const left = Math.round((FRAME.width - scaledWidth) * (0.25 + 0.5 * next()));
    const top = Math.round(Math.min(FRAME.height - height - 20, FRAME.height * (0.55 + 0.2 * next()) - height / 2));
    let placed = sharp(shoe.rgba, { raw: { width: shoe.width, height: shoe.height, channels: 4 } }).resize(scaledWidth, height);
    if (flip) placed = placed.flop();
    const { data: piece } = await placed.raw().toBuffer({ resolveWithObject: true });
    // The contact shadow: a dark ellipse along the sole, blurred, multiplied into the floor.
    const shadowSvg = `<svg width="${FRAME.width}" height="${FRAME.height}"><ellipse cx="${left + scaledWidth / 2}" cy="${top + height - 4}" rx="${scaledWidth * 0.48}" ry="${Math.max(8, height * 0.06)}" fill="black" fill-opacity="${0.35 + 0.3 * next()}"/></svg>`;
    const shadow = await sharp(Buffer.from(shadowSvg)).blur(6 + 10 * next()).png().toBuffer();
    const floor = floors[f]!;
    const jpeg = await sharp(floor, { raw: { ...FRAME, channels: 3 } })
      .composite([
        { input: shadow, blend: 'multiply' },
        { input: piece, raw: { width: scaledWidth, height, channels: 4 }, left, top },
      ])
      .jpeg({ quality: 90 })
      .toBuffer();
    const truth = new Uint8Array(FRAME.width * FRAME.height);
    for (let y = 0; y < height; y += 1) {
      for (let x = 0; x < scaledWidth; x += 1) {
        const fy = y + top;
        const fx = x + left;
        if (fx < 0 || fy < 0 || fx >= FRAME.width || fy >= FRAME.height) continue;
        if (piece[(y * scaledWidth + x) * 4 + 3]! >= 128) truth[fy * FRAME.width + fx] = 1;
      }
    }
    yield { name: `composite ${k + 1} (shoe ${s + 1} on floor ${f + 1})`, jpeg, truth, ...FRAME };
  }
}
