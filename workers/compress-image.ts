// One operation: compress a photo for upload (SPEC §5, §9) — longest side ≤ 2080 px, a 5 MB
// target, the EXIF orientation applied once by the decoder — inside a worker, so the page never
// stalls. browser-image-compression runs here with useWebWorker: false (with true it would load
// itself from a CDN, DESIGN §6).
import imageCompression from 'browser-image-compression';
import type { CompressedPhoto } from '../contract/capture';
import { MAX_UPLOAD_BYTES, TARGET_BYTES, TARGET_MAX_SIDE } from '../contract/materials';
import { imageSize } from './image-size';

export class PhotoTooLargeError extends Error {
  constructor(readonly bytes: number) {
    super('TOO_LARGE');
    this.name = 'PhotoTooLargeError';
  }
}

export function compressionOptions(mime: string, onProgress?: (percent: number) => void) {
  return {
    maxSizeMB: TARGET_BYTES / 1024 / 1024,
    maxWidthOrHeight: TARGET_MAX_SIDE,
    useWebWorker: false,
    fileType: mime === 'image/png' ? 'image/png' : 'image/jpeg',
    initialQuality: 0.9,
    preserveExif: false,
    onProgress,
  };
}

export async function compressImage(file: Blob, onProgress?: (percent: number) => void): Promise<CompressedPhoto> {
  const mime = file.type === 'image/png' ? 'image/png' : 'image/jpeg';
  const input = file instanceof File ? file : new File([file], mime === 'image/png' ? 'photo.png' : 'photo.jpg', { type: mime });
  const output = await imageCompression(input, compressionOptions(mime, onProgress));
  if (output.size > MAX_UPLOAD_BYTES) throw new PhotoTooLargeError(output.size);
  const bytes = await output.arrayBuffer();
  // Read from the header; decoded again only where the header cannot be read.
  let size = imageSize(bytes);
  if (!size) {
    const bitmap = await createImageBitmap(output);
    size = { width: bitmap.width, height: bitmap.height };
    bitmap.close();
  }
  return { bytes, mime: output.type === 'image/png' ? 'image/png' : 'image/jpeg', ...size };
}
