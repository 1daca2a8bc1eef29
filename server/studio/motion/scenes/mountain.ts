// SHOE_MOUNTAIN: a high ledge at sunrise. Range after range of ridges falls away into the haze,
// paler with every step back; mist drifts in the valleys between them, and as the camera tracks
// across the ledge the near ridges slide past the far ones.
import type { Rgb } from '../../../../contract/colour';
import type { Layer } from '../film';
import { ease, mix, num } from '../film';
import { floor, ridge, ridgePath } from '../plates';
import { drifting, twinkles, wisps } from '../particles';
import { canvas, developed, drawn, glow, gradient, lay, mottle, vignette } from '../raster';
import { birdStrip } from '../sprites';
import { backdropWindow, litShots, pickShots, piece, plateSize, posterTime, SECONDS, seen, shoeLayers, spans, W, type Camera, type Scene, type ShoeLook } from '../stage';

interface Range {
  depth: number;
  base: number;
  amplitude: number;
  /** Colour at the crest and at the foot, where the haze gathers. */
  crest: Rgb;
  foot: Rgb;
  snow: number;
  seed: number;
}

/** Far to near. */
const RANGES: Range[] = [
  { depth: 0.3, base: 860, amplitude: 230, crest: [150, 172, 204], foot: [206, 218, 232], snow: 0.6, seed: 111 },
  { depth: 0.5, base: 1000, amplitude: 190, crest: [104, 128, 162], foot: [178, 194, 214], snow: 0.25, seed: 112 },
  { depth: 0.75, base: 1120, amplitude: 150, crest: [64, 84, 110], foot: [136, 154, 178], snow: 0, seed: 113 },
];

/** One range as a set piece: a rough ridgeline, lit on one side, hazy at its foot, snow on its peaks. */
async function range(r: Range, width: number, height: number): Promise<Buffer> {
  const step = 6;
  const line = ridge(width, { base: r.base - (1920 - height), amplitude: r.amplitude, seed: r.seed, roughness: 0.45, octaves: 7, step, jagged: true, span: 2600 * (0.6 + r.depth) });
  const top = Math.min(...line);
  const snowLine = top + r.amplitude * 0.45;
  const pixels = await drawn(
    `<defs><linearGradient id="g" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="rgb(${r.crest.join(',')})"/><stop offset="1" stop-color="rgb(${r.foot.join(',')})"/></linearGradient>
      <linearGradient id="s" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#F4F8FF" stop-opacity="${r.snow}"/><stop offset="1" stop-color="#F4F8FF" stop-opacity="0"/></linearGradient>
      <clipPath id="c"><path d="${ridgePath(line, step, height)}"/></clipPath></defs>
     <g><path d="${ridgePath(line, step, height)}" fill="url(#g)"/>
       ${r.snow ? `<rect x="0" y="${top}" width="${width}" height="${snowLine - top}" fill="url(#s)" clip-path="url(#c)"/>` : ''}</g>`,
    width,
    height,
    // The farther ranges are softened by the air: drawn at half size, they need no blur.
    r.depth < 0.6 ? 0.5 : 1,
  );
  // Rock and scree: the light is broken up across the slopes.
  mottle(pixels, width, height, { scale: 36, strength: 0.1, seed: r.seed, stretch: 0.5 });
  return pixels;
}

export const mountain: Scene = {
  async make(views) {
    const margin = { x: 60, y: 40 };
    const camera: Camera = { pan: mix(-150, 150, ease(0, SECONDS)), rise: mix(-20, 30, ease(0, SECONDS)) };
    const { width: pw, height: ph } = plateSize(margin);
    const soleY = 1420;

    const look: ShoeLook = {
      fit: { width: 860, height: 560 },
      light: { side: -0.8, key: 0.4, rim: [255, 228, 196], rimStrength: 0.6, spill: [170, 190, 220], spillStrength: 0.1 },
      floor: { contact: 0.85, spread: 0.45, reflection: 0 },
      sweep: { strength: 0.3, tint: [255, 240, 220] },
    };
    const shots = pickShots(views, ['left_side', 'right_45', 'right_side'], 3);
    const rangeWidth = (depth: number) => W + Math.ceil(300 * depth) + 40;
    const [sprites, ranges, mistFar, mistNear, birds] = await Promise.all([
      litShots(shots, look),
      Promise.all(RANGES.map((r) => range(r, rangeWidth(r.depth), 1920 - (r.base - r.amplitude - 80)))),
      wisps({ width: W, height: 360, periodX: 2000, stretch: 8, colour: [236, 240, 248], opacity: 1, density: 0.65, falloff: 'middle', seed: 114, scale: 20 }),
      wisps({ width: W, height: 420, periodX: 2200, stretch: 8, colour: [240, 244, 250], opacity: 1, density: 0.6, falloff: 'middle', seed: 115, scale: 24 }),
      birdStrip(36, 8, [46, 52, 66]),
    ]);

    const sky = canvas(pw, ph);
    gradient(sky, [
      [0, [58, 104, 176]],
      [0.3, [128, 166, 214]],
      [0.42, [236, 214, 196]],
      [0.5, [250, 228, 204]],
      [1, [220, 226, 234]],
    ]);
    glow(sky, { cx: pw * 0.3, cy: ph * 0.41, rx: 120, ry: 120 }, [255, 248, 226], 0.9);
    glow(sky, { cx: pw * 0.3, cy: ph * 0.42, rx: 600, ry: 300 }, [255, 222, 180], 0.45);
    // The farthest peaks, barely there through the haze.
    const farthest = ridge(pw, { base: 820 + margin.y, amplitude: 160, seed: 110, roughness: 0.5, octaves: 6, step: 8, jagged: true });
    lay(sky, await drawn(`<path d="${ridgePath(farthest, 8, ph)}" fill="#C3CFDE" fill-opacity="0.8"/>`, pw, ph, 0.5));
    vignette(sky, 0.3);
    const ledge = floor({ width: W + 300, height: 1920 + 60 - (soleY - 150), far: [128, 118, 108], near: [62, 54, 48], melt: 30, mottle: 0.6, grain: 3, seed: 116 });

    const times = spans(sprites.length);
    const place = () => ({ ...seen(camera, 1, W / 2, soleY), scale: mix(0.9, 1, ease(0, SECONDS)) });
    const shoe = await shoeLayers(sprites, times, place, look);
    const layers: Layer[] = [];
    RANGES.forEach((r, i) => {
      const width = rangeWidth(r.depth);
      const height = 1920 - (r.base - r.amplitude - 80);
      layers.push(piece({ width, height, format: 'rgba', pixels: ranges[i]! }, camera, r.depth, -Math.ceil(150 * r.depth) - 20, 1920 - height));
      if (i === 0) layers.push({ ...drifting(mistFar, { width: W, height: 360 }, seen(camera, 0.4, 0, 760), '18*t') });
      if (i === 1) layers.push({ ...drifting(mistNear, { width: W, height: 420 }, seen(camera, 0.6, 0, 930), '-26*t') });
    });
    const flock = [0, 1, 2].flatMap((k) => twinkles(birds, [{ x: `${num(-60 - k * 55)}+110*t`, y: `${num(640 + k * 26)}+5*sin(t*2+${k})`, phase: k / 3 }], 16, 0));
    return {
      backdrop: { still: developed(sky, 2.4, 110), ...backdropWindow(camera, 0.12, margin) },
      layers: [...flock, ...layers, { still: ledge, ...seen(camera, 1, -150, soleY - 150) }, ...shoe],
      poster: posterTime(times, 1),
    };
  },
};
