// @ts-check
// `npm test`: the checks, the vitest suite and the journeys at once (each run's output printed
// whole when it ends), with one place for the studio's network answers that both the test files
// and the journeys' servers read and write (server/studio/networks.ts): they upload the same shoe
// photos, and each segmentation takes seconds of both cores. The place is removed at the end.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const answers = fs.mkdtempSync(path.join(os.tmpdir(), 'solestudio-networks-'));
const child = spawn(
  'npx',
  ['concurrently', '-g', '-n', 'check,unit,e2e', 'npm:check', 'npm:test:unit', 'npm:test:e2e'],
  { stdio: 'inherit', env: { ...process.env, NETWORK_CACHE_DIR: answers, E2E_NETWORK_CACHE_DIR: answers } },
);
for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => {
  fs.rmSync(answers, { recursive: true, force: true });
  process.exit(code ?? (signal ? 1 : 0));
});
