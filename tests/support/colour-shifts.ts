// How far a product shot moves the shoe's colours, pixel by pixel, on the decoded output: each
// opaque pixel of the placed shoe against the same pixel of the cut-out (the photo, white-balanced
// on its backdrop) scaled to the placement the same way, in CIEDE2000.
import sharp from 'sharp';
import { deltaE2000, rgbToCieLab } from '../../contract/colour';
import type { ProductPreset } from '../../contract/enums';
import { productPlacement, productShot } from '../../server/studio/layouts';
import type { Cutout } from '../../server/studio/segment';

/** Every `step`-th opaque pixel's CIEDE2000 between the cut-out and the decoded product shot of `preset`. */
export async function productColourShifts(cutout: Cutout, preset: ProductPreset, step = 5): Promise<number[]> {
  const place = productPlacement(cutout, preset);
  const shot = await sharp((await productShot(cutout, preset)).bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const photo = await sharp(cutout.rgba, { raw: { width: cutout.width, height: cutout.height, channels: 4 } })
    .resize(place.width, place.height, { fit: 'fill', kernel: 'lanczos3' })
    .raw()
    .toBuffer();
  const shifts: number[] = [];
  for (let p = 0; p < place.width * place.height; p += step) {
    if (photo[p * 4 + 3]! < 255) continue;
    const x = place.left + (p % place.width);
    const y = place.top + Math.floor(p / place.width);
    const o = (y * shot.info.width + x) * 3;
    const before = rgbToCieLab([photo[p * 4]!, photo[p * 4 + 1]!, photo[p * 4 + 2]!]);
    shifts.push(deltaE2000(before, rgbToCieLab([shot.data[o]!, shot.data[o + 1]!, shot.data[o + 2]!])));
  }
  return shifts;
}

/** The median and the 95th percentile of `values` (sorted in place). */
export function medianAndP95(values: number[]): { median: number; p95: number } {
  values.sort((a, b) => a - b);
  return { median: values[Math.floor(values.length / 2)] ?? 0, p95: values[Math.floor(values.length * 0.95)] ?? 0 };
}
