// Shadows of a cut-out: on a studio floor seen across (a contact shadow where the sole meets the
// floor, ambient occlusion around it, and a soft shadow cast away from the key light) and on a
// table seen from above (the outline's contact shadow and a drop shadow away from the light).
// All are worked out at half size, where they are soft enough not to lose anything, and scaled up.
import { gaussianBlur } from './blur';
import { coverage, type Layer, type Occlusion } from './layer';
import { shadowOffset, type Light } from './light';
import { upsample } from './noise';
import type { Region } from './raster';
import { borrow } from '../arrays';

/** The lowest opaque row (alpha ≥ 128) of each column of a layer (−1 for an empty column). */
export function lowestOpaque({ width: w, height: h, rgba }: Layer): Int32Array {
  const bottom = new Int32Array(w).fill(-1);
  for (let x = 0; x < w; x += 1) {
    for (let y = h - 1; y >= 0; y -= 1) {
      if (rgba[(y * w + x) * 4 + 3]! >= 128) {
        bottom[x] = y;
        break;
      }
    }
  }
  return bottom;
}

/**
 * The line the shoe stands on: the convex hull of its bottom profile seen from below, as a height
 * per column. A sole touches the floor where its profile meets the hull (heel and forefoot) and
 * stands clear of it elsewhere (the arch, a toe spring).
 */
export function groundLine(bottom: Int32Array): Float32Array {
  const points: [number, number][] = [];
  bottom.forEach((y, x) => {
    if (y >= 0) points.push([x, y]);
  });
  const hull: [number, number][] = [];
  for (const p of points) {
    // Keep the chain turning so every point lies on or above it (smaller y).
    while (hull.length >= 2) {
      const [ax, ay] = hull[hull.length - 2]!;
      const [bx, by] = hull[hull.length - 1]!;
      if ((bx - ax) * (p[1] - ay) - (by - ay) * (p[0] - ax) >= 0) hull.pop();
      else break;
    }
    hull.push(p);
  }
  const line = new Float32Array(bottom.length).fill(NaN);
  for (let k = 0; k + 1 < hull.length; k += 1) {
    const [ax, ay] = hull[k]!;
    const [bx, by] = hull[k + 1]!;
    for (let x = ax; x <= bx; x += 1) line[x] = ay + ((by - ay) * (x - ax)) / Math.max(1, bx - ax);
  }
  if (hull.length === 1) line[hull[0]![0]] = hull[0]![1];
  return line;
}

export interface FloorShadowOptions {
  light: Light;
  /** How much a step away from the camera shortens on the picture (the floor seen at a low angle). */
  depth: number;
  /** Darkness right where the sole meets the floor, 0–1. */
  contact: number;
  /** Darkness of the broad occlusion around the shoe, 0–1. */
  ambient: number;
  /** Darkness of the shadow cast away from the light, 0–1 (0 for none). */
  cast: number;
}

/** A one-dimensional Gaussian blur of `values`. */
function blurLine(values: Float32Array, sigma: number): Float32Array {
  return gaussianBlur(values, values.length, 1, sigma, 0);
}

/**
 * The shadow a standing shoe throws on a studio floor: tight and dark where the sole touches,
 * soft occlusion further out, and (when `cast` > 0) a soft shadow away from the light, fading
 * with the height of what throws it. The contact and the occlusion are a profile across the shoe
 * (how close each column's sole comes to the floor, blurred sideways) times a profile away from
 * the line it stands on, which is what blurring the footprint would give, at a fraction of the cost.
 */
export function floorShadow(layer: Layer, options: FloorShadowOptions): Occlusion {
  const { width: w, height: h } = layer;
  const bottom = lowestOpaque(layer);
  const line = groundLine(bottom);
  const columns = Array.from(line.keys()).filter((x) => Number.isFinite(line[x]!));
  if (!columns.length) return { region: { left: layer.left, top: layer.top, width: 0, height: 0 }, data: new Float32Array(0) };
  const first = columns[0]!;
  const last = columns[columns.length - 1]!;
  const size = Math.max(16, last - first + 1);
  const coreSigma = size * 0.006;
  const softSigma = size * 0.045;
  const [dx, dy] = shadowOffset(options.light, 1, 'floor', options.depth);
  const castReach = options.cast > 0 ? h * 0.8 : 0;
  const pad = Math.ceil(size * 0.16);
  const padLeft = Math.ceil(pad + (dx < 0 ? -dx * castReach : 0));
  const padRight = Math.ceil(pad + (dx > 0 ? dx * castReach : 0));
  let highest = Infinity;
  let lowest = -Infinity;
  for (const x of columns) {
    highest = Math.min(highest, line[x]!);
    lowest = Math.max(lowest, line[x]!);
  }
  // The footprint reaches back from the line by the shoe's depth, seen shortened.
  const band = size * 0.2 * options.depth;
  const top = Math.floor(highest - band - softSigma * 2 - (dy < 0 ? -dy * castReach : 0));
  const bottomEdge = Math.ceil(lowest + softSigma * 3.5);
  const W = w + padLeft + padRight;
  const H = bottomEdge - top;

  // Across: how close each column's sole comes to the floor, blurred sideways.
  const weight = new Float32Array(W);
  const ground = new Float32Array(W);
  const gapScale = size * 0.01;
  for (let X = 0; X < W; X += 1) {
    const x = Math.min(last, Math.max(first, X - padLeft));
    ground[X] = line[x]!;
    const inside = X - padLeft >= first && X - padLeft <= last;
    if (inside && bottom[x]! >= 0) weight[X] = Math.exp(-(line[x]! - bottom[x]!) / gapScale);
  }
  // Under the shoe itself (behind the line, e.g. beneath an arch or a raised heel) the floor is
  // covered, however far the sole stands above it; and the whole shoe, not only where it
  // touches, hides the sky from the floor around it.
  const presence = new Float32Array(W);
  for (let X = padLeft + first; X <= padLeft + last; X += 1) presence[X] = bottom[X - padLeft]! >= 0 ? 0.8 : 0;
  const coreAcross = blurLine(weight, coreSigma * 2);
  const underAcross = blurLine(presence, coreSigma * 2);
  const softAcross = blurLine(weight.map((v, X) => 0.5 * v + 0.5 * presence[X]!), size * 0.07);

  const cast = options.cast > 0 ? castShadow(layer, line, first, last, { dx, dy, reach: castReach, left: padLeft, top, W, H, blur: size * 0.035 }) : null;

  // Away from the line the shoe stands on, in whole pixels: below it (towards the camera) the
  // floor shows; above it, only past the shoe's ends, and the floor there is seen shortened.
  const reachUp = Math.ceil(lowest - top) + 1;
  const reachDown = H + 1;
  const coreAt = new Float32Array(reachUp + reachDown);
  const softAt = new Float32Array(reachUp + reachDown);
  for (let k = 0; k < coreAt.length; k += 1) {
    const d = k - reachUp;
    const behind = Math.max(0, -d - band);
    coreAt[k] = d > 0 ? Math.exp(-d / coreSigma) : 0.7 * Math.exp(-behind / (coreSigma * 2));
    const t = d > 0 ? d / softSigma : behind / (softSigma * 0.6);
    softAt[k] = Math.exp(-0.5 * t * t);
  }
  // Each column's factors and where its profile starts, then the field a row at a time.
  const coreX = new Float64Array(W);
  const underX = new Float64Array(W);
  const softX = new Float64Array(W);
  const start = new Int32Array(W);
  for (let X = 0; X < W; X += 1) {
    coreX[X] = options.contact * 1.4 * coreAcross[X]!;
    underX[X] = options.contact * 1.4 * Math.max(coreAcross[X]!, underAcross[X]!);
    softX[X] = options.ambient * 1.3 * softAcross[X]!;
    start[X] = reachUp - Math.round(ground[X]!) + top;
  }
  const field = borrow(Float32Array, W * H);
  for (let Y = 0; Y < H; Y += 1) {
    for (let X = 0, i = Y * W; X < W; X += 1, i += 1) {
      const k = start[X]! + Y;
      const contact = (k > reachUp ? coreX[X]! : underX[X]!) * coreAt[k]!;
      const keep = (1 - Math.min(options.contact, contact)) * (1 - Math.min(options.ambient, softX[X]! * softAt[k]!));
      field[i] = 1 - (cast ? keep * (1 - options.cast * cast[i]!) : keep);
    }
  }
  return { region: { left: layer.left - padLeft, top: layer.top + top, width: W, height: H }, data: field };
}

interface CastFrame {
  dx: number;
  dy: number;
  reach: number;
  left: number;
  top: number;
  W: number;
  H: number;
  blur: number;
}

/**
 * The shoe's shadow thrown on the floor away from the light, over the occlusion's frame. Each floor
 * point looks back along the light to the shoe: a straight ground line through the contact points
 * makes the projection affine, so it inverts exactly. Worked out at a quarter size: it is soft.
 */
function castShadow(layer: Layer, line: Float32Array, first: number, last: number, frame: CastFrame): Float32Array {
  const { width: w, height: h, rgba } = layer;
  const q = 4;
  const slope = last > first ? (line[last]! - line[first]!) / (last - first) : 0;
  const base = (x: number) => line[first]! + slope * (x - first);
  const denominator = frame.dy - slope * frame.dx;
  const qw = Math.ceil(frame.W / q);
  const qh = Math.ceil(frame.H / q);
  const thrown = borrow(Float32Array, qw * qh);
  if (Math.abs(denominator) > 1e-6) {
    for (let j = 0; j < qh; j += 1) {
      const y = j * q + q / 2 + frame.top;
      for (let i = 0; i < qw; i += 1) {
        const X = i * q + q / 2 - frame.left;
        const lift = (y - base(X)) / denominator;
        if (lift <= 0 || lift > frame.reach) continue;
        const sx = Math.round(X - frame.dx * lift);
        const sy = Math.round(base(sx) - lift);
        if (sx < 0 || sx >= w || sy < 0 || sy >= h) continue;
        thrown[j * qw + i] = (rgba[(sy * w + sx) * 4 + 3]! / 255) * Math.exp(-lift / (h * 0.4));
      }
    }
  }
  const soft = gaussianBlur(thrown, qw, qh, frame.blur / q, (frame.blur * 0.6) / q);
  return upsample(soft, qw, qh, frame.W, frame.H);
}

const SCALE = 2;

/** Half-size coverage of a layer. */
function halfCoverage(layer: Layer): { alpha: Float32Array; w: number; h: number } {
  const full = coverage(layer);
  const w = Math.ceil(layer.width / SCALE);
  const h = Math.ceil(layer.height / SCALE);
  const alpha = new Float32Array(w * h);
  for (let y = 0; y < layer.height; y += 1) {
    for (let x = 0; x < layer.width; x += 1) alpha[Math.floor(y / SCALE) * w + Math.floor(x / SCALE)]! += full[y * layer.width + x]! / (SCALE * SCALE);
  }
  return { alpha, w, h };
}

/** A half-size field scaled up to a full-size occlusion whose region starts at (left, top). */
function toOcclusion(field: Float32Array, w: number, h: number, left: number, top: number): Occlusion {
  const width = w * SCALE;
  const height = h * SCALE;
  return { region: { left, top, width, height }, data: upsample(field, w, h, width, height) };
}

export interface TableShadowOptions {
  light: Light;
  /** How high the thing lies above the table, px on the picture: sets the drop's offset and softness. */
  height: number;
  /** Darkness of the thin shadow along the outline, 0–1. */
  contact: number;
  /** Darkness of the soft drop shadow, 0–1. */
  drop: number;
}

/** The shadow of something lying on a table seen from above, lit by `light`. */
export function tableShadow(layer: Layer, options: TableShadowOptions): Occlusion {
  const { alpha, w, h } = halfCoverage(layer);
  const height = options.height / SCALE;
  const [ox, oy] = shadowOffset(options.light, height, 'table');
  const blur = Math.max(1, height * 0.9);
  const pad = Math.ceil(blur * 3 + Math.max(Math.abs(ox), Math.abs(oy)));
  const W = w + pad * 2;
  const H = h + pad * 2;
  const placed = new Float32Array(W * H);
  const shifted = new Float32Array(W * H);
  const sx = Math.round(ox);
  const sy = Math.round(oy);
  for (let y = 0; y < h; y += 1) {
    for (let x = 0; x < w; x += 1) {
      const a = alpha[y * w + x]!;
      if (!a) continue;
      placed[(y + pad) * W + x + pad] = a;
      const ty = y + pad + sy;
      const tx = x + pad + sx;
      if (ty >= 0 && ty < H && tx >= 0 && tx < W) shifted[ty * W + tx] = a;
    }
  }
  const contact = gaussianBlur(placed, W, H, Math.max(0.8, height * 0.12));
  const drop = gaussianBlur(shifted, W, H, blur);
  const field = new Float32Array(W * H);
  for (let i = 0; i < field.length; i += 1) field[i] = 1 - (1 - options.contact * contact[i]!) * (1 - options.drop * drop[i]!);
  return toOcclusion(field, W, H, layer.left - pad * SCALE, layer.top - pad * SCALE);
}

/** The soft shadow of a card with rounded corners floating over a surface, offset down and right by `lift`. */
export function cardShadow(card: Region, radius: number, lift: number, strength: number): Occlusion {
  const blur = Math.max(1, lift * 0.8);
  const pad = Math.ceil(blur * 3 + lift);
  const W = Math.ceil(card.width / SCALE) + Math.ceil((pad * 2) / SCALE);
  const H = Math.ceil(card.height / SCALE) + Math.ceil((pad * 2) / SCALE);
  const field = new Float32Array(W * H);
  const r = radius / SCALE;
  const w = card.width / SCALE;
  const h = card.height / SCALE;
  const ox = (pad + lift * 0.4) / SCALE;
  const oy = (pad + lift) / SCALE;
  for (let y = 0; y < H; y += 1) {
    for (let x = 0; x < W; x += 1) {
      const qx = Math.abs(x + 0.5 - ox - w / 2) - w / 2 + r;
      const qy = Math.abs(y + 0.5 - oy - h / 2) - h / 2 + r;
      const d = Math.hypot(Math.max(qx, 0), Math.max(qy, 0)) + Math.min(Math.max(qx, qy), 0) - r;
      field[y * W + x] = d < 0 ? strength : 0;
    }
  }
  return toOcclusion(gaussianBlur(field, W, H, blur / SCALE), W, H, card.left - pad, card.top - pad);
}
