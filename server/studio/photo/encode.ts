// A finished canvas to JPEG: full-resolution colour (4:4:4, so coloured edges and grain survive)
// at high quality, with type or other sharp overlays laid on last. The Huffman tables are the
// standard ones: optimising them for each picture saves about a tenth of the file but takes a
// second pass over every coefficient, which on a 2000 × 2000 frame costs from two to ten times the
// encoding itself (the coefficient buffers are allocated afresh each time).
import type { OverlayOptions } from 'sharp';
import { loadSharp } from '../../lib/sharp';
import type { Canvas } from './raster';

export const JPEG_QUALITY = 92;

export async function encodeJpeg(canvas: Canvas, overlays: OverlayOptions[] = []): Promise<Buffer> {
  const sharp = await loadSharp();
  let image = sharp(canvas.data, { raw: { width: canvas.width, height: canvas.height, channels: 3 } });
  if (overlays.length) image = image.composite(overlays);
  return image.jpeg({ quality: JPEG_QUALITY, chromaSubsampling: '4:4:4', optimiseCoding: false }).toBuffer();
}
