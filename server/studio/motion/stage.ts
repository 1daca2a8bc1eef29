// What every scene shares: the frame, the shots (which views, when each is on screen), the camera
// and where a layer at a given depth is, and the shoe's layers crossfading from view to view with
// a light band sweeping over them.
import type { ShoeView } from '../../../contract/enums';
import type { ViewCutout } from '../layouts';
import type { Expr, Film, FilmFormat, Layer, Still } from './film';
import { drawn, trimmed } from './raster';
import { even, mix, num, ramp, whole } from './film';
import { lightBand, litShoe, type ShoeFloor, type ShoeLight, type ShoeSprite } from './shoe';

export const FORMAT: FilmFormat = { width: 1080, height: 1920, fps: 30, seconds: 7 };
export const W = FORMAT.width;
export const H = FORMAT.height;
export const SECONDS = FORMAT.seconds;

/**
 * A set piece placed with its top-left at (x, y) at `depth`, cut down to what is not transparent
 * (and placed where that part was).
 */
export function piece(still: Still, camera: Camera, depth: number, x: number, y: number): Layer {
  const cut = trimmed(still);
  return { still: cut.still, ...seen(camera, depth, x + cut.left, y + cut.top) };
}

/** The views a scene shows, in its preferred order, from those the seller took (the sole left out). */
export function pickShots(views: readonly ViewCutout[], preferred: readonly ShoeView[], count: number): ViewCutout[] {
  const usable = views.filter((v) => v.view !== 'bottom');
  const ordered = [...preferred.flatMap((view) => usable.filter((v) => v.view === view)), ...usable.filter((v) => !preferred.includes(v.view))];
  return ordered.slice(0, Math.max(1, count));
}

export interface Span {
  from: number;
  until: number;
}

/** `count` spans filling the video, each overlapping the next by `overlap` seconds. */
export function spans(count: number, overlap = 0.45, start = 0, end = SECONDS): Span[] {
  const each = (end - start + (count - 1) * overlap) / count;
  return Array.from({ length: count }, (_, i) => ({ from: start + i * (each - overlap), until: start + i * (each - overlap) + each }));
}

/** The camera's travel at the shoe's depth, px: right and up. A layer at depth d moves d times as far. */
export interface Camera {
  pan: Expr;
  rise: Expr;
}

export const still: Camera = { pan: '0', rise: '0' };

/** Where a point placed at (x, y) with the camera at rest is now, for a layer at `depth`. */
export function seen(camera: Camera, depth: number, x: number | Expr, y: number | Expr): { x: Expr; y: Expr } {
  return { x: whole(`${x}-(${camera.pan})*${num(depth)}`), y: whole(`${y}+(${camera.rise})*${num(depth)}`) };
}

/** The window onto a backdrop plate with `margin` px to spare around the frame, at `depth`. */
export function backdropWindow(camera: Camera, depth: number, margin: { x: number; y: number }): { x: Expr; y: Expr } {
  return {
    x: `clip(${margin.x}+(${camera.pan})*${num(depth)},0,${2 * margin.x})`,
    y: `clip(${margin.y}-(${camera.rise})*${num(depth)},0,${2 * margin.y})`,
  };
}

export interface ShoeLook {
  light: ShoeLight;
  floor: ShoeFloor;
  /** Largest on-screen size of the shoe (its box at scale 1). */
  fit: { width: number; height: number };
  /** Strength and colour of the light band that sweeps over each shot, none when absent. */
  sweep?: { strength: number; tint?: [number, number, number] };
}

/** The views lit for the scene (in parallel: sharp works on its own threads). */
export function litShots(shots: readonly ViewCutout[], look: ShoeLook): Promise<ShoeSprite[]> {
  return Promise.all(shots.map((shot) => litShoe(shot.cutout, look.fit, look.light, look.floor)));
}

export interface Placement {
  /** Where the sole's middle is in the frame. */
  x: Expr;
  y: Expr;
  /** The shoe's size as a share of its sprite (≤ 1, so it is never enlarged). */
  scale: Expr;
  /** Separate vertical scale, for a squash and stretch. */
  scaleY?: Expr;
}

/**
 * The shots as layers: each view on screen for its span, crossfading into the next, placed and
 * scaled by `place` (given the shot's index), with the band sweeping across the shoe in each.
 */
export async function shoeLayers(sprites: readonly ShoeSprite[], times: readonly Span[], place: (i: number) => Placement, look: ShoeLook, sweepAt?: (span: Span) => Span): Promise<Layer[]> {
  const layers: Layer[] = [];
  for (const [i, sprite] of sprites.entries()) {
    const span = times[i]!;
    const { x, y, scale, scaleY } = place(i);
    const sx = scale;
    const sy = scaleY ?? scale;
    const fade = sprites.length > 1 ? 0.45 : 0;
    let sweep: Layer['sweep'];
    if (look.sweep) {
      const band = await lightBand(sprite.box, look.sweep.strength, look.sweep.tint);
      const pass = sweepAt ? sweepAt(span) : { from: span.from + (span.until - span.from) * 0.25, until: span.from + (span.until - span.from) * 0.85 };
      sweep = {
        band,
        x: whole(mix(sprite.box.left - band.width, sprite.box.left + sprite.box.width, ramp(pass.from, pass.until))),
        y: String(sprite.box.top),
        from: pass.from,
        until: pass.until,
      };
    }
    layers.push({
      still: sprite.still,
      x: whole(`${x}-${num(sprite.anchor.x)}*(${sx})`),
      y: whole(`${y}-${num(sprite.anchor.y)}*(${sy})`),
      size: { width: even(`${sprite.still.width}*(${sx})`), height: even(`${sprite.still.height}*(${sy})`) },
      // The next view fades in over this one, which goes only once it is nearly covered: two
      // half-faded shoes would show the set through both.
      ...(sprites.length > 1 ? { from: span.from, until: span.until, fadeIn: i > 0 ? fade : 0, fadeOut: i < sprites.length - 1 ? fade * 0.5 : 0 } : {}),
      ...(sweep ? { sweep } : {}),
    });
  }
  return layers;
}

export interface Scene {
  make(views: readonly ViewCutout[]): Promise<Film>;
}

/** A backdrop plate `margin` px larger than the frame on each side. */
export const plateSize = (margin: { x: number; y: number }) => ({ width: W + 2 * margin.x, height: H + 2 * margin.y });

/** The poster's moment: well into the hero shot, after its crossfade, while the light crosses it. */
export function posterTime(times: readonly Span[], shot: number): number {
  const span = times[Math.min(shot, times.length - 1)]!;
  return span.from + (span.until - span.from) * 0.55;
}

/** A point on the top edge of the shoe, `fraction` of the way across it, where `place` puts the shoe. */
export function shoeEdge(sprite: ShoeSprite, place: Placement, fraction: number): { x: Expr; y: Expr } {
  const { still, box, anchor } = sprite;
  const column = Math.round(box.left + box.width * fraction);
  let row = box.top;
  while (row < box.top + box.height - 1 && still.pixels[(row * still.width + column) * 4 + 3]! < 160) row += 1;
  return {
    x: whole(`${place.x}+${num(column - anchor.x)}*(${place.scale})`),
    y: whole(`${place.y}+${num(row + 3 - anchor.y)}*(${place.scaleY ?? place.scale})`),
  };
}

/**
 * The shadow an airborne shoe casts on the floor below it: a soft ellipse `width` px wide at
 * (x, y), shrinking to `1 - shrink` of that as `height` (0–1, an expression) goes to 1.
 */
export async function castShadow(width: number, at: { x: Expr; y: Expr }, height: Expr, shrink: number, opacity = 0.6, colour = '#000'): Promise<Layer> {
  const h = Math.round(width * 0.16);
  const pixels = await drawn(
    `<defs><radialGradient id="s"><stop offset="0" stop-color="${colour}" stop-opacity="${opacity}"/><stop offset="0.6" stop-color="${colour}" stop-opacity="${opacity * 0.4}"/><stop offset="1" stop-color="${colour}" stop-opacity="0"/></radialGradient></defs><ellipse cx="${width / 2}" cy="${h / 2}" rx="${width / 2}" ry="${h / 2}" fill="url(#s)"/>`,
    width,
    h,
  );
  const scale = `(1-${num(shrink)}*(${height}))`;
  return {
    still: { width, height: h, format: 'rgba', pixels },
    x: whole(`${at.x}-${width / 2}*${scale}`),
    y: whole(`${at.y}-${h / 2}*${scale}`),
    size: { width: even(`${width}*${scale}`), height: even(`${h}*${scale}`) },
  };
}
