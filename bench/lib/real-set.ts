// The cut-out and the photo check on the real-photo set (real-photos.ts): per photo the mask's
// scores against the hand-made truth, the time the cut-out took, and what the photo check would
// refuse it for, resolution aside (the set's public copies are reduced below the 1000 px the check
// asks of a phone photo, so every one would be refused for that alone).
import sharp from 'sharp';
import { deltaE2000, rgbToCieLab } from '../../contract/colour';
import { analysePhoto, refusal } from '../../server/materials/findings';
import { preparedShoe } from '../../server/studio/photo/shoe';
import type { Cutout } from '../../server/studio/segment';
import { loadModel } from '../../server/studio/saliency';
import { cutOut } from '../../server/studio/segment';
import { composites } from './composites';
import { scoreMask, type MaskScore } from './mask-scores';
import { loadPhotos } from './real-photos';

export interface RealPhotoScore extends MaskScore {
  id: string;
  ms: number;
  /** What the photo check refuses the photo for, resolution aside; null when it takes it. */
  refused: string | null;
  wellFramed: boolean;
}

export interface RealSetFigures {
  photos: RealPhotoScore[];
  /** CIEDE2000 between the shoe's pixels in the photo white-balanced on its backdrop and in the shoe every still is made from: median and 95th percentile over every photo's opaque pixels. */
  colour: { median: number; p95: number };
  modelLoadMs: number;
  /** The cut-out on the composites: each one's scores against its exact truth. */
  composites: (MaskScore & { name: string })[];
  /** The process's largest resident set while the set was cut out, MB. */
  peakRssMb: number;
}

/** Per-pixel CIEDE2000 between the cut-out (the photo with the backdrop's white balance) and the shoe as the stills use it, every 7th opaque pixel. */
async function colourShifts(cut: Cutout): Promise<number[]> {
  const shoe = await preparedShoe(cut);
  const { data: photo } = await sharp(cut.rgba, { raw: { width: cut.width, height: cut.height, channels: 4 } })
    .resize(shoe.width, shoe.height, { fit: 'fill', kernel: 'lanczos3' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const shifts: number[] = [];
  for (let i = 0; i < shoe.width * shoe.height; i += 7) {
    if (photo[i * 4 + 3]! < 255 || shoe.rgba[i * 4 + 3]! < 255) continue;
    const a = rgbToCieLab([photo[i * 4]!, photo[i * 4 + 1]!, photo[i * 4 + 2]!]);
    const b = rgbToCieLab([shoe.rgba[i * 4]!, shoe.rgba[i * 4 + 1]!, shoe.rgba[i * 4 + 2]!]);
    shifts.push(deltaE2000(a, b));
  }
  return shifts;
}

/** How many composites the bench cuts out (each takes as long as a photo). */
const COMPOSITES = 120;

export async function realSetFigures(): Promise<RealSetFigures> {
  const { loadMs } = await loadModel();
  let peak = process.memoryUsage().rss;
  const watch = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
  const photos: RealPhotoScore[] = [];
  const shifts: number[] = [];
  const compositeScores: (MaskScore & { name: string })[] = [];
  try {
    for (const photo of await loadPhotos('photo')) {
      if (!photo.truth) continue;
      const started = performance.now();
      const cut = await cutOut(photo.bytes);
      const ms = performance.now() - started;
      shifts.push(...(await colourShifts(cut)));
      const findings = await analysePhoto(photo.bytes);
      photos.push({
        id: photo.entry.id,
        ...scoreMask(photo.truth, cut.mask, photo.width, photo.height),
        ms,
        refused: refusal(findings.filter((f) => f.check !== 'resolution')),
        wellFramed: photo.entry.wellFramed,
      });
    }
    for (const made of await composites(COMPOSITES)) {
      const cut = await cutOut(made.jpeg);
      compositeScores.push({ name: made.name, ...scoreMask(made.truth, cut.mask, made.width, made.height) });
    }
  } finally {
    clearInterval(watch);
  }
  shifts.sort((a, b) => a - b);
  const colour = { median: shifts[Math.floor(shifts.length / 2)] ?? 0, p95: shifts[Math.floor(shifts.length * 0.95)] ?? 0 };
  return { photos, colour, composites: compositeScores, modelLoadMs: loadMs, peakRssMb: Math.round(Math.max(peak, process.memoryUsage().rss) / 1e6) };
}

if (process.argv[1]?.endsWith('real-set.ts')) process.stdout.write(JSON.stringify(await realSetFigures()));
