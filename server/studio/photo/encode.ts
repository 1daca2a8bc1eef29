// A finished canvas to JPEG: full-resolution colour (4:4:4, so coloured edges and grain survive)
// at high quality, with type or other sharp overlays laid on last.
import type { OverlayOptions } from 'sharp';
import { loadSharp } from '../../lib/sharp';
import type { Canvas } from './raster';

export const JPEG_QUALITY = 92;

export async function encodeJpeg(canvas: Canvas, overlays: OverlayOptions[] = []): Promise<Buffer> {
  const sharp = await loadSharp();
  let image = sharp(canvas.data, { raw: { width: canvas.width, height: canvas.height, channels: 3 } });
  if (overlays.length) image = image.composite(overlays);
  return image.jpeg({ quality: JPEG_QUALITY, chromaSubsampling: '4:4:4' }).toBuffer();
}
