// Every uploaded photo passes here before anyone uses it: size, the file's own signature against
// its declared type, a pixel count read from the header before decoding, then a full decode
// (truncated or damaged files fail) and a re-encode that applies EXIF orientation once and drops
// all metadata — location included — and anything hidden after the image data (polyglots).
import { loadSharp } from '../lib/sharp';
import { MAX_IMAGE_PIXELS, MAX_UPLOAD_BYTES, type AcceptedImageType } from '../../contract/materials';
import { HttpError } from '../lib/errors';
import type { MessageKey } from '../lib/i18n';

/** A file refused on its content: an HTTP error every route answers as it is. */
export class ImageRejected extends HttpError {
  constructor(
    statusCode: number,
    readonly reason: MessageKey,
  ) {
    super(statusCode, reason, reason);
    this.name = 'ImageRejected';
  }
}

const JPEG = Buffer.from([0xff, 0xd8, 0xff]);
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export function sniffImageType(bytes: Buffer): AcceptedImageType | null {
  if (bytes.subarray(0, 3).equals(JPEG)) return 'image/jpeg';
  if (bytes.subarray(0, 8).equals(PNG)) return 'image/png';
  return null;
}

export interface CleanImage {
  bytes: Buffer;
  width: number;
  height: number;
}

const decoderOptions = { limitInputPixels: MAX_IMAGE_PIXELS, failOn: 'truncated' } as const;

export async function cleanImage(bytes: Buffer, declared: AcceptedImageType): Promise<CleanImage> {
  if (bytes.length === 0) throw new ImageRejected(400, 'EMPTY_FILE');
  if (bytes.length > MAX_UPLOAD_BYTES) throw new ImageRejected(413, 'UPLOAD_TOO_LARGE');
  const type = sniffImageType(bytes);
  if (!type || type !== declared) throw new ImageRejected(415, 'UNSUPPORTED_FORMAT');

  const sharp = await loadSharp();
  let header;
  try {
    header = await sharp(bytes, { ...decoderOptions, limitInputPixels: false }).metadata();
  } catch {
    throw new ImageRejected(422, 'IMAGE_UNREADABLE');
  }
  if (!header.width || !header.height) throw new ImageRejected(422, 'IMAGE_UNREADABLE');
  if (header.width * header.height > MAX_IMAGE_PIXELS) throw new ImageRejected(422, 'IMAGE_TOO_LARGE');

  try {
    const pipeline = sharp(bytes, decoderOptions).rotate();
    const encoded =
      type === 'image/png' ? pipeline.png({ compressionLevel: 6 }) : pipeline.jpeg({ quality: 92, mozjpeg: false });
    const { data, info } = await encoded.toBuffer({ resolveWithObject: true });
    return { bytes: data, width: info.width, height: info.height };
  } catch {
    throw new ImageRejected(422, 'IMAGE_UNREADABLE');
  }
}
