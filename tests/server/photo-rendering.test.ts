// The studio's photographic building blocks (server/studio/photo/): colour differences against
// published reference values, props lit from the side the light comes from (and from the other
// side when the light moves), shadows where a shoe meets the floor, the shoe's colour kept and the
// white balance taking only the light's tint, surfaces that carry texture yet stay subtle, and the plate memory's bound.
import { describe, expect, it } from 'vitest';
import { deltaE2000, deltaE76, rgbToCieLab, type Lab, type Rgb } from '../../contract/colour';
import { balanceShoe } from '../../server/studio/photo/balance';
import { castShare, tintOf, whiteBalance } from '../../server/studio/segment';
import { lru } from '../../server/studio/photo/cache';
import type { Layer } from '../../server/studio/photo/layer';
import { normalise, STUDIO_KEY, TABLE_KEY, type Light } from '../../server/studio/photo/light';
import { drawFloorProps, drawTableProps } from '../../server/studio/photo/props';
import { createRaster, encodeSrgb, type Raster } from '../../server/studio/photo/raster';
import { floorShadow, groundLine } from '../../server/studio/photo/shadow';
import { surface, SURFACES } from '../../server/studio/photo/surfaces';

/** The key light mirrored left to right. */
const mirrored = (light: Light): Light => ({ ...light, direction: normalise([-light.direction[0], light.direction[1], light.direction[2]]) });

/** Mean sRGB luma of a raster over a square around (x, y). */
function brightness(raster: Raster, x: number, y: number, r = 4): number {
  let sum = 0;
  let n = 0;
  for (let dy = -r; dy <= r; dy += 1) {
    for (let dx = -r; dx <= r; dx += 1) {
      const i = ((Math.round(y) + dy) * raster.width + Math.round(x) + dx) * 3;
      sum += 0.2126 * encodeSrgb(raster.data[i]!) + 0.7152 * encodeSrgb(raster.data[i + 1]!) + 0.0722 * encodeSrgb(raster.data[i + 2]!);
      n += 1;
    }
  }
  return sum / n;
}

describe('colour differences', () => {
  // Sharma, Wu and Dalal (2005), "The CIEDE2000 colour-difference formula", table 1.
  it.each([
    [[50, 2.6772, -79.7751], [50, 0, -82.7485], 2.0425],
    [[50, 0, 0], [50, -1, 2], 2.3669],
    [[50, 2.5, 0], [73, 25, -18], 27.1492],
    [[60.2574, -34.0099, 36.2677], [60.4626, -34.1751, 39.4387], 1.2644],
    [[2.0776, 0.0795, -1.135], [0.9033, -0.0636, -0.5514], 0.9082],
  ] as [Lab, Lab, number][])('CIEDE2000 of %j and %j is %d', (a, b, expected) => {
    expect(deltaE2000(a, b)).toBeCloseTo(expected, 3);
    expect(deltaE2000(b, a)).toBeCloseTo(expected, 3);
  });

  it('CIE Lab puts sRGB white at L* 100 with no colour, and CIE76 is the distance there', () => {
    const white = rgbToCieLab([255, 255, 255]);
    expect(white[0]).toBeCloseTo(100, 2);
    expect(Math.abs(white[1]) + Math.abs(white[2])).toBeLessThan(0.05);
    expect(deltaE76([50, 0, 0], [53, 4, 0])).toBeCloseTo(5, 9);
  });
});

describe('props are lit by the scene’s one light', () => {
  const floorScene = (light: Light) => {
    const raster = createRaster({ width: 800, height: 700 }, [0.6, 0.6, 0.6]);
    drawFloorProps(raster, [
      { kind: 'podium', x: 250, base: 600, radius: 160, height: 150, colour: [200, 200, 200] },
      { kind: 'sphere', x: 620, base: 600, radius: 90, colour: [200, 120, 90] },
      { kind: 'plinth', x: 600, base: 330, width: 150, depth: 150, height: 150, colour: [180, 190, 200], yaw: 0.6 },
    ], light, 0.3);
    return raster;
  };

  it('the podium, the sphere and the plinth are brighter on the side the light comes from, and swap sides when it moves', () => {
    for (const [light, lit] of [[STUDIO_KEY, 'left'], [mirrored(STUDIO_KEY), 'right']] as const) {
      const raster = floorScene(light);
      const sign = lit === 'left' ? 1 : -1;
      // Podium body, half-way up; sphere's middle; plinth's two faces seen from the front.
      const podiumY = 600 - 160 * 0.3 - 75;
      expect(sign * (brightness(raster, 250 - 110, podiumY) - brightness(raster, 250 + 110, podiumY))).toBeGreaterThan(15);
      expect(sign * (brightness(raster, 620 - 45, 510) - brightness(raster, 620 + 45, 510))).toBeGreaterThan(15);
      expect(sign * (brightness(raster, 600 - 50, 250) - brightness(raster, 600 + 50, 250))).toBeGreaterThan(8);
    }
  });

  it('a sphere on the floor throws its shadow away from the light', () => {
    const raster = floorScene(STUDIO_KEY);
    // Its shadow falls to the right and back (up the picture, the floor shortened): beside the
    // sphere on the right it is darker than at the same place on the left.
    expect(brightness(raster, 620 + 121, 556, 3)).toBeLessThan(brightness(raster, 620 - 121, 556, 3) - 5);
  });

  it('from above, a ball and a plinth are lit on the window’s side and throw shadows to the other', () => {
    for (const [light, sign] of [[TABLE_KEY, 1], [mirrored(TABLE_KEY), -1]] as const) {
      const raster = createRaster({ width: 600, height: 400 }, [0.5, 0.5, 0.5]);
      drawTableProps(raster, [
        { kind: 'ball', x: 150, y: 200, radius: 80, colour: [200, 200, 200] },
        { kind: 'block', x: 430, y: 200, width: 160, length: 160, angle: 0, lift: 50, colour: [200, 200, 200] },
      ], light);
      expect(sign * (brightness(raster, 150 - 40, 170) - brightness(raster, 150 + 40, 170))).toBeGreaterThan(15);
      // The plinth's bevelled edges: the one facing the light is brighter than the one facing away.
      expect(sign * (brightness(raster, 430 - 77, 200, 1) - brightness(raster, 430 + 77, 200, 1))).toBeGreaterThan(10);
      // Its shadow, just past the edge away from the light, darker than past the edge towards it.
      expect(sign * (brightness(raster, 430 - 95, 230, 2) - brightness(raster, 430 + 95, 230, 2))).toBeGreaterThan(5);
    }
  });
});

/** A shoe-like layer: a long low block with a heel and a forefoot on the ground and an arch between. */
function shoeLayer(): Layer {
  const width = 400;
  const height = 160;
  const rgba = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const arch = x > 120 && x < 230 && y > height - 10;
      const toe = x > 360 && y < 60 + (x - 360) * 2;
      if (arch || toe) continue;
      rgba.set([120, 60, 40, 255], (y * width + x) * 4);
    }
  }
  return { rgba, width, height, left: 200, top: 300 };
}

describe('the shoe’s shadows on the floor', () => {
  it('the ground line runs under the heel and the forefoot, leaving the arch clear of the floor', () => {
    const shoe = shoeLayer();
    const bottom = new Int32Array(shoe.width).map((_, x) => (x > 120 && x < 230 ? shoe.height - 11 : shoe.height - 1));
    const line = groundLine(bottom);
    expect(line[50]).toBe(shoe.height - 1);
    expect(line[175]).toBe(shoe.height - 1);
    expect(line[175]! - bottom[175]!).toBe(10);
  });

  it('is darkest right under the sole, softer further out, and gone well away from the shoe', () => {
    const shoe = shoeLayer();
    const occlusion = floorShadow(shoe, { light: STUDIO_KEY, depth: 0.3, contact: 0.8, ambient: 0.4, cast: 0 });
    const at = (x: number, y: number) => occlusion.data[(y - occlusion.region.top) * occlusion.region.width + (x - occlusion.region.left)]!;
    const ground = shoe.top + shoe.height;
    const heel = shoe.left + 60;
    expect(at(heel, ground + 2)).toBeGreaterThan(0.5);
    expect(at(heel, ground + 20)).toBeLessThan(at(heel, ground + 2));
    expect(at(heel, ground + 20)).toBeGreaterThan(0.05);
    // Under the arch, which stands clear, the contact is weaker than under the heel.
    expect(at(shoe.left + 175, ground + 2)).toBeLessThan(at(heel, ground + 2));
    const last = occlusion.region.top + occlusion.region.height - 1;
    expect(at(heel, last)).toBeLessThan(0.02);
  });

  it('throws a soft shadow away from the light when asked', () => {
    const shoe = shoeLayer();
    const without = floorShadow(shoe, { light: STUDIO_KEY, depth: 0.3, contact: 0.8, ambient: 0.4, cast: 0 });
    const withCast = floorShadow(shoe, { light: STUDIO_KEY, depth: 0.3, contact: 0.8, ambient: 0.4, cast: 0.5 });
    // The light is on the left: the cast reaches past the toe on the right, not past the heel.
    const right = withCast.region.left + withCast.region.width;
    expect(right).toBeGreaterThan(without.region.left + without.region.width + 50);
    expect(withCast.region.left).toBe(without.region.left);
  });
});

describe('the shoe’s colour', () => {
  /** A shoe's pixels, shaded across: a colour with some light and dark in it. */
  const pixels = (colour: Rgb) => {
    const rgba = new Uint8Array(200 * 100 * 4);
    for (let p = 0; p < 200 * 100; p += 1) {
      const shade = 0.8 + 0.4 * ((p % 200) / 200) + (p % 7 === 0 ? 0.15 : 0);
      rgba.set([...colour.map((v) => Math.min(255, Math.round(v * shade))), 255], p * 4);
    }
    return rgba;
  };
  const mean = (rgba: Uint8Array): Rgb => {
    const sum = [0, 0, 0];
    for (let p = 0; p < rgba.length / 4; p += 1) for (let c = 0; c < 3; c += 1) sum[c]! += rgba[p * 4 + c]!;
    return sum.map((v) => v / (rgba.length / 4)) as Rgb;
  };
  const spread = (rgba: Uint8Array) => {
    const values = Array.from({ length: rgba.length / 4 }, (_, p) => rgba[p * 4 + 1]!);
    const average = values.reduce((a, b) => a + b, 0) / values.length;
    return Math.sqrt(values.reduce((a, b) => a + (b - average) ** 2, 0) / values.length);
  };

  it.each([
    ['navy', [60, 90, 150]],
    ['light grey', [200, 200, 200]],
    ['red', [180, 40, 40]],
  ] as const)('keeps a %s shoe’s mean colour (CIEDE2000 under 1) and brings its detail out', (_, colour) => {
    const cut = pixels([...colour]);
    const balanced = balanceShoe(cut, 200, 100);
    expect(deltaE2000(rgbToCieLab(mean(cut)), rgbToCieLab(mean(balanced)))).toBeLessThan(1);
    expect(spread(balanced)).toBeGreaterThan(spread(cut) * 1.02);
  });

  it('changes nothing without local contrast', () => {
    const cut = pixels([60, 90, 150]);
    expect(Array.from(balanceShoe(cut, 200, 100, 0))).toEqual(Array.from(cut));
  });
});

describe('the white balance', () => {
  const luma = (rgb: Rgb) => 0.299 * rgb[0] + 0.587 * rgb[1] + 0.114 * rgb[2];
  /** A light grey floor in a slightly warm room. */
  const warmFloor: Rgb = [200, 196, 186];

  it('takes a backdrop’s whole tint for the light’s when the shoe’s grey parts show it too, keeping the backdrop’s brightness', () => {
    const gains = whiteBalance(warmFloor, tintOf([150, 147, 139]));
    const corrected = warmFloor.map((v, c) => v * gains[c]!) as Rgb;
    expect(Math.max(...corrected) - Math.min(...corrected)).toBeLessThan(1);
    expect(luma(corrected)).toBeCloseTo(luma(warmFloor), 0);
  });

  it('takes none of it when the shoe’s white parts are white: the floor is that colour', () => {
    expect(castShare(warmFloor, tintOf([236, 236, 237]))).toBeLessThan(0.05);
    const gains = whiteBalance(warmFloor, tintOf([236, 236, 237]));
    expect(Math.max(...gains.map((g) => Math.abs(g - 1))), `gains ${gains}`).toBeLessThan(0.01);
  });

  it('takes part of it when the shoe’s grey parts are half as warm as the floor', () => {
    const share = castShare(warmFloor, tintOf([150, 148.5, 144]));
    expect(share).toBeGreaterThan(0.3);
    expect(share).toBeLessThan(0.7);
  });

  it.each([
    ['a warm room (a tint a light gives)', [190, 178, 150], 0.95, 1],
    ['brown laminate', [104, 89, 71], 0.1, 0.4],
    ['a red carpet', [138, 24, 41], 0, 0],
    ['a green mat', [40, 57, 48], 0, 0],
  ] as const)('with nothing neutral on the shoe (pink slides), on %s takes the share a light could give', (_, backdrop, least, most) => {
    const share = castShare([...backdrop], tintOf([240, 200, 215]));
    expect(share).toBeGreaterThanOrEqual(least);
    expect(share).toBeLessThanOrEqual(most);
  });

  it('leaves a strongly coloured backdrop (a green mat, a red carpet) alone, whatever the shoe', () => {
    for (const backdrop of [[40, 57, 48], [138, 24, 41]] as Rgb[]) {
      for (const shoe of [[232, 232, 230], [240, 200, 215], null] as const) {
        const gains = whiteBalance(backdrop, shoe && tintOf([...shoe]));
        expect(Math.max(...gains.map((g) => Math.abs(g - 1))), `gains ${gains}`).toBeLessThan(0.005);
      }
    }
  });
});

describe('surfaces', () => {
  it.each(SURFACES)('%s carries texture, subtle, lit brighter on the window’s side', (kind) => {
    const size = { width: 320, height: 320 };
    const raster = surface(kind, size, { colour: [200, 190, 175], light: TABLE_KEY, seed: 3 });
    const values: number[] = [];
    for (let y = 140; y < 180; y += 1) for (let x = 140; x < 180; x += 1) values.push(brightness(raster, x, y, 0));
    const average = values.reduce((a, b) => a + b, 0) / values.length;
    const deviation = Math.sqrt(values.reduce((a, b) => a + (b - average) ** 2, 0) / values.length);
    expect(deviation).toBeGreaterThan(0.4);
    expect(deviation).toBeLessThan(kind === 'marble' || kind === 'wood' ? 30 : 12);
    // The window is at the top left: that corner is brighter than the bottom right.
    expect(brightness(raster, 40, 40, 20)).toBeGreaterThan(brightness(raster, 280, 280, 20));
  });
});

describe('the plate memory', () => {
  it('keeps the most recently used plates up to its bound, making each once', () => {
    const memory = lru<number>(2);
    let made = 0;
    const make = () => (made += 1);
    memory.get('a', make);
    memory.get('b', make);
    memory.get('a', make);
    memory.get('c', make); // drops b, the least recently used
    memory.get('a', make);
    expect([made, memory.size]).toEqual([3, 2]);
    memory.get('b', make);
    expect(made).toBe(4);
  });
});
