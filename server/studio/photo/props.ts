// Props as lit solids, shaded analytically with the scene's one light: Lambert, a soft specular
// highlight, ambient occlusion where they meet the ground, and soft shadows thrown away from the
// light. On a studio floor seen across: a podium (cylinder), a plinth (box), an arch and a
// sphere. On a table seen from above: a round or square plinth, a ball, and a folded card or
// fabric swatch. Each is drawn straight into the scene's linear-light raster, its edges
// antialiased from a signed distance. Nothing here is clip art: every pixel is a normal lit.
import type { Rgb } from '../../../contract/colour';
import { gaussianBlur } from './blur';
import { irradiance, shadowOffset, type Light, type Vec3 } from './light';
import { upsample } from './noise';
import { linearOf, shade, type Raster, type Region } from './raster';

/** Props on a studio floor seen across; `base` is the picture row of the prop's foot nearest the camera. */
export type FloorProp =
  | { kind: 'podium'; x: number; base: number; radius: number; height: number; colour: Rgb }
  | { kind: 'plinth'; x: number; base: number; width: number; depth: number; height: number; colour: Rgb; yaw?: number }
  | { kind: 'arch'; x: number; base: number; width: number; height: number; thickness: number; colour: Rgb; /** From the wall behind it, px. */ distance: number }
  | { kind: 'sphere'; x: number; base: number; radius: number; colour: Rgb };

/** Props on a table seen from above; (x, y) is the centre on the picture, `lift` its height in px. */
export type TableProp =
  | { kind: 'disc'; x: number; y: number; radius: number; lift: number; colour: Rgb }
  | { kind: 'block'; x: number; y: number; width: number; length: number; angle: number; lift: number; colour: Rgb }
  | { kind: 'ball'; x: number; y: number; radius: number; colour: Rgb }
  | { kind: 'fold'; x: number; y: number; width: number; length: number; angle: number; rise: number; colour: Rgb; texture: 'paper' | 'fabric' };

interface Hit {
  cover: number;
  normal: Vec3;
  /** Light kept from the surroundings (ambient occlusion), 0–1 blocked. */
  occlusion: number;
  /** Multiplies the albedo (a texture), 1 when plain. */
  tone: number;
}

interface Painter {
  region: Region;
  at(x: number, y: number): Hit | null;
}

const clamp01 = (v: number) => (v < 0 ? 0 : v > 1 ? 1 : v);

/** Signed distance (px, negative inside) to an ellipse, from its implicit function's gradient. */
export function ellipseDistance(dx: number, dy: number, rx: number, ry: number): number {
  const f = (dx * dx) / (rx * rx) + (dy * dy) / (ry * ry) - 1;
  const g = 2 * Math.sqrt((dx * dx) / (rx * rx * rx * rx) + (dy * dy) / (ry * ry * ry * ry));
  return g > 1e-9 ? f / g : -Math.min(rx, ry);
}

/** Signed distance to a convex polygon (any winding), px, negative inside. */
function polygonDistance(x: number, y: number, points: readonly [number, number][]): number {
  const cx = points.reduce((s, p) => s + p[0], 0) / points.length;
  const cy = points.reduce((s, p) => s + p[1], 0) / points.length;
  let d = -Infinity;
  for (let k = 0; k < points.length; k += 1) {
    const [ax, ay] = points[k]!;
    const [bx, by] = points[(k + 1) % points.length]!;
    const length = Math.hypot(bx - ax, by - ay) || 1;
    let nx = (by - ay) / length;
    let ny = -(bx - ax) / length;
    // Outward: away from the centre.
    if ((cx - ax) * nx + (cy - ay) * ny > 0) {
      nx = -nx;
      ny = -ny;
    }
    d = Math.max(d, (x - ax) * nx + (y - ay) * ny);
  }
  return d;
}

/** Paints a painter's pixels with `colour` lit by `light`. */
function paint(raster: Raster, painter: Painter, colour: Rgb, light: Light, gloss = 1): void {
  const albedo = linearOf(colour);
  const { left, top, width, height } = painter.region;
  for (let y = Math.max(0, top); y < Math.min(raster.height, top + height); y += 1) {
    for (let x = Math.max(0, left); x < Math.min(raster.width, left + width); x += 1) {
      const hit = painter.at(x + 0.5, y + 0.5);
      if (!hit || hit.cover <= 0) continue;
      const lit = irradiance(hit.normal, light, 16);
      const keep = 1 - hit.occlusion;
      const i = (y * raster.width + x) * 3;
      for (let c = 0; c < 3; c += 1) {
        const v = (albedo[c]! * hit.tone * lit.diffuse + lit.specular * gloss * 0.4) * keep;
        raster.data[i + c] = raster.data[i + c]! + (v - raster.data[i + c]!) * hit.cover;
      }
    }
  }
}

/** A soft shadow over `region`: `fill` (0–1 per point) sampled at a quarter size, blurred, then applied. */
function softShadow(raster: Raster, region: Region, blur: [number, number], strength: number, fill: (x: number, y: number) => number): void {
  const q = 4;
  const w = Math.max(1, Math.ceil(region.width / q));
  const h = Math.max(1, Math.ceil(region.height / q));
  const field = new Float32Array(w * h);
  for (let j = 0; j < h; j += 1) {
    for (let i = 0; i < w; i += 1) field[j * w + i] = fill(region.left + i * q + q / 2, region.top + j * q + q / 2);
  }
  const soft = upsample(gaussianBlur(field, w, h, blur[0] / q, blur[1] / q), w, h, w * q, h * q);
  for (let k = 0; k < soft.length; k += 1) soft[k] = Math.min(1, soft[k]!) * strength;
  shade(raster, soft, { left: region.left, top: region.top, width: w * q, height: h * q });
}

const grow = (r: Region, by: number): Region => ({ left: Math.floor(r.left - by), top: Math.floor(r.top - by), width: Math.ceil(r.width + by * 2), height: Math.ceil(r.height + by * 2) });

/** Occlusion on a prop's side near the floor: the floor darkens what stands on it. */
const floorOcclusion = (above: number, reach: number) => 0.4 * Math.exp(-Math.max(0, above) / reach);

// ——— On a studio floor ———

function podium(raster: Raster, p: Extract<FloorProp, { kind: 'podium' }>, light: Light, depth: number): void {
  const ry = p.radius * depth;
  const footY = p.base - ry;
  const topY = footY - p.height;
  const region = grow({ left: p.x - p.radius, top: topY - ry, width: p.radius * 2, height: p.height + ry * 2 }, 2);
  const [sx, sy] = shadowOffset(light, p.height, 'floor', depth);
  // Cast: the disc swept from the foot to where the top's shadow falls; then the contact ring.
  const castRegion = grow({ left: p.x - p.radius + Math.min(0, sx), top: footY - ry + Math.min(0, sy), width: p.radius * 2 + Math.abs(sx), height: ry * 2 + Math.abs(sy) }, p.radius * 0.5);
  softShadow(raster, castRegion, [p.radius * 0.22, p.radius * 0.22 * depth], 0.4, (x, y) => {
    for (let t = 0; t <= 1; t += 0.1) if (ellipseDistance(x - p.x - sx * t, y - footY - sy * t, p.radius, ry) < 0) return 1 - t * 0.5;
    return 0;
  });
  softShadow(raster, grow({ left: p.x - p.radius, top: footY - ry, width: p.radius * 2, height: ry * 2 }, p.radius * 0.3), [p.radius * 0.08, p.radius * 0.08 * depth], 0.55, (x, y) =>
    ellipseDistance(x - p.x, y - footY, p.radius * 1.01, ry * 1.05) < 0 ? 1 : 0,
  );
  paint(raster, {
    region,
    at(x, y) {
      const u = (x - p.x) / p.radius;
      if (Math.abs(u) >= 1) return null;
      const arc = ry * Math.sqrt(1 - u * u);
      if (y < topY || y > footY + arc + 1) return null;
      const cover = clamp01(p.radius - Math.abs(x - p.x) + 0.5) * clamp01(footY + arc - y + 0.5);
      return { cover, normal: [u, 0, Math.sqrt(1 - u * u)], occlusion: floorOcclusion(footY + arc - y, p.height * 0.1), tone: 1 };
    },
  }, p.colour, light);
  paint(raster, {
    region,
    at(x, y) {
      const d = ellipseDistance(x - p.x, y - topY, p.radius, ry);
      // The lid's rim catches the light a touch more (a slightly rounded edge).
      return d > 0.5 ? null : { cover: clamp01(0.5 - d), normal: [0, 1, 0], occlusion: 0, tone: d > -2 ? 1.04 : 1 };
    },
  }, p.colour, light);
}

function plinth(raster: Raster, p: Extract<FloorProp, { kind: 'plinth' }>, light: Light, depth: number): void {
  const yaw = p.yaw ?? 0.4;
  const [c, s] = [Math.cos(yaw), Math.sin(yaw)];
  // Corners on the floor, turned by the yaw: (X, Z), Z towards the camera.
  const corners = [
    [-p.width / 2, -p.depth / 2],
    [p.width / 2, -p.depth / 2],
    [p.width / 2, p.depth / 2],
    [-p.width / 2, p.depth / 2],
  ].map(([X, Z]) => [X! * c + Z! * s, -X! * s + Z! * c] as [number, number]);
  const nearest = Math.max(...corners.map(([, Z]) => Z));
  const project = ([X, Z]: [number, number], lift: number): [number, number] => [p.x + X, p.base - (nearest - Z) * depth - lift];
  const foot = corners.map((corner) => project(corner, 0));
  const lid = corners.map((corner) => project(corner, p.height));
  const [sx, sy] = shadowOffset(light, p.height, 'floor', depth);
  const footBox = { left: Math.min(...foot.map((q) => q[0])), top: Math.min(...foot.map((q) => q[1])), width: 0, height: 0 };
  footBox.width = Math.max(...foot.map((q) => q[0])) - footBox.left;
  footBox.height = Math.max(...foot.map((q) => q[1])) - footBox.top;
  const castRegion = grow({ left: footBox.left + Math.min(0, sx), top: footBox.top + Math.min(0, sy), width: footBox.width + Math.abs(sx), height: footBox.height + Math.abs(sy) }, p.width * 0.3);
  softShadow(raster, castRegion, [p.width * 0.12, p.width * 0.12 * depth], 0.4, (x, y) => {
    for (let t = 0; t <= 1; t += 0.1) if (polygonDistance(x - sx * t, y - sy * t, foot) < 0) return 1 - t * 0.5;
    return 0;
  });
  softShadow(raster, grow(footBox, p.width * 0.2), [p.width * 0.05, p.width * 0.05 * depth], 0.5, (x, y) => (polygonDistance(x, y, foot) < 1 ? 1 : 0));
  const region = grow({ left: Math.min(...lid.map((q) => q[0])), top: Math.min(...lid.map((q) => q[1])), width: footBox.width, height: footBox.top + footBox.height - Math.min(...lid.map((q) => q[1])) }, 3);
  for (let k = 0; k < 4; k += 1) {
    const a = corners[k]!;
    const b = corners[(k + 1) % 4]!;
    const mx = (a[0] + b[0]) / 2;
    const mz = (a[1] + b[1]) / 2;
    const length = Math.hypot(mx, mz) || 1;
    const normal: Vec3 = [mx / length, 0, mz / length];
    if (normal[2] <= 0.02) continue; // faces away from the camera
    const quad: [number, number][] = [project(a, 0), project(b, 0), project(b, p.height), project(a, p.height)];
    const [fa, fb] = [quad[0]!, quad[1]!];
    paint(raster, {
      region,
      at(x, y) {
        const d = polygonDistance(x, y, quad);
        if (d > 0.5) return null;
        const t = clamp01((x - fa[0]) / ((fb[0] - fa[0]) || 1));
        const floorY = fa[1] + (fb[1] - fa[1]) * t;
        return { cover: clamp01(0.5 - d), normal, occlusion: floorOcclusion(floorY - y, p.height * 0.1), tone: 1 };
      },
    }, p.colour, light);
  }
  paint(raster, {
    region,
    at(x, y) {
      const d = polygonDistance(x, y, lid);
      return d > 0.5 ? null : { cover: clamp01(0.5 - d), normal: [0, 1, 0], occlusion: 0, tone: 1 };
    },
  }, p.colour, light);
}

function arch(raster: Raster, p: Extract<FloorProp, { kind: 'arch' }>, light: Light, depth: number): void {
  const half = p.width / 2;
  const cy = p.base - p.height + half;
  // The front face: a rectangle under a half disc.
  const front = (x: number, y: number) => (y <= cy ? Math.hypot(x - p.x, y - cy) - half : Math.max(Math.abs(x - p.x) - half, y - p.base));
  const outward = (x: number, y: number): [number, number] => {
    if (y <= cy) {
      const r = Math.hypot(x - p.x, y - cy) || 1;
      return [(x - p.x) / r, (y - cy) / r];
    }
    return [Math.sign(x - p.x) || 1, 0];
  };
  // Its thickness shows above and to the right: the back face sits further from the camera.
  const back: [number, number] = [p.thickness * 0.35, -p.thickness * depth];
  const region = grow({ left: p.x - half, top: p.base - p.height + back[1], width: p.width + back[0], height: p.height - back[1] }, 3);
  // Thrown on the wall behind: away from the light, by the distance between them.
  const [lx, ly, lz] = light.direction;
  const along = p.distance / Math.max(0.2, lz);
  const wall: [number, number] = [-lx * along, ly * along];
  softShadow(raster, grow({ left: region.left + Math.min(0, wall[0]), top: region.top + Math.min(0, wall[1]), width: region.width + Math.abs(wall[0]), height: region.height + Math.abs(wall[1]) }, p.distance * 0.4), [p.distance * 0.18, p.distance * 0.18], 0.32, (x, y) =>
    front(x - wall[0], y - wall[1]) < 0 ? 1 : 0,
  );
  softShadow(raster, grow({ left: p.x - half, top: p.base - 4, width: p.width, height: 8 }, p.thickness), [p.thickness * 0.5, p.thickness * 0.5 * depth], 0.45, (x, y) =>
    Math.abs(x - p.x) < half && y > p.base - p.thickness * depth && y < p.base + 2 ? 1 : 0,
  );
  paint(raster, {
    region,
    at(x, y) {
      // The side: inside the front face swept back to the back face (where the front face itself
      // will be painted, nothing of it shows).
      if (front(x, y) < -1) return null;
      let best = Infinity;
      let at = 0;
      for (let k = 0; k <= 8; k += 1) {
        const d = front(x - back[0] * (k / 8), y - back[1] * (k / 8));
        if (d < best) {
          best = d;
          at = k / 8;
        }
      }
      if (best > 0.5) return null;
      const [nx, ny] = outward(x - back[0] * at, y - back[1] * at);
      return { cover: clamp01(0.5 - best), normal: [nx, -ny, 0.15], occlusion: 0, tone: 1 };
    },
  }, p.colour, light);
  paint(raster, {
    region,
    at(x, y) {
      const d = front(x, y);
      return d > 0.5 ? null : { cover: clamp01(0.5 - d), normal: [0, 0, 1], occlusion: floorOcclusion(p.base - y, p.height * 0.06), tone: 1 };
    },
  }, p.colour, light);
}

function sphere(raster: Raster, p: Extract<FloorProp, { kind: 'sphere' }>, light: Light, depth: number): void {
  const cy = p.base - p.radius;
  const [sx, sy] = shadowOffset(light, p.radius, 'floor', depth);
  const contactY = p.base - p.radius * depth;
  softShadow(raster, grow({ left: p.x - p.radius + Math.min(0, sx), top: contactY - p.radius * depth + Math.min(0, sy), width: p.radius * 2 + Math.abs(sx), height: p.radius * depth * 2 + Math.abs(sy) }, p.radius * 0.6), [p.radius * 0.3, p.radius * 0.3 * depth], 0.38, (x, y) =>
    ellipseDistance(x - p.x - sx, y - contactY - sy, p.radius * 0.95, p.radius * 0.95 * depth) < 0 ? 1 : 0,
  );
  softShadow(raster, grow({ left: p.x - p.radius, top: contactY - p.radius * depth, width: p.radius * 2, height: p.radius * depth * 2 }, p.radius * 0.3), [p.radius * 0.1, p.radius * 0.1 * depth], 0.6, (x, y) =>
    ellipseDistance(x - p.x, y - contactY, p.radius * 0.45, p.radius * 0.45 * depth) < 0 ? 1 : 0,
  );
  paint(raster, {
    region: grow({ left: p.x - p.radius, top: cy - p.radius, width: p.radius * 2, height: p.radius * 2 }, 2),
    at(x, y) {
      const dx = (x - p.x) / p.radius;
      const dy = (y - cy) / p.radius;
      const r2 = dx * dx + dy * dy;
      const d = (Math.sqrt(r2) - 1) * p.radius;
      if (d > 0.5) return null;
      const nz = Math.sqrt(Math.max(0, 1 - r2));
      return { cover: clamp01(0.5 - d), normal: [dx, -dy, nz], occlusion: floorOcclusion(p.base - y, p.radius * 0.25), tone: 1 };
    },
  }, p.colour, light);
}

/** Draws props standing on a studio floor (shadows first, then the solids, back to front). */
export function drawFloorProps(raster: Raster, props: readonly FloorProp[], light: Light, depth: number): void {
  for (const prop of [...props].sort((a, b) => a.base - b.base)) {
    if (prop.kind === 'podium') podium(raster, prop, light, depth);
    else if (prop.kind === 'plinth') plinth(raster, prop, light, depth);
    else if (prop.kind === 'arch') arch(raster, prop, light, depth);
    else sphere(raster, prop, light, depth);
  }
}

/** Where a podium's top is, for standing a shoe on it: the picture row through the lid's centre and its half-width. */
export function podiumTop(p: Extract<FloorProp, { kind: 'podium' }>, depth: number): { y: number; halfWidth: number; halfDepth: number } {
  const ry = p.radius * depth;
  return { y: p.base - ry - p.height, halfWidth: p.radius, halfDepth: ry };
}

// ——— On a table seen from above ———

/** A rounded edge `bevel` px wide: the normal tilts outwards (along the outline's gradient) as the edge nears. */
function bevelled(distance: number, gx: number, gy: number, bevel: number): Vec3 {
  const s = clamp01((distance + bevel) / bevel);
  const c = Math.sqrt(1 - s * s);
  return [gx * s, -gy * s, c];
}

/** The table shadow of a footprint (signed distance function) lifted `lift` px. */
function tableShadowOf(raster: Raster, light: Light, box: Region, lift: number, distance: (x: number, y: number) => number): void {
  const [ox, oy] = shadowOffset(light, lift, 'table');
  const drop = grow({ left: box.left + Math.min(0, ox), top: box.top + Math.min(0, oy), width: box.width + Math.abs(ox), height: box.height + Math.abs(oy) }, lift * 2 + 8);
  softShadow(raster, drop, [lift * 0.7 + 2, lift * 0.7 + 2], 0.42, (x, y) => (distance(x - ox, y - oy) < 0 ? 1 : 0));
  softShadow(raster, grow(box, 12), [3, 3], 0.35, (x, y) => (distance(x, y) < 1 ? 1 : 0));
}

/** Gradient of a distance function, by central differences. */
function gradient(distance: (x: number, y: number) => number, x: number, y: number): [number, number] {
  const gx = distance(x + 0.5, y) - distance(x - 0.5, y);
  const gy = distance(x, y + 0.5) - distance(x, y - 0.5);
  const n = Math.hypot(gx, gy) || 1;
  return [gx / n, gy / n];
}

function solidFromAbove(raster: Raster, light: Light, box: Region, lift: number, colour: Rgb, distance: (x: number, y: number) => number): void {
  tableShadowOf(raster, light, box, lift, distance);
  const bevel = Math.max(1.5, Math.min(lift * 0.6, 14));
  paint(raster, {
    region: grow(box, 2),
    at(x, y) {
      const d = distance(x, y);
      if (d > 0.5) return null;
      const [gx, gy] = gradient(distance, x, y);
      return { cover: clamp01(0.5 - d), normal: bevelled(d, gx, gy, bevel), occlusion: 0, tone: 1 };
    },
  }, colour, light, 0.6);
}

function fold(raster: Raster, p: Extract<TableProp, { kind: 'fold' }>, light: Light): void {
  const [c, s] = [Math.cos(p.angle), Math.sin(p.angle)];
  // Local frame: u across the card, v along it; the fold is v = 0, the raised half has v > 0.
  const toLocal = (x: number, y: number): [number, number] => [(x - p.x) * c + (y - p.y) * s, -(x - p.x) * s + (y - p.y) * c];
  const half = p.length / 2;
  const rise = p.rise;
  const shortened = half * Math.cos(rise);
  const flat = (x: number, y: number) => {
    const [u, v] = toLocal(x, y);
    return Math.max(Math.abs(u) - p.width / 2, -v - half, v);
  };
  const raised = (x: number, y: number) => {
    const [u, v] = toLocal(x, y);
    return Math.max(Math.abs(u) - p.width / 2, -v, v - shortened);
  };
  const reach = p.width / 2 + p.length;
  const box = grow({ left: p.x - reach, top: p.y - reach, width: reach * 2, height: reach * 2 }, 2);
  // The raised half's shadow grows from the fold (height 0) to its far edge (half · sin rise).
  const top = half * Math.sin(rise);
  const [ox, oy] = shadowOffset(light, top, 'table');
  softShadow(raster, grow(box, top * 2 + 10), [top * 0.5 + 2, top * 0.5 + 2], 0.4, (x, y) => {
    for (let t = 0; t <= 1; t += 0.1) {
      // A point of the raised half at share t of its length sits t·top high, over local v = t·shortened.
      const [u, v] = toLocal(x - ox * t, y - oy * t);
      if (Math.abs(u) < p.width / 2 && Math.abs(v - t * shortened) < shortened * 0.06) return 1;
    }
    return 0;
  });
  softShadow(raster, grow(box, 8), [3, 3], 0.3, (x, y) => (flat(x, y) < 1 ? 1 : 0));
  const weave = (x: number, y: number) => {
    if (p.texture !== 'fabric') return 1;
    const [u, v] = toLocal(x, y);
    return 0.96 + 0.04 * Math.abs(Math.sin(u * 1.3)) * Math.abs(Math.sin(v * 1.3)) * 2;
  };
  // Normals in the picture's frame (x right, y up, z up from the table): the flat half faces up;
  // the raised half leans back towards the fold, by `rise` about the fold line.
  const tilt: Vec3 = [s * Math.sin(rise), c * Math.sin(rise), Math.cos(rise)];
  paint(raster, { region: box, at: (x, y) => {
    const d = flat(x, y);
    return d > 0.5 ? null : { cover: clamp01(0.5 - d), normal: [0, 0, 1], occlusion: 0, tone: weave(x, y) };
  } }, p.colour, light, 0.3);
  paint(raster, { region: box, at: (x, y) => {
    const d = raised(x, y);
    const [, v] = toLocal(x, y);
    // The crease itself catches a little less light.
    return d > 0.5 ? null : { cover: clamp01(0.5 - d), normal: tilt, occlusion: v < 3 ? 0.12 : 0, tone: weave(x, y) };
  } }, p.colour, light, 0.3);
}

/** Draws props lying on a table seen from above (shadows first, then the solids). */
export function drawTableProps(raster: Raster, props: readonly TableProp[], light: Light): void {
  for (const p of props) {
    if (p.kind === 'disc') {
      const box = { left: p.x - p.radius, top: p.y - p.radius, width: p.radius * 2, height: p.radius * 2 };
      solidFromAbove(raster, light, box, p.lift, p.colour, (x, y) => Math.hypot(x - p.x, y - p.y) - p.radius);
    } else if (p.kind === 'block') {
      const [c, s] = [Math.cos(p.angle), Math.sin(p.angle)];
      const corner = Math.min(p.width, p.length) * 0.04;
      const reach = Math.hypot(p.width, p.length) / 2;
      const box = { left: p.x - reach, top: p.y - reach, width: reach * 2, height: reach * 2 };
      solidFromAbove(raster, light, box, p.lift, p.colour, (x, y) => {
        const u = Math.abs((x - p.x) * c + (y - p.y) * s) - p.width / 2 + corner;
        const v = Math.abs(-(x - p.x) * s + (y - p.y) * c) - p.length / 2 + corner;
        return Math.hypot(Math.max(u, 0), Math.max(v, 0)) + Math.min(Math.max(u, v), 0) - corner;
      });
    } else if (p.kind === 'ball') {
      const box = { left: p.x - p.radius, top: p.y - p.radius, width: p.radius * 2, height: p.radius * 2 };
      const [ox, oy] = shadowOffset(light, p.radius, 'table');
      softShadow(raster, grow(box, p.radius * 1.5), [p.radius * 0.35, p.radius * 0.35], 0.45, (x, y) => (Math.hypot(x - p.x - ox, y - p.y - oy) < p.radius * 0.95 ? 1 : 0));
      softShadow(raster, grow(box, p.radius * 0.3), [p.radius * 0.12, p.radius * 0.12], 0.5, (x, y) => (Math.hypot(x - p.x, y - p.y) < p.radius * 0.5 ? 1 : 0));
      paint(raster, {
        region: grow(box, 2),
        at(x, y) {
          const dx = (x - p.x) / p.radius;
          const dy = (y - p.y) / p.radius;
          const r2 = dx * dx + dy * dy;
          const d = (Math.sqrt(r2) - 1) * p.radius;
          if (d > 0.5) return null;
          return { cover: clamp01(0.5 - d), normal: [dx, -dy, Math.sqrt(Math.max(0, 1 - r2))], occlusion: 0, tone: 1 };
        },
      }, p.colour, light);
    } else {
      fold(raster, p, light);
    }
  }
}
