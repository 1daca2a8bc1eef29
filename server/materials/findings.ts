// What the shooting requirements ask of a photo, measured (SPEC §7 shoe-verification): enough
// resolution, sharp, well exposed, and a shoe the studio can cut out whole. Sharpness and exposure
// are measured on a 512 px copy; a phone's grain is told from detail by a median filter, less what
// grain adds. The shoe is the studio's own cut-out mask (segment.ts, the same network answer the
// task reads, remembered between the two): "cut off" only when the shoe itself reaches the frame's
// edge, "does not stand out" only when the network cannot separate it (too little of it is sure),
// "no shoe" when nothing stands out. The background is advice, never a refusal: a busy or dark
// backdrop the shoe was cleanly cut from costs the seller nothing. All of it runs before any token
// is spent: at upload (verify-angle) and at a task's intake.
import { loadSharp } from '../lib/sharp';
import { MAX_IMAGE_PIXELS, type FindingCheck } from '../../contract/materials';
import { lending } from '../studio/arrays';
import { edgeRing, findShoes, median, segmentation } from '../studio/segment';
import { outlineWidth } from './edge-width';

/** The longest side of the copy sharpness and exposure are measured on. */
const WORK_SIDE = 512;
/** The backdrop's brightness in a well-lit shot, which the sharpness threshold was set on. */
const WELL_LIT = 240;
/** The most a dim or faint shot's sharpness is scaled up by. */
const MAX_DIM_GAIN = 4;
/** Difference in brightness between the shoe and its backdrop below which its edges count as faint. */
const CLEAR_CONTRAST = 60;

export const THRESHOLDS = {
  /** Shortest side, px. */
  minSide: 1000,
  /**
   * Variance of the Laplacian on the 512 px grey copy, median-filtered, less the grain's part,
   * scaled up for a dim shot or a shoe close in brightness to its backdrop (fainter edges, not softer).
   */
  minSharpness: 60,
  /**
   * Median width (working pixels) of the step across the shoe's outline (edge-width.ts) at or below
   * which a shot with little detail is still sharp. On the real-photo set the sharp shots measure
   * 2.0–3.9 (3.4 the widest of those with little detail: a smooth pink clog on a white floor);
   * a drawn shot blurred by 6 px measures 3.8–6.5.
   */
  maxOutlineWidth: 3.6,
  /** Mean brightness (0–255) of the shoe itself: well-lit black leather averages 25–40… */
  minSubjectBrightness: 22,
  /**
   * …and of the whole frame: a dark shoe is underexposed only in a dark frame. Black boots on a
   * dim laminate floor (the shoe 21.8, the frame 70) show their stitching; a shot a fifth as bright
   * as it should be measures under 40.
   */
  minFrameBrightness: 55,
  /** Share of the shoe's pixels that are blown out. */
  maxSubjectClipped: 0.25,
  minSubjectShare: 0.03,
  maxSubjectShare: 0.85,
  /**
   * Share of the shoe's pixels the network is sure of (salience ≥ 0.8): below it, it could not
   * separate the shoe from its backdrop and the cut-out's edge would be a guess.
   */
  minSolid: 0.6,
  /**
   * Area the network was unsure of, as a share of the shoe's own, at or above which it only
   * half-saw the shoe: a white shoe on a white sheet in flat light leaves 1.1–6.6 times the
   * fragment it found; on the real-photo set, 0.31 at most (a loafer held in a hand).
   */
  maxUnsure: 0.6,
  /** Salience something must reach for the frame to hold anything at all. */
  minReach: 0.5,
  /**
   * Working pixels of the shoe on the frame's outermost rows and columns, as a share of the
   * frame's width and height together, above which it is cut off: a lace or a strap's tip touching
   * the edge (6 px on the real set) is not, a shoe crossing it is (tens).
   */
  maxAtFrame: 0.015,
  /** Share of the frame in salient things round the shoe above which the background counts as busy. */
  maxClutter: 0.02,
  /**
   * Background: median brightness along the frame's edge (a mid-grey card, what a white shoe is
   * best shot on, sits at 100–130; below 90 the shot is underexposed), and the robust spread (from
   * the median absolute deviation) of the edge around the smooth backdrop fitted to it.
   */
  minBackgroundBrightness: 90,
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
  | 'SUBJECT_TOO_SMALL'
  | 'SUBJECT_TOO_LARGE'
  | 'SUBJECT_CUT_OFF'
  | 'SUBJECT_LOW_CONTRAST'
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

function lumaOf(rgb: Uint8Array, pixels: number): Float32Array {
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
 * Luma of the frame's edge band less a plane fitted to it by least squares (pixels far off the
 * first fit, such as a shoe crossing the edge, left out of the second and third).
 */
function planeResiduals(grey: Float32Array, w: number, ring: Int32Array): Float32Array {
  let kept = Array.from(ring);
  const residuals = new Float32Array(ring.length);
  for (let round = 0; round < 3; round += 1) {
    // Normal equations of v = a + b·x + c·y, centred on the kept pixels' mean position.
    let mx = 0;
    let my = 0;
    let mv = 0;
    for (const i of kept) {
      mx += i % w;
      my += Math.floor(i / w);
      mv += grey[i]!;
    }
    const n = Math.max(1, kept.length);
    mx /= n;
    my /= n;
    mv /= n;
    let sxx = 0;
    let syy = 0;
    let sxy = 0;
    let sxv = 0;
    let syv = 0;
    for (const i of kept) {
      const dx = (i % w) - mx;
      const dy = Math.floor(i / w) - my;
      const dv = grey[i]! - mv;
      sxx += dx * dx;
      syy += dy * dy;
      sxy += dx * dy;
      sxv += dx * dv;
      syv += dy * dv;
    }
    const det = sxx * syy - sxy * sxy;
    const b = det ? (sxv * syy - syv * sxy) / det : 0;
    const c = det ? (syv * sxx - sxv * sxy) / det : 0;
    ring.forEach((i, k) => {
      residuals[k] = grey[i]! - (mv + b * ((i % w) - mx) + c * (Math.floor(i / w) - my));
    });
    const limit = Math.max(6, 3 * median(Float64Array.from(residuals, Math.abs)));
    kept = Array.from(ring).filter((_, k) => Math.abs(residuals[k]!) <= limit);
  }
  return residuals;
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

  // The shoe and the background as the studio finds them, on the studio's own working copy.
  const { working, net } = await findShoes(bytes);
  const found = lending(() => {
    const all = segmentation(working.data, working.w, working.h, net);
    return { mask: Uint8Array.from(all.mask), solid: all.solid, unsure: all.unsure, reach: all.reach, clutter: all.clutter, atFrame: all.atFrame };
  });
  const { mask } = found;
  const workingRing = edgeRing(working.w, working.h);
  const edgeMean = median(Array.from(workingRing, (i) => 0.299 * working.data[i * 3]! + 0.587 * working.data[i * 3 + 1]! + 0.114 * working.data[i * 3 + 2]!));
  // What the edge holds besides a backdrop whose light changes evenly across the frame; robust,
  // so a shoe crossing it is not "busy".
  const workingLuma = lumaOf(working.data, working.w * working.h);
  const edgeSpread = robustSpread(planeResiduals(workingLuma, working.w, workingRing));

  // Sharpness on a median-filtered copy (it keeps edges and takes out most grain), with a dim
  // shot's contrast brought up to a well-lit one's: dim light makes edges fainter, not softer.
  // A light shoe on a light backdrop shows fainter edges alike, and is brought up the same way.
  const dimGain = Math.max(1, WELL_LIT / Math.max(1, edgeMean)) ** 2;

  // The shoe's brightness on the 512 px copy, through its mask scaled to it.
  let subjectCount = 0;
  let subjectLuma = 0;
  let subjectClipped = 0;
  for (let y = 0; y < h; y += 1) {
    const row = Math.min(working.h - 1, Math.floor(((y + 0.5) * working.h) / h)) * working.w;
    for (let x = 0; x < w; x += 1) {
      if (!mask[row + Math.min(working.w - 1, Math.floor(((x + 0.5) * working.w) / w))]) continue;
      const i = y * w + x;
      subjectCount += 1;
      subjectLuma += luma[i]!;
      if (luma[i]! >= 250) subjectClipped += 1;
    }
  }
  let maskCount = 0;
  for (let i = 0; i < mask.length; i += 1) maskCount += mask[i]!;
  const share = maskCount / mask.length;
  const subjectMean = subjectCount ? subjectLuma / subjectCount : 0;
  const clippedShare = subjectCount ? subjectClipped / subjectCount : 0;
  const faintGain = subjectCount ? Math.max(1, CLEAR_CONTRAST / Math.max(1, Math.abs(edgeMean - subjectMean))) ** 2 : 1;
  const sharpness = detail(median3(luma, w, h), w, h, ring) * Math.min(MAX_DIM_GAIN, dimGain * faintGain);
  const findings: RawFinding[] = [];
  findings.push({
    check: 'resolution',
    ok: minSide >= THRESHOLDS.minSide,
    value: minSide,
    verdict: minSide >= THRESHOLDS.minSide ? 'RESOLUTION_OK' : 'RESOLUTION_LOW',
  });
  // Little detail is blur only when the shoe's own outline is soft too: a smooth clog on a plain
  // floor has little detail and a crisp edge.
  const width = outlineWidth(workingLuma, mask, working.w, working.h);
  const sharp_ = sharpness >= THRESHOLDS.minSharpness || (width !== null && width <= THRESHOLDS.maxOutlineWidth);
  findings.push({ check: 'sharpness', ok: sharp_, value: round(sharpness, 1), verdict: sharp_ ? 'SHARPNESS_OK' : 'SHARPNESS_BLURRY' });
  let frameLuma = 0;
  for (let i = 0; i < luma.length; i += 1) frameLuma += luma[i]!;
  const frameMean = frameLuma / Math.max(1, luma.length);
  const dark = subjectCount > 0 && subjectMean < THRESHOLDS.minSubjectBrightness && frameMean < THRESHOLDS.minFrameBrightness;
  const bright = clippedShare > THRESHOLDS.maxSubjectClipped;
  findings.push({
    check: 'exposure',
    ok: !dark && !bright,
    value: round(subjectMean, 1),
    verdict: dark ? 'EXPOSURE_DARK' : bright ? 'EXPOSURE_BRIGHT' : 'EXPOSURE_OK',
  });
  // Too little found: a frame with nothing in it, or a shoe the network half-sees in its backdrop.
  const small = share < THRESHOLDS.minSubjectShare;
  const missing = found.reach < THRESHOLDS.minReach || (small && found.solid < THRESHOLDS.minSolid);
  // A blurred shot's outline is measured wide: the network's doubt is the blur's, and steadier
  // hands, not another background, are what help.
  const blurred = !sharp_ && width !== null;
  const blends = !missing && !blurred && (found.solid < THRESHOLDS.minSolid || found.unsure >= THRESHOLDS.maxUnsure * share);
  const tooSmall = !missing && !blends && small;
  const tooLarge = !missing && !blends && share > THRESHOLDS.maxSubjectShare;
  const cutOff = !missing && !blends && !tooSmall && found.atFrame > THRESHOLDS.maxAtFrame * (working.w + working.h);
  findings.push({
    check: 'subject',
    ok: !missing && !blends && !tooSmall && !tooLarge && !cutOff,
    // The verdict's measure: the share of the shoe the network is sure of when it blends in, else the share of the frame.
    value: blends ? round(found.solid, 2) : round(share, 3),
    verdict: missing ? 'SUBJECT_MISSING' : blends ? 'SUBJECT_LOW_CONTRAST' : tooSmall ? 'SUBJECT_TOO_SMALL' : tooLarge ? 'SUBJECT_TOO_LARGE' : cutOff ? 'SUBJECT_CUT_OFF' : 'SUBJECT_OK',
  });
  const busy = edgeSpread > THRESHOLDS.maxBackgroundSpread || found.clutter > THRESHOLDS.maxClutter;
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
 * photo the check passed is never refused later. The background is only advice. A shoe that does
 * not stand out is the reason given first, then a dark or blown-out shot: either leaves too little
 * detail to judge sharpness by, so more light, not a steadier hand, is what helps.
 */
export function refusal(findings: RawFinding[]): Verdict | null {
  const refusable = findings.filter((f) => !f.ok && f.check !== 'background');
  return (refusable.find((f) => f.verdict === 'SUBJECT_LOW_CONTRAST') ?? refusable.find((f) => f.check === 'exposure') ?? refusable[0])?.verdict ?? null;
}
