// What the shooting requirements ask of a photo, measured (SPEC §7 shoe-verification): enough
// resolution, sharp, well exposed, a plain light background, and a shoe that stands out from it
// whole. Run on a 512 px copy (tens of milliseconds). A phone's grain is told from detail and
// from the shoe: sharpness is measured after a median filter, less what grain adds, and the shoe
// is the studio's segmentation of a smoothed copy, "cut off" when its mask reaches the edge.
import { loadSharp } from '../lib/sharp';
import { MAX_IMAGE_PIXELS, type FindingCheck } from '../../contract/materials';
import { edgeRing, maskOf, median, smoothedCopy, touchesFrame } from '../studio/segment';

/** The longest side of the copy every check is measured on. */
const WORK_SIDE = 512;
/** The backdrop's brightness in a well-lit shot, which the sharpness threshold was set on. */
const WELL_LIT = 240;
/** The most a dim shot's sharpness is scaled up by. */
const MAX_DIM_GAIN = 4;

export const THRESHOLDS = {
  /** Shortest side, px. */
  minSide: 1000,
  /** Variance of the Laplacian on the 512 px grey copy, median-filtered, less the grain's part. */
  minSharpness: 60,
  /** Mean brightness (0–255) of the shoe itself. */
  minSubjectBrightness: 40,
  /** Share of the shoe's pixels that are blown out. */
  maxSubjectClipped: 0.25,
  minSubjectShare: 0.06,
  maxSubjectShare: 0.85,
  /**
   * Background: median brightness along the frame's edge, and the robust spread (from the median
   * absolute deviation) of the edge around a plane fitted to it, on the smoothed copy.
   */
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

const round = (value: number, digits = 2) => Number(value.toFixed(digits));

/** Standard deviation of normally distributed values from their median absolute deviation. */
const robustSpread = (values: ArrayLike<number>) => 1.4826 * median(Float64Array.from(values, Math.abs));

function lumaOf(rgb: Buffer, pixels: number): Float32Array {
  const luma = new Float32Array(pixels);
  for (let i = 0; i < pixels; i += 1) luma[i] = 0.299 * rgb[i * 3]! + 0.587 * rgb[i * 3 + 1]! + 0.114 * rgb[i * 3 + 2]!;
  return luma;
}

/** A 3×3 median of a grey image (the outermost pixels kept): takes out grain, keeps edges. */
function median3(grey: Float32Array, w: number, h: number): Float32Array {
  const out = Float32Array.from(grey);
  // The median of nine in 19 exchanges (Paeth's network), written out on locals: this runs
  // once per pixel, and an indexed scratch array made it the photo check's slowest step.
  for (let y = 1; y < h - 1; y += 1) {
    for (let x = 1; x < w - 1; x += 1) {
      const i = y * w + x;
      let p0 = grey[i - w - 1]!;
      let p1 = grey[i - w]!;
      let p2 = grey[i - w + 1]!;
      let p3 = grey[i - 1]!;
      let p4 = grey[i]!;
      let p5 = grey[i + 1]!;
      let p6 = grey[i + w - 1]!;
      let p7 = grey[i + w]!;
      let p8 = grey[i + w + 1]!;
      let t: number;
      t = Math.min(p1, p2); p2 = Math.max(p1, p2); p1 = t;
      t = Math.min(p4, p5); p5 = Math.max(p4, p5); p4 = t;
      t = Math.min(p7, p8); p8 = Math.max(p7, p8); p7 = t;
      t = Math.min(p0, p1); p1 = Math.max(p0, p1); p0 = t;
      t = Math.min(p3, p4); p4 = Math.max(p3, p4); p3 = t;
      t = Math.min(p6, p7); p7 = Math.max(p6, p7); p6 = t;
      t = Math.min(p1, p2); p2 = Math.max(p1, p2); p1 = t;
      t = Math.min(p4, p5); p5 = Math.max(p4, p5); p4 = t;
      t = Math.min(p7, p8); p8 = Math.max(p7, p8); p7 = t;
      p3 = Math.max(p0, p3);
      p5 = Math.min(p5, p8);
      t = Math.min(p4, p7); p7 = Math.max(p4, p7); p4 = t;
      p6 = Math.max(p3, p6);
      p4 = Math.max(p1, p4);
      p2 = Math.min(p2, p5);
      p4 = Math.min(p4, p7);
      t = Math.min(p4, p2); p2 = Math.max(p4, p2); p4 = t;
      p4 = Math.max(p6, p4);
      p4 = Math.min(p4, p2);
      out[i] = p4;
    }
  }
  return out;
}

/**
 * Variance of the 4-neighbour Laplacian of a grey image, less the part the grain adds (measured
 * where the frame's edge is plain, robustly), so grain does not pass for detail.
 */
function detail(grey: Float32Array, w: number, h: number, ring: Int32Array): number {
  const laplacian = (i: number) => grey[i - 1]! + grey[i + 1]! + grey[i - w]! + grey[i + w]! - 4 * grey[i]!;
  let sum = 0;
  let sumSq = 0;
  let count = 0;
  for (let y = 1; y < h - 1; y += 1) {
    for (let x = 1; x < w - 1; x += 1) {
      const lap = laplacian(y * w + x);
      sum += lap;
      sumSq += lap * lap;
      count += 1;
    }
  }
  const inner = Array.from(ring).filter((i) => i % w > 0 && i % w < w - 1 && i >= w && i < w * (h - 1));
  const grain = robustSpread(inner.map(laplacian)) ** 2;
  return Math.max(0, (count ? sumSq / count - (sum / count) ** 2 : 0) - grain);
}

export async function analysePhoto(bytes: Buffer): Promise<RawFinding[]> {
  const sharp = await loadSharp();
  const image = sharp(bytes, { limitInputPixels: MAX_IMAGE_PIXELS });
  const meta = await image.metadata();
  const minSide = Math.min(meta.width ?? 0, meta.height ?? 0);
  const { data, info } = await sharp(bytes, { limitInputPixels: MAX_IMAGE_PIXELS })
    .rotate()
    .resize(WORK_SIDE, WORK_SIDE, { fit: 'inside' })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const { width: w, height: h } = info;
  const pixels = w * h;
  const luma = lumaOf(data, pixels);
  const ring = edgeRing(w, h);

  // The shoe and the background, found on a copy with the grain smoothed away: the segmentation
  // the studio cuts the shoe out with, so a photo that passes here is one the studio can use.
  const smooth = await smoothedCopy(data, w, h, WORK_SIDE);
  const { mask, background } = maskOf(smooth.data, w, h);
  const smoothLuma = lumaOf(smooth.data, pixels);
  const edgeMean = median(Array.from(ring, (i) => smoothLuma[i]!));
  // What the edge holds besides a smooth backdrop; robust, so a shoe crossing it is not "busy".
  const edgeSpread = robustSpread(background.residuals);

  // Sharpness on a median-filtered copy (it keeps edges and takes out most grain), with a dim
  // shot's contrast brought up to a well-lit one's: dim light makes edges fainter, not softer.
  const sharpness = detail(median3(luma, w, h), w, h, ring) * Math.min(MAX_DIM_GAIN, Math.max(1, WELL_LIT / Math.max(1, edgeMean)) ** 2);

  let subjectCount = 0;
  let subjectLuma = 0;
  let subjectClipped = 0;
  for (let i = 0; i < pixels; i += 1) {
    if (!mask[i]) continue;
    subjectCount += 1;
    subjectLuma += luma[i]!;
    if (luma[i]! >= 250) subjectClipped += 1;
  }
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
  const cutOff = !missing && touchesFrame(mask, w, h);
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

/**
 * Why a photo cannot be used, or null when it meets the requirements: the one rule the photo
 * check (whether a slot is ok) and the intake of a task (whether it is rejected) both apply, so a
 * photo the check passed is never refused later. A busy or dark background makes the subject
 * unmeasurable, so it is the reason given first.
 */
export function refusal(findings: RawFinding[]): Verdict | null {
  const failed = findings.find((f) => !f.ok && f.check === 'background') ?? findings.find((f) => !f.ok);
  return failed?.verdict ?? null;
}
