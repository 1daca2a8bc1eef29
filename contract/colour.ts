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

/** CIE L*a*b* (D65, 2°) of an sRGB colour: the space the ΔE formulas below are defined in. */
export function rgbToCieLab([r, g, b]: Rgb): Lab {
  const [lr, lg, lb] = [toLinear(r), toLinear(g), toLinear(b)];
  const x = (0.4123907993 * lr + 0.3575843394 * lg + 0.1804807884 * lb) / 0.95047;
  const y = 0.2126390059 * lr + 0.7151686788 * lg + 0.0721923154 * lb;
  const z = (0.0193308187 * lr + 0.1191947798 * lg + 0.9505321522 * lb) / 1.08883;
  const f = (t: number) => (t > 216 / 24389 ? Math.cbrt(t) : (24389 / 27 * t + 16) / 116);
  const [fx, fy, fz] = [f(x), f(y), f(z)];
  return [116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)];
}

/** CIE76 colour difference: the Euclidean distance in CIE L*a*b*. */
export function deltaE76(a: Lab, b: Lab): number {
  return Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
}

/**
 * CIEDE2000 colour difference between two CIE L*a*b* colours (kL = kC = kH = 1), after Sharma,
 * Wu and Dalal's notes: about 1 is a difference an observer just notices side by side.
 */
export function deltaE2000([L1, a1, b1]: Lab, [L2, a2, b2]: Lab): number {
  const rad = Math.PI / 180;
  const C1 = Math.hypot(a1, b1);
  const C2 = Math.hypot(a2, b2);
  const Cm7 = ((C1 + C2) / 2) ** 7;
  const G = 0.5 * (1 - Math.sqrt(Cm7 / (Cm7 + 25 ** 7)));
  const ap1 = (1 + G) * a1;
  const ap2 = (1 + G) * a2;
  const Cp1 = Math.hypot(ap1, b1);
  const Cp2 = Math.hypot(ap2, b2);
  const hue = (b: number, ap: number) => (b === 0 && ap === 0 ? 0 : (Math.atan2(b, ap) / rad + 360) % 360);
  const hp1 = hue(b1, ap1);
  const hp2 = hue(b2, ap2);
  const dL = L2 - L1;
  const dC = Cp2 - Cp1;
  let dh = 0;
  if (Cp1 * Cp2 !== 0) {
    dh = hp2 - hp1;
    if (dh > 180) dh -= 360;
    else if (dh < -180) dh += 360;
  }
  const dH = 2 * Math.sqrt(Cp1 * Cp2) * Math.sin((dh / 2) * rad);
  const Lm = (L1 + L2) / 2;
  const Cm = (Cp1 + Cp2) / 2;
  let hm = hp1 + hp2;
  if (Cp1 * Cp2 !== 0) {
    if (Math.abs(hp1 - hp2) <= 180) hm = (hp1 + hp2) / 2;
    else hm = hp1 + hp2 < 360 ? (hp1 + hp2 + 360) / 2 : (hp1 + hp2 - 360) / 2;
  }
  const T = 1 - 0.17 * Math.cos((hm - 30) * rad) + 0.24 * Math.cos(2 * hm * rad) + 0.32 * Math.cos((3 * hm + 6) * rad) - 0.2 * Math.cos((4 * hm - 63) * rad);
  const dTheta = 30 * Math.exp(-(((hm - 275) / 25) ** 2));
  const Cm7p = Cm ** 7;
  const RC = 2 * Math.sqrt(Cm7p / (Cm7p + 25 ** 7));
  const SL = 1 + (0.015 * (Lm - 50) ** 2) / Math.sqrt(20 + (Lm - 50) ** 2);
  const SC = 1 + 0.045 * Cm;
  const SH = 1 + 0.015 * Cm * T;
  const RT = -Math.sin(2 * dTheta * rad) * RC;
  return Math.sqrt((dL / SL) ** 2 + (dC / SC) ** 2 + (dH / SH) ** 2 + RT * (dC / SC) * (dH / SH));
}
