// The shoe as the video shows it: its cut-out scaled once to the largest size it reaches on
// screen, lit by the scene (a key light falling across it, a rim light on the edges that face the
// light, a touch of the set's colour), standing in its own contact shadow, with a reflection on a
// glossy floor. A light band to sweep over it and the phantom's ghosts are made from it too.
import type { Rgb } from '../../../contract/colour';
import { loadSharp } from '../../lib/sharp';
import { defringe } from '../photo/fringe';
import type { Cutout } from '../segment';
import type { Still } from './film';
import { drawn } from './raster';

export interface ShoeLight {
  /** Where the key light comes from: −1 left … 1 right. */
  side: number;
  /** Brightening on the lit side and darkening on the other, 0–1. */
  key: number;
  /** Colour of the rim light and its strength, 0–1. */
  rim: Rgb;
  rimStrength: number;
  /** The set's colour spilling onto the shoe, and how much (0–0.2 keeps the product true). */
  spill: Rgb;
  spillStrength: number;
}

export interface ShoeFloor {
  /** Opacity of the contact shadow's core and of its wider, softer spread. */
  contact: number;
  spread: number;
  /** A glossy floor's reflection: its opacity at the sole (0 for none). */
  reflection: number;
}

export interface ShoeSprite {
  still: Still;
  /** The middle of the sole, where the shoe meets the floor, in the still's pixels. */
  anchor: { x: number; y: number };
  /** The shoe itself within the still. */
  box: { left: number; top: number; width: number; height: number };
}

/** The cut-out fitted inside `fit` (keeping its shape), lit, on its shadow and reflection. */
export async function litShoe(cutout: Cutout, fit: { width: number; height: number }, light: ShoeLight, floor: ShoeFloor): Promise<ShoeSprite> {
  const sharp = await loadSharp();
  const scale = Math.min(fit.width / cutout.width, fit.height / cutout.height);
  const width = Math.max(2, Math.round(cutout.width * scale));
  const height = Math.max(2, Math.round(cutout.height * scale));
  const rgba = await sharp(cutout.rgba, { raw: { width: cutout.width, height: cutout.height, channels: 4 } }).resize(width, height, { fit: 'fill', kernel: 'lanczos3' }).raw().toBuffer();
  await defringed(rgba, width, height);
  const alpha = Buffer.alloc(width * height);
  for (let i = 0; i < alpha.length; i += 1) alpha[i] = rgba[i * 4 + 3]!;
  // The edge band: where the alpha, softened, falls below the alpha itself; its slope says which
  // way the edge faces.
  const soft = Math.max(2, width / 90);
  const blurred = await sharp(alpha, { raw: { width, height, channels: 1 } }).blur(soft).toColourspace('b-w').raw().toBuffer();
  const toward = [light.side * 0.8, -0.6];
  const norm = Math.hypot(toward[0]!, toward[1]!);
  const lx = toward[0]! / norm;
  const ly = toward[1]! / norm;
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const i = y * width + x;
      const a = alpha[i]!;
      if (a === 0) continue;
      const b = blurred[i]! / 255;
      const edge = Math.max(0, a / 255 - b) * 2.2;
      const gx = (blurred[i + (x < width - 1 ? 1 : 0)]! - blurred[i - (x > 0 ? 1 : 0)]!) / 255;
      const gy = (blurred[i + (y < height - 1 ? width : 0)]! - blurred[i - (y > 0 ? width : 0)]!) / 255;
      const g = Math.hypot(gx, gy) || 1;
      // The outward normal points down the alpha's slope.
      const facing = Math.max(0, (-gx * lx - gy * ly) / g);
      const rim = Math.min(1, edge * facing) * light.rimStrength;
      // The key light: brighter towards the light's side and the top.
      const u = x / width - 0.5;
      const v = y / height - 0.5;
      const gain = 1 + light.key * (u * light.side * 0.9 - v * 0.5) - 0.25 * light.key * edge * (1 - facing);
      const o = i * 4;
      for (let ch = 0; ch < 3; ch += 1) {
        const base = rgba[o + ch]! * gain;
        const spilled = base * (1 - light.spillStrength) + ((base * light.spill[ch]!) / 255) * light.spillStrength * 1.6;
        const lit = spilled + (255 - spilled) * rim * (light.rim[ch]! / 255);
        rgba[o + ch] = Math.max(0, Math.min(255, Math.round(lit)));
      }
    }
  }
  const shoe = await sharp(rgba, { raw: { width, height, channels: 4 } }).png({ compressionLevel: 0 }).toBuffer();

  const pad = Math.round(width * 0.14);
  const below = Math.round(floor.reflection > 0 ? height * 0.55 : height * 0.14);
  const canvasWidth = width + pad * 2;
  const canvasHeight = height + pad + below;
  const sole = pad + height;
  const layers: { input: Buffer; left: number; top: number; raw?: { width: number; height: number; channels: 4 } }[] = [];
  // The contact shadow: the shoe's own silhouette flattened onto the floor, dark and tight where
  // it touches, wide and faint around it (light from the whole room reaching less of the floor).
  const contactHeight = Math.max(4, Math.round(height * 0.07));
  const contact = await sharp(alpha, { raw: { width, height, channels: 1 } })
    .resize(width, contactHeight, { fit: 'fill' })
    .extend({ top: 24, bottom: 24, left: 24, right: 24, background: { r: 0, g: 0, b: 0, alpha: 0 } })
    .blur(Math.max(3, height / 60))
    .linear(floor.contact, 0)
    .toColourspace('b-w')
    .raw()
    .toBuffer();
  const shadowRgba = (mask: Buffer, w: number, h: number) => {
    const out = Buffer.alloc(w * h * 4);
    for (let i = 0; i < w * h; i += 1) out[i * 4 + 3] = mask[i]!;
    return out;
  };
  // The wide, faint spread: an elliptical Gaussian under the shoe.
  const spread = Buffer.alloc(canvasWidth * canvasHeight * 4);
  const rx = width * 0.62;
  const ry = Math.max(12, height * 0.12);
  const across = Float32Array.from({ length: canvasWidth }, (_, x) => Math.exp(-2.2 * ((x - canvasWidth / 2) / rx) ** 2));
  for (let y = Math.max(0, Math.floor(sole - ry * 2)); y < Math.min(canvasHeight, Math.ceil(sole + ry * 2)); y += 1) {
    const down = floor.spread * 255 * Math.exp(-2.2 * ((y - sole) / ry) ** 2);
    for (let x = 0; x < canvasWidth; x += 1) spread[(y * canvasWidth + x) * 4 + 3] = Math.round(down * across[x]!);
  }
  layers.push({ input: spread, left: 0, top: 0, raw: { width: canvasWidth, height: canvasHeight, channels: 4 } });
  layers.push({
    input: shadowRgba(contact, width + 48, contactHeight + 48),
    left: pad - 24,
    top: sole - Math.round(contactHeight * 0.55) - 24,
    raw: { width: width + 48, height: contactHeight + 48, channels: 4 },
  });
  if (floor.reflection > 0) {
    // The reflection fades with distance from the sole, and a polished floor softens it a little.
    const reflected = Buffer.from(await sharp(rgba, { raw: { width, height, channels: 4 } }).flip().raw().toBuffer());
    const length = below;
    for (let y = 0; y < height; y += 1) {
      const k = y < length ? floor.reflection * (1 - y / length) ** 1.6 : 0;
      for (let x = 0; x < width; x += 1) {
        const o = (y * width + x) * 4 + 3;
        reflected[o] = Math.round(reflected[o]! * k);
      }
    }
    const soft = await sharp(reflected, { raw: { width, height, channels: 4 } }).blur(1.2).raw().toBuffer();
    layers.push({ input: soft, left: pad, top: sole, raw: { width, height, channels: 4 } });
  }
  layers.push({ input: shoe, left: pad, top: pad });
  const pixels = await sharp({ create: { width: canvasWidth, height: canvasHeight, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
    .composite(layers.map((layer) => ({ input: layer.input, left: layer.left, top: layer.top, ...(layer.raw ? { raw: layer.raw } : {}) })))
    .raw()
    .toBuffer();
  return {
    still: { width: canvasWidth, height: canvasHeight, format: 'rgba', pixels },
    anchor: { x: canvasWidth / 2, y: sole },
    box: { left: pad, top: pad, width, height },
  };
}

/**
 * The cut-out's edge cleaned, in place: the alpha pulled in by about a pixel and softened, and
 * the outline's colour taken from just inside it (photo/fringe), so no rim of the photo's light
 * background shows on a dark set.
 */
async function defringed(rgba: Buffer, width: number, height: number): Promise<void> {
  const sharp = await loadSharp();
  const n = width * height;
  const alpha = Buffer.alloc(n);
  for (let i = 0; i < n; i += 1) alpha[i] = rgba[i * 4 + 3]!;
  const near = await sharp(alpha, { raw: { width, height, channels: 1 } }).blur(0.8).toColourspace('b-w').raw().toBuffer();
  defringe(rgba, width, height, 3);
  for (let i = 0; i < n; i += 1) rgba[i * 4 + 3] = Math.max(0, Math.min(255, Math.round(((near[i]! - 80) * 255) / 175)));
}

/**
 * A diagonal band of soft light the size of the shoe's box (plus its own width), to sweep over
 * it: white, its opacity rising to `strength` in the middle.
 */
export async function lightBand(box: { width: number; height: number }, strength: number, tint: Rgb = [255, 255, 255]): Promise<Still> {
  const bandWidth = Math.round(box.width * 0.32);
  const width = bandWidth * 2;
  const height = box.height;
  const slant = height * 0.45;
  const colour = `rgb(${tint.join(',')})`;
  const pixels = await drawn(
    `<defs><linearGradient id="b" x1="0" y1="0" x2="1" y2="0">
       <stop offset="0" stop-color="${colour}" stop-opacity="0"/><stop offset="0.42" stop-color="${colour}" stop-opacity="${strength * 0.55}"/>
       <stop offset="0.5" stop-color="${colour}" stop-opacity="${strength}"/><stop offset="0.58" stop-color="${colour}" stop-opacity="${strength * 0.55}"/>
       <stop offset="1" stop-color="${colour}" stop-opacity="0"/></linearGradient></defs>
     <polygon points="${slant},0 ${width},0 ${width - slant},${height} 0,${height}" fill="url(#b)"/>`,
    width,
    height,
  );
  return { width, height, format: 'rgba', pixels };
}

/** A ghost of the shoe: its colour drained towards `tint`, fainter, smeared along the motion. */
export async function ghostOf(sprite: ShoeSprite, tint: Rgb, opacity: number, smear: number): Promise<Still> {
  const sharp = await loadSharp();
  const { width, height } = sprite.still;
  const pixels = Buffer.from(sprite.still.pixels);
  for (let o = 0; o < pixels.length; o += 4) {
    const l = (pixels[o]! * 0.3 + pixels[o + 1]! * 0.59 + pixels[o + 2]! * 0.11) / 255;
    for (let ch = 0; ch < 3; ch += 1) pixels[o + ch] = Math.min(255, Math.round(tint[ch]! * (0.35 + 0.85 * l)));
    pixels[o + 3] = Math.round(pixels[o + 3]! * opacity);
  }
  // A horizontal smear (a motion blur): a kernel whose middle row alone is set.
  const taps = Math.max(3, Math.round(smear) | 1);
  const kernel = Array.from({ length: taps * 3 }, (_, i) => (i >= taps && i < taps * 2 ? 1 : 0));
  const smeared = await sharp(pixels, { raw: { width, height, channels: 4 } })
    .convolve({ width: taps, height: 3, kernel, scale: taps })
    .raw()
    .toBuffer();
  return { width, height, format: 'rgba', pixels: smeared };
}
