// SHOE_BARBIE: a pink glam set. A glowing ring frames the shoe on a glossy pink floor, soft pink
// lights glow out of focus behind, glitter drifts down, and glints flare around the shoe and on
// it as the camera arcs in.
import type { Layer } from '../film';
import { ease, mix } from '../film';
import { bokeh, floor } from '../plates';
import { drifting, field, glintStrip, twinkles } from '../particles';
import { canvas, developed, drawn, glow, gradient, lay, vignette } from '../raster';
import { backdropWindow, litShots, pickShots, plateSize, posterTime, SECONDS, seen, shoeEdge, shoeLayers, spans, W, type Camera, type Scene, type ShoeLook } from '../stage';

export const barbie: Scene = {
  async make(views) {
    const margin = { x: 80, y: 50 };
    const camera: Camera = { pan: mix(80, -80, ease(0, SECONDS)), rise: mix(20, -20, ease(0, SECONDS)) };
    const { width: pw, height: ph } = plateSize(margin);
    const soleY = 1290;

    const look: ShoeLook = {
      fit: { width: 840, height: 540 },
      light: { side: 0.6, key: 0.3, rim: [255, 214, 236], rimStrength: 0.65, spill: [255, 150, 200], spillStrength: 0.14 },
      floor: { contact: 0.7, spread: 0.3, reflection: 0.38 },
      sweep: { strength: 0.5, tint: [255, 236, 246] },
    };
    const shots = pickShots(views, ['right_45', 'front', 'right_side'], 3);
    const ring = { cx: pw / 2, cy: soleY + margin.y - 330, r: 430 };
    const [sprites, lights, neon, strip, glitter] = await Promise.all([
      litShots(shots, look),
      bokeh(pw, ph, { count: 60, radius: [14, 60], colours: [[255, 200, 230], [255, 255, 255], [255, 120, 190]], opacity: [0.2, 0.7], blur: 4, seed: 101, band: [0, ph * 0.65] }),
      drawn(
        `<defs><filter id="g" x="-30%" y="-30%" width="160%" height="160%"><feGaussianBlur stdDeviation="28"/></filter><filter id="c"><feGaussianBlur stdDeviation="3"/></filter></defs>
         <circle cx="${ring.cx}" cy="${ring.cy}" r="${ring.r}" fill="none" stroke="#FF4FA8" stroke-width="90" filter="url(#g)" opacity="0.9"/>
         <circle cx="${ring.cx}" cy="${ring.cy}" r="${ring.r}" fill="none" stroke="#FFE3F1" stroke-width="16" filter="url(#c)"/>`,
        pw,
        ph,
        0.25,
      ),
      glintStrip(110, 14, [255, 210, 235]),
      field({ width: W, height: 1500, periodX: 540, periodY: 700, count: 80, radius: [1.5, 3.5], stretch: [1, 1.4], angle: 1.2, colours: [[255, 255, 255], [255, 200, 230], [255, 230, 160]], opacity: [0.5, 1], seed: 102, halo: 0.6 }),
    ]);

    const sky = canvas(pw, ph);
    gradient(sky, [
      [0, [236, 60, 150]],
      [0.45, [255, 120, 186]],
      [0.66, [255, 186, 218]],
      [1, [226, 80, 150]],
    ]);
    lay(sky, lights, 1, 'screen');
    lay(sky, neon, 1, 'screen');
    glow(sky, { cx: ring.cx, cy: ring.cy, rx: 360, ry: 360 }, [255, 230, 242], 0.35);
    vignette(sky, 0.35);
    const ground = floor({ width: W + 200, height: 1920 + 60 - (soleY - 250), far: [255, 160, 206], near: [214, 70, 140], melt: 70, sheen: 0.4, grain: 2.5, seed: 103 });

    const times = spans(sprites.length);
    const place = () => ({ ...seen(camera, 1, W / 2, soleY), scale: mix(0.88, 1, ease(0, SECONDS)) });
    const shoe = await shoeLayers(sprites, times, place, look);
    // Glints around the ring and the shoe, and on the shoe's own edge.
    const around = twinkles(
      strip,
      [0.1, 0.8, 1.6, 2.4, 3.3, 4.2, 5.1].map((a, k) => ({ ...seen(camera, 0.3, ring.cx - margin.x + Math.cos(a) * ring.r, ring.cy - margin.y + Math.sin(a) * ring.r), phase: (k * 0.29) % 1 })),
      16,
      8,
    );
    const onShoe: Layer[] = sprites.flatMap((sprite, i) =>
      twinkles(strip, [0.2, 0.5, 0.9].map((f, k) => ({ ...shoeEdge(sprite, place(), f), phase: (k * 0.37 + i * 0.2) % 1 })), 16, 10).map((layer) => ({ ...layer, from: times[i]!.from, until: times[i]!.until })),
    );
    return {
      backdrop: { still: developed(sky, 2.4, 100), ...backdropWindow(camera, 0.3, margin) },
      layers: [...around, { still: ground, ...seen(camera, 1, -100, soleY - 250) }, ...shoe, ...onShoe, { ...drifting(glitter, { width: W, height: 1500 }, seen(camera, 1.2, 0, 0), '-20*t', '70*t') }],
      poster: posterTime(times, 0),
    };
  },
};
