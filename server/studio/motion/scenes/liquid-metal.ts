// SHOE_LIQUID_METAL: a dark studio where everything is liquid chrome. The floor flows past like
// mercury, bright highlights run over the rippling wall behind, glints catch on the metal, and a
// hard white light slides over the shoe as the camera dollies across.
import type { Layer } from '../film';
import { ease, mix, num } from '../film';
import { chrome } from '../plates';
import { drifting, glintStrip, twinkles, wisps } from '../particles';
import { developed, glow, type Canvas } from '../raster';
import { backdropWindow, litShots, pickShots, plateSize, posterTime, SECONDS, seen, shoeLayers, spans, W, type Camera, type Scene, type ShoeLook } from '../stage';

export const liquidMetal: Scene = {
  async make(views) {
    const margin = { x: 80, y: 40 };
    const camera: Camera = { pan: mix(-80, 80, ease(0, SECONDS)), rise: '0' };
    const { width: pw, height: ph } = plateSize(margin);
    const soleY = 1250;
    const floorTop = soleY - 260;

    const look: ShoeLook = {
      fit: { width: 860, height: 560 },
      light: { side: 0.7, key: 0.4, rim: [226, 236, 255], rimStrength: 0.85, spill: [170, 182, 200], spillStrength: 0.14 },
      floor: { contact: 0.85, spread: 0.3, reflection: 0.42 },
      sweep: { strength: 0.55 },
    };
    const shots = pickShots(views, ['right_side', 'right_45', 'front'], 3);
    const [wall, pool, highlights, strip, sprites] = await Promise.all([
      chrome(pw, ph, { tint: [200, 208, 222], seed: 61, grain: 2.5, darkTop: 0.75 }),
      chrome(W + 200, 1920 + 60 - floorTop, { tint: [214, 220, 232], seed: 62, recede: true, periodX: 1280, grain: 2.5, melt: 60 }),
      wisps({ width: W, height: 900, periodX: 2200, stretch: 10, colour: [255, 255, 255], opacity: 0.8, density: 0.3, falloff: 'middle', seed: 63, scale: 16 }),
      glintStrip(100, 12, [230, 240, 255]),
      litShots(shots, look),
    ]);
    const plate: Canvas = { width: pw, height: ph, data: Float32Array.from(rgbOf(wall.pixels)) };
    glow(plate, { cx: pw * 0.5, cy: ph * 0.5, rx: 500, ry: 420 }, [255, 255, 255], 0.18);
    const times = spans(sprites.length);
    const place = () => ({ ...seen(camera, 1, W / 2, soleY), scale: mix(0.9, 1, ease(0, SECONDS)) });
    const shoe = await shoeLayers(sprites, times, place, look);
    // The pool's surface flows to the left under the shoe; the wall's highlights drift the other way.
    const flowing: Layer = {
      still: pool,
      ...seen(camera, 1, -100, floorTop),
      crop: { width: W + 200, height: pool.height, x: `mod(${num((pool.width - W - 200) * 32)}+70*t,${pool.width - W - 200})`, y: '0' },
    };
    const glints = twinkles(
      strip,
      [
        { x: 180, y: floorTop + 120 },
        { x: 860, y: floorTop + 60 },
        { x: 640, y: floorTop + 520 },
        { x: 300, y: 520 },
        { x: 820, y: 760 },
      ].map((p, k) => ({ ...seen(camera, k < 3 ? 1 : 0.25, p.x, p.y), phase: k * 0.23 })),
      14,
      14,
    );
    return {
      backdrop: { still: developed(plate, 0, 60), ...backdropWindow(camera, 0.25, margin) },
      layers: [{ ...drifting(highlights, { width: W, height: 900 }, seen(camera, 0.3, 0, 200), '55*t') }, flowing, ...glints, ...shoe],
      poster: posterTime(times, 1),
    };
  },
};

/** The RGB of an RGBA picture. */
function rgbOf(rgba: Buffer): Uint8Array {
  const out = new Uint8Array((rgba.length / 4) * 3);
  for (let i = 0, o = 0; i < rgba.length; i += 4, o += 3) {
    out[o] = rgba[i]!;
    out[o + 1] = rgba[i + 1]!;
    out[o + 2] = rgba[i + 2]!;
  }
  return out;
}
