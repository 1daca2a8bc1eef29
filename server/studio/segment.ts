// Cuts the shoe out of a phone photo taken on a plain backdrop: a wall swept into the floor, lit
// unevenly, with the shoe's shadows on it. The mask is worked out on a copy 640 px across (a
// dim room's grain smoothed further):
// - the backdrop is a smooth surface (a quartic in OKLab, plus its slow departures from it, kept
//   on a coarse grid) fitted to the frame's edge and then to everything found not to be shoe;
// - a pixel is surely shoe when it differs from the backdrop in a way a shadow cannot make (another
//   hue, lighter, or far darker), surely backdrop when it matches it, and in doubt when it is the
//   backdrop's hue only darker: a shadow, or the shoe's own shade (a white shoe's side, a grey sole);
// - sharp edges (a step within a pixel or two, where a shadow's edge is gradual) cut the doubtful
//   pixels into regions: one that fades into the backdrop with no sharp edge between is a shadow,
//   one fenced off from it is the shoe's own. Backdrop fenced off from the frame's backdrop is the
//   room seen through a lace loop when the shoe round it is a thin rim with the room beyond, and
//   the shoe's own surface (a white sole's lit band on a white sheet) when it is not;
// - what is left (the sharp edges themselves) goes to the side it joins with the smallest step in
//   colour, so a thin lace is followed along its length rather than crossed.
// At full size only a band along the outline is refined: a pixel's alpha is where its colour lies
// between the shoe's and the backdrop's beside it, and its colour is the shoe's with the
// backdrop's share taken out (F = (I − (1 − α)·B) / α), so no halo of the old background is left.
import type { Sharp } from 'sharp';
import { loadSharp } from '../lib/sharp';
import { MAX_IMAGE_PIXELS } from '../../contract/materials';
import { oklabToRgb, rgbToOklab, type Rgb } from '../../contract/colour';
import { borrow, giveBack, lending } from './arrays';

/**
 * The longest side the mask is worked out at; the cut-out keeps the photo's full size. At 640 a
 * lace (12 px of a 1600 px photo) is about five pixels wide: wide enough to have an inside.
 */
export const WORK_SIDE = 640;
/** Width of the frame's edge band the backdrop is first fitted to, as a share of the shorter side. */
const EDGE_SHARE = 0.04;
/** OKLab hue difference (a, b against the backdrop darkened alike) that a shadow cannot make. */
const HUE_DIFFERENCE = 0.012;
/** Lightness relative to the backdrop (OKLab L, the cube root of luminance) above which is shoe… */
const LIGHTER = 1.035;
/** …and below which it is darker than a shadow on a floor gets (luminance ≈ 1/20 of the floor's). */
const DARKEST_SHADOW = 0.36;
/** A pixel within this many grain deviations of the backdrop (OKLab ΔE) is backdrop, never less than the floor. */
const MATCH_DEVIATIONS = 4;
const MATCH_FLOOR = 0.014;
/** Working pixels per side of the cells the backdrop's model is kept on (it changes slowly). */
const GRID = 4;
/** Grain (OKLab, a pixel against its neighbours) above which the working copy is smoothed further. */
const CALM = 0.0025;
/** A sharp edge: a gradient (OKLab per working pixel) at least this steep, and this much steeper over one pixel than over three. */
const SHARP_STEP = 0.01;
const SHARPNESS = 1.7;
/** In a grainy shot, a sharp edge shorter than this many working pixels is grain. */
const MIN_EDGE = 8;
/** A region in doubt that meets the backdrop with no sharp edge along more than this share of its border is a shadow. */
const SHADOW_CONTACT = 0.2;
/**
 * Fenced-off backdrop is a hole in the shoe when, this many working pixels round it, at least
 * this share is the frame's backdrop again: the shoe round it is a thin rim (a lace, a strap).
 */
const RIM = 8;
const LOOP_ROOM = 0.1;
/** Enclosed backdrop smaller than this many working pixels is noise, filled. */
const MIN_HOLE = 12;
/** Pieces smaller than this share of the largest are specks. */
const MIN_PIECE = 0.02;
/** Working pixels either side of the outline whose colours are known, and that are refined at full size. */
const BAND = 3;
const REFINE = 2;
/** The background is brought to this brightness by the correction. */
const TARGET_WHITE = 246;
/** Contrast (OKLab ΔE) across the outline at which a stretch of it counts as clearly seen. */
const VISIBLE_EDGE = 0.04;

export interface Cutout {
  /** The shoe on transparency, cropped to it: straight RGBA, row by row, its edge soft and free of the old background. */
  rgba: Uint8Array;
  width: number;
  height: number;
  /** Where the crop sits in the corrected photo. */
  box: { left: number; top: number; width: number; height: number };
  /** The photo's size (after EXIF rotation). */
  source: { width: number; height: number };
  /** The mask at full size: 255 shoe, 0 background. */
  mask: Uint8Array;
  /** Per-channel gains that made the background neutral and bright. */
  gains: [number, number, number];
}

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

// ---------------------------------------------------------------------------------------------
// Colour

const LINEAR = Float32Array.from({ length: 256 }, (_, v) => {
  const c = v / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
});

/** An RGB image as three OKLab planes (contract/colour.ts's conversion, on a table of sRGB values). */
function oklabPlanes(rgb: Uint8Array, n: number): [Float32Array, Float32Array, Float32Array] {
  const L = borrow(Float32Array, n);
  const A = borrow(Float32Array, n);
  const B = borrow(Float32Array, n);
  for (let i = 0; i < n; i += 1) {
    const r = LINEAR[rgb[i * 3]!]!;
    const g = LINEAR[rgb[i * 3 + 1]!]!;
    const b = LINEAR[rgb[i * 3 + 2]!]!;
    const l = Math.cbrt(0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * b);
    const m = Math.cbrt(0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * b);
    const s = Math.cbrt(0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * b);
    L[i] = 0.2104542553 * l + 0.793617785 * m - 0.0040720468 * s;
    A[i] = 1.9779984951 * l - 2.428592205 * m + 0.4505937099 * s;
    B[i] = 0.0259040371 * l + 0.7827717662 * m - 0.808675766 * s;
  }
  return [L, A, B];
}


// ---------------------------------------------------------------------------------------------
// The backdrop: a smooth surface per OKLab plane

/** The fifteen terms of a quartic in x and y (each in −1…1): uⁱ·vʲ with i + j ≤ 4, by i then j. */
const DEGREE = 4;
const TERMS = ((DEGREE + 1) * (DEGREE + 2)) / 2;
function terms(u: number, v: number, out: Float64Array) {
  let k = 0;
  let ui = 1;
  for (let i = 0; i <= DEGREE; i += 1) {
    let vj = ui;
    for (let j = 0; j <= DEGREE - i; j += 1) {
      out[k++] = vj;
      vj *= v;
    }
    ui *= u;
  }
}

/** Solves `a·x = b` (n × n) by Gaussian elimination with partial pivoting; null when singular. */
function solve(a: Float64Array, b: Float64Array, n: number): Float64Array | null {
  const m = Float64Array.from(a);
  const x = Float64Array.from(b);
  for (let col = 0; col < n; col += 1) {
    let pivot = col;
    for (let r = col + 1; r < n; r += 1) if (Math.abs(m[r * n + col]!) > Math.abs(m[pivot * n + col]!)) pivot = r;
    if (Math.abs(m[pivot * n + col]!) < 1e-12) return null;
    if (pivot !== col) {
      for (let k = 0; k < n; k += 1) [m[col * n + k], m[pivot * n + k]] = [m[pivot * n + k]!, m[col * n + k]!];
      [x[col], x[pivot]] = [x[pivot]!, x[col]!];
    }
    for (let r = col + 1; r < n; r += 1) {
      const f = m[r * n + col]! / m[col * n + col]!;
      if (!f) continue;
      for (let k = col; k < n; k += 1) m[r * n + k]! -= f * m[col * n + k]!;
      x[r]! -= f * x[col]!;
    }
  }
  for (let r = n - 1; r >= 0; r -= 1) {
    let sum = x[r]!;
    for (let k = r + 1; k < n; k += 1) sum -= m[r * n + k]! * x[k]!;
    x[r] = sum / m[r * n + r]!;
  }
  return x;
}

/** Least-squares surface per plane through the pixels listed. */
function fitSurface(planes: Float32Array[], w: number, h: number, pixels: ArrayLike<number>): Float64Array[] | null {
  const normal = new Float64Array(TERMS * TERMS);
  const rhs = [new Float64Array(TERMS), new Float64Array(TERMS), new Float64Array(TERMS)];
  const t = new Float64Array(TERMS);
  if (pixels.length < TERMS * 8) return null;
  for (let k = 0; k < pixels.length; k += 1) {
    const i = pixels[k]!;
    const x = i % w;
    terms((2 * x) / (w - 1) - 1, (2 * (i - x)) / w / (h - 1) - 1, t);
    const l = planes[0]![i]!;
    const a = planes[1]![i]!;
    const b = planes[2]![i]!;
    for (let r = 0; r < TERMS; r += 1) {
      const tr = t[r]!;
      for (let c = r; c < TERMS; c += 1) normal[r * TERMS + c]! += tr * t[c]!;
      rhs[0]![r]! += tr * l;
      rhs[1]![r]! += tr * a;
      rhs[2]![r]! += tr * b;
    }
  }
  for (let r = 0; r < TERMS; r += 1) for (let c = 0; c < r; c += 1) normal[r * TERMS + c] = normal[c * TERMS + r]!;
  const solved = rhs.map((b) => solve(normal, b, TERMS));
  return solved.every((s) => s) ? (solved as Float64Array[]) : null;
}

/** The surface's value of plane `p` at working pixel (x, y). */
function surfaceAt(coefficients: Float64Array[], p: number, x: number, y: number, w: number, h: number, t: Float64Array): number {
  terms((2 * x) / (w - 1) - 1, (2 * y) / (h - 1) - 1, t);
  const k = coefficients[p]!;
  let sum = 0;
  for (let j = 0; j < TERMS; j += 1) sum += k[j]! * t[j]!;
  return sum;
}

/**
 * The backdrop's model on a grid of GRID-pixel cells: the surface at each cell's centre plus what
 * it misses of the backdrop there (a sheet's folds, patchy light): the mean residual of the
 * backdrop's pixels in each cell (`seen` of them, their plane values summed in `sums`, every
 * `step`-th pixel each way), averaged over a wide window; where little backdrop is seen nearby
 * (behind the shoe) that fades out.
 */
function backdropGrid(coefficients: Float64Array[], seen: Float32Array | null, sums: Float32Array[], w: number, h: number, step = 1) {
  const gw = Math.ceil(w / GRID);
  const gh = Math.ceil(h / GRID);
  const grid = [new Float32Array(gw * gh), new Float32Array(gw * gh), new Float32Array(gw * gh)];
  const inU = new Float64Array(DEGREE + 1);
  for (let p = 0; p < 3; p += 1) {
    const k = coefficients[p]!;
    for (let gy = 0; gy < gh; gy += 1) {
      const v = (2 * ((gy + 0.5) * GRID - 0.5)) / (h - 1) - 1;
      // Along a row of cells the surface is a polynomial in u; its coefficients first.
      let term = 0;
      for (let i = 0; i <= DEGREE; i += 1) {
        let sum = 0;
        let vj = 1;
        for (let j = 0; j <= DEGREE - i; j += 1) {
          sum += k[term++]! * vj;
          vj *= v;
        }
        inU[i] = sum;
      }
      for (let gx = 0; gx < gw; gx += 1) {
        const u = (2 * ((gx + 0.5) * GRID - 0.5)) / (w - 1) - 1;
        let sum = 0;
        for (let i = DEGREE; i >= 0; i -= 1) sum = sum * u + inU[i]!;
        grid[p]![gy * gw + gx] = sum;
      }
    }
  }
  if (!seen) return { grid, gw, gh };
  const reach = Math.max(2, Math.round(Math.max(gw, gh) / 25));
  const spread = boxBlur(seen, gw, gh, reach);
  for (let p = 0; p < 3; p += 1) {
    const residual = sums[p]!.map((v, k) => (seen[k] ? v - seen[k]! * grid[p]![k]! : 0));
    const smooth = boxBlur(residual, gw, gh, reach);
    for (let k = 0; k < smooth.length; k += 1) {
      const s = spread[k]!;
      if (s > 0.05 / (step * step)) grid[p]![k]! += (smooth[k]! / s) * Math.min(1, s / ((GRID * GRID * 0.3) / (step * step)));
    }
  }
  return { grid, gw, gh };
}

// ---------------------------------------------------------------------------------------------
// Masks

/** Pixel i's neighbour `d` (0 left, 1 right, 2 up, 3 down; x is i's column): −1 past the side, out of range past the top or bottom. */
const neighbour = (i: number, x: number, w: number, d: number) => (d === 0 ? (x > 0 ? i - 1 : -1) : d === 1 ? (x < w - 1 ? i + 1 : -1) : d === 2 ? i - w : i + w);

/** Labels 4-connected pieces of `mask` (1 = on); returns labels and each piece's size. */
function pieces(mask: Uint8Array, w: number, h: number) {
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
function morph(mask: Uint8Array, w: number, h: number, r: number, grow: boolean): Uint8Array {
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
function chessboard(mask: Uint8Array, w: number, h: number): Uint8Array {
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

/** Whether the mask reaches the frame's outermost row or column: the shoe goes on beyond it. */
export function touchesFrame(mask: Uint8Array, w: number, h: number): boolean {
  for (let x = 0; x < w; x += 1) if (mask[x] || mask[(h - 1) * w + x]) return true;
  for (let y = 0; y < h; y += 1) if (mask[y * w] || mask[y * w + w - 1]) return true;
  return false;
}

/** A box blur of radius `r`, twice (close to a Gaussian), of a float plane, in place of a copy. */
function boxBlur(field: Float32Array, w: number, h: number, r: number): Float32Array {
  let src = field;
  const size = 2 * r + 1;
  for (let pass = 0; pass < 2; pass += 1) {
    const rows = borrow(Float32Array, src.length);
    for (let y = 0; y < h; y += 1) {
      const base = y * w;
      let sum = 0;
      for (let x = -r; x <= r; x += 1) sum += src[base + Math.min(w - 1, Math.max(0, x))]!;
      for (let x = 0; x < w; x += 1) {
        rows[base + x] = sum / size;
        sum += src[base + Math.min(w - 1, x + r + 1)]! - src[base + Math.max(0, x - r)]!;
      }
    }
    const cols = borrow(Float32Array, src.length);
    for (let x = 0; x < w; x += 1) {
      let sum = 0;
      for (let y = -r; y <= r; y += 1) sum += rows[Math.min(h - 1, Math.max(0, y)) * w + x]!;
      for (let y = 0; y < h; y += 1) {
        cols[y * w + x] = sum / size;
        sum += rows[Math.min(h - 1, y + r + 1) * w + x]! - rows[Math.max(0, y - r) * w + x]!;
      }
    }
    src = cols;
  }
  return src;
}

/** Bilinear sample of a plane at (x, y), clamped to it. */
function sampleAt(plane: Float32Array, w: number, h: number, x: number, y: number): number {
  const fx = Math.min(w - 1, Math.max(0, x));
  const fy = Math.min(h - 1, Math.max(0, y));
  const x0 = Math.min(w - 2, Math.floor(fx));
  const y0 = Math.min(h - 2, Math.floor(fy));
  const ax = fx - x0;
  const ay = fy - y0;
  const i = y0 * w + x0;
  return (plane[i]! * (1 - ax) + plane[i + 1]! * ax) * (1 - ay) + (plane[i + w]! * (1 - ax) + plane[i + w + 1]! * ax) * ay;
}

/**
 * Marker flooding: every unlabelled pixel takes the label (1 shoe, 2 backdrop) of the marker that
 * reaches it along the path whose largest step in colour (OKLab, between neighbours) is smallest;
 * ties go to the nearer. A thin lace is followed along its length, not crossed.
 */
function flood(labels: Uint8Array, planes: Float32Array[], w: number, h: number) {
  const n = w * h;
  const [L, A, B] = planes as [Float32Array, Float32Array, Float32Array];
  // A bucket queue per step size (ΔE × 1000, capped), each bucket a list in arrival order; an
  // entry is pixel·2 + (label − 1). A pixel is labelled once and offers to its four neighbours,
  // as does each seed: at most 4n entries.
  const entries = borrow(Int32Array, 4 * n);
  const next = borrow(Int32Array, 4 * n);
  const first = new Int32Array(256).fill(-1);
  const last = new Int32Array(256).fill(-1);
  let count = 0;
  const offsets = [-1, 1, -w, w];
  const offer = (i: number, label: number, level: number) => {
    const x = i % w;
    for (let d = 0; d < 4; d += 1) {
      if ((d === 0 && x === 0) || (d === 1 && x === w - 1)) continue;
      const k = i + offsets[d]!;
      if (k < 0 || k >= n || labels[k]) continue;
      const dl = L[i]! - L[k]!;
      const da = A[i]! - A[k]!;
      const db = B[i]! - B[k]!;
      const step = Math.min(255, Math.round(Math.sqrt(dl * dl + da * da + db * db) * 1000));
      const bucket = step > level ? step : level;
      entries[count] = k * 2 + label - 1;
      next[count] = -1;
      if (last[bucket]! < 0) first[bucket] = count;
      else next[last[bucket]!] = count;
      last[bucket] = count;
      count += 1;
    }
  };
  for (let i = 0; i < n; i += 1) {
    if (!labels[i]) continue;
    // Only a labelled pixel beside an unlabelled one has anything to offer.
    const x = i % w;
    if ((x > 0 && !labels[i - 1]) || (x < w - 1 && !labels[i + 1]) || (i >= w && !labels[i - w]) || (i < n - w && !labels[i + w])) offer(i, labels[i]!, 0);
  }
  for (let level = 0; level < 256; level += 1) {
    // What is offered at this level while it is worked through joins its list's end.
    for (let e = first[level]!; e >= 0; e = next[e]!) {
      const i = entries[e]! >> 1;
      if (labels[i]) continue;
      labels[i] = (entries[e]! & 1) + 1;
      offer(i, labels[i]!, level);
    }
  }
  giveBack(entries);
  giveBack(next);
}

// ---------------------------------------------------------------------------------------------
// Segmentation on the working copy

export interface BackgroundModel {
  /** The backdrop's OKLab colour at working pixel (x, y). */
  lab(x: number, y: number): [number, number, number];
  /** The backdrop's sRGB colour at working pixel (x, y). */
  rgb(x: number, y: number): Rgb;
  /** Robust deviation of a pixel about its neighbours along the frame's edge (OKLab): the grain. */
  noise: number;
}

export interface Segmentation {
  /** 1 shoe, 0 backdrop, at the working size. */
  mask: Uint8Array;
  /** Each working pixel's chessboard distance to the other side of the mask (`chessboard`). */
  edge: Uint8Array;
  background: BackgroundModel;
  /** Working pixels within `BAND` of the outline, where the colours either side are known. */
  band: Uint8Array;
  /** Along the outline, the shoe's sRGB colour nearby and the backdrop's beside it (shadows included): 3 planes each. */
  shoeColour: Float32Array[];
  backColour: Float32Array[];
  /** Share of the outline across which the shoe clearly differs from what lies beside it (0–1). */
  visibleOutline: number;
  /** Share of the frame that surely differs from the backdrop, before any cleaning: something is there. */
  evidence: number;
  /** Share of the frame on sharp edges: drawn detail (stitching, a seam), even where no colour stands out. */
  structure: number;
}

// Each stage of the segmentation is a function of its own, called once per photo. V8 optimises a
// function a loop at a time while it runs; in one long function the later stages have no type
// feedback when the first loops are optimised, so it falls back to the interpreter again and
// again, and about half the photos ran at a third of the speed.

/** The grain: each pixel against the mean of its four neighbours along the frame's edge (every third of them), robustly. */
function grainOf(planes: Float32Array[], ring: Int32Array, w: number, h: number): number {
  const n = w * h;
  const deviations = new Float64Array(Math.ceil(ring.length / 3));
  for (let k = 0, j = 0; k < ring.length; k += 3, j += 1) {
    const i = ring[k]!;
    const x = i % w;
    if (x === 0 || x === w - 1 || i < w || i >= n - w) continue;
    let sum = 0;
    for (const c of planes) sum += (c[i]! - (c[i - 1]! + c[i + 1]! + c[i - w]! + c[i + w]!) / 4) ** 2;
    deviations[j] = Math.sqrt(sum);
  }
  return 1.4826 * median(deviations);
}

/** The photo's OKLab planes; a dim room's grain smoothed away first, a little more each time, until it is calm. */
function calmPlanes(rgb: Uint8Array, ring: Int32Array, w: number, h: number) {
  let planes: Float32Array[] = oklabPlanes(rgb, w * h);
  let noise = grainOf(planes, ring, w, h);
  let smoothed = 0;
  while (noise > CALM && smoothed < 3) {
    smoothed += 1;
    planes = planes.map((c) => boxBlur(c, w, h, 1));
    noise = grainOf(planes, ring, w, h);
  }
  return { planes, noise, smoothed };
}

/** Each sample's OKLab distance from the surface. */
function surfaceDistances(planes: Float32Array[], coefficients: Float64Array[], samples: Int32Array, w: number, h: number): Float64Array {
  const t = new Float64Array(TERMS);
  const distances = new Float64Array(samples.length);
  for (let k = 0; k < samples.length; k += 1) {
    const i = samples[k]!;
    const x = i % w;
    const y = (i - x) / w;
    let sum = 0;
    for (let p = 0; p < 3; p += 1) sum += (planes[p]![i]! - surfaceAt(coefficients, p, x, y, w, h, t)) ** 2;
    distances[k] = Math.sqrt(sum);
  }
  return distances;
}

/**
 * The backdrop's surface through the frame's edge (every third pixel of it each way), what lies
 * far from it (a shoe or a shadow reaching the edge) left out of the next fit; and how far the
 * backdrop strays from it there (grain that comes in blotches, which the pixel-to-pixel measure
 * misses): the median distance.
 */
function edgeSurface(planes: Float32Array[], ring: Int32Array, w: number, h: number) {
  const samples = ring.filter((i) => (i % w) % 3 === 0 && Math.floor(i / w) % 3 === 0);
  let coefficients = fitSurface(planes, w, h, samples);
  if (!coefficients) throw new NoShoeFound();
  for (let round = 0; round < 2; round += 1) {
    const far = surfaceDistances(planes, coefficients, samples, w, h);
    const limit = Math.max(MATCH_FLOOR, 3 * median(far));
    coefficients = fitSurface(planes, w, h, samples.filter((_, k) => far[k]! <= limit)) ?? coefficients;
  }
  return { coefficients, strays: median(surfaceDistances(planes, coefficients, samples, w, h)) };
}

/** What sorting pixels against the backdrop's model needs, and what it fills in. */
interface Sorting {
  planes: Float32Array[];
  w: number;
  h: number;
  noise: number;
  /** The OKLab distance that matches the backdrop. */
  match: number;
  /** The model brought to every pixel (3 planes). */
  model: Float32Array[];
  /** Each pixel's distance from the model. */
  distance: Float32Array;
  /** 1 surely shoe, 2 surely backdrop, 0 in doubt. */
  classes: Uint8Array;
  /** Each column's grid cell to its left and its weight towards the next. */
  column: Int32Array;
  columnWeight: Float32Array;
}

/**
 * The model brought from its grid to every `step`-th pixel each way (bilinearly), each pixel's
 * distance from it, and its class: surely backdrop when near it, surely shoe when it differs in a
 * way a shadow cannot (another hue against the backdrop darkened alike, lighter, or far darker),
 * else in doubt.
 */
function sortPixels(s: Sorting, grid: Float32Array[], step: number): void {
  const { w, h, noise, match, distance, classes, column, columnWeight } = s;
  const [L, A, B] = s.planes as [Float32Array, Float32Array, Float32Array];
  const [ml, ma, mb] = s.model as [Float32Array, Float32Array, Float32Array];
  const gw = Math.ceil(w / GRID);
  const gh = Math.ceil(h / GRID);
  const hueLimit = (HUE_DIFFERENCE + 2 * noise) ** 2;
  const lighter = LIGHTER + 2 * noise;
  const [gl, ga, gb] = grid as [Float32Array, Float32Array, Float32Array];
  for (let y = 0; y < h; y += step) {
    const fy = Math.min(gh - 1.001, Math.max(0, (y + 0.5) / GRID - 0.5));
    const r0 = Math.floor(fy) * gw;
    const ay = fy - Math.floor(fy);
    for (let x = 0; x < w; x += step) {
      const i = y * w + x;
      const c = r0 + column[x]!;
      const ax = columnWeight[x]!;
      const w00 = (1 - ax) * (1 - ay);
      const w01 = ax * (1 - ay);
      const w10 = (1 - ax) * ay;
      const w11 = ax * ay;
      const l0 = gl[c]! * w00 + gl[c + 1]! * w01 + gl[c + gw]! * w10 + gl[c + gw + 1]! * w11;
      const a0 = ga[c]! * w00 + ga[c + 1]! * w01 + ga[c + gw]! * w10 + ga[c + gw + 1]! * w11;
      const b0 = gb[c]! * w00 + gb[c + 1]! * w01 + gb[c + gw]! * w10 + gb[c + gw + 1]! * w11;
      ml[i] = l0;
      ma[i] = a0;
      mb[i] = b0;
      const dl = L[i]! - l0;
      const dA = A[i]! - a0;
      const dB = B[i]! - b0;
      const d = Math.sqrt(dl * dl + dA * dA + dB * dB);
      distance[i] = d;
      const ratio = L[i]! / Math.max(1e-3, l0);
      const ha = A[i]! - a0 * ratio;
      const hb = B[i]! - b0 * ratio;
      if (d <= match) classes[i] = 2;
      else if (ha * ha + hb * hb > hueLimit || ratio > lighter || ratio < DARKEST_SHADOW) classes[i] = 1;
      else classes[i] = 0;
    }
  }
}

/**
 * The backdrop seen in each grid cell (every other pixel each way that is not surely shoe and
 * lies within `limit` of the model): how many (`seen`) and their planes summed (`sums`); returns
 * every eighth pixel of them each way, for the next surface fit.
 */
function backdropSeen(s: Sorting, limit: number, seen: Float32Array, sums: Float32Array[]): number[] {
  const { w, h, classes, distance } = s;
  const [L, A, B] = s.planes as [Float32Array, Float32Array, Float32Array];
  const [sl, sa, sb] = sums as [Float32Array, Float32Array, Float32Array];
  const gw = Math.ceil(w / GRID);
  const picked: number[] = [];
  seen.fill(0);
  for (const sum of sums) sum.fill(0);
  for (let y = 0; y < h; y += 2) {
    const row = Math.floor(y / GRID) * gw;
    const pickRow = y % 8 === 0;
    for (let x = 0; x < w; x += 2) {
      const i = y * w + x;
      if (classes[i] === 1 || distance[i]! > limit) continue;
      const k = row + Math.floor(x / GRID);
      seen[k]! += 1;
      sl[k]! += L[i]!;
      sa[k]! += A[i]!;
      sb[k]! += B[i]!;
      if (pickRow && (x & 7) === 0) picked.push(i);
    }
  }
  return picked;
}

/**
 * The backdrop's model and every pixel's class: the surface through the frame's edge first, then
 * refitted through all that is near the backdrop (with room, at first, for what the last surface
 * missed), with what the surface misses of it added. The rounds that only refine the surface look
 * at every other pixel each way; the last, at all.
 */
function sortAgainstBackdrop(planes: Float32Array[], coefficients: Float64Array[], noise: number, w: number, h: number) {
  const n = w * h;
  const gw = Math.ceil(w / GRID);
  const gh = Math.ceil(h / GRID);
  const column = new Int32Array(w);
  const columnWeight = new Float32Array(w);
  for (let x = 0; x < w; x += 1) {
    const fx = Math.min(gw - 1.001, Math.max(0, (x + 0.5) / GRID - 0.5));
    column[x] = Math.floor(fx);
    columnWeight[x] = fx - Math.floor(fx);
  }
  const s: Sorting = {
    planes,
    w,
    h,
    noise,
    match: Math.max(MATCH_FLOOR, MATCH_DEVIATIONS * noise),
    model: [borrow(Float32Array, n), borrow(Float32Array, n), borrow(Float32Array, n)],
    distance: borrow(Float32Array, n),
    classes: borrow(Uint8Array, n),
    column,
    columnWeight,
  };
  sortPixels(s, backdropGrid(coefficients, null, [], w, h).grid, 2);
  const seen = new Float32Array(gw * gh);
  const sums = [new Float32Array(gw * gh), new Float32Array(gw * gh), new Float32Array(gw * gh)];
  for (const room of [3, 2, 1]) {
    const picked = backdropSeen(s, room * s.match, seen, sums);
    coefficients = fitSurface(planes, w, h, picked) ?? coefficients;
    sortPixels(s, backdropGrid(coefficients, seen, sums, w, h, 2).grid, room === 1 ? 1 : 2);
  }
  return s;
}

/** How many pixels of `values` equal `value`. */
function countOf(values: Uint8Array, value: number): number {
  let count = 0;
  for (let i = 0; i < values.length; i += 1) if (values[i] === value) count += 1;
  return count;
}

/**
 * Sharp edges: the gradient over one pixel against the gradient over three (over more when the
 * grain was smoothed, which softened every edge alike).
 */
function sharpEdges(planes: Float32Array[], noise: number, smoothed: number, w: number, h: number): Uint8Array {
  const sharp = borrow(Uint8Array, w * h);
  const steep = Math.max(SHARP_STEP, 4 * noise) ** 2;
  const d1 = 1 + smoothed;
  const d3 = 3 * d1;
  for (let y = d3; y < h - d3; y += 1) {
    for (let x = d3; x < w - d3; x += 1) {
      const i = y * w + x;
      let near = 0;
      for (let p = 0; p < 3; p += 1) {
        const c = planes[p]!;
        const nx = c[i + d1]! - c[i - d1]!;
        const ny = c[i + d1 * w]! - c[i - d1 * w]!;
        near += (nx * nx + ny * ny) / 4;
      }
      if (near < steep) continue;
      let far = 0;
      for (let p = 0; p < 3; p += 1) {
        const c = planes[p]!;
        const fx = c[i + d3]! - c[i - d3]!;
        const fy = c[i + d3 * w]! - c[i - d3 * w]!;
        far += (fx * fx + fy * fy) / 36;
      }
      if (near >= SHARPNESS * SHARPNESS * far) sharp[i] = 1;
    }
  }
  return sharp;
}

/**
 * The fences between regions: the sharp edges widened by a pixel, so that what they enclose is
 * closed to a 4-connected region. In a grainy shot, short specks of "edge" are grain and go first.
 */
function fences(sharp: Uint8Array, smoothed: number, w: number, h: number): Uint8Array {
  if (smoothed) {
    const lines = pieces(sharp, w, h);
    for (let i = 0; i < sharp.length; i += 1) if (sharp[i] && lines.sizes[lines.labels[i]!]! < MIN_EDGE) sharp[i] = 0;
  }
  return morph(sharp, w, h, 1, true);
}

/**
 * The first labels (1 shoe, 2 backdrop, 0 a fence): regions in doubt cut apart by the fences, each
 * a shadow if it meets the backdrop softly along enough of its border, else the shoe's own.
 * Fences leave gaps: regions are found with the doubtful pixels shrunk by one, so a passage
 * under three pixels wide does not join a sole to the shadow under it, then grown back.
 */
function doubtSettled(classes: Uint8Array, fence: Uint8Array, w: number, h: number): Uint8Array {
  const n = w * h;
  const doubt = borrow(Uint8Array, n);
  for (let i = 0; i < n; i += 1) doubt[i] = classes[i] === 0 && !fence[i] ? 1 : 0;
  const regions = pieces(morph(doubt, w, h, 1, false), w, h);
  const queue = borrow(Int32Array, n);
  let tail = 0;
  for (let i = 0; i < n; i += 1) if (regions.labels[i]) queue[tail++] = i;
  for (let head = 0; head < tail; head += 1) {
    const i = queue[head]!;
    const x = i % w;
    for (let d = 0; d < 4; d += 1) {
      const k = neighbour(i, x, w, d);
      if (k < 0 || k >= n || !doubt[k] || regions.labels[k]) continue;
      regions.labels[k] = regions.labels[i]!;
      queue[tail++] = k;
    }
  }
  giveBack(queue);
  const soft = new Uint32Array(regions.sizes.length);
  const border = new Uint32Array(regions.sizes.length);
  for (let i = 0; i < n; i += 1) {
    const label = regions.labels[i]!;
    if (!label) continue;
    const x = i % w;
    let edge = false;
    let meets = false;
    for (let d = 0; d < 4; d += 1) {
      const k = neighbour(i, x, w, d);
      if (k < 0 || k >= n) {
        edge = meets = true;
      } else if (regions.labels[k] !== label) {
        edge = true;
        if (classes[k] === 2 && !fence[k]) meets = true;
      }
    }
    if (edge) border[label]! += 1;
    if (meets) soft[label]! += 1;
  }
  const labels = borrow(Uint8Array, n);
  for (let i = 0; i < n; i += 1) {
    if (classes[i] === 1) labels[i] = 1;
    else if (fence[i]) continue;
    else if (classes[i] === 2) labels[i] = 2;
    else if (regions.labels[i]) {
      const label = regions.labels[i]!;
      labels[i] = soft[label]! > SHADOW_CONTACT * border[label]! ? 2 : 1;
    }
  }
  return labels;
}

/**
 * Backdrop fenced off from the frame's backdrop (sharp edges leave gaps, so a passage narrower
 * than five pixels does not join a stretch to it: shrunk by two, grown back by two). Such a
 * stretch is the room seen through the shoe (a lace loop, a pull loop, between straps) when the
 * shoe round it is a thin rim with the room again beyond; else it is the shoe's own surface
 * matching the backdrop (a white sole's lit band on a white sheet), and becomes shoe. (When the
 * frame's backdrop is itself cut to pieces, by grain or a busy background, nothing is fenced off
 * from it.)
 */
function enclosedBackdrop(labels: Uint8Array, ring: Int32Array, w: number, h: number): void {
  const n = w * h;
  const backdrop = borrow(Uint8Array, n);
  for (let i = 0; i < n; i += 1) backdrop[i] = labels[i] === 2 ? 1 : 0;
  const narrow = pieces(morph(backdrop, w, h, 2, false), w, h);
  const framed = new Uint8Array(narrow.sizes.length);
  for (const i of ring) framed[narrow.labels[i]!] = 1;
  framed[0] = 0;
  const main = borrow(Uint8Array, n);
  for (let i = 0; i < n; i += 1) main[i] = framed[narrow.labels[i]!]!;
  const reached = morph(main, w, h, 2, true);
  let fenced = 0;
  let all = 0;
  for (let i = 0; i < n; i += 1) {
    if (labels[i] !== 2) continue;
    all += 1;
    if (backdrop[i] && !reached[i]) fenced += 1;
  }
  if (fenced > all / 2) backdrop.fill(0);
  for (let i = 0; i < n; i += 1) backdrop[i] = backdrop[i] && !reached[i] ? 1 : 0;
  const stretches = pieces(backdrop, w, h);
  const box = stretches.sizes.map(() => [w, h, -1, -1]);
  for (let i = 0; i < n; i += 1) {
    const label = stretches.labels[i]!;
    if (!label) continue;
    const b = box[label]!;
    const x = i % w;
    const y = (i - x) / w;
    b[0] = Math.min(b[0]!, x);
    b[1] = Math.min(b[1]!, y);
    b[2] = Math.max(b[2]!, x);
    b[3] = Math.max(b[3]!, y);
  }
  const loopLike = new Uint8Array(stretches.sizes.length);
  for (let label = 1; label < stretches.sizes.length; label += 1) {
    const [x0, y0, x1, y1] = box[label]!.map((v, k) => (k < 2 ? Math.max(0, v! - RIM) : Math.min((k === 2 ? w : h) - 1, v! + RIM))) as [number, number, number, number];
    const bw = x1 - x0 + 1;
    const bh = y1 - y0 + 1;
    const local = borrow(Uint8Array, bw * bh);
    for (let y = y0; y <= y1; y += 1) for (let x = x0; x <= x1; x += 1) local[(y - y0) * bw + x - x0] = stretches.labels[y * w + x] === label ? 1 : 0;
    const grown = morph(local, bw, bh, RIM, true);
    let rim = 0;
    let room = 0;
    for (let y = y0; y <= y1; y += 1) {
      for (let x = x0; x <= x1; x += 1) {
        const k = (y - y0) * bw + x - x0;
        if (!grown[k] || local[k]) continue;
        rim += 1;
        if (reached[y * w + x]) room += 1;
      }
    }
    loopLike[label] = room >= LOOP_ROOM * rim ? 1 : 0;
  }
  for (let i = 0; i < n; i += 1) {
    const label = stretches.labels[i]!;
    if (label && !loopLike[label]) labels[i] = 1;
  }
}

/** The shoe's pieces kept, specks dropped; enclosed backdrop smaller than a hole can be is filled. */
function keptShoe(labels: Uint8Array, ring: Int32Array, w: number, h: number): Uint8Array {
  const n = w * h;
  const shoe = borrow(Uint8Array, n);
  for (let i = 0; i < n; i += 1) shoe[i] = labels[i] === 1 ? 1 : 0;
  const found = pieces(shoe, w, h);
  const largest = Math.max(0, ...found.sizes.slice(1));
  for (let i = 0; i < n; i += 1) shoe[i] = found.labels[i] && found.sizes[found.labels[i]!]! >= largest * MIN_PIECE ? 1 : 0;
  const inverse = borrow(Uint8Array, n);
  for (let i = 0; i < n; i += 1) inverse[i] = shoe[i] ? 0 : 1;
  const gaps = pieces(inverse, w, h);
  const outside = new Uint8Array(gaps.sizes.length);
  for (const i of ring) outside[gaps.labels[i]!] = 1;
  const mask = borrow(Uint8Array, n);
  for (let i = 0; i < n; i += 1) {
    const label = gaps.labels[i]!;
    mask[i] = inverse[i] && (outside[label] || gaps.sizes[label]! >= MIN_HOLE) ? 0 : 1;
  }
  return mask;
}

/**
 * The colours either side of the outline: the shoe's from its own pixels nearby, the backdrop's
 * from backdrop pixels beside it (so a shadow beside the shoe is what is taken out of its edge),
 * each a mean over a window, pixels on the outline itself left out; where no backdrop pixel is
 * near, the backdrop's model.
 */
function edgeColours(rgb: Uint8Array, mask: Uint8Array, edge: Uint8Array, model: Float32Array[], w: number, h: number) {
  const n = w * h;
  const band = borrow(Uint8Array, n);
  for (let i = 0; i < n; i += 1) band[i] = edge[i]! <= BAND ? 1 : 0;
  const shoeColour = [borrow(Float32Array, n), borrow(Float32Array, n), borrow(Float32Array, n)];
  const backColour = [borrow(Float32Array, n), borrow(Float32Array, n), borrow(Float32Array, n)];
  const r = BAND;
  const f = [0, 0, 0, 0];
  const b = [0, 0, 0, 0];
  for (let y = 0; y < h; y += 1) {
    for (let x = 0; x < w; x += 1) {
      const i = y * w + x;
      if (!band[i]) continue;
      f.fill(0);
      b.fill(0);
      for (let yy = Math.max(0, y - r); yy <= Math.min(h - 1, y + r); yy += 1) {
        for (let xx = Math.max(0, x - r); xx <= Math.min(w - 1, x + r); xx += 1) {
          const k = yy * w + xx;
          // Off the outline (more than a pixel from the other side): the shoe's or the backdrop's.
          if (edge[k]! <= 1) continue;
          const sum = mask[k] ? f : b;
          sum[0]! += rgb[k * 3]!;
          sum[1]! += rgb[k * 3 + 1]!;
          sum[2]! += rgb[k * 3 + 2]!;
          sum[3]! += 1;
        }
      }
      const backdropHere = b[3] ? null : oklabToRgb([model[0]![i]!, model[1]![i]!, model[2]![i]!]);
      for (let c = 0; c < 3; c += 1) {
        shoeColour[c]![i] = f[3] ? f[c]! / f[3] : rgb[i * 3 + c]!;
        backColour[c]![i] = b[3] ? b[c]! / b[3] : backdropHere![c]!;
      }
    }
  }
  return { band, shoeColour, backColour };
}

/** How clearly the outline is seen: the share of its pixels across which the shoe's colour and the backdrop's differ visibly. */
function visibleOutline(mask: Uint8Array, shoeColour: Float32Array[], backColour: Float32Array[], w: number, h: number): number {
  let outline = 0;
  let visible = 0;
  for (let y = 1; y < h - 1; y += 1) {
    for (let x = 1; x < w - 1; x += 1) {
      const i = y * w + x;
      if (!mask[i] || (mask[i - 1] && mask[i + 1] && mask[i - w] && mask[i + w])) continue;
      outline += 1;
      const inside = rgbToOklab([shoeColour[0]![i]!, shoeColour[1]![i]!, shoeColour[2]![i]!]);
      const beside = rgbToOklab([backColour[0]![i]!, backColour[1]![i]!, backColour[2]![i]!]);
      if (Math.hypot(inside[0] - beside[0], inside[1] - beside[1], inside[2] - beside[2]) >= VISIBLE_EDGE) visible += 1;
    }
  }
  return outline ? visible / outline : 0;
}

export function segment(rgb: Uint8Array, w: number, h: number): Segmentation {
  const n = w * h;
  const ring = edgeRing(w, h);
  const { planes, noise: grain, smoothed } = calmPlanes(rgb, ring, w, h);
  const { coefficients, strays } = edgeSurface(planes, ring, w, h);
  // What "matches the backdrop" allows: the grain, or how far the backdrop strays along the edge.
  const noise = Math.max(grain, (1.4826 * strays) / 2);
  const { model, classes } = sortAgainstBackdrop(planes, coefficients, noise, w, h);
  const sharp = sharpEdges(planes, noise, smoothed, w, h);
  const labels = doubtSettled(classes, fences(sharp, smoothed, w, h), w, h);
  enclosedBackdrop(labels, ring, w, h);
  // The frame's outermost pixels are backdrop wherever they are not surely shoe; what is left
  // (the fences) goes to the side it joins with the smallest step in colour.
  for (const i of ring) if (!labels[i] && (i % w === 0 || i % w === w - 1 || i < w || i >= n - w)) labels[i] = 2;
  flood(labels, planes, w, h);
  const mask = keptShoe(labels, ring, w, h);
  const edge = chessboard(mask, w, h);
  const { band, shoeColour, backColour } = edgeColours(rgb, mask, edge, model, w, h);
  const lab = (x: number, y: number) => [0, 1, 2].map((p) => sampleAt(model[p]!, w, h, x, y)) as [number, number, number];
  const background: BackgroundModel = { lab, rgb: (x, y) => oklabToRgb(lab(x, y)), noise };
  return {
    mask,
    edge,
    background,
    band,
    shoeColour,
    backColour,
    visibleOutline: visibleOutline(mask, shoeColour, backColour, w, h),
    evidence: countOf(classes, 1) / n,
    structure: countOf(sharp, 1) / n,
  };
}

/** A copy of the photo `side` px across at most (sharp's resize averages the grain away). */
export async function workingCopy(raw: Buffer, width: number, height: number, side = WORK_SIDE) {
  const sharp = await loadSharp();
  const scale = Math.min(1, side / Math.max(width, height));
  const w = Math.max(1, Math.round(width * scale));
  const h = Math.max(1, Math.round(height * scale));
  const data = await sharp(raw, { raw: { width, height, channels: 3 } }).resize(w, h, { kernel: 'linear' }).blur(0.6).raw().toBuffer();
  return { data: new Uint8Array(data.buffer, data.byteOffset, data.length), w, h };
}

export class NoShoeFound extends Error {
  constructor() {
    super('no shoe stands out from the background');
    this.name = 'NoShoeFound';
  }
}

/** The corrected photo, for layouts that show it whole. */
export async function correctedPhoto(bytes: Buffer, gains: [number, number, number]): Promise<Sharp> {
  const sharp = await loadSharp();
  return sharp(bytes, { limitInputPixels: MAX_IMAGE_PIXELS }).rotate().linear(gains, [0, 0, 0]);
}

// ---------------------------------------------------------------------------------------------
// The cut-out at full size

/**
 * Alpha and colour at full size: off the band, the working mask as it is; on it, each pixel's
 * place between the backdrop's colour and the shoe's beside it, and its colour unmixed. Only the
 * full-size pixels over the grown mask's box are visited (elsewhere nothing shows): returns that
 * region's alpha, and its colour where that was unmixed (`unmixed` 1; elsewhere the photo's own is kept).
 */
function refine(photo: Buffer, width: number, height: number, found: Segmentation, w: number, h: number) {
  const { mask, edge, shoeColour, backColour } = found;
  // The working pixels anything shows from: the mask and the band round it.
  let wx0 = w;
  let wx1 = -1;
  let wy0 = h;
  let wy1 = -1;
  const refineBand = borrow(Uint8Array, w * h);
  for (let y = 0; y < h; y += 1) {
    for (let x = 0, i = y * w; x < w; x += 1, i += 1) {
      if (edge[i]! <= REFINE) refineBand[i] = 1;
      else if (!mask[i]) continue;
      if (x < wx0) wx0 = x;
      if (x > wx1) wx1 = x;
      if (y < wy0) wy0 = y;
      if (y > wy1) wy1 = y;
    }
  }
  const soft = borrow(Float32Array, w * h);
  for (let i = 0; i < soft.length; i += 1) soft[i] = mask[i]!;
  const kx = w / width;
  const ky = h / height;
  // Each full-size column's and row's working pixel (nearest), and the full-size span over the box.
  const columnOf = Int32Array.from({ length: width }, (_, x) => Math.min(w - 1, Math.floor((x + 0.5) * kx)));
  const rowOf = Int32Array.from({ length: height }, (_, y) => Math.min(h - 1, Math.floor((y + 0.5) * ky)));
  let left = 0;
  while (left < width && columnOf[left]! < wx0) left += 1;
  let right = width - 1;
  while (right >= left && columnOf[right]! > wx1) right -= 1;
  let top = 0;
  while (top < height && rowOf[top]! < wy0) top += 1;
  let bottom = height - 1;
  while (bottom >= top && rowOf[bottom]! > wy1) bottom -= 1;
  const region = { left, top, width: Math.max(0, right - left + 1), height: Math.max(0, bottom - top + 1) };
  const alpha = borrow(Uint8Array, region.width * region.height);
  const colour = borrow(Uint8Array, region.width * region.height * 3);
  const unmixed = borrow(Uint8Array, region.width * region.height);
  const f = [0, 0, 0];
  const b = [0, 0, 0];
  for (let y = top; y <= bottom; y += 1) {
    const sy = (y + 0.5) * ky - 0.5;
    const row = rowOf[y]! * w;
    for (let x = left; x <= right; x += 1) {
      const j = row + columnOf[x]!;
      const i = y * width + x;
      const r = (y - top) * region.width + x - left;
      if (!refineBand[j]) {
        alpha[r] = mask[j] ? 255 : 0;
        continue;
      }
      const sx = (x + 0.5) * kx - 0.5;
      let dot = 0;
      let span = 0;
      for (let c = 0; c < 3; c += 1) {
        f[c] = sampleAt(shoeColour[c]!, w, h, sx, sy);
        b[c] = sampleAt(backColour[c]!, w, h, sx, sy);
        dot += (photo[i * 3 + c]! - b[c]!) * (f[c]! - b[c]!);
        span += (f[c]! - b[c]!) ** 2;
      }
      const along = span > 0 ? dot / span : 0;
      let off = 0;
      for (let c = 0; c < 3; c += 1) off += (photo[i * 3 + c]! - b[c]! - along * (f[c]! - b[c]!)) ** 2;
      // Trust that line where the two colours are far apart and the pixel lies near it; else the
      // working mask's edge, scaled up smoothly.
      const contrast = Math.sqrt(span);
      const trust = Math.min(1, Math.max(0, (contrast - 10) / 25)) * Math.min(1, Math.max(0, 2 - Math.sqrt(off) / Math.max(6, contrast * 0.25)));
      const coarse = Math.min(1, Math.max(0, (sampleAt(soft, w, h, sx, sy) - 0.5) * 2 + 0.5));
      // Grain moves alpha a little either way: the ends of the scale are snapped to 0 and 1.
      const a = Math.min(1, Math.max(0, ((trust * Math.min(1, Math.max(0, along)) + (1 - trust) * coarse) - 0.04) / 0.92));
      alpha[r] = Math.round(a * 255);
      if (a <= 0 || a >= 1) continue;
      // F = (I − (1 − α)·B) / α, leaning on the shoe's colour nearby where alpha is too small to divide by.
      const lean = Math.min(1, Math.max(0, (a - 0.05) / 0.45));
      for (let c = 0; c < 3; c += 1) {
        const own = (photo[i * 3 + c]! - (1 - a) * b[c]!) / a;
        colour[r * 3 + c] = Math.round(Math.min(255, Math.max(0, lean * own + (1 - lean) * f[c]!)));
      }
      unmixed[r] = 1;
    }
  }
  return { region, alpha, colour, unmixed };
}

/**
 * What the cut-out keeps of the refined region: the mask at full size (alpha at least half), the
 * box of every pixel that shows, and that box's pixels (unmixed where they were, else the photo's)
 * with the gains applied.
 */
function keptCutout(photo: Buffer, width: number, height: number, refined: ReturnType<typeof refine>, gains: [number, number, number]): Cutout {
  const { region, alpha, colour, unmixed } = refined;
  // One kind of array for both sources, so that reading either is the same code.
  const pixels = new Uint8Array(photo.buffer, photo.byteOffset, photo.length);
  const full = new Uint8Array(width * height);
  let left = width;
  let right = -1;
  let top = height;
  let bottom = -1;
  for (let y = 0; y < region.height; y += 1) {
    for (let x = 0; x < region.width; x += 1) {
      const a = alpha[y * region.width + x]!;
      if (!a) continue;
      const fx = x + region.left;
      const fy = y + region.top;
      if (a >= 128) full[fy * width + fx] = 255;
      if (fx < left) left = fx;
      if (fx > right) right = fx;
      if (fy < top) top = fy;
      if (fy > bottom) bottom = fy;
    }
  }
  if (right < 0) throw new NoShoeFound();
  const box = { left, top, width: right - left + 1, height: bottom - top + 1 };
  const rgba = new Uint8Array(box.width * box.height * 4);
  for (let y = 0; y < box.height; y += 1) {
    for (let x = 0; x < box.width; x += 1) {
      const r = (y + top - region.top) * region.width + x + left - region.left;
      const a = alpha[r]!;
      if (!a) continue;
      const source = unmixed[r] ? colour : pixels;
      const k = unmixed[r] ? r * 3 : ((y + top) * width + x + left) * 3;
      const o = (y * box.width + x) * 4;
      rgba[o] = Math.min(255, source[k]! * gains[0] + 0.5);
      rgba[o + 1] = Math.min(255, source[k + 1]! * gains[1] + 0.5);
      rgba[o + 2] = Math.min(255, source[k + 2]! * gains[2] + 0.5);
      rgba[o + 3] = a;
    }
  }
  return { rgba, width: box.width, height: box.height, box, source: { width, height }, mask: full, gains };
}

export async function cutOut(bytes: Buffer): Promise<Cutout> {
  const sharp = await loadSharp();
  const oriented = await sharp(bytes, { limitInputPixels: MAX_IMAGE_PIXELS }).rotate().removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const { width, height } = oriented.info;
  const photo = oriented.data;
  const { data: small, w, h } = await workingCopy(photo, width, height);
  // Everything from here on is synchronous: the working arrays are lent for it, and only the
  // cut-out's own mask and pixels are made to keep.
  return lending(() => {
    const found = segment(small, w, h);

    // Gains that bring the background, at the frame's centre, to a neutral white.
    const centre = found.background.rgb(w / 2, h / 2);
    const gains = centre.map((v) => Math.min(1.6, Math.max(0.85, TARGET_WHITE / Math.max(1, v)))) as [number, number, number];

    return keptCutout(photo, width, height, refine(photo, width, height, found, w, h), gains);
  });
}
