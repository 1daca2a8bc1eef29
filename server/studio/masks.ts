// Masks on the working copy: pieces, growing and shrinking, distances to the outline, and
// sampling between pixels. Arrays are lent (arrays.ts): callers give back what they are done with.
import { borrow, giveBack } from './arrays';

/** Width of the frame's edge band, as a share of the shorter side. */
const EDGE_SHARE = 0.04;

export const median = (values: ArrayLike<number>) => Float64Array.from(values).sort()[Math.floor(values.length / 2)] ?? 0;

/** Indices of the pixels in a band `edge` px wide along the frame's edge, in reading order. */
export function edgeRing(w: number, h: number, edge = Math.max(2, Math.round(Math.min(w, h) * EDGE_SHARE))): Int32Array {
  const side = Math.min(edge, w);
  // Every pixel but the inside rectangle's.
  const ring = new Int32Array(w * h - Math.max(0, h - 2 * edge) * Math.max(0, w - 2 * edge));
  let k = 0;
  for (let y = 0; y < h; y += 1) {
    const base = y * w;
    if (y < edge || y >= h - edge) {
      for (let x = 0; x < w; x += 1) ring[k++] = base + x;
      continue;
    }
    for (let x = 0; x < side; x += 1) ring[k++] = base + x;
    for (let x = Math.max(side, w - edge); x < w; x += 1) ring[k++] = base + x;
  }
  return ring.subarray(0, k);
}

/** Labels 4-connected pieces of `mask` (1 = on); returns labels and each piece's size. */
export function pieces(mask: Uint8Array, w: number, h: number) {
  const labels = borrow(Int32Array, w * h);
  const sizes = [0];
  const stack = borrow(Int32Array, w * h);
  for (let start = 0; start < mask.length; start += 1) {
    if (!mask[start] || labels[start]) continue;
    const label = sizes.length;
    let top = 0;
    let size = 0;
    stack[top++] = start;
    labels[start] = label;
    while (top > 0) {
      const i = stack[--top]!;
      size += 1;
      const x = i % w;
      // The four neighbours, written out: this loop runs once per pixel.
      let n = i - 1;
      if (x > 0 && mask[n] && !labels[n]) {
        labels[n] = label;
        stack[top++] = n;
      }
      n = i + 1;
      if (x < w - 1 && mask[n] && !labels[n]) {
        labels[n] = label;
        stack[top++] = n;
      }
      n = i - w;
      if (n >= 0 && mask[n] && !labels[n]) {
        labels[n] = label;
        stack[top++] = n;
      }
      n = i + w;
      if (n < mask.length && mask[n] && !labels[n]) {
        labels[n] = label;
        stack[top++] = n;
      }
    }
    sizes.push(size);
  }
  giveBack(stack);
  return { labels, sizes };
}

/**
 * Grows (any pixel on in the window) or shrinks (every pixel on) the mask by `r` pixels with a
 * square window, separably, with running counts so the cost does not depend on `r`: along each
 * row, then down the columns a whole row at a time (every read in memory order).
 */
export function morph(mask: Uint8Array, w: number, h: number, r: number, grow: boolean): Uint8Array {
  // Across: the count of on pixels in the window [x − r, x + r], clamped to the row.
  const across = borrow(Uint8Array, mask.length);
  for (let y = 0; y < h; y += 1) {
    const base = y * w;
    let on = 0;
    for (let x = 0; x < Math.min(r, w); x += 1) on += mask[base + x]!;
    for (let x = 0; x < w; x += 1) {
      if (x + r < w) on += mask[base + x + r]!;
      if (x - r - 1 >= 0) on -= mask[base + x - r - 1]!;
      const size = Math.min(w - 1, x + r) - Math.max(0, x - r) + 1;
      across[base + x] = grow ? (on > 0 ? 1 : 0) : on === size ? 1 : 0;
    }
  }
  // Down: a running count per column, rows entering and leaving the window [y − r, y + r].
  const output = borrow(Uint8Array, mask.length);
  const on = new Int32Array(w);
  for (let y = 0; y < Math.min(r, h); y += 1) for (let x = 0; x < w; x += 1) on[x]! += across[y * w + x]!;
  for (let y = 0; y < h; y += 1) {
    if (y + r < h) for (let x = 0, k = (y + r) * w; x < w; x += 1, k += 1) on[x]! += across[k]!;
    if (y - r - 1 >= 0) for (let x = 0, k = (y - r - 1) * w; x < w; x += 1, k += 1) on[x]! -= across[k]!;
    const size = Math.min(h - 1, y + r) - Math.max(0, y - r) + 1;
    const base = y * w;
    if (grow) for (let x = 0; x < w; x += 1) output[base + x] = on[x]! > 0 ? 1 : 0;
    else for (let x = 0; x < w; x += 1) output[base + x] = on[x] === size ? 1 : 0;
  }
  giveBack(across);
  return output;
}

/**
 * Each pixel's chessboard distance (in pixels, at most 255) to the nearest pixel of the other
 * side of `mask`: for a pixel on, to the nearest off; for one off, to the nearest on. Pixels
 * beyond the frame are neither, as in `morph`: so `mask` grown by r is `mask || distance ≤ r`, and
 * shrunk by r is `mask && distance > r`. Two passes (down and up the frame), each taking the
 * smallest of the neighbours already seen plus one.
 */
export function chessboard(mask: Uint8Array, w: number, h: number): Uint8Array {
  const distance = borrow(Uint8Array, w * h);
  for (let y = 0; y < h; y += 1) {
    for (let x = 0, i = y * w; x < w; x += 1, i += 1) {
      const on = mask[i];
      // A neighbour of the other side is at distance 1; one of the same side passes its own on.
      let d = 255;
      if (x > 0) d = Math.min(d, mask[i - 1] !== on ? 1 : distance[i - 1]! + 1);
      if (y > 0) {
        const up = i - w;
        d = Math.min(d, mask[up] !== on ? 1 : distance[up]! + 1);
        if (x > 0) d = Math.min(d, mask[up - 1] !== on ? 1 : distance[up - 1]! + 1);
        if (x < w - 1) d = Math.min(d, mask[up + 1] !== on ? 1 : distance[up + 1]! + 1);
      }
      distance[i] = Math.min(255, d);
    }
  }
  for (let y = h - 1; y >= 0; y -= 1) {
    for (let x = w - 1, i = y * w + x; x >= 0; x -= 1, i -= 1) {
      const on = mask[i];
      let d = distance[i]!;
      if (d === 1) continue;
      if (x < w - 1) d = Math.min(d, mask[i + 1] !== on ? 1 : distance[i + 1]! + 1);
      if (y < h - 1) {
        const down = i + w;
        d = Math.min(d, mask[down] !== on ? 1 : distance[down]! + 1);
        if (x > 0) d = Math.min(d, mask[down - 1] !== on ? 1 : distance[down - 1]! + 1);
        if (x < w - 1) d = Math.min(d, mask[down + 1] !== on ? 1 : distance[down + 1]! + 1);
      }
      distance[i] = Math.min(255, d);
    }
  }
  return distance;
}

/** Bilinear sample of a plane at (x, y), clamped to it. */
export function sampleAt(plane: Float32Array, w: number, h: number, x: number, y: number): number {
  const fx = Math.min(w - 1, Math.max(0, x));
  const fy = Math.min(h - 1, Math.max(0, y));
  const x0 = Math.min(w - 2, Math.floor(fx));
  const y0 = Math.min(h - 2, Math.floor(fy));
  const ax = fx - x0;
  const ay = fy - y0;
  const i = y0 * w + x0;
  return (plane[i]! * (1 - ax) + plane[i + 1]! * ax) * (1 - ay) + (plane[i + w]! * (1 - ax) + plane[i + w + 1]! * ax) * ay;
}
