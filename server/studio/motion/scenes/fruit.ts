// SHOE_FRUIT: a sunny studio in citrus colours. Ripe, glossy fruit hangs in the air around the
// shoe at every depth (the nearest big and soft, passing close to the lens), bobbing gently; the
// camera pushes in and the key light's gleam runs over the shoe.
import type { Layer } from '../film';
import { ease, mix, num, whole } from '../film';
import { floor } from '../plates';
import { glintStrip, twinkles } from '../particles';
import { canvas, developed, glow, gradient, lay, vignette } from '../raster';
import { FRUITS, fruit, type FruitKind } from '../sprites';
import { backdropWindow, litShots, pickShots, plateSize, posterTime, SECONDS, seen, shoeLayers, spans, W, type Camera, type Scene, type ShoeLook } from '../stage';

interface Hanging {
  kind: FruitKind;
  radius: number;
  blur: number;
  depth: number;
  x: number;
  y: number;
  /** Bob height px, drift px/s. */
  bob: number;
  drift: number;
}

const HANGING: Hanging[] = [
  { kind: FRUITS.lemon, radius: 60, blur: 2.5, depth: 0.6, x: 200, y: 820, bob: 14, drift: 4 },
  { kind: FRUITS.cherry, radius: 40, blur: 2.5, depth: 0.6, x: 860, y: 700, bob: 12, drift: -3 },
  { kind: FRUITS.lime, radius: 55, blur: 2, depth: 0.65, x: 720, y: 940, bob: 10, drift: 5 },
  { kind: FRUITS.orange, radius: 105, blur: 0, depth: 0.95, x: 190, y: 560, bob: 22, drift: 6 },
  { kind: FRUITS.peach, radius: 90, blur: 0, depth: 1, x: 900, y: 470, bob: 18, drift: -6 },
  { kind: FRUITS.cherry, radius: 46, blur: 0, depth: 1, x: 640, y: 640, bob: 16, drift: 4 },
  { kind: FRUITS.orange, radius: 230, blur: 16, depth: 1.7, x: 1010, y: 1710, bob: 26, drift: -12 },
  { kind: FRUITS.lime, radius: 170, blur: 14, depth: 1.6, x: 40, y: 250, bob: 20, drift: 10 },
];

export const fruitScene: Scene = {
  async make(views) {
    const margin = { x: 60, y: 60 };
    const camera: Camera = { pan: mix(-40, 40, ease(0, SECONDS)), rise: mix(-30, 30, ease(0, SECONDS)) };
    const { width: pw, height: ph } = plateSize(margin);
    const soleY = 1300;

    const look: ShoeLook = {
      fit: { width: 840, height: 540 },
      light: { side: -0.8, key: 0.35, rim: [255, 236, 206], rimStrength: 0.5, spill: [255, 170, 120], spillStrength: 0.1 },
      floor: { contact: 0.8, spread: 0.35, reflection: 0 },
      sweep: { strength: 0.4, tint: [255, 246, 230] },
    };
    const shots = pickShots(views, ['right_45', 'right_side', 'left_side'], 3);
    const [sprites, fruits, strip, far] = await Promise.all([
      litShots(shots, look),
      Promise.all(HANGING.map((h, i) => fruit(h.kind, h.radius, h.blur, 90 + i))),
      glintStrip(90, 12, [255, 250, 235]),
      Promise.all([FRUITS.orange, FRUITS.lemon, FRUITS.peach, FRUITS.lime].map((kind, i) => fruit(kind, 70 + i * 12, 10, 100 + i))),
    ]);

    const sky = canvas(pw, ph);
    gradient(sky, [
      [0, [250, 110, 92]],
      [0.45, [255, 158, 112]],
      [0.62, [255, 206, 160]],
      [1, [240, 150, 104]],
    ]);
    glow(sky, { cx: pw * 0.25, cy: ph * 0.22, rx: 520, ry: 600 }, [255, 240, 214], 0.45);
    // Fruit far back, well out of focus.
    far.forEach((still, i) => {
      const rgba = Buffer.alloc(pw * ph * 4);
      const left = Math.round([120, 420, 760, 980][i]!);
      const top = Math.round([980, 1060, 940, 1080][i]!);
      for (let y = 0; y < still.height && top + y < ph; y += 1) {
        for (let x = 0; x < still.width && left + x < pw; x += 1) still.pixels.copy(rgba, ((top + y) * pw + left + x) * 4, (y * still.width + x) * 4, (y * still.width + x) * 4 + 4);
      }
      lay(sky, rgba, 0.6);
    });
    vignette(sky, 0.3);
    const ground = floor({ width: W + 160, height: 1920 + 90 - (soleY - 260), far: [255, 206, 160], near: [236, 148, 104], melt: 160, grain: 2.5, seed: 91 });

    const times = spans(sprites.length);
    const place = () => ({ ...seen(camera, 1, W / 2, soleY), scale: mix(0.86, 1, ease(0, SECONDS)) });
    const shoe = await shoeLayers(sprites, times, place, look);
    const hanging = (h: Hanging, i: number): Layer => {
      const still = fruits[i]!;
      const at = seen(camera, h.depth, `${h.x}+${num(h.drift)}*t`, `${h.y}+${h.bob}*sin(t*${num(0.9 + (i % 3) * 0.25)}+${i})`);
      return { still, x: whole(`${at.x}-${still.width / 2}`), y: whole(`${at.y}-${still.height / 2}`) };
    };
    const behind = HANGING.map((h, i) => ({ h, i })).filter(({ h }) => h.depth < 1.2);
    const before = HANGING.map((h, i) => ({ h, i })).filter(({ h }) => h.depth >= 1.2);
    // A gleam on the fruit nearest the shoe, now and then.
    const gleams = twinkles(
      strip,
      [3, 4, 5].map((i, k) => {
        const h = HANGING[i]!;
        return { ...seen(camera, h.depth, `${h.x - h.radius * 0.35}+${num(h.drift)}*t`, `${h.y - h.radius * 0.4}+${h.bob}*sin(t*${num(0.9 + (i % 3) * 0.25)}+${i})`), phase: k * 0.33 };
      }),
      14,
      16,
    );
    return {
      backdrop: { still: developed(sky, 2.4, 90), ...backdropWindow(camera, 0.25, margin) },
      layers: [{ still: ground, ...seen(camera, 1, -80, soleY - 260) }, ...behind.map(({ h, i }) => hanging(h, i)), ...gleams, ...shoe, ...before.map(({ h, i }) => hanging(h, i))],
      poster: posterTime(times, 0),
    };
  },
};
