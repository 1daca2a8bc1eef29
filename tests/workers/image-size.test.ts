// The compressor reads its output's size from the header (workers/image-size.ts): checked against
// what sharp writes and reads, for JPEGs baseline and progressive, with EXIF before the frame, and
// for PNGs; bytes that are neither give null.
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { imageSize } from '../../workers/image-size';

const arrayBuffer = (bytes: Buffer) => bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
const picture = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: '#a0522d' } });

describe('the size in an image header', () => {
  it.each([
    [2080, 1560],
    [1560, 2080],
    [1, 1],
    [4000, 3000],
  ])('reads a baseline and a progressive JPEG of %i × %i', async (width, height) => {
    expect(imageSize(arrayBuffer(await picture(width, height).jpeg().toBuffer()))).toEqual({ width, height });
    expect(imageSize(arrayBuffer(await picture(width, height).jpeg({ progressive: true }).toBuffer()))).toEqual({ width, height });
  });

  it('reads past EXIF and an ICC profile before the frame', async () => {
    const jpeg = await picture(640, 480).withMetadata({ orientation: 6 }).withIccProfile('srgb').jpeg().toBuffer();
    expect((await sharp(jpeg).metadata()).orientation).toBe(6);
    expect(imageSize(arrayBuffer(jpeg))).toEqual({ width: 640, height: 480 });
  });

  it('reads a PNG', async () => {
    expect(imageSize(arrayBuffer(await picture(1200, 900).png().toBuffer()))).toEqual({ width: 1200, height: 900 });
  });

  it('gives null for bytes that are no JPEG or PNG, or end before the frame', async () => {
    expect(imageSize(arrayBuffer(Buffer.from('GIF89a not a photo')))).toBeNull();
    expect(imageSize(new ArrayBuffer(0))).toBeNull();
    const jpeg = await picture(640, 480).withIccProfile('srgb').jpeg().toBuffer();
    expect(imageSize(arrayBuffer(jpeg.subarray(0, 40)))).toBeNull();
  });
});
