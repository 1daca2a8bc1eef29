// The studio engine timed in a process of its own, as the worker runs it: its code built as the
// worker's is (Vite's server build: ESM for Node 20, not minified) and run by plain Node, not
// transpiled as it loads (tsx's module-by-module output ran the same shots 10–15 % slower); and
// not in the bench's own process, whose heap and native memory hold the builds made before (Vite
// and Rolldown run in-process), where the same cut-outs and shots measured 40–70 % slower for the
// garbage collector's work alone. `npx tsx bench/lib/studio-process.ts` prints the figures as
// JSON from the source, unbuilt.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { cutoutAccuracy, type CutoutAccuracy } from './cutout';
import { studioTimings, type StudioTimings } from './generation';
import { ROOT } from './server';

export interface StudioFigures {
  timings: StudioTimings;
  accuracy: CutoutAccuracy;
}

const SELF = fileURLToPath(import.meta.url);

/** This file built into `outDir` with the studio's fonts and networks' thread beside it, as vite.server.config.ts builds the worker; returns the built file. */
async function buildSelf(outDir: string): Promise<string> {
  await build({
    root: ROOT,
    configFile: false,
    publicDir: false,
    logLevel: 'warn',
    build: {
      ssr: SELF,
      outDir,
      emptyOutDir: true,
      target: 'node20',
      minify: false,
      rolldownOptions: { output: { format: 'esm', entryFileNames: 'studio-process.js', chunkFileNames: '[name]-[hash].js' } },
    },
  });
  fs.cpSync(path.join(ROOT, 'server/studio/fonts'), path.join(outDir, 'fonts'), { recursive: true });
  fs.cpSync(path.join(ROOT, 'server/studio/networks-worker.mjs'), path.join(outDir, 'networks-worker.mjs'));
  return path.join(outDir, 'studio-process.js');
}

/** Builds this file, runs it in a new Node process and reads its figures. */
export async function studioFigures(): Promise<StudioFigures> {
  // Inside the project, so that the packages left external are found in its node_modules.
  const scratch = path.join(ROOT, 'node_modules', '.tmp');
  fs.mkdirSync(scratch, { recursive: true });
  const outDir = fs.mkdtempSync(path.join(scratch, 'studio-bench-'));
  try {
    const file = await buildSelf(outDir);
    return await new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [file], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
      let out = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
      child.on('error', reject);
      child.on('exit', (code) => {
        if (code !== 0) reject(new Error(`the studio bench exited with ${code}`));
        else resolve(JSON.parse(out) as StudioFigures);
      });
    });
  } finally {
    fs.rmSync(outDir, { recursive: true, force: true });
  }
}

if (process.argv[1] === SELF) {
  const figures: StudioFigures = { timings: await studioTimings(), accuracy: await cutoutAccuracy() };
  process.stdout.write(JSON.stringify(figures));
}
