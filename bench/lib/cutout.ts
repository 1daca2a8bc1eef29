// The studio's cut-out on the phone-photo fixtures (tests/fixtures/phone-shoes.ts): how well its
// mask matches the truth, how much of the old background its edge keeps, and how long it takes.
// The fixtures are made first, so only the cut-out is timed, after one warm-up.
import { PHONE_CASES, phoneShoePhoto, scoreCutout } from '../../tests/fixtures/phone-shoes';
import { cutOut } from '../../server/studio/segment';

export interface CutoutAccuracy {
  meanIoU: number;
  worstIoU: number;
  worstCase: string;
  /** Mean ΔE (OKLab × 100) of the edge's colours from the shoe's own (scoreCutout). */
  meanHalo: number;
  medianMs: number;
}

export async function cutoutAccuracy(): Promise<CutoutAccuracy> {
  const photos = [];
  for (const { name, options } of PHONE_CASES) photos.push({ name, photo: await phoneShoePhoto(options) });
  await cutOut(photos[0]!.photo.jpeg);
  const scores: { name: string; iou: number; halo: number; ms: number }[] = [];
  for (const { name, photo } of photos) {
    const started = performance.now();
    const cut = await cutOut(photo.jpeg);
    const ms = performance.now() - started;
    const { iou, halo } = await scoreCutout(photo, cut);
    scores.push({ name, iou, halo, ms });
  }
  const worst = scores.reduce((a, b) => (b.iou < a.iou ? b : a));
  const times = scores.map((s) => s.ms).sort((a, b) => a - b);
  return {
    meanIoU: scores.reduce((sum, s) => sum + s.iou, 0) / scores.length,
    worstIoU: worst.iou,
    worstCase: worst.name,
    meanHalo: scores.reduce((sum, s) => sum + s.halo, 0) / scores.length,
    medianMs: times[Math.floor(times.length / 2)]!,
  };
}
