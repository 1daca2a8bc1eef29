// SHOE_SAND: a desert at golden hour. Wind streams sand low over the dunes and past the lens,
// then drops, and the last grains settle; the camera dollies across as the shoe turns from view
// to view in the low sun.
import type { Layer } from '../film';
import { ease, mix } from '../film';
import { floor, ridge, ridgePath } from '../plates';
import { drifting, field, wisps } from '../particles';
import { canvas, developed, drawn, glow, gradient, grained, lay, mottle, vignette } from '../raster';
import { backdropWindow, H, litShots, pickShots, plateSize, posterTime, SECONDS, seen, shoeLayers, spans, W, type Camera, type Scene, type ShoeLook } from '../stage';

export const sand: Scene = {
  async make(views) {
    const margin = { x: 70, y: 40 };
    const camera: Camera = { pan: mix(-75, 75, ease(0, SECONDS)), rise: mix(0, 30, ease(0, SECONDS)) };
    const { width: pw, height: ph } = plateSize(margin);
    const horizon = ph * 0.47;

    const sky = canvas(pw, ph);
    gradient(sky, [
      [0, [104, 128, 164]],
      [0.3, [196, 170, 150]],
      [0.46, [246, 204, 152]],
      [0.56, [226, 162, 108]],
      [1, [190, 120, 70]],
    ]);
    glow(sky, { cx: pw * 0.74, cy: ph * 0.36, rx: 90, ry: 90 }, [255, 246, 222], 0.95);
    glow(sky, { cx: pw * 0.74, cy: ph * 0.38, rx: 420, ry: 300 }, [255, 214, 160], 0.55);
    const far = ridge(pw, { base: horizon, amplitude: 60, seed: 11, roughness: 0.35, step: 12 });
    const near = ridge(pw, { base: horizon + 70, amplitude: 80, seed: 12, roughness: 0.3, step: 12 });
    lay(
      sky,
      await drawn(
        `<defs><linearGradient id="a" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#F2C48F"/><stop offset="1" stop-color="#E2A56E"/></linearGradient>
         <linearGradient id="b" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#E7AC72"/><stop offset="1" stop-color="#C98450"/></linearGradient>
         <filter id="h"><feGaussianBlur stdDeviation="3"/></filter></defs>
         <path d="${ridgePath(far, 12, ph)}" fill="url(#a)" opacity="0.85" filter="url(#h)"/>
         <path d="${ridgePath(near, 12, ph)}" fill="url(#b)" filter="url(#h)"/>`,
        pw,
        ph,
        0.5,
      ),
    );
    // Haze where the air is thickest, along the horizon.
    glow(sky, { cx: pw * 0.5, cy: horizon + 40, rx: pw, ry: 110 }, [250, 214, 170], 0.45);
    vignette(sky, 0.32);

    // The dune the shoe stands before, between the far ridges and the floor.
    const duneWidth = W + 160;
    const duneHeight = 620;
    const crest = ridge(duneWidth, { base: 170, amplitude: 110, seed: 14, roughness: 0.28, step: 10 });
    const dune = await drawn(
      `<defs><linearGradient id="d" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#E9A866"/><stop offset="0.35" stop-color="#C98247"/><stop offset="1" stop-color="#B06A36"/></linearGradient>
       <linearGradient id="s" x1="0" y1="0" x2="1" y2="0"><stop offset="0" stop-color="#5A2A10" stop-opacity="0.35"/><stop offset="0.55" stop-color="#5A2A10" stop-opacity="0"/></linearGradient>
       <filter id="c"><feGaussianBlur stdDeviation="2.5"/></filter></defs>
       <g filter="url(#c)"><path d="${ridgePath(crest, 10, duneHeight)}" fill="url(#d)"/><path d="${ridgePath(crest, 10, duneHeight)}" fill="url(#s)"/>
       <path d="${crest.map((y, i) => `${i === 0 ? 'M' : 'L'}${i * 10} ${(y + 2).toFixed(1)}`).join(' ')}" stroke="#FFE2B8" stroke-opacity="0.7" stroke-width="4" fill="none"/></g>`,
      duneWidth,
      duneHeight,
      0.5,
    );
    mottle(dune, duneWidth, duneHeight, { scale: 60, strength: 0.16, seed: 19, stretch: 3 });
    const soleY = 1330;
    const floorTop = 1090;
    const ground = floor({ width: W + 200, height: H + 80 - floorTop, far: [226, 166, 110], near: [176, 110, 62], melt: 130, ripples: 0.32, mottle: 0.1, grain: 3, seed: 15 });

    const look: ShoeLook = {
      fit: { width: 880, height: 560 },
      light: { side: 0.8, key: 0.35, rim: [255, 218, 170], rimStrength: 0.5, spill: [240, 176, 118], spillStrength: 0.12 },
      floor: { contact: 0.8, spread: 0.42, reflection: 0 },
      sweep: { strength: 0.35, tint: [255, 236, 205] },
    };
    const shots = pickShots(views, ['right_45', 'right_side', 'front'], 3);
    const sprites = await litShots(shots, look);
    const times = spans(sprites.length);
    const shoe = await shoeLayers(sprites, times, () => ({ ...seen(camera, 1, W / 2, soleY), scale: mix(0.88, 1, ease(0, SECONDS)) }), look);

    // Wind: sand streaming low over the dunes, a veil of it further off, and grains that settle
    // as the wind drops.
    const gust = `(1-exp(-t/2.4))`;
    const [veil, drift, settling] = await Promise.all([
      wisps({ width: W, height: 420, periodX: 1600, stretch: 7, colour: [252, 222, 180], opacity: 1, density: 0.6, falloff: 'middle', seed: 16 }),
      wisps({ width: W, height: 460, periodX: 1800, stretch: 9, colour: [255, 232, 196], opacity: 1, density: 0.6, falloff: 'middle', seed: 17, scale: 16 }),
      field({ width: W, height: 1000, periodX: 800, periodY: 700, count: 140, radius: [1.4, 2.8], stretch: [1, 2.5], angle: 0.35, colours: [[255, 226, 186], [214, 160, 110]], opacity: [0.45, 0.9], seed: 18 }),
    ]);
    const particles: Layer[] = [
      { ...drifting(veil, { width: W, height: 420 }, seen(camera, 0.5, 0, 880), `-520*2.4*${gust}`), from: 0, until: SECONDS, fadeOut: 2.8 },
      { ...drifting(settling, { width: W, height: 1000 }, seen(camera, 0.9, 0, 560), `-300*2.4*${gust}`, '60*t') },
      { ...drifting(drift, { width: W, height: 460 }, seen(camera, 1.3, 0, 1130), `-1500*2.4*${gust}`), from: 0, until: 6.2, fadeOut: 2.6 },
    ];
    const heroShot = Math.min(1, times.length - 1);
    return {
      backdrop: { still: developed(sky, 2.6, 10), ...backdropWindow(camera, 0.2, margin) },
      layers: [
        { still: grained(dune, duneWidth, duneHeight, 2.5, 13), ...seen(camera, 0.5, -80, horizon - margin.y + 10) },
        { still: ground, ...seen(camera, 1, -100, floorTop) },
        particles[0]!,
        ...shoe,
        particles[1]!,
        particles[2]!,
      ],
      poster: posterTime(times, heroShot),
    };
  },
};
