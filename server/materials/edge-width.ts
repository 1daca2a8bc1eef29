// How wide the shoe's own outline is, in working pixels: across each clear stretch of it, the step
// in brightness from one side to the other divided by the steepest one-pixel step within it. A
// sharp edge takes its step in a pixel or two whatever the light or the grain; a blurred one spreads
// it over many. Measured on the shoe's outline alone, so a smooth plastic clog on a plain floor is
// not taken for blurred for having little detail inside, and a textured carpet does not lend a
// blurred shoe the detail it lacks.
import { sampleAt as sample } from '../studio/masks';

/** The profile across the edge reaches this far either side, working pixels. */
const REACH = 4;
/** Brightness step across the edge (0–255) below which it is too faint to measure. */
const MIN_STEP = 24;
/** Fewest measured points for a width; with fewer, none is given. */
const MIN_POINTS = 20;

/** The median width of the mask's outline on `grey` (both w × h), or null when too little of it is clear. */
export function outlineWidth(grey: Float32Array, mask: Uint8Array, w: number, h: number): number | null {
  const widths: number[] = [];
  for (let y = REACH + 1; y < h - REACH - 1; y += 1) {
    for (let x = REACH + 1; x < w - REACH - 1; x += 1) {
      const i = y * w + x;
      // An outline pixel: on, with a neighbour off. Every other one, to keep the cost small.
      if (!mask[i] || (mask[i - 1] && mask[i + 1] && mask[i - w] && mask[i + w]) || (x + y) % 2) continue;
      // The normal: from the mask's own shape (where its neighbours are off), not the photo's texture.
      let nx = 0;
      let ny = 0;
      for (let dy = -2; dy <= 2; dy += 1) {
        for (let dx = -2; dx <= 2; dx += 1) {
          if (mask[i + dy * w + dx]) continue;
          nx += dx;
          ny += dy;
        }
      }
      const norm = Math.hypot(nx, ny);
      if (!norm) continue;
      nx /= norm;
      ny /= norm;
      const inside = sample(grey, w, h, x - nx * REACH, y - ny * REACH);
      const outside = sample(grey, w, h, x + nx * REACH, y + ny * REACH);
      const step = Math.abs(outside - inside);
      if (step < MIN_STEP) continue;
      let steepest = 0;
      let previous = inside;
      for (let k = -REACH + 1; k <= REACH; k += 1) {
        const here = sample(grey, w, h, x + nx * k, y + ny * k);
        steepest = Math.max(steepest, Math.abs(here - previous));
        previous = here;
      }
      if (steepest > 0) widths.push(step / steepest);
    }
  }
  if (widths.length < MIN_POINTS) return null;
  widths.sort((a, b) => a - b);
  return widths[Math.floor(widths.length / 2)]!;
}
