// Backdrop plates ready to build on: a sweep in 8-bit with its grain, remembered by size and
// options (a bounded LRU of 12, about 6 MB a plate at 1200×1600), handed out as copies. The
// frames they are copied into are kept for the next picture once it is encoded (`recycle`): a
// fresh 6–12 MB buffer costs its pages' first touch, several times what filling one already
// touched does.
import { sweepRows, type SweepOptions } from './backdrop';
import { lru } from './cache';
import { rowsToCanvas, DEFAULT_GRAIN, type GrainOptions } from './grain';
import type { Canvas, Size } from './raster';

const PLATES = lru<Canvas>(12);

/** Frames done with, by byte length: at most SPARE in all (four 2000 × 2000 frames are 48 MB). */
const SPARE = 4;
const spare = new Map<number, Uint8Array[]>();
let spareCount = 0;

/** A frame of `length` bytes whose contents are anything: the caller fills every byte. */
function frame(length: number): Uint8Array {
  const kept = spare.get(length)?.pop();
  if (!kept) return new Uint8Array(length);
  spareCount -= 1;
  return kept;
}

/**
 * Takes back a canvas's pixels once nothing reads them any more (its picture encoded), for a
 * later plate of the same size. The canvas must not be used after this.
 */
export function recycle(canvas: Canvas): void {
  if (spareCount >= SPARE) return;
  const list = spare.get(canvas.data.length) ?? [];
  if (list.includes(canvas.data)) return;
  list.push(canvas.data);
  spare.set(canvas.data.length, list);
  spareCount += 1;
}

/** A sweep plate (a fresh copy to draw on). */
export function sweepPlate(size: Size, options: SweepOptions, grain: GrainOptions = DEFAULT_GRAIN): Canvas {
  const key = JSON.stringify([size.width, size.height, options, grain]);
  const plate = PLATES.get(key, () => rowsToCanvas(size, sweepRows(size, options), grain));
  const data = frame(plate.data.length);
  data.set(plate.data);
  return { width: plate.width, height: plate.height, data };
}

/** A plate of one flat colour, without grain (a marketplace's pure white). */
export function flatPlate(size: Size, rgb: readonly [number, number, number]): Canvas {
  const data = frame(size.width * size.height * 3);
  if (rgb[0] === rgb[1] && rgb[1] === rgb[2]) return { width: size.width, height: size.height, data: data.fill(rgb[0]) };
  for (let i = 0; i < data.length; i += 3) {
    data[i] = rgb[0];
    data[i + 1] = rgb[1];
    data[i + 2] = rgb[2];
  }
  return { width: size.width, height: size.height, data };
}
