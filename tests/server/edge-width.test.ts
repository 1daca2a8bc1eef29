// The width of a shoe's outline (edge-width.ts): a disc drawn with a hard edge measures a pixel or
// two whatever its contrast, the same disc blurred measures wide, and one too faint to measure gives
// no width at all.
import { describe, expect, it } from 'vitest';
import { outlineWidth } from '../../server/materials/edge-width';

const W = 160;
const H = 120;

/** A disc of brightness `inside` on `outside`, its edge a ramp `soft` px wide, and its mask. */
function disc(inside: number, outside: number, soft: number) {
  const grey = new Float32Array(W * H);
  const mask = new Uint8Array(W * H);
  for (let y = 0; y < H; y += 1) {
    for (let x = 0; x < W; x += 1) {
      const d = Math.hypot(x - 80, y - 60) - 40;
      const t = soft ? Math.min(1, Math.max(0, 0.5 - d / soft)) : d <= 0 ? 1 : 0;
      grey[y * W + x] = outside + (inside - outside) * t;
      mask[y * W + x] = d <= 0 ? 1 : 0;
    }
  }
  return { grey, mask };
}

describe('the width of the outline', () => {
  it('is about a pixel on a hard edge, dark on light or light on dark', () => {
    for (const [inside, outside] of [[30, 220], [200, 60]] as const) {
      const { grey, mask } = disc(inside, outside, 0);
      expect(outlineWidth(grey, mask, W, H)).toBeLessThanOrEqual(1.6);
    }
  });

  it('grows with the blur', () => {
    const widths = [2, 5, 8].map((soft) => {
      const { grey, mask } = disc(30, 220, soft);
      return outlineWidth(grey, mask, W, H)!;
    });
    expect(widths[0]).toBeLessThan(widths[1]!);
    expect(widths[1]).toBeLessThan(widths[2]!);
    expect(widths[2]).toBeGreaterThanOrEqual(6);
  });

  it('gives none when the edge is too faint to measure', () => {
    const { grey, mask } = disc(120, 130, 0);
    expect(outlineWidth(grey, mask, W, H)).toBeNull();
  });
});
