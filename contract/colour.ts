// Colour that the studio and the editor share: conversions to OKLab (a perceptual space, so
// distances are differences people see), a picture's dominant colours by k-means, and WCAG
// contrast between two colours.
export type Rgb = [number, number, number];
export type Lab = [number, number, number];

const toLinear = (v: number) => {
  const c = v / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
};
const fromLinear = (v: number) => {
  const c = v <= 0.0031308 ? 12.92 * v : 1.055 * v ** (1 / 2.4) - 0.055;
  return Math.round(Math.min(1, Math.max(0, c)) * 255);
};

export function rgbToOklab([r, g, b]: Rgb): Lab {
  const [lr, lg, lb] = [toLinear(r), toLinear(g), toLinear(b)];
  const l = Math.cbrt(0.4122214708 * lr + 0.5363325363 * lg + 0.0514459929 * lb);
  const m = Math.cbrt(0.2119034982 * lr + 0.6806995451 * lg + 0.1073969566 * lb);
  const s = Math.cbrt(0.0883024619 * lr + 0.2817188376 * lg + 0.6299787005 * lb);
  return [
    0.2104542553 * l + 0.793617785 * m - 0.0040720468 * s,
    1.9779984951 * l - 2.428592205 * m + 0.4505937099 * s,
    0.0259040371 * l + 0.7827717662 * m - 0.808675766 * s,
  ];
}

export function oklabToRgb([L, a, b]: Lab): Rgb {
  const l = (L + 0.3963377774 * a + 0.2158037573 * b) ** 3;
  const m = (L - 0.1055613458 * a - 0.0638541728 * b) ** 3;
  const s = (L - 0.0894841775 * a - 1.291485548 * b) ** 3;
  return [
    fromLinear(4.0767416621 * l - 3.3077115913 * m + 0.2309699292 * s),
    fromLinear(-1.2684380046 * l + 2.6097574011 * m - 0.3413193965 * s),
    fromLinear(-0.0041960863 * l - 0.7034186147 * m + 1.707614701 * s),
  ];
}

export const hex = (rgb: Rgb) => `#${rgb.map((v) => v.toString(16).padStart(2, '0')).join('')}`.toUpperCase();

export interface Swatch {
  rgb: Rgb;
  /** Share of the shoe's pixels. */
  share: number;
}

/**
 * The shoe's dominant colours: k-means (k-means++ seeding from a fixed generator, so the same
 * photo gives the same answer) over the opaque pixels of an RGBA image, largest cluster first.
 */
export function dominantColours(rgba: Uint8Array | Uint8ClampedArray, k = 5, maxSamples = 6000): Swatch[] {
  const samples: Lab[] = [];
  const pixels = rgba.length / 4;
  const step = Math.max(1, Math.floor(pixels / maxSamples));
  for (let p = 0; p < pixels; p += step) {
    if (rgba[p * 4 + 3]! < 200) continue;
    samples.push(rgbToOklab([rgba[p * 4]!, rgba[p * 4 + 1]!, rgba[p * 4 + 2]!]));
  }
  if (samples.length === 0) return [];
  let seed = 12345;
  const random = () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
  const distance = (a: Lab, b: Lab) => (a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2 + (a[2] - b[2]) ** 2;
  const centres: Lab[] = [samples[Math.floor(random() * samples.length)]!];
  while (centres.length < Math.min(k, samples.length)) {
    const weights = samples.map((s) => Math.min(...centres.map((c) => distance(s, c))));
    const total = weights.reduce((a, b) => a + b, 0);
    if (total === 0) break;
    let pick = random() * total;
    let index = 0;
    while (pick > weights[index]! && index < weights.length - 1) pick -= weights[index++]!;
    centres.push(samples[index]!);
  }
  const assignment = new Int32Array(samples.length);
  for (let round = 0; round < 20; round += 1) {
    let moved = false;
    samples.forEach((s, i) => {
      let best = 0;
      for (let c = 1; c < centres.length; c += 1) if (distance(s, centres[c]!) < distance(s, centres[best]!)) best = c;
      if (assignment[i] !== best) moved = true;
      assignment[i] = best;
    });
    centres.forEach((_, c) => {
      const members = samples.filter((__, i) => assignment[i] === c);
      if (members.length === 0) return;
      centres[c] = [0, 1, 2].map((d) => members.reduce((sum, m) => sum + m[d]!, 0) / members.length) as Lab;
    });
    if (!moved && round > 0) break;
  }
  const counts = centres.map((_, c) => assignment.filter((a) => a === c).length);
  return centres
    .map((centre, c) => ({ rgb: oklabToRgb(centre), share: counts[c]! / samples.length }))
    .filter((swatch) => swatch.share > 0)
    .sort((a, b) => b.share - a.share);
}

/** Black or white, whichever reads better on `rgb`. */
export function inkOn(rgb: Rgb): Rgb {
  return rgbToOklab(rgb)[0] > 0.65 ? [28, 28, 30] : [250, 250, 248];
}

/** WCAG 2 relative luminance of an sRGB colour. */
export function relativeLuminance([r, g, b]: Rgb): number {
  return 0.2126 * toLinear(r) + 0.7152 * toLinear(g) + 0.0722 * toLinear(b);
}

/** WCAG 2 contrast ratio, 1 (none) to 21 (black on white). */
export function contrastRatio(a: Rgb, b: Rgb): number {
  const [light, dark] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/** `#rrggbb` as an RGB triple (null for anything else). */
export function parseHex(value: string): Rgb | null {
  const match = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(value);
  return match ? [parseInt(match[1]!, 16), parseInt(match[2]!, 16), parseInt(match[3]!, 16)] : null;
}
