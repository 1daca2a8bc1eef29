// SHOE_CRYSTAL: a violet grotto of quartz. Clusters of crystal rise behind and beside the shoe,
// one passes out of focus in front; glints flare on their points and along the shoe, motes of
// light float up, and a cool prismatic light crosses the shoe as the camera pushes in and arcs.
import type { Layer } from '../film';
import { ease, mix } from '../film';
import { bokeh, floor } from '../plates';
import { drifting, field, glintStrip, twinkles } from '../particles';
import { canvas, developed, glow, gradient, lay, vignette } from '../raster';
import { crystals } from '../sprites';
import { backdropWindow, litShots, pickShots, piece, plateSize, posterTime, SECONDS, seen, shoeLayers, spans, shoeEdge, W, type Camera, type Scene, type ShoeLook } from '../stage';

export const crystal: Scene = {
  async make(views) {
    const margin = { x: 70, y: 40 };
    const camera: Camera = { pan: mix(-70, 70, ease(0, SECONDS)), rise: mix(10, -20, ease(0, SECONDS)) };
    const { width: pw, height: ph } = plateSize(margin);

    const sky = canvas(pw, ph);
    gradient(sky, [
      [0, [10, 6, 30]],
      [0.4, [42, 24, 92]],
      [0.62, [74, 46, 140]],
      [1, [16, 10, 40]],
    ]);
    glow(sky, { cx: pw / 2, cy: ph * 0.58, rx: 420, ry: 360 }, [190, 160, 255], 0.5);
    lay(sky, await bokeh(pw, ph, { count: 55, radius: [8, 46], colours: [[170, 220, 255], [220, 190, 255], [255, 255, 255]], opacity: [0.15, 0.6], blur: 3, seed: 51, band: [0, ph * 0.62] }), 1, 'screen');
    vignette(sky, 0.5);

    const [back, left, right, front, strip, motes] = await Promise.all([
      crystals(1300, 700, { count: 11, tint: [150, 120, 230], glow: [140, 110, 255], blur: 2.2, seed: 52 }),
      crystals(520, 1000, { count: 6, tint: [180, 150, 250], glow: [160, 130, 255], blur: 0.6, seed: 53 }),
      crystals(520, 900, { count: 5, tint: [140, 180, 250], glow: [120, 170, 255], blur: 0.6, seed: 54 }),
      crystals(700, 900, { count: 4, tint: [190, 160, 255], glow: [170, 140, 255], blur: 14, seed: 55 }),
      glintStrip(120, 14, [200, 220, 255]),
      field({ width: W, height: 1400, periodX: 540, periodY: 600, count: 55, radius: [1.5, 4], stretch: [1, 1.2], angle: 0, colours: [[230, 220, 255], [190, 230, 255]], opacity: [0.4, 1], seed: 56, halo: 1 }),
    ]);
    const ground = floor({ width: W + 200, height: 820, far: [58, 40, 110], near: [14, 10, 34], melt: 90, sheen: 0.35, grain: 2.5, seed: 57 });
    const soleY = 1280;
    const look: ShoeLook = {
      fit: { width: 860, height: 560 },
      light: { side: 0.6, key: 0.3, rim: [200, 210, 255], rimStrength: 0.7, spill: [170, 150, 255], spillStrength: 0.12 },
      floor: { contact: 0.8, spread: 0.35, reflection: 0.32 },
      sweep: { strength: 0.45, tint: [226, 232, 255] },
    };
    const shots = pickShots(views, ['right_45', 'right_side', 'front'], 3);
    const sprites = await litShots(shots, look);
    const times = spans(sprites.length);
    const place = () => ({ ...seen(camera, 1, W / 2, soleY), scale: mix(0.86, 1, ease(0, SECONDS)) });
    const shoe = await shoeLayers(sprites, times, place, look);

    const backAt = { x: -110, y: soleY - 700 + 40 };
    const leftAt = { x: -120, y: soleY - 1000 + 60 };
    const rightAt = { x: W - 400, y: soleY - 900 + 80 };
    // Glints on the crystals' points, each on its own moment, and along the top of the shoe.
    const onPoints = [
      ...back.tips.slice(0, 4).map((tip) => ({ depth: 0.7, x: backAt.x + tip.x, y: backAt.y + tip.y })),
      ...left.tips.slice(0, 2).map((tip) => ({ depth: 0.9, x: leftAt.x + tip.x, y: leftAt.y + tip.y })),
      ...right.tips.slice(0, 2).map((tip) => ({ depth: 0.9, x: rightAt.x + tip.x, y: rightAt.y + tip.y })),
    ].map((p, k) => ({ ...seen(camera, p.depth, p.x, p.y), phase: (k * 0.37) % 1 }));
    const onShoe: Layer[] = sprites.flatMap((sprite, i) =>
      twinkles(strip, [0.35, 0.8].map((f, k) => ({ ...shoeEdge(sprite, place(), f), phase: (i * 0.3 + k * 0.41) % 1 })), 16, 10).map((layer) => ({
        ...layer,
        from: times[i]!.from,
        until: times[i]!.until,
      })),
    );
    return {
      backdrop: { still: developed(sky, 2.4, 50), ...backdropWindow(camera, 0.2, margin) },
      layers: [
        piece(back.still, camera, 0.7, backAt.x, backAt.y),
        { still: ground, ...seen(camera, 1, -100, soleY - 250) },
        piece(left.still, camera, 0.9, leftAt.x, leftAt.y),
        piece(right.still, camera, 0.9, rightAt.x, rightAt.y),
        ...twinkles(strip, onPoints, 16, 12),
        { ...drifting(motes, { width: W, height: 1400 }, seen(camera, 0.8, 0, 250), '10*t', '-35*t') },
        ...shoe,
        ...onShoe,
        piece(front.still, camera, 1.6, -260, 1320),
      ],
      poster: posterTime(times, 1),
    };
  },
};
