// The shoe as a layer for a scene. The cut-out is prepared once, at its own resolution (at most
// PREPARED_SIDE), and remembered for as long as the cut-out lives: its outline cleaned
// (fringe.ts) and its material brought out (balance.ts). Each scene then only scales it to its place
// (Lanczos, in sharp), and turns or mirrors it when asked.
import { loadSharp } from '../../lib/sharp';
import { lending } from '../arrays';
import type { Cutout } from '../segment';
import { balanceShoe } from './balance';
import { defringe } from './fringe';
import type { Layer } from './layer';
import type { Size } from './raster';

/** No scene shows a shoe larger than this; bigger cut-outs are prepared at this size. */
const PREPARED_SIDE = 2048;

/** The size the cut-out takes to fit inside `box`, keeping its shape. */
export function fittedSize(cutout: Pick<Cutout, 'width' | 'height'>, box: Size): Size {
  const scale = Math.min(box.width / cutout.width, box.height / cutout.height);
  return { width: Math.max(1, Math.round(cutout.width * scale)), height: Math.max(1, Math.round(cutout.height * scale)) };
}

interface Prepared extends Size {
  rgba: Buffer;
}

const prepared = new WeakMap<Cutout, Promise<Prepared>>();

async function prepare(cutout: Cutout): Promise<Prepared> {
  let rgba: Uint8Array;
  let size: Size;
  if (Math.max(cutout.width, cutout.height) > PREPARED_SIDE) {
    const sharp = await loadSharp();
    const { data, info } = await sharp(cutout.rgba, { raw: { width: cutout.width, height: cutout.height, channels: 4 } })
      .resize(PREPARED_SIDE, PREPARED_SIDE, { fit: 'inside', kernel: 'lanczos3' })
      .raw()
      .toBuffer({ resolveWithObject: true });
    rgba = new Uint8Array(data.buffer, data.byteOffset, data.length);
    size = info;
  } else {
    // Cleaned in place below: the cut-out's own pixels stay as they are.
    rgba = cutout.rgba.slice();
    size = cutout;
  }
  // The photo's background lingers a pixel or two along the outline.
  const balanced = lending(() => {
    defringe(rgba, size.width, size.height, 2);
    return balanceShoe(rgba, size.width, size.height);
  });
  return { rgba: Buffer.from(balanced.buffer, balanced.byteOffset, balanced.length), width: size.width, height: size.height };
}

/** The cut-out cleaned and balanced, made once per cut-out. */
export function preparedShoe(cutout: Cutout): Promise<Prepared> {
  let pending = prepared.get(cutout);
  if (!pending) {
    pending = prepare(cutout);
    prepared.set(cutout, pending);
  }
  return pending;
}

/**
 * The shoe fitted inside `box`, turned by `angle` degrees (clockwise) when asked, and mirrored
 * when `mirror` (the other shoe of the pair). Placed at (0, 0); the caller moves it.
 */
export async function shoeLayer(cutout: Cutout, box: Size, options: { angle?: number; mirror?: boolean } = {}): Promise<Layer> {
  const sharp = await loadSharp();
  const shoe = await preparedShoe(cutout);
  const size = fittedSize(shoe, box);
  let image = sharp(shoe.rgba, { raw: { width: shoe.width, height: shoe.height, channels: 4 } }).resize(size.width, size.height, { kernel: 'lanczos3', fit: 'fill' });
  if (options.mirror) image = image.flop();
  let { data, info } = await image.raw().toBuffer({ resolveWithObject: true });
  if (options.angle) {
    ({ data, info } = await sharp(data, { raw: { width: info.width, height: info.height, channels: 4 } })
      .rotate(options.angle, { background: { r: 0, g: 0, b: 0, alpha: 0 } })
      .raw()
      .toBuffer({ resolveWithObject: true }));
  }
  return { rgba: new Uint8Array(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height, left: 0, top: 0 };
}
