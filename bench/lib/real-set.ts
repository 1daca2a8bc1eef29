// The cut-out and the photo check on the real-photo set (real-photos.ts): per photo the mask's
// scores against the hand-made truth, the time the cut-out took, and what the photo check would
// refuse it for, resolution aside (the set's public copies are reduced below the 1000 px the check
// asks of a phone photo, so every one would be refused for that alone).
import fs from 'node:fs';
import { PRODUCT_PRESETS } from '../../contract/enums';
import { analysePhoto, refusal } from '../../server/materials/findings';
import { loadDetector } from '../../server/studio/detector';
import { loadModel } from '../../server/studio/saliency';
import { cutOut } from '../../server/studio/segment';
import { medianAndP95, productColourShifts } from '../../tests/support/colour-shifts';
import { composites } from './composites';
import { scoreMask, type MaskScore } from './mask-scores';
import { eachPhoto } from './real-photos';

export interface RealPhotoScore extends MaskScore {
  id: string;
  ms: number;
  /** What the photo check refuses the photo for, resolution aside; null when it takes it. */
  refused: string | null;
  wellFramed: boolean;
}

export interface RealSetFigures {
  photos: RealPhotoScore[];
  /** CIEDE2000 between the shoe's pixels in the photo white-balanced on its backdrop and in the decoded product shot of each look: median and 95th percentile over every photo's opaque pixels. */
  colour: { median: number; p95: number };
  modelLoadMs: number;
  /** The footwear detector's: read from its package, converted from TFLite and loaded. */
  detectorLoadMs: number;
  /** The cut-out on the composites: each one's scores against its exact truth. */
  composites: (MaskScore & { name: string })[];
  /** The process's largest resident set (the kernel's high-water mark, every thread's) while the set was cut out, MB. */
  peakRssMb: number;
}

/** How many composites the bench cuts out (each takes as long as a photo). */
const COMPOSITES = 120;

/**
 * The process's largest resident set so far, as the kernel kept it (VmHWM): every thread's, the
 * networks' included, and the moments a sampling timer on the main thread would miss.
 */
function peakResidentMb(): number {
  return Math.round(Number(/VmHWM:\s+(\d+) kB/.exec(fs.readFileSync('/proc/self/status', 'utf8'))![1]) / 1000);
}

export async function realSetFigures(): Promise<RealSetFigures> {
  const { loadMs } = await loadModel();
  const { loadMs: detectorLoadMs } = await loadDetector();
  const photos: RealPhotoScore[] = [];
  const shifts: number[] = [];
  const compositeScores: (MaskScore & { name: string })[] = [];
  for await (const photo of eachPhoto('photo')) {
    if (!photo.truth) continue;
    const started = performance.now();
    const cut = await cutOut(photo.bytes);
    const ms = performance.now() - started;
    for (const preset of PRODUCT_PRESETS) for (const shift of await productColourShifts(cut, preset, 11)) shifts.push(shift);
    const findings = await analysePhoto(photo.bytes);
    photos.push({
      id: photo.entry.id,
      ...scoreMask(photo.truth, cut.mask, photo.width, photo.height),
      ms,
      refused: refusal(findings.filter((f) => f.check !== 'resolution')),
      wellFramed: photo.entry.wellFramed,
    });
  }
  for await (const made of composites(COMPOSITES)) {
    const cut = await cutOut(made.jpeg);
    compositeScores.push({ name: made.name, ...scoreMask(made.truth, cut.mask, made.width, made.height) });
  }
  const colour = medianAndP95(shifts);
  return { photos, colour, composites: compositeScores, modelLoadMs: loadMs, detectorLoadMs, peakRssMb: peakResidentMb() };
}

if (process.argv[1]?.endsWith('real-set.ts')) process.stdout.write(JSON.stringify(await realSetFigures()));
