// Cleans a cut-out's edge: pixels along the outline still carry some of the photo's background
// (a light rim that shows on any darker backdrop). The outline's colours are replaced by the
// shoe's own from just inside, grown outwards a ring at a time.
import { borrow } from '../arrays';

/** 1 where every pixel within `r` (a square) is opaque: the cut-out's sure inside. */
function inside(rgba: Uint8Array, width: number, height: number, r: number): Uint8Array {
  // Runs of opaque pixels counted from each side, across and then down: a pixel is inside when
  // the runs through it reach r past it both ways.
  const rows = borrow(Uint8Array, width * height);
  const run = new Int32Array(Math.max(width, height));
  for (let y = 0; y < height; y += 1) {
    let n = 0;
    for (let x = 0; x < width; x += 1) {
      n = rgba[(y * width + x) * 4 + 3]! >= 250 ? n + 1 : 0;
      run[x] = n;
    }
    n = 0;
    for (let x = width - 1; x >= 0; x -= 1) {
      n = rgba[(y * width + x) * 4 + 3]! >= 250 ? n + 1 : 0;
      rows[y * width + x] = run[x]! > r && n > r ? 1 : 0;
    }
  }
  const out = borrow(Uint8Array, width * height);
  for (let x = 0; x < width; x += 1) {
    let n = 0;
    for (let y = 0; y < height; y += 1) {
      n = rows[y * width + x] ? n + 1 : 0;
      run[y] = n;
    }
    n = 0;
    for (let y = height - 1; y >= 0; y -= 1) {
      n = rows[y * width + x] ? n + 1 : 0;
      out[y * width + x] = run[y]! > r && n > r ? 1 : 0;
    }
  }
  return out;
}

/** The RGBA with its outline's colours taken from `radius` px inside (in place). */
export function defringe(rgba: Uint8Array, width: number, height: number, radius: number): void {
  const r = Math.max(1, Math.round(radius));
  const known = inside(rgba, width, height, r);
  // Only the outline changes: list it once, then grow the known colours into it.
  let pending = borrow(Int32Array, width * height);
  let count = 0;
  for (let p = 0; p < known.length; p += 1) if (!known[p] && rgba[p * 4 + 3]! > 0) pending[count++] = p;
  let waiting = borrow(Int32Array, count);
  const filled = borrow(Int32Array, count);
  for (let round = 0; round < r + 3 && count > 0; round += 1) {
    let nFilled = 0;
    let nWaiting = 0;
    for (let k = 0; k < count; k += 1) {
      const p = pending[k]!;
      const x = p % width;
      let n = 0;
      let sr = 0;
      let sg = 0;
      let sb = 0;
      for (let side = 0; side < 4; side += 1) {
        const q = side === 0 ? (x > 0 ? p - 1 : -1) : side === 1 ? (x < width - 1 ? p + 1 : -1) : side === 2 ? p - width : p + width;
        if (q < 0 || q >= known.length || !known[q]) continue;
        sr += rgba[q * 4]!;
        sg += rgba[q * 4 + 1]!;
        sb += rgba[q * 4 + 2]!;
        n += 1;
      }
      if (!n) {
        waiting[nWaiting++] = p;
        continue;
      }
      rgba[p * 4] = Math.round(sr / n);
      rgba[p * 4 + 1] = Math.round(sg / n);
      rgba[p * 4 + 2] = Math.round(sb / n);
      filled[nFilled++] = p;
    }
    // Marked after the round, so each ring takes its colour from the one inside it.
    for (let k = 0; k < nFilled; k += 1) known[filled[k]!] = 1;
    [pending, waiting] = [waiting, pending];
    count = nWaiting;
  }
}
