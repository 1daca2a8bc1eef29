// The picture under an edit, as the page sees it: decoded once, a small copy of it read for the
// palette (the studio's colour code: the picture's dominant colours) and for the colour behind a
// text, so the editor can say when a text will be hard to read.
import { contrastRatio, dominantColours, hex, parseHex, type Rgb } from '../../../contract/colour';
import type { EditDescription } from '../../../contract/edit';

/** The side of the copy the palette and the contrast hint read (enough for colours, cheap to read). */
const SAMPLE_SIDE = 96;
/** Below this a text is hard to read (WCAG's minimum for large text). */
export const LOW_CONTRAST = 3;

export async function decodeImage(blob: Blob): Promise<HTMLImageElement> {
  const url = URL.createObjectURL(blob);
  const image = new Image();
  image.src = url;
  try {
    await image.decode();
  } catch {
    URL.revokeObjectURL(url);
    throw new PictureUnreadable();
  }
  return image;
}

/** Lets the decoded picture's memory go. */
export function releaseImage(image: HTMLImageElement): void {
  if (image.src.startsWith('blob:')) URL.revokeObjectURL(image.src);
}

export class PictureUnreadable extends Error {
  constructor() {
    super('the picture cannot be read');
    this.name = 'PictureUnreadable';
  }
}

/** A small copy of the whole picture, read once. */
export interface Sample {
  width: number;
  height: number;
  rgba: Uint8ClampedArray;
}

export function samplePicture(image: CanvasImageSource & { naturalWidth: number; naturalHeight: number }): Sample {
  const scale = Math.min(1, SAMPLE_SIDE / Math.max(image.naturalWidth, image.naturalHeight));
  const width = Math.max(1, Math.round(image.naturalWidth * scale));
  const height = Math.max(1, Math.round(image.naturalHeight * scale));
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const context = canvas.getContext('2d', { willReadFrequently: true })!;
  context.drawImage(image, 0, 0, width, height);
  return { width, height, rgba: context.getImageData(0, 0, width, height).data };
}

/** The picture's own colours, most present first, then white and black. */
export function paletteOf(sample: Sample, count = 6): string[] {
  const found = dominantColours(sample.rgba, count).map((swatch) => hex(swatch.rgb).toLowerCase());
  return [...new Set([...found, '#ffffff', '#000000'])];
}

/** The mean colour of the picture under a rectangle given in fractions of the crop. */
export function meanColourUnder(sample: Sample, edit: EditDescription, box: { left: number; top: number; right: number; bottom: number }): Rgb {
  const { source, crop } = edit;
  const toX = (fraction: number) => Math.floor(((crop.x + fraction * crop.width) / source.width) * sample.width);
  const toY = (fraction: number) => Math.floor(((crop.y + fraction * crop.height) / source.height) * sample.height);
  const clampX = (value: number) => Math.min(sample.width - 1, Math.max(0, value));
  const clampY = (value: number) => Math.min(sample.height - 1, Math.max(0, value));
  const [x0, x1, y0, y1] = [clampX(toX(box.left)), clampX(toX(box.right)), clampY(toY(box.top)), clampY(toY(box.bottom))];
  const sum: [number, number, number] = [0, 0, 0];
  let n = 0;
  for (let y = y0; y <= y1; y += 1) {
    for (let x = x0; x <= x1; x += 1) {
      const at = (y * sample.width + x) * 4;
      sum[0] += sample.rgba[at]!;
      sum[1] += sample.rgba[at + 1]!;
      sum[2] += sample.rgba[at + 2]!;
      n += 1;
    }
  }
  return sum.map((value) => Math.round(value / Math.max(1, n))) as Rgb;
}

/** How well a colour reads on what is behind it (1–21). */
export function contrastOn(colour: string, behind: Rgb | string): number {
  const ink = parseHex(colour);
  const ground = typeof behind === 'string' ? parseHex(behind) : behind;
  return ink && ground ? contrastRatio(ink, ground) : 21;
}
