// SHOE_PHANTOM: a dark stage, one cold spotlight cutting through haze. The shoe glides in out of
// the dark trailing ghosts of itself, stops in the light, and slips on; fog rolls across the
// floor and in front of the lens.
import type { Layer } from '../film';
import { ease, mix, num, ramp, whole } from '../film';
import { beam, floor } from '../plates';
import { drifting, field, wisps } from '../particles';
import { canvas, developed, glow, gradient, vignette } from '../raster';
import { ghostOf } from '../shoe';
import { backdropWindow, castShadow, litShots, pickShots, plateSize, SECONDS, seen, shoeLayers, W, type Camera, type Scene, type ShoeLook } from '../stage';

/** Where the shoe is across the frame at time `time`: a sway as it comes down, a slip to the right. */
const glide = (time: string) => `(${W / 2}+60*sin(${time}*1.7)*(1-${ramp(0, 3.4, time)})+240*${ease(4.9, 6.8, time)})`;
/** How far above the floor it is: it floats down out of the dark into the light. */
const hover = (time: string) => `(820*pow(1-${ramp(0, 3.4, time)},2))`;

export const phantom: Scene = {
  async make(views) {
    const margin = { x: 40, y: 40 };
    const camera: Camera = { pan: mix(0, 40, ease(0, SECONDS)), rise: mix(-20, 20, ease(0, SECONDS)) };
    const { width: pw, height: ph } = plateSize(margin);
    const soleY = 1280;

    const look: ShoeLook = {
      fit: { width: 800, height: 520 },
      light: { side: 0.1, key: 0.55, rim: [200, 226, 255], rimStrength: 0.8, spill: [120, 150, 200], spillStrength: 0.12 },
      floor: { contact: 0, spread: 0, reflection: 0 },
      sweep: { strength: 0.45, tint: [214, 232, 255] },
    };
    const shots = pickShots(views, ['right_side', 'right_45'], 2);
    const [sprites, fogBack, fogFront, motes] = await Promise.all([
      litShots(shots, look),
      wisps({ width: W, height: 700, periodX: 2000, stretch: 5, colour: [150, 170, 200], opacity: 0.55, density: 0.55, falloff: 'middle', seed: 81, scale: 24 }),
      wisps({ width: W, height: 600, periodX: 2200, stretch: 5, colour: [170, 190, 220], opacity: 0.5, density: 0.5, falloff: 'middle', seed: 82, scale: 28 }),
      field({ width: 700, height: 1100, periodX: 500, periodY: 700, count: 60, radius: [1.2, 3], stretch: [1, 1.2], angle: 0, colours: [[220, 236, 255]], opacity: [0.3, 0.9], seed: 83, halo: 1 }),
    ]);
    const ghosts = await Promise.all([0.42, 0.28, 0.16].map((opacity) => ghostOf(sprites[0]!, [150, 190, 255], opacity, 40)));

    const sky = canvas(pw, ph);
    gradient(sky, [
      [0, [6, 8, 14]],
      [0.55, [14, 18, 30]],
      [1, [4, 5, 9]],
    ]);
    beam(sky, { x: pw / 2 + 20, top: -40, spread: 900, reach: 1500, colour: [150, 180, 230], strength: 0.55, seed: 84 });
    glow(sky, { cx: pw / 2, cy: soleY + margin.y, rx: 460, ry: 120 }, [170, 200, 255], 0.35);
    vignette(sky, 0.5);
    const ground = floor({ width: W + 120, height: 1920 + 60 - (soleY - 240), far: [30, 36, 52], near: [6, 7, 12], melt: 120, sheen: 0.25, grain: 2, seed: 85 });

    const times = [
      { from: 0, until: 4.1 },
      { from: 3.65, until: SECONDS },
    ].slice(0, sprites.length);
    if (sprites.length === 1) times[0]!.until = SECONDS;
    const place = () => ({ ...seen(camera, 1, glide('t'), `${soleY}-${hover('t')}`), scale: '1' });
    const shoe = await shoeLayers(sprites, times, place, look, (span) => ({ from: span.from + 0.8, until: span.from + 2.6 }));
    // Ghosts: where the shoe was a moment ago, fainter the further back, while it moves.
    const trail: Layer[] = ghosts.map((ghost, k) => {
      const delayed = `(t-${num(0.15 * (k + 1))})`;
      const at = seen(camera, 1, glide(delayed), `${soleY}-${hover(delayed)}`);
      return { still: ghost, x: whole(`${at.x}-${sprites[0]!.anchor.x}`), y: whole(`${at.y}-${sprites[0]!.anchor.y}`), from: 0, until: 3.8, fadeOut: 0.9 };
    });
    const lateTrail: Layer[] = ghosts.slice(0, 2).map((ghost, k) => {
      const at = seen(camera, 1, glide(`(t-${num(0.16 * (k + 1))})`), soleY);
      const sprite = sprites[sprites.length - 1]!;
      return { still: ghost, x: whole(`${at.x}-${sprite.anchor.x}`), y: whole(`${at.y}-${sprite.anchor.y}`), from: 4.8, until: SECONDS, fadeIn: 0.3 };
    });
    return {
      backdrop: { still: developed(sky, 2.4, 80), ...backdropWindow(camera, 0.3, margin) },
      layers: [
        { ...drifting(fogBack, { width: W, height: 700 }, seen(camera, 0.4, 0, 700), '-30*t') },
        { ...drifting(motes, { width: 700, height: 1100 }, seen(camera, 0.6, W / 2 - 330, 0), '6*t', '18*t') },
        { still: ground, ...seen(camera, 1, -60, soleY - 240) },
        await castShadow(820, seen(camera, 1, glide('t'), soleY), `${hover('t')}/820`, 0.7, 0.75),
        ...trail,
        ...lateTrail,
        ...shoe,
        { ...drifting(fogFront, { width: W, height: 600 }, seen(camera, 1.4, 0, 1250), '-70*t') },
      ],
      // Mid-glide, with the ghosts strung out behind.
      poster: 1.7,
    };
  },
};
