// @ts-check
// `npm start`: builds the web app and the server when a build is missing or older than its
// sources, then runs the compiled server (plain Node, nothing transpiled at start-up).
// `npm run worker` (`start.mjs worker`): the same for the generation worker, which needs only
// the server build.
// Plain JavaScript (type-checked) because it runs before anything is compiled.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const entry = process.argv[2] === 'worker' ? 'worker' : 'server';

/** @type {{ name: string, output: string, sources: string[], config: string, outDir?: string }[]} */
const targets = [
  entry === 'server' && {
    name: 'web app',
    output: path.join(path.resolve(root, process.env.STATIC_DIR || 'dist'), 'index.html'),
    outDir: path.resolve(root, process.env.STATIC_DIR || 'dist'),
    sources: ['src', 'workers', 'contract', 'public', 'build', 'index.html', 'vite.config.ts', 'pwa-assets.config.ts', 'release.json', 'package.json'],
    config: 'vite.config.ts',
  },
  {
    name: 'server',
    output: path.join(root, 'dist-server', `${entry}.js`),
    sources: ['server', 'contract', 'vite.server.config.ts', 'package.json'],
    config: 'vite.server.config.ts',
  },
].filter((target) => target !== false);

/** @param {string} target @returns {number} */
function newestMtime(target) {
  if (!fs.existsSync(target)) return 0;
  const stat = fs.statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of fs.readdirSync(target)) newest = Math.max(newest, newestMtime(path.join(target, entry)));
  return newest;
}

const stale = targets.filter(
  (target) =>
    !fs.existsSync(target.output) ||
    target.sources.some((source) => newestMtime(path.join(root, source)) > fs.statSync(target.output).mtimeMs),
);

if (stale.length > 0) {
  const { build } = await import('vite');
  for (const target of stale) {
    console.log(`Building the ${target.name}…`);
    await build({
      root,
      configFile: path.join(root, target.config),
      logLevel: 'warn',
      ...(target.outDir ? { build: { outDir: target.outDir } } : {}),
    });
  }
}

await import(path.join(root, 'dist-server', `${entry}.js`));
