// The cut-out and the photo check on the real-photo set (real-photos.ts): per photo the mask's
// scores against the hand-made truth, the time the cut-out took, and what the photo check would
// refuse it for, resolution aside (the set's public copies are reduced below the 1000 px the check
// asks of a phone photo, so every one would be refused for that alone).
import { analysePhoto, refusal } from '../../server/materials/findings';
import { loadModel } from '../../server/studio/saliency';
import { cutOut } from '../../server/studio/segment';
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
  modelLoadMs: number;
  /** The process's largest resident set while the set was cut out, MB. */
  peakRssMb: number;
}

export async function realSetFigures(): Promise<RealSetFigures> {
  const { loadMs } = await loadModel();
  let peak = process.memoryUsage().rss;
  const watch = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
  const photos: RealPhotoScore[] = [];
  try {
    for (const photo of await loadPhotos('photo')) {
      if (!photo.truth) continue;
      const started = performance.now();
      const cut = await cutOut(photo.bytes);
      const ms = performance.now() - started;
      const findings = await analysePhoto(photo.bytes);
      photos.push({
        id: photo.entry.id,
        ...scoreMask(photo.truth, cut.mask, photo.width, photo.height),
        ms,
        refused: refusal(findings.filter((f) => f.check !== 'resolution')),
        wellFramed: photo.entry.wellFramed,
      });
    }
  } finally {
    clearInterval(watch);
  }
  return { photos, modelLoadMs: loadMs, peakRssMb: Math.round(Math.max(peak, process.memoryUsage().rss) / 1e6) };
}

if (process.argv[1]?.endsWith('real-set.ts')) process.stdout.write(JSON.stringify(await realSetFigures()));
