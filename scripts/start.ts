// `npm start`: builds the web app when the build is missing or older than its sources, then
// starts the server (with the embedded defaults unless the environment says otherwise).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SOURCES = ['src', 'workers', 'contract', 'public', 'build', 'index.html', 'vite.config.ts', 'pwa-assets.config.ts', 'release.json', 'package.json'];

function newestMtime(target: string): number {
  if (!fs.existsSync(target)) return 0;
  const stat = fs.statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of fs.readdirSync(target)) newest = Math.max(newest, newestMtime(path.join(target, entry)));
  return newest;
}

export function buildIsStale(staticDir: string): boolean {
  const built = path.join(staticDir, 'index.html');
  if (!fs.existsSync(built)) return true;
  const builtAt = fs.statSync(built).mtimeMs;
  return SOURCES.some((source) => newestMtime(path.join(root, source)) > builtAt);
}

const staticDir = path.resolve(root, process.env.STATIC_DIR || 'dist');
if (buildIsStale(staticDir)) {
  console.log('Building the web app…');
  await build({ root, logLevel: 'warn', build: { outDir: staticDir, emptyOutDir: true } });
}
await import('../server/server');
