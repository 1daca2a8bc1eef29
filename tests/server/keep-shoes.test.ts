// Which salient pieces are kept as shoes (keep-shoes.ts), on salience maps drawn here: a pair of
// ellipses of different colours is kept whole, a flat rectangle (a sheet of paper, a box's side)
// beside them is left out, a small speck is left out, and a lace loop the network sees through
// stays a hole while a patch it half-saw through is filled.
import { describe, expect, it } from 'vitest';
import { keepShoes } from '../../server/studio/keep-shoes';

const W = 200;
const H = 150;

function canvas() {
  return { salient: new Float32Array(W * H), rgb: new Uint8Array(W * H * 3).fill(120) };
}

function paint(c: ReturnType<typeof canvas>, inside: (x: number, y: number) => boolean, value: number, colour: [number, number, number], grain = 0) {
  for (let y = 0; y < H; y += 1) {
    for (let x = 0; x < W; x += 1) {
      if (!inside(x, y)) continue;
      const i = y * W + x;
      c.salient[i] = value;
      // A shoe's surface is textured; paper is not.
      const t = grain ? ((x * 7 + y * 13) % 5) * grain : 0;
      for (let k = 0; k < 3; k += 1) c.rgb[i * 3 + k] = Math.min(255, colour[k]! + t);
    }
  }
}

const ellipse = (cx: number, cy: number, rx: number, ry: number) => (x: number, y: number) => ((x - cx) / rx) ** 2 + ((y - cy) / ry) ** 2 <= 1;
const box = (x0: number, y0: number, x1: number, y1: number) => (x: number, y: number) => x >= x0 && x <= x1 && y >= y0 && y <= y1;
const count = (mask: Uint8Array, inside: (x: number, y: number) => boolean) => {
  let n = 0;
  for (let y = 0; y < H; y += 1) for (let x = 0; x < W; x += 1) if (inside(x, y) && mask[y * W + x]) n += 1;
  return n;
};

describe('keeping only the shoes', () => {
  it('keeps both shoes of a pair in different colours and leaves a sheet of paper and a speck out', () => {
    const c = canvas();
    const left = ellipse(70, 90, 30, 14);
    const right = ellipse(130, 95, 28, 13);
    const paper = box(150, 10, 190, 50);
    paint(c, left, 0.97, [40, 200, 190], 8);
    paint(c, right, 0.95, [150, 200, 240], 8);
    paint(c, paper, 0.9, [245, 245, 240]);
    paint(c, box(10, 10, 12, 12), 0.9, [20, 20, 20]);
    const { mask, kept } = keepShoes(c.salient, c.rgb, W, H);
    expect(kept).toHaveLength(2);
    expect(count(mask, left)).toBeGreaterThan(0.99 * count(new Uint8Array(W * H).fill(1), left));
    expect(count(mask, right)).toBeGreaterThan(0.99 * count(new Uint8Array(W * H).fill(1), right));
    expect(count(mask, paper)).toBe(0);
    expect(count(mask, box(10, 10, 12, 12))).toBe(0);
  });

  it('fills a patch of the shoe the network half-saw through and keeps a loop it saw through', () => {
    const c = canvas();
    const shoe = ellipse(100, 75, 70, 35);
    const faint = ellipse(70, 75, 10, 8);
    const loop = ellipse(130, 75, 10, 8);
    paint(c, shoe, 0.95, [200, 200, 205], 8);
    paint(c, faint, 0.35, [205, 205, 210]);
    paint(c, loop, 0.02, [120, 120, 120]);
    const { mask } = keepShoes(c.salient, c.rgb, W, H);
    expect(count(mask, faint)).toBe(count(new Uint8Array(W * H).fill(1), faint));
    expect(count(mask, loop)).toBe(0);
  });
});
