// The studio bench's rows for the real-photo set: the network cut-out's figures beside the
// classical segmenter's on the same photos (measured once at 61be63a, the last commit that had it,
// kept in bench/real-photos/classical.json), the photo check's refusals of well-framed views, the
// cut-out's time per view, the model's load time and the peak RSS.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { RealSetFigures } from './real-set';
import { photosDir, setPresent, SET_DIR } from './real-photos';

interface Row {
  measure: string;
  value: string;
  target: string;
  ok: boolean;
}

interface Scored {
  id: string;
  iou: number;
  boundaryF: number;
  extra: number;
  lost: number;
}

/**
 * The figures measured in a process of their own, with the allocator set as `npm run worker` sets
 * it, so the peak RSS is a worker's and not the bench's (whose heap holds the builds made before).
 */
function realSetFigures(): Promise<RealSetFigures> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'real-set.ts')], {
      env: { ...process.env, MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? '2' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out) as RealSetFigures) : reject(new Error(`the real-set bench exited with ${code}`))));
  });
}

const mean = (values: number[]) => values.reduce((sum, v) => sum + v, 0) / Math.max(1, values.length);

function summary(scores: Scored[]) {
  const worst = scores.reduce((a, b) => (b.iou < a.iou ? b : a));
  const gross = scores.filter((s) => s.extra > 0.01 || s.lost > 0.03).map((s) => s.id);
  return { meanIoU: mean(scores.map((s) => s.iou)), worst, meanF: mean(scores.map((s) => s.boundaryF)), gross };
}

export async function realSetRows(): Promise<Row[]> {
  if (!setPresent()) {
    return [{ measure: 'cut-out on the real-photo set', value: `not measured: the photos are not at ${photosDir()} (set REAL_PHOTOS_DIR)`, target: 'mean IoU ≥ 0.92', ok: false }];
  }
  const figures = await realSetFigures();
  const network = summary(figures.photos);
  const composite = summary(figures.composites.map((c) => ({ ...c, id: c.name })));
  const classical = summary(JSON.parse(fs.readFileSync(path.join(SET_DIR, 'classical.json'), 'utf8')) as Scored[]);
  const refused = figures.photos.filter((p) => p.wellFramed && p.refused).map((p) => `${p.id}: ${p.refused}`);
  const times = figures.photos.map((p) => p.ms).sort((a, b) => a - b);
  return [
    {
      measure: `cut-out on ${figures.photos.length} real photos: IoU, boundary F (worst: ${network.worst.id})`,
      value: `mean ${network.meanIoU.toFixed(3)}, worst ${network.worst.iou.toFixed(3)}, F ${network.meanF.toFixed(3)}; classical on the same: mean ${classical.meanIoU.toFixed(3)}, worst ${classical.worst.iou.toFixed(3)}, F ${classical.meanF.toFixed(3)}`,
      target: 'mean ≥ 0.92',
      ok: network.meanIoU >= 0.92,
    },
    {
      measure: `cut-out on ${figures.composites.length} composites (real shoes on real floors): IoU, boundary F (worst: ${composite.worst.id})`,
      value: `mean ${composite.meanIoU.toFixed(3)}, worst ${composite.worst.iou.toFixed(3)}, F ${composite.meanF.toFixed(3)}; gross failures ${composite.gross.length}`,
      target: 'mean ≥ 0.95, worst ≥ 0.85',
      ok: composite.meanIoU >= 0.95 && composite.worst.iou >= 0.85,
    },
    {
      measure: 'real photos with a gross failure (other things kept > 1 % of the frame, or > 3 % of a shoe lost)',
      value: `${network.gross.length} (${network.gross.join(', ') || 'none'}); classical ${classical.gross.length}`,
      target: '0',
      ok: network.gross.length === 0,
    },
    {
      measure: 'well-framed real photos the photo check refuses (resolution aside)',
      value: `${refused.length} of ${figures.photos.filter((p) => p.wellFramed).length}${refused.length ? ` (${refused.join(', ')})` : ''}`,
      target: '0',
      ok: refused.length === 0,
    },
    {
      measure: 'cut-out per real photo (network, refinement, white balance)',
      value: `median ${Math.round(times[Math.floor(times.length / 2)]!)} ms, max ${Math.round(times.at(-1)!)} ms`,
      target: '≤ 3 s',
      ok: times.at(-1)! <= 3000,
    },
    {
      measure: 'the shoe\'s colour, photo (white-balanced on its backdrop) against the decoded product shot in each look: CIEDE2000 per pixel',
      value: `median ${figures.colour.median.toFixed(2)}, 95th percentile ${figures.colour.p95.toFixed(2)}`,
      target: 'median ≤ 3, 95th ≤ 8',
      ok: figures.colour.median <= 3 && figures.colour.p95 <= 8,
    },
    { measure: 'segmentation model load', value: `${Math.round(figures.modelLoadMs)} ms`, target: '—', ok: true },
    { measure: 'footwear detector load (read from its package, converted from TFLite)', value: `${Math.round(figures.detectorLoadMs)} ms`, target: '—', ok: true },
    { measure: 'peak RSS while cutting the set out', value: `${figures.peakRssMb} MB`, target: '≤ 1.5 GB', ok: figures.peakRssMb <= 1500 },
  ];
}
