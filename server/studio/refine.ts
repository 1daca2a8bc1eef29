// The cut-out at full size, from the mask found on the working copy. Off a narrow band along the
// outline the mask is taken as it is, so the shoe's inside is opaque whatever the network thought
// of light-grey leather; on the band, each full-size pixel's alpha is where its colour lies between
// the shoe's and the backdrop's beside it, where the two differ clearly, and the network's own soft
// edge where they do not; its colour is the shoe's with the backdrop's share taken out
// (F = (I − (1 − α)·B) / α), so no halo of the old background is left.
import type { Rgb } from '../../contract/colour';
import { borrow } from './arrays';
import { sampleAt } from './masks';
import { NoShoeFound, type Cutout, type Segmentation } from './segmentation';

/** Working pixels either side of the outline whose colours are known, and that are refined at full size. */
const BAND = 3;
const REFINE = 2;

/**
 * The colours either side of the outline: the shoe's from its own pixels nearby, the backdrop's
 * from backdrop pixels beside it (so a shadow beside the shoe is what is taken out of its edge),
 * each a mean over a window, pixels on the outline itself left out; where no backdrop pixel is
 * near (the shoe fills the window), the backdrop's colour over the whole frame.
 */
export function edgeColours(rgb: Uint8Array, mask: Uint8Array, edge: Uint8Array, backdrop: Rgb, w: number, h: number) {
  const n = w * h;
  const band = borrow(Uint8Array, n);
  for (let i = 0; i < n; i += 1) band[i] = edge[i]! <= BAND ? 1 : 0;
  const shoeColour = [borrow(Float32Array, n), borrow(Float32Array, n), borrow(Float32Array, n)];
  const backColour = [borrow(Float32Array, n), borrow(Float32Array, n), borrow(Float32Array, n)];
  const r = BAND;
  const f = [0, 0, 0, 0];
  const b = [0, 0, 0, 0];
  for (let y = 0; y < h; y += 1) {
    for (let x = 0; x < w; x += 1) {
      const i = y * w + x;
      if (!band[i]) continue;
      f.fill(0);
      b.fill(0);
      for (let yy = Math.max(0, y - r); yy <= Math.min(h - 1, y + r); yy += 1) {
        for (let xx = Math.max(0, x - r); xx <= Math.min(w - 1, x + r); xx += 1) {
          const k = yy * w + xx;
          // Off the outline (more than a pixel from the other side): the shoe's or the backdrop's.
          if (edge[k]! <= 1) continue;
          const sum = mask[k] ? f : b;
          sum[0]! += rgb[k * 3]!;
          sum[1]! += rgb[k * 3 + 1]!;
          sum[2]! += rgb[k * 3 + 2]!;
          sum[3]! += 1;
        }
      }
      for (let c = 0; c < 3; c += 1) {
        shoeColour[c]![i] = f[3] ? f[c]! / f[3] : rgb[i * 3 + c]!;
        backColour[c]![i] = b[3] ? b[c]! / b[3] : backdrop[c]!;
      }
    }
  }
  return { band, shoeColour, backColour };
}

/**
 * Alpha and colour at full size: off the band, the working mask as it is; on it, each pixel's
 * place between the backdrop's colour and the shoe's beside it, and its colour unmixed. Only the
 * full-size pixels over the grown mask's box are visited (elsewhere nothing shows): returns that
 * region's alpha, and its colour where that was unmixed (`unmixed` 1; elsewhere the photo's own is kept).
 */
export function refine(photo: Buffer, width: number, height: number, found: Segmentation, w: number, h: number) {
  const { mask, edge, shoeColour, backColour, soft } = found;
  // The working pixels anything shows from: the mask and the band round it.
  let wx0 = w;
  let wx1 = -1;
  let wy0 = h;
  let wy1 = -1;
  const refineBand = borrow(Uint8Array, w * h);
  for (let y = 0; y < h; y += 1) {
    for (let x = 0, i = y * w; x < w; x += 1, i += 1) {
      if (edge[i]! <= REFINE) refineBand[i] = 1;
      else if (!mask[i]) continue;
      if (x < wx0) wx0 = x;
      if (x > wx1) wx1 = x;
      if (y < wy0) wy0 = y;
      if (y > wy1) wy1 = y;
    }
  }
  const kx = w / width;
  const ky = h / height;
  // Each full-size column's and row's working pixel (nearest), and the full-size span over the box.
  const columnOf = Int32Array.from({ length: width }, (_, x) => Math.min(w - 1, Math.floor((x + 0.5) * kx)));
  const rowOf = Int32Array.from({ length: height }, (_, y) => Math.min(h - 1, Math.floor((y + 0.5) * ky)));
  let left = 0;
  while (left < width && columnOf[left]! < wx0) left += 1;
  let right = width - 1;
  while (right >= left && columnOf[right]! > wx1) right -= 1;
  let top = 0;
  while (top < height && rowOf[top]! < wy0) top += 1;
  let bottom = height - 1;
  while (bottom >= top && rowOf[bottom]! > wy1) bottom -= 1;
  const region = { left, top, width: Math.max(0, right - left + 1), height: Math.max(0, bottom - top + 1) };
  const alpha = borrow(Uint8Array, region.width * region.height);
  const colour = borrow(Uint8Array, region.width * region.height * 3);
  const unmixed = borrow(Uint8Array, region.width * region.height);
  const f = [0, 0, 0];
  const b = [0, 0, 0];
  for (let y = top; y <= bottom; y += 1) {
    const sy = (y + 0.5) * ky - 0.5;
    const row = rowOf[y]! * w;
    for (let x = left; x <= right; x += 1) {
      const j = row + columnOf[x]!;
      const i = y * width + x;
      const r = (y - top) * region.width + x - left;
      if (!refineBand[j]) {
        alpha[r] = mask[j] ? 255 : 0;
        continue;
      }
      const sx = (x + 0.5) * kx - 0.5;
      let dot = 0;
      let span = 0;
      for (let c = 0; c < 3; c += 1) {
        f[c] = sampleAt(shoeColour[c]!, w, h, sx, sy);
        b[c] = sampleAt(backColour[c]!, w, h, sx, sy);
        dot += (photo[i * 3 + c]! - b[c]!) * (f[c]! - b[c]!);
        span += (f[c]! - b[c]!) ** 2;
      }
      const along = span > 0 ? dot / span : 0;
      let off = 0;
      for (let c = 0; c < 3; c += 1) off += (photo[i * 3 + c]! - b[c]! - along * (f[c]! - b[c]!)) ** 2;
      // Trust that line where the two colours are far apart and the pixel lies near it; else the
      // working mask's edge, scaled up smoothly.
      const contrast = Math.sqrt(span);
      const trust = Math.min(1, Math.max(0, (contrast - 10) / 25)) * Math.min(1, Math.max(0, 2 - Math.sqrt(off) / Math.max(6, contrast * 0.25)));
      const coarse = Math.min(1, Math.max(0, (sampleAt(soft, w, h, sx, sy) - 0.5) * 2 + 0.5));
      // Grain moves alpha a little either way: the ends of the scale are snapped to 0 and 1.
      const a = Math.min(1, Math.max(0, ((trust * Math.min(1, Math.max(0, along)) + (1 - trust) * coarse) - 0.04) / 0.92));
      alpha[r] = Math.round(a * 255);
      if (a <= 0 || a >= 1) continue;
      // F = (I − (1 − α)·B) / α, leaning on the shoe's colour nearby where alpha is too small to divide by.
      const lean = Math.min(1, Math.max(0, (a - 0.05) / 0.45));
      for (let c = 0; c < 3; c += 1) {
        const own = (photo[i * 3 + c]! - (1 - a) * b[c]!) / a;
        colour[r * 3 + c] = Math.round(Math.min(255, Math.max(0, lean * own + (1 - lean) * f[c]!)));
      }
      unmixed[r] = 1;
    }
  }
  return { region, alpha, colour, unmixed };
}

/**
 * What the cut-out keeps of the refined region: the mask at full size (alpha at least half), the
 * box of every pixel that shows, and that box's pixels (unmixed where they were, else the photo's)
 * with the gains applied.
 */
export function keptCutout(photo: Buffer, width: number, height: number, refined: ReturnType<typeof refine>, gains: [number, number, number]): Cutout {
  const { region, alpha, colour, unmixed } = refined;
  // One kind of array for both sources, so that reading either is the same code.
  const pixels = new Uint8Array(photo.buffer, photo.byteOffset, photo.length);
  const full = new Uint8Array(width * height);
  let left = width;
  let right = -1;
  let top = height;
  let bottom = -1;
  for (let y = 0; y < region.height; y += 1) {
    for (let x = 0; x < region.width; x += 1) {
      const a = alpha[y * region.width + x]!;
      if (!a) continue;
      const fx = x + region.left;
      const fy = y + region.top;
      if (a >= 128) full[fy * width + fx] = 255;
      if (fx < left) left = fx;
      if (fx > right) right = fx;
      if (fy < top) top = fy;
      if (fy > bottom) bottom = fy;
    }
  }
  if (right < 0) throw new NoShoeFound();
  const box = { left, top, width: right - left + 1, height: bottom - top + 1 };
  const rgba = new Uint8Array(box.width * box.height * 4);
  for (let y = 0; y < box.height; y += 1) {
    for (let x = 0; x < box.width; x += 1) {
      const r = (y + top - region.top) * region.width + x + left - region.left;
      const a = alpha[r]!;
      if (!a) continue;
      const source = unmixed[r] ? colour : pixels;
      const k = unmixed[r] ? r * 3 : ((y + top) * width + x + left) * 3;
      const o = (y * box.width + x) * 4;
      rgba[o] = Math.min(255, source[k]! * gains[0] + 0.5);
      rgba[o + 1] = Math.min(255, source[k + 1]! * gains[1] + 0.5);
      rgba[o + 2] = Math.min(255, source[k + 2]! * gains[2] + 0.5);
      rgba[o + 3] = a;
    }
  }
  return { rgba, width: box.width, height: box.height, box, source: { width, height }, mask: full, gains };
}
