// What the shooting requirements ask of a photo, measured (SPEC §7 shoe-verification): enough
// resolution, sharp, well exposed, a plain light background, and a shoe that stands out from it
// whole. Run on a 512 px copy, so a check costs a few milliseconds.
import { loadSharp } from '../lib/sharp';
import { MAX_IMAGE_PIXELS, type FindingCheck } from '../../contract/materials';

export const THRESHOLDS = {
  /** Shortest side, px. */
  minSide: 1000,
  /** Variance of the Laplacian on the 512 px grey copy. */
  minSharpness: 60,
  /** Mean brightness (0–255) of the shoe itself. */
  minSubjectBrightness: 40,
  /** Share of the shoe's pixels that are blown out. */
  maxSubjectClipped: 0.25,
  /** Colour distance from the background that counts as "shoe". */
  subjectDistance: 48,
  minSubjectShare: 0.06,
  maxSubjectShare: 0.85,
  /** Background: mean brightness and spread along the frame's edge. */
  minBackgroundBrightness: 140,
  maxBackgroundSpread: 22,
} as const;

export type Verdict =
  | 'RESOLUTION_OK'
  | 'RESOLUTION_LOW'
  | 'SHARPNESS_OK'
  | 'SHARPNESS_BLURRY'
  | 'EXPOSURE_OK'
  | 'EXPOSURE_DARK'
  | 'EXPOSURE_BRIGHT'
  | 'SUBJECT_OK'
  | 'SUBJECT_MISSING'
  | 'SUBJECT_TOO_LARGE'
  | 'SUBJECT_CUT_OFF'
  | 'BACKGROUND_OK'
  | 'BACKGROUND_BUSY'
  | 'BACKGROUND_DARK';

export interface RawFinding {
  check: FindingCheck;
  ok: boolean;
  value: number;
  verdict: Verdict;
}

const SUBJECT_DISTANCE_SQUARED = THRESHOLDS.subjectDistance ** 2;

const round = (value: number, digits = 2) => Number(value.toFixed(digits));

export async function analysePhoto(bytes: Buffer): Promise<RawFinding[]> {
  const sharp = await loadSharp();
  const image = sharp(bytes, { limitInputPixels: MAX_IMAGE_PIXELS });
  const meta = await image.metadata();
  const minSide = Math.min(meta.width ?? 0, meta.height ?? 0);
  const { data, info } = await sharp(bytes, { limitInputPixels: MAX_IMAGE_PIXELS })
    .rotate()
    .resize(512, 512, { fit: 'inside' })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const { width: w, height: h } = info;
  const pixels = w * h;
  const luma = new Float32Array(pixels);
  for (let i = 0; i < pixels; i += 1) {
    luma[i] = 0.299 * data[i * 3]! + 0.587 * data[i * 3 + 1]! + 0.114 * data[i * 3 + 2]!;
  }

  // Sharpness: variance of the 4-neighbour Laplacian.
  let sum = 0;
  let sumSq = 0;
  let count = 0;
  for (let y = 1; y < h - 1; y += 1) {
    for (let x = 1; x < w - 1; x += 1) {
      const i = y * w + x;
      const lap = luma[i - 1]! + luma[i + 1]! + luma[i - w]! + luma[i + w]! - 4 * luma[i]!;
      sum += lap;
      sumSq += lap * lap;
      count += 1;
    }
  }
  const sharpness = count ? sumSq / count - (sum / count) ** 2 : 0;

  // Background: the colour along a 4 px frame.
  const edge: number[] = [];
  const edgeRgb: [number[], number[], number[]] = [[], [], []];
  for (let y = 0; y < h; y += 1) {
    for (let x = 0; x < w; x += 1) {
      if (x >= 4 && x < w - 4 && y >= 4 && y < h - 4) continue;
      const i = y * w + x;
      edge.push(luma[i]!);
      for (let c = 0; c < 3; c += 1) edgeRgb[c]!.push(data[i * 3 + c]!);
    }
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
  const background = edgeRgb.map(median) as [number, number, number];
  const edgeMean = edge.reduce((a, b) => a + b, 0) / (edge.length || 1);
  const edgeSpread = Math.sqrt(edge.reduce((a, b) => a + (b - edgeMean) ** 2, 0) / (edge.length || 1));

  // Subject: pixels far from the background colour.
  let subjectCount = 0;
  let subjectLuma = 0;
  let subjectClipped = 0;
  const touched = { top: false, bottom: false, left: false, right: false };
  for (let y = 0; y < h; y += 1) {
    for (let x = 0; x < w; x += 1) {
      const i = y * w + x;
      const dr = data[i * 3]! - background[0];
      const dg = data[i * 3 + 1]! - background[1];
      const db = data[i * 3 + 2]! - background[2];
      if (dr * dr + dg * dg + db * db < SUBJECT_DISTANCE_SQUARED) continue;
      subjectCount += 1;
      subjectLuma += luma[i]!;
      if (luma[i]! >= 250) subjectClipped += 1;
      if (y === 0) touched.top = true;
      if (y === h - 1) touched.bottom = true;
      if (x === 0) touched.left = true;
      if (x === w - 1) touched.right = true;
    }
  }
  const touches = Object.values(touched).filter(Boolean).length;
  const share = subjectCount / pixels;
  const subjectMean = subjectCount ? subjectLuma / subjectCount : 0;
  const clippedShare = subjectCount ? subjectClipped / subjectCount : 0;

  const findings: RawFinding[] = [];
  findings.push({
    check: 'resolution',
    ok: minSide >= THRESHOLDS.minSide,
    value: minSide,
    verdict: minSide >= THRESHOLDS.minSide ? 'RESOLUTION_OK' : 'RESOLUTION_LOW',
  });
  const sharp_ = sharpness >= THRESHOLDS.minSharpness;
  findings.push({ check: 'sharpness', ok: sharp_, value: round(sharpness, 1), verdict: sharp_ ? 'SHARPNESS_OK' : 'SHARPNESS_BLURRY' });
  const dark = subjectCount > 0 && subjectMean < THRESHOLDS.minSubjectBrightness;
  const bright = clippedShare > THRESHOLDS.maxSubjectClipped;
  findings.push({
    check: 'exposure',
    ok: !dark && !bright,
    value: round(subjectMean, 1),
    verdict: dark ? 'EXPOSURE_DARK' : bright ? 'EXPOSURE_BRIGHT' : 'EXPOSURE_OK',
  });
  const missing = share < THRESHOLDS.minSubjectShare;
  const tooLarge = share > THRESHOLDS.maxSubjectShare;
  const cutOff = !missing && touches >= 2;
  findings.push({
    check: 'subject',
    ok: !missing && !tooLarge && !cutOff,
    value: round(share, 3),
    verdict: missing ? 'SUBJECT_MISSING' : tooLarge ? 'SUBJECT_TOO_LARGE' : cutOff ? 'SUBJECT_CUT_OFF' : 'SUBJECT_OK',
  });
  const busy = edgeSpread > THRESHOLDS.maxBackgroundSpread;
  const darkBackground = edgeMean < THRESHOLDS.minBackgroundBrightness;
  findings.push({
    check: 'background',
    ok: !busy && !darkBackground,
    value: round(edgeSpread, 1),
    verdict: busy ? 'BACKGROUND_BUSY' : darkBackground ? 'BACKGROUND_DARK' : 'BACKGROUND_OK',
  });
  return findings;
}
