// The studio engine timed in a process of its own, as the worker runs it: not in the bench's own
// process, whose heap and native memory hold the builds made before (Vite and Rolldown run
// in-process), and where the same cut-outs and shots measured 40–70 % slower for the garbage
// collector's work alone. `npx tsx bench/lib/studio-process.ts` prints the figures as JSON.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { cutoutAccuracy, type CutoutAccuracy } from './cutout';
import { studioTimings, type StudioTimings } from './generation';

export interface StudioFigures {
  timings: StudioTimings;
  accuracy: CutoutAccuracy;
}

const SELF = fileURLToPath(import.meta.url);

/** Runs this file in a new Node process (with the loader this one runs under) and reads its figures. */
export function studioFigures(): Promise<StudioFigures> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...process.execArgv, SELF], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) reject(new Error(`the studio bench exited with ${code}`));
      else resolve(JSON.parse(out) as StudioFigures);
    });
  });
}

if (process.argv[1] === SELF) {
  const figures: StudioFigures = { timings: await studioTimings(), accuracy: await cutoutAccuracy() };
  process.stdout.write(JSON.stringify(figures));
}
