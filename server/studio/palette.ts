// Colour: the shoe's dominant colours found by k-means in OKLab (a perceptual space, so clusters
// are colours people tell apart), an outfit palette harmonised with the main colour in OKLCH,
// and a name for each colour in the seller's language.
import { oklabToRgb, rgbToOklab, type Lab, type Rgb, type Swatch } from '../../contract/colour';
import type { Locale } from '../../contract/locales';
import type ruStudio from '../../contract/locales/ru/studio';
import { text } from '../lib/i18n';
import type { SurfaceKind } from './photo/surfaces';

export { dominantColours, hex, inkOn, oklabToRgb, rgbToOklab, type Rgb, type Swatch } from '../../contract/colour';

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

/**
 * A studio paper to set the shoe on: a pale tone of the shoe's own hue (a warm light grey for a
 * shoe without colour). Hue and chroma are rounded, so similar shoes share a backdrop and its
 * rendering is reused.
 */
export function studioTint(main: Rgb): Rgb {
  const lab = rgbToOklab(main);
  const C = chromaOf(lab);
  if (C < 0.03) return fromLch(0.93, 0.01, 1.2);
  const step = Math.PI / 6;
  const h = Math.round(hueOf(lab) / step) * step;
  return fromLch(0.93, Math.min(0.025, Math.round(C * 0.25 * 200) / 200), h);
}

/**
 * The surface a flat-lay of this shoe is shot on, and its colour: warm colours on linen or wood,
 * cool ones on marble or concrete, a shoe without colour on paper; the choice between the two
 * follows how light the shoe is, so it stands out.
 */
export function flatLaySurface(main: Rgb, neutral: Rgb): { kind: SurfaceKind; colour: Rgb } {
  const lab = rgbToOklab(main);
  const light = lab[0] > 0.6;
  if (chromaOf(lab) < 0.03) return { kind: light ? 'concrete' : 'paper', colour: light ? [176, 174, 170] : neutral };
  const warm = Math.cos(hueOf(lab) - 1.0) > 0;
  if (warm) return light ? { kind: 'wood', colour: [150, 108, 74] } : { kind: 'linen', colour: neutral };
  return light ? { kind: 'concrete', colour: [170, 170, 168] } : { kind: 'marble', colour: [238, 236, 232] };
}
