// Amazon's main image must be on pure white (RGB 255, 255, 255). A picture is held to it before
// it is sent: its outer frame must be white nearly all round (a product may touch the edge here
// and there; JPEG rounds white a few steps down). Clear failures are named at once; Amazon, which
// reads the picture itself, keeps the last word on the close ones.
import { loadSharp } from '../lib/sharp';

/** A channel this near 255 counts as white. */
const NEAR_WHITE = 250;
/** The share of the frame that must be white. */
const WHITE_SHARE = 0.95;
/** The frame's width, as a share of the picture's shorter side (at least two pixels). */
const FRAME = 0.01;
/** The side the picture is looked at in (nearest-neighbour, so no white is blended in or out). */
const LOOK_SIDE = 800;

/** Whether the picture stands on white all round; false for bytes that are no picture. */
export async function onWhite(bytes: Buffer): Promise<boolean> {
  const sharp = await loadSharp();
  let look;
  try {
    look = await sharp(bytes)
      .flatten({ background: '#ffffff' })
      .resize({ width: LOOK_SIDE, height: LOOK_SIDE, fit: 'inside', withoutEnlargement: true, kernel: 'nearest' })
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
  } catch {
    return false;
  }
  const { data, info } = look;
  const band = Math.max(2, Math.round(Math.min(info.width, info.height) * FRAME));
  let seen = 0;
  let white = 0;
  for (let y = 0; y < info.height; y += 1) {
    for (let x = 0; x < info.width; x += 1) {
      const inFrame = y < band || y >= info.height - band || x < band || x >= info.width - band;
      if (!inFrame) continue;
      const at = (y * info.width + x) * info.channels;
      seen += 1;
      if (data[at]! >= NEAR_WHITE && data[at + 1]! >= NEAR_WHITE && data[at + 2]! >= NEAR_WHITE) white += 1;
    }
  }
  return seen > 0 && white / seen >= WHITE_SHARE;
}
