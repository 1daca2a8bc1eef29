// A logo for an edit (SPEC §5: logo accepts image files): a PNG (transparency kept) or a JPEG, not
// an SVG (a script can hide in one), of a sensible size; a very large one is scaled down, since a
// logo never covers more than a corner. The last logo is remembered on the device for the next edit.
import { db } from '../../offline/db';
import type { PhotoRecord } from '../../offline/records';
import { decodeImage, releaseImage } from './picture';

export const MAX_LOGO_BYTES = 5 * 1024 * 1024;
/** The longest side a logo is kept at. */
const MAX_LOGO_SIDE = 1200;
/** The remembered logo's photo: one per device, replaced by each new logo. */
const REMEMBERED_LOGO_ID = 'remembered-logo';

export class LogoRefused extends Error {
  constructor(readonly reason: 'svg' | 'not_image' | 'too_big') {
    super(reason);
    this.name = 'LogoRefused';
  }
}

function kindOf(file: File): 'png' | 'jpeg' | 'svg' | null {
  const type = file.type.toLowerCase();
  if (type === 'image/svg+xml' || /\.svgz?$/i.test(file.name)) return 'svg';
  if (type === 'image/png' || (!type && /\.png$/i.test(file.name))) return 'png';
  if (type === 'image/jpeg' || type === 'image/jpg' || (!type && /\.jpe?g$/i.test(file.name))) return 'jpeg';
  return null;
}

async function encode(canvas: HTMLCanvasElement, mime: string): Promise<Blob> {
  return new Promise((resolve, reject) => canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new LogoRefused('not_image'))), mime));
}

/** Checks and stores a picked logo; answers its photo (its size in width and height). */
export async function storeLogo(file: File): Promise<PhotoRecord> {
  const kind = kindOf(file);
  if (kind === 'svg') throw new LogoRefused('svg');
  if (!kind) throw new LogoRefused('not_image');
  if (file.size > MAX_LOGO_BYTES) throw new LogoRefused('too_big');
  const image = await decodeImage(file).catch(() => {
    throw new LogoRefused('not_image');
  });
  let blob: Blob = file;
  let { naturalWidth: width, naturalHeight: height } = image;
  try {
    const scale = Math.min(1, MAX_LOGO_SIDE / Math.max(width, height));
    if (scale < 1) {
      width = Math.max(1, Math.round(width * scale));
      height = Math.max(1, Math.round(height * scale));
      const canvas = document.createElement('canvas');
      canvas.width = width;
      canvas.height = height;
      canvas.getContext('2d')!.drawImage(image, 0, 0, width, height);
      blob = await encode(canvas, kind === 'png' ? 'image/png' : 'image/jpeg');
    }
  } finally {
    releaseImage(image);
  }
  const bytes = await blob.arrayBuffer();
  const photo: PhotoRecord = { id: crypto.randomUUID(), mime: kind === 'png' ? 'image/png' : 'image/jpeg', bytes, width, height, createdAt: Date.now() };
  await db.transaction('rw', db.photos, async () => {
    await db.photos.put(photo);
    await db.photos.put({ ...photo, id: REMEMBERED_LOGO_ID });
  });
  return photo;
}

/** Whether a logo is remembered on this device. */
export async function hasRememberedLogo(): Promise<boolean> {
  return (await db.photos.where('id').equals(REMEMBERED_LOGO_ID).count()) > 0;
}

/** A copy of the remembered logo for this edit (the edit's own photo goes with the edit). */
export async function rememberedLogo(): Promise<PhotoRecord | undefined> {
  const remembered = await db.photos.get(REMEMBERED_LOGO_ID);
  if (!remembered) return undefined;
  const photo = { ...remembered, id: crypto.randomUUID(), createdAt: Date.now() };
  await db.photos.put(photo);
  return photo;
}
