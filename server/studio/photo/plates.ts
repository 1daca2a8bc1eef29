// Backdrop plates ready to build on: a sweep in 8-bit with its grain, remembered by size and
// options (a bounded LRU of 12, about 6 MB a plate at 1200×1600), handed out as copies. The
// frames they are copied into come from the arrays kept for reuse (../arrays.ts), where a
// picture's frame goes back once it is encoded: a fresh 6–12 MB buffer costs its pages' first
// touch, several times what filling one already touched does.
import { reuse } from '../arrays';
import { sweepRows, type SweepOptions } from './backdrop';
import { lru } from './cache';
import { rowsToCanvas, DEFAULT_GRAIN, type GrainOptions } from './grain';
import type { Canvas, Size } from './raster';

const PLATES = lru<Canvas>(12);

/** A sweep plate (a fresh copy to draw on). */
export function sweepPlate(size: Size, options: SweepOptions, grain: GrainOptions = DEFAULT_GRAIN): Canvas {
  const key = JSON.stringify([size.width, size.height, options, grain]);
  const plate = PLATES.get(key, () => rowsToCanvas(size, sweepRows(size, options), grain));
  const data = reuse(Uint8Array, plate.data.length, { blank: false });
  data.set(plate.data);
  return { width: plate.width, height: plate.height, data };
}

/** A plate of one flat colour, without grain (a marketplace's pure white). */
export function flatPlate(size: Size, rgb: readonly [number, number, number]): Canvas {
  const data = reuse(Uint8Array, size.width * size.height * 3, { blank: false });
  if (rgb[0] === rgb[1] && rgb[1] === rgb[2]) return { width: size.width, height: size.height, data: data.fill(rgb[0]) };
  for (let i = 0; i < data.length; i += 3) {
    data[i] = rgb[0];
    data[i + 1] = rgb[1];
    data[i + 2] = rgb[2];
  }
  return { width: size.width, height: size.height, data };
}
