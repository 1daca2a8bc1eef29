// Colour: the shoe's dominant colours found by k-means in OKLab (a perceptual space, so clusters
// are colours people tell apart), an outfit palette harmonised with the main colour in OKLCH,
// and a name for each colour in the seller's language.
import type { Locale } from '../../contract/locales';
import type ruStudio from '../../contract/locales/ru/studio';
import { text } from '../lib/i18n';

export type Rgb = [number, number, number];
type Lab = [number, number, number];

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
export function dominantColours(rgba: Uint8Array | Buffer, k = 5, maxSamples = 6000): Swatch[] {
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

const chromaOf = ([, a, b]: Lab) => Math.hypot(a, b);
const hueOf = ([, a, b]: Lab) => Math.atan2(b, a);
const fromLch = (L: number, C: number, h: number): Rgb => oklabToRgb([L, C * Math.cos(h), C * Math.sin(h)]);

/** The most characteristic colour: the largest cluster with some colour, else the largest. */
export function mainColour(swatches: readonly Swatch[]): Rgb {
  const coloured = swatches.find((s) => s.share > 0.08 && chromaOf(rgbToOklab(s.rgb)) > 0.04);
  return (coloured ?? swatches[0] ?? { rgb: [128, 128, 128] as Rgb }).rgb;
}

/**
 * An outfit palette around the shoe's main colour: the colour itself, a deep and a light tone of
 * it, an analogous accent, its complement (muted, so it accents rather than fights), and a
 * neutral warm or cool to match.
 */
export function outfitPalette(main: Rgb): Rgb[] {
  const [L, a, b] = rgbToOklab(main);
  const C = Math.max(0.03, chromaOf([L, a, b]));
  const h = hueOf([L, a, b]);
  const warm = Math.cos(h - 1.0) > 0;
  return [
    main,
    fromLch(Math.max(0.25, L - 0.25), C * 0.8, h),
    fromLch(Math.min(0.95, L + 0.3), C * 0.35, h),
    fromLch(Math.min(0.8, Math.max(0.45, L)), C * 0.9, h + Math.PI / 6),
    fromLch(Math.min(0.75, Math.max(0.45, L)), C * 0.6, h + Math.PI),
    warm ? fromLch(0.86, 0.02, 1.2) : fromLch(0.84, 0.015, 4.2),
  ];
}

/** Named reference colours; their names in each language are the catalogue's `studio.colours`. */
const NAMED: { rgb: Rgb; name: keyof typeof ruStudio.studio.colours }[] = [
  { rgb: [0, 0, 0], name: 'black' },
  { rgb: [64, 64, 64], name: 'charcoal' },
  { rgb: [128, 128, 128], name: 'grey' },
  { rgb: [192, 192, 192], name: 'silver' },
  { rgb: [245, 245, 240], name: 'white' },
  { rgb: [240, 230, 210], name: 'cream' },
  { rgb: [210, 180, 140], name: 'tan' },
  { rgb: [194, 154, 108], name: 'camel' },
  { rgb: [123, 63, 0], name: 'chocolate' },
  { rgb: [92, 64, 51], name: 'brown' },
  { rgb: [128, 0, 32], name: 'burgundy' },
  { rgb: [200, 30, 40], name: 'red' },
  { rgb: [250, 128, 114], name: 'salmon' },
  { rgb: [255, 140, 0], name: 'orange' },
  { rgb: [230, 190, 40], name: 'mustard' },
  { rgb: [250, 230, 80], name: 'yellow' },
  { rgb: [128, 128, 0], name: 'olive' },
  { rgb: [85, 107, 47], name: 'khakiGreen' },
  { rgb: [40, 150, 70], name: 'green' },
  { rgb: [152, 200, 160], name: 'sage' },
  { rgb: [0, 128, 128], name: 'teal' },
  { rgb: [64, 200, 210], name: 'turquoise' },
  { rgb: [135, 190, 235], name: 'skyBlue' },
  { rgb: [40, 80, 200], name: 'blue' },
  { rgb: [20, 30, 80], name: 'navy' },
  { rgb: [110, 60, 170], name: 'purple' },
  { rgb: [200, 170, 220], name: 'lavender' },
  { rgb: [230, 80, 160], name: 'pink' },
  { rgb: [245, 200, 210], name: 'blush' },
];
const NAMED_LAB = NAMED.map((entry) => rgbToOklab(entry.rgb));
/** The names a colour can be given (`studio.colours.<name>`). */
export const COLOUR_NAMES = NAMED.map((entry) => entry.name);

/** The nearest named colour, in the seller's language. */
export function colourName(rgb: Rgb, locale: Locale): string {
  const lab = rgbToOklab(rgb);
  let best = 0;
  let bestDistance = Infinity;
  NAMED_LAB.forEach((named, i) => {
    const d = (named[0] - lab[0]) ** 2 + (named[1] - lab[1]) ** 2 + (named[2] - lab[2]) ** 2;
    if (d < bestDistance) {
      bestDistance = d;
      best = i;
    }
  });
  return text(locale, `studio.colours.${NAMED[best]!.name}`);
}

/** Black or white, whichever reads better on `rgb`. */
export function inkOn(rgb: Rgb): Rgb {
  return rgbToOklab(rgb)[0] > 0.65 ? [28, 28, 30] : [250, 250, 248];
}
