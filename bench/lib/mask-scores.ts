// How a found mask compares with the truth, at the photo's full size: intersection over union, the
// boundary F-score (the share of each outline within a tolerance of the other's, as in the DAVIS
// benchmark), and the two gross failures a seller sees: something other than the shoe kept (share
// of the frame found beyond the truth's outline by more than the tolerance), and part of the shoe
// lost (share of the shoe missed by more than the tolerance).
import { chessboard } from '../../server/studio/masks';

export interface MaskScore {
  iou: number;
  boundaryF: number;
  /** Share of the frame kept that is not shoe, beyond the tolerance. */
  extra: number;
  /** Share of the shoe's area lost, beyond the tolerance. */
  lost: number;
}

/** The tolerance along the outline: 0.75 % of the frame's diagonal, at least 2 px. */
export const tolerance = (w: number, h: number) => Math.max(2, Math.round(0.0075 * Math.hypot(w, h)));

function outline(mask: Uint8Array, w: number, h: number): Uint8Array {
  const out = new Uint8Array(w * h);
  for (let y = 0; y < h; y += 1) {
    for (let x = 0; x < w; x += 1) {
      const i = y * w + x;
      if (!mask[i]) continue;
      if (x === 0 || y === 0 || x === w - 1 || y === h - 1 || !mask[i - 1] || !mask[i + 1] || !mask[i - w] || !mask[i + w]) out[i] = 1;
    }
  }
  return out;
}

/** Each pixel's distance (chessboard, capped at 255) to the nearest pixel that is on in `mask`. */
function distanceTo(mask: Uint8Array, w: number, h: number): Uint8Array {
  const d = chessboard(mask, w, h);
  for (let i = 0; i < mask.length; i += 1) if (mask[i]) d[i] = 0;
  return d;
}

/** `truth` and `found` are masks of the same w × h, any non-zero value on. */
export function scoreMask(truth: Uint8Array, found: Uint8Array, w: number, h: number): MaskScore {
  const n = w * h;
  const t = Uint8Array.from(truth, (v) => (v ? 1 : 0));
  const f = Uint8Array.from(found, (v) => (v ? 1 : 0));
  let both = 0;
  let either = 0;
  let area = 0;
  for (let i = 0; i < n; i += 1) {
    both += t[i]! & f[i]!;
    either += t[i]! | f[i]!;
    area += t[i]!;
  }
  const tol = tolerance(w, h);
  const tEdge = outline(t, w, h);
  const fEdge = outline(f, w, h);
  const toTruthEdge = distanceTo(tEdge, w, h);
  const toFoundEdge = distanceTo(fEdge, w, h);
  let fCount = 0;
  let fNear = 0;
  let tCount = 0;
  let tNear = 0;
  let extra = 0;
  let lost = 0;
  for (let i = 0; i < n; i += 1) {
    if (fEdge[i]) {
      fCount += 1;
      if (toTruthEdge[i]! <= tol) fNear += 1;
    }
    if (tEdge[i]) {
      tCount += 1;
      if (toFoundEdge[i]! <= tol) tNear += 1;
    }
    if (f[i] && !t[i] && toTruthEdge[i]! > tol) extra += 1;
    if (t[i] && !f[i] && toTruthEdge[i]! > tol) lost += 1;
  }
  const precision = fCount ? fNear / fCount : 0;
  const recall = tCount ? tNear / tCount : 0;
  return {
    iou: either ? both / either : 1,
    boundaryF: precision + recall ? (2 * precision * recall) / (precision + recall) : 0,
    extra: extra / n,
    lost: area ? lost / area : 0,
  };
}
