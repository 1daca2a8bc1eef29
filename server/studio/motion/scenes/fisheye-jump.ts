// SHOE_FISHEYE_JUMP: a sunlit court shot through a fisheye, as a skate video would be. The shoe
// crouches, springs up towards the lens (growing and stretching as it comes), lands with a
// squash, a puff of dust and a jolt of the camera, and does it again higher.
import type { Layer } from '../film';
import { num } from '../film';
import { barrel, canvas, developed, drawn, glow, gradient, lay, vignette } from '../raster';
import { dustPuff } from '../sprites';
import { backdropWindow, castShadow, litShots, pickShots, plateSize, SECONDS, seen, shoeLayers, spans, W, type Camera, type Scene, type ShoeLook } from '../stage';

/** Take-off and landing of each jump, seconds, and its height, px. */
const JUMPS = [
  { up: 0.7, down: 2.05, height: 430 },
  { up: 2.6, down: 4.45, height: 540 },
  { up: 4.75, down: 5.45, height: 150 },
];

/** How high the shoe is at t (0 on the ground), as an expression. */
const lift = JUMPS.map((j) => {
  const u = `clip((t-${num(j.up)})/${num(j.down - j.up)},0,1)`;
  return `${j.height}*4*${u}*(1-${u})`;
}).join('+');

/** 1 at each landing and take-off, falling away within a few frames: the squash. */
const impact = JUMPS.flatMap((j) => [j.up, j.down])
  .map((at) => `exp(-pow((t-${num(at)})/0.07,2))`)
  .join('+');

export const fisheyeJump: Scene = {
  async make(views) {
    const margin = { x: 30, y: 30 };
    const camera: Camera = { pan: '0', rise: `10*(${impact})*sin(t*80)` };
    const { width: pw, height: ph } = plateSize(margin);
    const groundY = 1400;
    const horizon = 820 + margin.y;

    const flat = canvas(pw, ph);
    gradient(flat, [
      [0, [20, 110, 220]],
      [0.45, [80, 190, 250]],
      [horizon / ph, [210, 240, 255]],
      [horizon / ph + 0.001, [255, 150, 40]],
      [1, [230, 96, 24]],
    ]);
    glow(flat, { cx: pw * 0.78, cy: ph * 0.16, rx: 110, ry: 110 }, [255, 255, 236], 1);
    glow(flat, { cx: pw * 0.78, cy: ph * 0.16, rx: 420, ry: 420 }, [255, 246, 200], 0.45);
    // The court's lines run to a point on the horizon; a low painted wall stands behind it.
    const vanish = { x: pw / 2, y: horizon - 10 };
    const lines = [-1.6, -0.9, -0.35, 0.35, 0.9, 1.6].map((k) => `<line x1="${vanish.x}" y1="${vanish.y}" x2="${vanish.x + k * pw}" y2="${ph}" stroke="#FFF6E8" stroke-width="${Math.abs(k) > 1 ? 16 : 12}" stroke-opacity="0.85"/>`);
    const rungs = [0.06, 0.16, 0.32, 0.58].map((d) => {
      const y = horizon + (ph - horizon) * d;
      return `<line x1="0" y1="${y}" x2="${pw}" y2="${y}" stroke="#FFF6E8" stroke-width="${6 + d * 18}" stroke-opacity="0.8"/>`;
    });
    const wall = [0, 1, 2, 3, 4, 5, 6].map((k) => `<rect x="${k * (pw / 7)}" y="${horizon - 150}" width="${pw / 7}" height="150" fill="${['#FF4F7B', '#FFD23F', '#3BCEAC', '#540D6E', '#EE4266', '#0EAD69', '#FFB100'][k]}"/>`);
    lay(
      flat,
      await drawn(
        `<defs><filter id="s"><feGaussianBlur stdDeviation="1.2"/></filter><linearGradient id="w" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#fff" stop-opacity="0.25"/><stop offset="1" stop-color="#000" stop-opacity="0.25"/></linearGradient></defs>
         <g filter="url(#s)">${wall.join('')}<rect x="0" y="${horizon - 150}" width="${pw}" height="150" fill="url(#w)"/>${lines.join('')}${rungs.join('')}</g>`,
        pw,
        ph,
      ),
      0.95,
    );
    glow(flat, { cx: pw / 2, cy: horizon, rx: pw, ry: 40 }, [255, 240, 220], 0.35);
    const plate = barrel(flat, 0.75);
    vignette(plate, 0.7);

    const look: ShoeLook = {
      fit: { width: 1000, height: 640 },
      light: { side: 0.8, key: 0.45, rim: [255, 246, 214], rimStrength: 0.6, spill: [120, 200, 255], spillStrength: 0.08 },
      floor: { contact: 0, spread: 0, reflection: 0 },
      sweep: { strength: 0.4 },
    };
    const shots = pickShots(views, ['right_45', 'right_side'], 2);
    const [sprites, puff] = await Promise.all([litShots(shots, look), dustPuff(560, 220, 12, [255, 226, 190], 71)]);
    // Two shots: the hero view for the jumps, the side for the last hop.
    const times = sprites.length > 1 ? [{ from: 0, until: 4.75 }, { from: 4.3, until: SECONDS }] : spans(1);
    const height = `(${lift})`;
    const near = `(${height}/540)`;
    // Coming up towards the lens the shoe grows; it squashes on impact and stretches in flight.
    const scale = `(0.74+0.26*${near})`;
    const shoe = await shoeLayers(
      sprites,
      times,
      () => ({
        ...seen(camera, 1, W / 2, `${groundY}-${height}`),
        scale: `${scale}*(1+0.1*(${impact}))`,
        scaleY: `${scale}*(1-0.16*(${impact})+0.05*${near})`,
      }),
      look,
      (span) => ({ from: span.from + 0.9, until: span.from + 2.4 }),
    );
    const groundShadow = await castShadow(760, seen(camera, 1, W / 2, groundY), near, 0.6, 0.6, '#3A1400');
    // A puff of dust at each landing, stepping through its frames.
    const puffs: Layer[] = JUMPS.map((j) => ({
      still: puff,
      ...seen(camera, 1, W / 2 - 280, groundY - 170),
      crop: { width: 560, height: 220, x: '0', y: `220*min(11,floor((t-${num(j.down)})*22))` },
      from: j.down,
      until: j.down + 0.5,
    }));
    return {
      backdrop: { still: developed(plate, 2.4, 70), ...backdropWindow(camera, 1, margin) },
      layers: [groundShadow, ...puffs, ...shoe],
      poster: 2.6 + (4.45 - 2.6) / 2,
    };
  },
};
