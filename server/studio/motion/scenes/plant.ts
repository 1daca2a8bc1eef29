// SHOE_PLANT: a greenhouse corner in morning light. Sun through the leaves makes soft discs
// behind; big leaves frame the shot, out of focus, at two depths; pollen drifts up through the
// light and a leaf tumbles down past the lens as the camera cranes gently down onto a mossy stone.
import type { Layer } from '../film';
import { ease, mix, num } from '../film';
import { bokeh, floor } from '../plates';
import { drifting, field, twinkles } from '../particles';
import { canvas, developed, glow, gradient, lay, vignette } from '../raster';
import { foliage, tumblingLeaf } from '../sprites';
import { backdropWindow, litShots, pickShots, piece, plateSize, posterTime, SECONDS, seen, shoeLayers, spans, W, type Camera, type Scene, type ShoeLook } from '../stage';

export const plant: Scene = {
  async make(views) {
    const margin = { x: 60, y: 90 };
    const camera: Camera = { pan: mix(40, -40, ease(0, SECONDS)), rise: mix(80, -60, ease(0, SECONDS)) };
    const { width: pw, height: ph } = plateSize(margin);

    const sky = canvas(pw, ph);
    gradient(sky, [
      [0, [28, 58, 34]],
      [0.35, [64, 104, 52]],
      [0.6, [96, 128, 70]],
      [1, [36, 52, 30]],
    ]);
    glow(sky, { cx: pw * 0.22, cy: ph * 0.12, rx: 520, ry: 640 }, [246, 250, 206], 0.55);
    lay(
      sky,
      await bokeh(pw, ph, { count: 70, radius: [20, 90], colours: [[220, 240, 170], [150, 200, 110], [255, 246, 200]], opacity: [0.15, 0.55], blur: 5, seed: 41, band: [0, ph * 0.7] }),
      1,
      'screen',
    );
    lay(sky, await foliage(pw, Math.round(ph * 0.8), { count: 14, colours: [[70, 120, 60], [24, 60, 28]], blur: 18, seed: 42 }).then((s) => padTop(s.pixels, pw, Math.round(ph * 0.8), ph)), 0.75);
    vignette(sky, 0.45);

    const [leftLeaves, rightLeaves, nearLeaves, stone, pollen, leaf] = await Promise.all([
      foliage(1000, 1300, { count: 9, colours: [[110, 168, 80], [30, 84, 36]], blur: 6, seed: 43 }),
      foliage(1000, 1200, { count: 8, colours: [[120, 176, 86], [34, 90, 40]], blur: 6, seed: 44, fromRight: true }),
      foliage(1000, 900, { count: 6, colours: [[70, 120, 56], [16, 44, 20]], blur: 16, seed: 45, fromRight: true }),
      Promise.resolve(floor({ width: W + 200, height: 1920 + 120 - 1050, far: [96, 112, 70], near: [58, 70, 44], melt: 80, mottle: 0.45, grain: 3, seed: 46 })),
      field({ width: W, height: 1500, periodX: 540, periodY: 600, count: 60, radius: [2, 6], stretch: [1, 1.3], angle: 0, colours: [[255, 246, 190], [230, 255, 200]], opacity: [0.35, 0.9], seed: 47, halo: 1 }),
      tumblingLeaf(150, 16, [[150, 196, 90], [60, 120, 40]], 0),
    ]);

    const look: ShoeLook = {
      fit: { width: 860, height: 560 },
      light: { side: -0.7, key: 0.35, rim: [240, 255, 210], rimStrength: 0.55, spill: [150, 210, 120], spillStrength: 0.1 },
      floor: { contact: 0.85, spread: 0.45, reflection: 0 },
      sweep: { strength: 0.3, tint: [244, 255, 220] },
    };
    const shots = pickShots(views, ['right_45', 'left_side', 'front'], 3);
    const sprites = await litShots(shots, look);
    const times = spans(sprites.length);
    const soleY = 1300;
    const shoe = await shoeLayers(sprites, times, () => ({ ...seen(camera, 1, W / 2, soleY), scale: mix(0.9, 1, ease(0, SECONDS)) }), look);

    // A leaf falling past, turning over as it goes, and pollen rising through the light.
    const falling: Layer[] = twinkles(leaf, [{ x: `${num(W * 0.7)}-90*t+40*sin(t*1.6)`, y: `-120+260*t`, phase: 0 }], 9, 0);
    return {
      backdrop: { still: developed(sky, 2.6, 40), ...backdropWindow(camera, 0.2, margin) },
      layers: [
        piece(leftLeaves, camera, 0.55, -330, 40),
        piece(rightLeaves, camera, 0.6, W - 560, 160),
        { still: stone, ...seen(camera, 1, -100, soleY - 250) },
        { ...drifting(pollen, { width: W, height: 1500 }, seen(camera, 0.8, 0, 150), '14*t', '-45*t') },
        ...shoe,
        ...falling,
        piece(nearLeaves, camera, 1.7, W - 700, 1230),
      ],
      poster: posterTime(times, 0),
    };
  },
};

/** An RGBA picture of `height` rows put at the bottom of a taller one. */
function padTop(rgba: Buffer, width: number, height: number, total: number): Buffer {
  const out = Buffer.alloc(width * total * 4);
  rgba.copy(out, (total - height) * width * 4);
  return out;
}
