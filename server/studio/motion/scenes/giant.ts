// SHOE_GIANT: the shoe towers over a miniature town, seen from a low camera that cranes up as it
// pushes in; clouds drift behind, a flock of birds crosses, and the near rooftops pass out of
// focus in front, as in a tilt-shift shot.
import type { Layer } from '../film';
import { ease, mix, num } from '../film';
import { floor, ridge, ridgePath } from '../plates';
import { twinkles, wisps, drifting } from '../particles';
import { canvas, developed, drawn, glow, gradient, lay, random, vignette } from '../raster';
import { birdStrip, town } from '../sprites';
import { backdropWindow, litShots, pickShots, plateSize, posterTime, SECONDS, seen, shoeLayers, spans, W, type Camera, type Scene, type ShoeLook } from '../stage';

/**
 * Cumulus: each cloud a heap of soft puffs on a flat base, grey-blue underneath and white where
 * the sun reaches, drawn at a quarter of the size (a cloud has no edge worth the pixels).
 */
async function clouds(width: number, height: number, band: [number, number], seed: number): Promise<Buffer> {
  const next = random(seed);
  const parts: string[] = [];
  for (let k = 0; k < 6; k += 1) {
    const cx = (k / 5) * width * 1.1 - width * 0.05 + (next() - 0.5) * 140;
    const depth = next();
    const base = band[0] + depth * (band[1] - band[0]);
    // Clouds lower in the sky are farther away: smaller and paler.
    const span = (260 - depth * 150) * (0.8 + next() * 0.5);
    const heap = Array.from({ length: 22 }, () => {
      const u = next() * 2 - 1;
      const r = (0.18 + next() * 0.3) * span * (1 - Math.abs(u) * 0.55);
      return { x: cx + u * span, y: base - r * (0.3 + next() * 0.9) - (1 - Math.abs(u)) * span * 0.25, r };
    });
    const shade = heap.map((p) => `<circle cx="${p.x.toFixed(0)}" cy="${(p.y + p.r * 0.25).toFixed(0)}" r="${p.r.toFixed(0)}" fill="url(#u)"/>`).join('');
    const lit = heap.map((p) => `<circle cx="${(p.x - p.r * 0.15).toFixed(0)}" cy="${(p.y - p.r * 0.2).toFixed(0)}" r="${(p.r * 0.8).toFixed(0)}" fill="url(#t)"/>`).join('');
    parts.push(`<clipPath id="c${k}"><rect x="0" y="0" width="${width}" height="${base.toFixed(0)}"/></clipPath>
      <g clip-path="url(#c${k})" opacity="${(0.95 - depth * 0.35).toFixed(2)}"><g filter="url(#b)">${shade}</g><g filter="url(#s)">${lit}</g></g>`);
  }
  return drawn(
    `<defs><filter id="b" x="-20%" y="-20%" width="140%" height="140%"><feGaussianBlur stdDeviation="12"/></filter>
     <filter id="s" x="-20%" y="-20%" width="140%" height="140%"><feGaussianBlur stdDeviation="7"/></filter>
     <radialGradient id="u" cy="0.3"><stop offset="0" stop-color="#DCE3EC"/><stop offset="1" stop-color="#9DAEC4"/></radialGradient>
     <radialGradient id="t" cx="0.4" cy="0.35"><stop offset="0" stop-color="#FFFFFF"/><stop offset="0.7" stop-color="#F4F6F9"/><stop offset="1" stop-color="#E2E8EF" stop-opacity="0.6"/></radialGradient></defs>
     ${parts.join('')}`,
    width,
    height,
    0.25,
  );
}

export const giant: Scene = {
  async make(views) {
    const margin = { x: 50, y: 110 };
    const camera: Camera = { pan: mix(-30, 30, ease(0, SECONDS)), rise: mix(-60, 50, ease(0, SECONDS)) };
    const { width: pw, height: ph } = plateSize(margin);
    const horizon = 1490;

    const sky = canvas(pw, ph);
    gradient(sky, [
      [0, [34, 86, 168]],
      [0.4, [96, 150, 214]],
      [0.72, [196, 216, 236]],
      [0.8, [232, 236, 238]],
      [1, [200, 208, 206]],
    ]);
    glow(sky, { cx: pw * 0.18, cy: ph * 0.2, rx: 380, ry: 380 }, [255, 244, 220], 0.5);
    lay(sky, await clouds(pw, ph, [ph * 0.38, ph * 0.7], 31));
    const hills = ridge(pw, { base: horizon + margin.y - 18, amplitude: 34, seed: 32, roughness: 0.45, step: 10 });
    lay(sky, await drawn(`<path d="${ridgePath(hills, 10, ph)}" fill="#8FA3B4" fill-opacity="0.85"/>`, pw, ph, 0.5));
    glow(sky, { cx: pw / 2, cy: horizon + margin.y, rx: pw, ry: 70 }, [236, 240, 242], 0.55);
    vignette(sky, 0.28);

    const [farTown, midTown, nearTown, ground, birds, drift] = await Promise.all([
      town(W + 220, 150, { blur: 0.8, haze: 0.45, seed: 33, scale: 0.5 }),
      town(W + 260, 300, { blur: 0.5, haze: 0.12, seed: 37, scale: 1.3 }),
      town(W + 360, 260, { blur: 3.5, haze: 0.04, seed: 34, scale: 1.05 }),
      Promise.resolve(floor({ width: W + 160, height: 620, far: [150, 162, 168], near: [96, 104, 92], melt: 70, mottle: 0.18, grain: 3, seed: 35 })),
      birdStrip(44, 8, [40, 44, 54]),
      wisps({ width: W, height: 700, periodX: 2400, stretch: 4, colour: [255, 255, 255], opacity: 0.5, density: 0.45, falloff: 'middle', seed: 36, scale: 28 }),
    ]);

    const look: ShoeLook = {
      fit: { width: 1000, height: 700 },
      light: { side: -0.8, key: 0.4, rim: [255, 240, 214], rimStrength: 0.5, spill: [170, 200, 236], spillStrength: 0.08 },
      floor: { contact: 0.85, spread: 0.6, reflection: 0 },
      sweep: { strength: 0.3 },
    };
    const shots = pickShots(views, ['right_side', 'right_45', 'front'], 3);
    const sprites = await litShots(shots, look);
    const times = spans(sprites.length);
    const soleY = 1640;
    const shoe = await shoeLayers(sprites, times, () => ({ ...seen(camera, 1, W / 2 + 10, soleY), scale: mix(0.86, 1, ease(0, SECONDS)) }), look);

    // A flock crossing high up, each bird on its own wingbeat.
    const flock: Layer[] = [0, 1, 2, 3, 4].flatMap((k) =>
      twinkles(birds, [{ x: `${num(1250 + k * 70 + (k % 2) * 30)}-150*t`, y: `${num(560 + (k % 3) * 34 + k * 8)}+6*sin(t*2+${k})`, phase: k / 5 }], 18, 0),
    );
    return {
      backdrop: { still: developed(sky, 2.4, 30), ...backdropWindow(camera, 0.15, margin) },
      layers: [
        { ...drifting(drift, { width: W, height: 700 }, seen(camera, 0.2, 0, 560), '-22*t') },
        ...flock,
        { still: farTown, ...seen(camera, 0.4, -110, horizon - 150 + 6) },
        { still: ground, ...seen(camera, 1, -80, horizon - 50) },
        // The town the shoe stands in: its rooftops just behind the sole.
        { still: midTown, ...seen(camera, 1, -130, soleY - 300 + 12) },
        ...shoe,
        { still: nearTown, ...seen(camera, 1.6, -180, 1920 - 200) },
      ],
      poster: posterTime(times, 1),
    };
  },
};
