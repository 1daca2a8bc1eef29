// The pixel size of a JPEG or PNG read from its header, so the compressor need not decode the
// picture it has just encoded (a 2080 px JPEG costs tens of milliseconds to decode again).
// JPEG: the first start-of-frame segment (SOF0–SOF15 but DHT, JPG and DAC) holds height and width;
// PNG: the IHDR chunk, first in the file, holds width and height.

export interface ImageSize {
  width: number;
  height: number;
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** The size in the header, or null for bytes that are neither a JPEG nor a PNG with one. */
export function imageSize(buffer: ArrayBuffer): ImageSize | null {
  const bytes = new Uint8Array(buffer);
  const view = new DataView(buffer);
  if (PNG_SIGNATURE.every((byte, i) => bytes[i] === byte)) {
    if (bytes.length < 24 || String.fromCharCode(...bytes.subarray(12, 16)) !== 'IHDR') return null;
    return { width: view.getUint32(16), height: view.getUint32(20) };
  }
  if (bytes[0] !== 0xff || bytes[1] !== 0xd8) return null;
  let at = 2;
  while (at + 4 <= bytes.length) {
    if (bytes[at] !== 0xff) return null;
    const marker = bytes[at + 1]!;
    // Fill bytes, and markers that stand alone (TEM, RST0–7).
    if (marker === 0xff) {
      at += 1;
      continue;
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2;
      continue;
    }
    const length = view.getUint16(at + 2);
    const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isFrame) {
      if (at + 9 > bytes.length) return null;
      return { width: view.getUint16(at + 7), height: view.getUint16(at + 5) };
    }
    if (marker === 0xd9 || marker === 0xda) return null; // the end, or the scan, before any frame
    at += 2 + length;
  }
  return null;
}
