// Which of what stands out is a shoe. The network marks everything salient: the shoe, and a sign on
// the wall behind it, a sheet of paper, the box it came in. A seller's photo centres the product
// and fills much of the frame with it, and a pair is two pieces of one size; a sheet of
// paper, a sign, a receipt or a box's side is flat — one colour, and a rectangle however it lies.
// So: the pieces that stand out surely (p ≥ ½) are measured; the main piece is the largest, weighed
// by how near the frame's centre it sits, among those that are not flat rectangles; another piece
// joins it when it is of a like size (its pair) or a small part of its colour close by, cut off by a
// strap or a shadow line. Holes the network is unsure of (light leather it half-saw through) are
// filled; holes it is sure of (a lace loop, the gap under an arch) stay.
import { rgbToOklab } from '../../contract/colour';
import { borrow, giveBack } from './arrays';
import { pieces } from './masks';

/** Salience above which a pixel stands out. */
const STANDS_OUT = 0.5;
/** Pieces smaller than this share of the frame are specks. */
const SPECK = 0.002;
/** A flat rectangle: filling this share of its own oriented box, in this little colour spread (OKLab). */
const RECTANGLE_FILL = 0.88;
const FLAT_SPREAD = 0.05;
/** Another piece is the main one's pair when at least this share of its size (a pair's two shoes may differ in colour, as flip-flops do). */
const PAIR_SIZE = 0.3;
/** A smaller piece this close in colour (OKLab ΔE of the means) and this close (share of the frame's diagonal) to the main one is a part of the same shoe. */
const PAIR_COLOUR = 0.12;
const PART_GAP = 0.03;
/** Holes whose mean salience is below this are seen through (a lace loop); above it, filled. */
const SEEN_THROUGH = 0.2;
/** A hole within this OKLab distance of the backdrop's mean colour shows the backdrop. */
const BACKDROP_LIKE = 0.12;
/** Holes smaller than this many working pixels are filled whatever the salience. */
const MIN_HOLE = 12;

export interface Piece {
  label: number;
  area: number;
  /** Centroid, working pixels. */
  cx: number;
  cy: number;
  /** Bounding box, working pixels (inclusive). */
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  /** Mean colour and its spread (root mean square distance from the mean), OKLab. */
  lab: [number, number, number];
  spread: number;
  /** Share of its own oriented (principal-axes) box the piece fills. */
  fill: number;
}

function measure(labels: Int32Array, sizes: number[], rgb: Uint8Array, w: number, h: number, frame: number): Piece[] {
  const count = sizes.length;
  const sums = new Float64Array(count * 10);
  const boxes = new Int32Array(count * 4).fill(-1);
  const big = sizes.map((size) => size >= frame * SPECK);
  for (let y = 0; y < h; y += 1) {
    for (let x = 0; x < w; x += 1) {
      const i = y * w + x;
      const label = labels[i]!;
      if (!label || !big[label]) continue;
      const lab = rgbToOklab([rgb[i * 3]!, rgb[i * 3 + 1]!, rgb[i * 3 + 2]!]);
      const s = label * 10;
      sums[s]! += x;
      sums[s + 1]! += y;
      sums[s + 2]! += x * x;
      sums[s + 3]! += y * y;
      sums[s + 4]! += x * y;
      sums[s + 5]! += lab[0];
      sums[s + 6]! += lab[1];
      sums[s + 7]! += lab[2];
      sums[s + 8]! += lab[0] ** 2 + lab[1] ** 2 + lab[2] ** 2;
      const b = label * 4;
      if (boxes[b]! < 0) {
        boxes[b] = x;
        boxes[b + 1] = y;
        boxes[b + 2] = x;
        boxes[b + 3] = y;
      } else {
        boxes[b] = Math.min(boxes[b]!, x);
        boxes[b + 2] = Math.max(boxes[b + 2]!, x);
        boxes[b + 3] = y;
      }
    }
  }
  // The principal axes from the second moments; the oriented box from each pixel's place along them.
  const axes = new Float64Array(count * 2);
  const extents = new Float64Array(count * 4);
  for (let label = 1; label < count; label += 1) {
    if (!big[label]) continue;
    const n = sizes[label]!;
    const s = label * 10;
    const cx = sums[s]! / n;
    const cy = sums[s + 1]! / n;
    const angle = 0.5 * Math.atan2(2 * (sums[s + 4]! / n - cx * cy), sums[s + 2]! / n - cx * cx - (sums[s + 3]! / n - cy * cy));
    axes[label * 2] = Math.cos(angle);
    axes[label * 2 + 1] = Math.sin(angle);
    extents.fill(Infinity, label * 4, label * 4 + 2);
    extents.fill(-Infinity, label * 4 + 2, label * 4 + 4);
  }
  for (let y = 0; y < h; y += 1) {
    for (let x = 0; x < w; x += 1) {
      const label = labels[y * w + x]!;
      if (!label || !big[label]) continue;
      const c = axes[label * 2]!;
      const sn = axes[label * 2 + 1]!;
      const u = x * c + y * sn;
      const v = -x * sn + y * c;
      const e = label * 4;
      extents[e] = Math.min(extents[e]!, u);
      extents[e + 1] = Math.min(extents[e + 1]!, v);
      extents[e + 2] = Math.max(extents[e + 2]!, u);
      extents[e + 3] = Math.max(extents[e + 3]!, v);
    }
  }
  const found: Piece[] = [];
  for (let label = 1; label < count; label += 1) {
    if (!big[label]) continue;
    const n = sizes[label]!;
    const s = label * 10;
    const e = label * 4;
    const boxArea = (extents[e + 2]! - extents[e]! + 1) * (extents[e + 3]! - extents[e + 1]! + 1);
    const lab: [number, number, number] = [sums[s + 5]! / n, sums[s + 6]! / n, sums[s + 7]! / n];
    const spread = Math.sqrt(Math.max(0, sums[s + 8]! / n - (lab[0] ** 2 + lab[1] ** 2 + lab[2] ** 2)));
    const b = label * 4;
    found.push({ label, area: n, cx: sums[s]! / n, cy: sums[s + 1]! / n, x0: boxes[b]!, y0: boxes[b + 1]!, x1: boxes[b + 2]!, y1: boxes[b + 3]!, lab, spread, fill: Math.min(1, n / boxArea) });
  }
  return found;
}

const flat = (piece: Piece) => piece.fill >= RECTANGLE_FILL && piece.spread <= FLAT_SPREAD;
const colourGap = (a: Piece, b: Piece) => Math.hypot(a.lab[0] - b.lab[0], a.lab[1] - b.lab[1], a.lab[2] - b.lab[2]);

/** The gap between two pieces' boxes, in working pixels (0 when they overlap). */
const boxGap = (a: Piece, b: Piece) => Math.hypot(Math.max(0, a.x0 - b.x1, b.x0 - a.x1), Math.max(0, a.y0 - b.y1, b.y0 - a.y1));

/** The main piece, then every piece that belongs with it. */
export function shoePieces(found: Piece[], w: number, h: number): Piece[] {
  const diagonal = Math.hypot(w, h);
  const weight = (p: Piece) => p.area * (1 - Math.min(0.6, Math.hypot(p.cx / w - 0.5, p.cy / h - 0.5)));
  const candidates = found.filter((p) => !flat(p));
  const main = (candidates.length ? candidates : found).reduce<Piece | null>((best, p) => (!best || weight(p) > weight(best) ? p : best), null);
  if (!main) return [];
  return found.filter(
    (p) =>
      p === main ||
      (!flat(p) && (p.area >= main.area * PAIR_SIZE || (colourGap(p, main) <= PAIR_COLOUR && boxGap(p, main) <= diagonal * PART_GAP))),
  );
}

export interface KeptShoes {
  /** 1 on the kept shoes (their holes filled as above), 0 elsewhere. */
  mask: Uint8Array;
  kept: Piece[];
  /** Working pixels in salient pieces left out. */
  droppedArea: number;
}

/** The shoes among what stands out in `salient` (0–1 per working pixel). */
export function keepShoes(salient: Float32Array, rgb: Uint8Array, w: number, h: number): KeptShoes {
  const n = w * h;
  const on = borrow(Uint8Array, n);
  for (let i = 0; i < n; i += 1) on[i] = salient[i]! >= STANDS_OUT ? 1 : 0;
  const { labels, sizes } = pieces(on, w, h);
  const found = measure(labels, sizes, rgb, w, h, n);
  const kept = shoePieces(found, w, h);
  const keep = new Uint8Array(sizes.length);
  for (const p of kept) keep[p.label] = 1;
  const shoe = borrow(Uint8Array, n);
  let droppedArea = 0;
  for (let i = 0; i < n; i += 1) {
    shoe[i] = keep[labels[i]!]!;
    if (labels[i] && !shoe[i] && sizes[labels[i]!]! >= n * SPECK) droppedArea += 1;
  }
  giveBack(labels);
  // Holes: what is not shoe and not connected to the frame's edge.
  const inverse = on;
  for (let i = 0; i < n; i += 1) inverse[i] = shoe[i] ? 0 : 1;
  const gaps = pieces(inverse, w, h);
  const outside = new Uint8Array(gaps.sizes.length);
  const salience = new Float64Array(gaps.sizes.length);
  for (let x = 0; x < w; x += 1) {
    outside[gaps.labels[x]!] = 1;
    outside[gaps.labels[(h - 1) * w + x]!] = 1;
  }
  for (let y = 0; y < h; y += 1) {
    outside[gaps.labels[y * w]!] = 1;
    outside[gaps.labels[y * w + w - 1]!] = 1;
  }
  // A hole the network saw through is the backdrop seen through the shoe only if it has the
  // backdrop's colour: the dark inside of a loafer is the shoe's, however little it stood out.
  const colours = new Float64Array(gaps.sizes.length * 3);
  const backdrop = [0, 0, 0, 0];
  for (let i = 0; i < n; i += 1) {
    const label = gaps.labels[i]!;
    salience[label]! += salient[i]!;
    for (let c = 0; c < 3; c += 1) colours[label * 3 + c]! += rgb[i * 3 + c]!;
    if (outside[label] && salient[i]! < SEEN_THROUGH && i % 5 === 0) {
      for (let c = 0; c < 3; c += 1) backdrop[c]! += rgb[i * 3 + c]!;
      backdrop[3]! += 1;
    }
  }
  const backdropLab = rgbToOklab([0, 1, 2].map((c) => backdrop[c]! / Math.max(1, backdrop[3]!)) as [number, number, number]);
  const seenThrough = (label: number) => {
    const size = gaps.sizes[label]!;
    if (size < MIN_HOLE || salience[label]! / size >= SEEN_THROUGH) return false;
    if (!backdrop[3]) return true;
    const lab = rgbToOklab([0, 1, 2].map((c) => colours[label * 3 + c]! / size) as [number, number, number]);
    return Math.hypot(lab[0] - backdropLab[0], lab[1] - backdropLab[1], lab[2] - backdropLab[2]) <= BACKDROP_LIKE;
  };
  const filled = new Uint8Array(gaps.sizes.length);
  for (let label = 1; label < gaps.sizes.length; label += 1) filled[label] = !outside[label] && !seenThrough(label) ? 1 : 0;
  for (let i = 0; i < n; i += 1) if (filled[gaps.labels[i]!]) shoe[i] = 1;
  giveBack(gaps.labels);
  giveBack(on);
  return { mask: shoe, kept, droppedArea };
}
