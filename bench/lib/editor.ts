// The editor's save in headless Chromium against the real server (issue 20's targets):
//   - a 2080×2080 edit with a Cyrillic and a CJK text and a logo, rendered and encoded by the
//     built edit-render worker through the built render bridge (src/features/editor/render-client.ts),
//     its timings read from the bridge's 'edit-render' performance measures, median of the runs
//     after a warm-up; the page's main thread meanwhile (long tasks, and how late a 10 ms timer
//     fires);
//   - the editor's own JavaScript (gzip) from Vite's build manifest: the chunks only the editor
//     loads, its worker included, and none of them on the landing page.
// Nothing in the app calls the bridge by a name a page can import, so the renders run on a second
// build of the app with the bridge as one more entry (its exports kept): the same code, config and
// worker, served by the real server from that build's directory.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import sharp from 'sharp';
import { build } from 'vite';
import { chromium } from 'playwright-core';
import { shoePhoto } from '../../tests/fixtures/shoes';
import { CHROMIUM, CHROMIUM_FLAGS } from './page-js';
import { ROOT } from './server';

interface ManifestChunk {
  file: string;
  src?: string;
  imports?: string[];
  dynamicImports?: string[];
  assets?: string[];
  isEntry?: boolean;
}
type Manifest = Record<string, ManifestChunk>;

const EDITOR_PAGE = 'src/features/editor/EditorPage.tsx';
const RENDER_CLIENT = 'src/features/editor/render-client.ts';

const readManifest = (distDir: string) => JSON.parse(fs.readFileSync(path.join(distDir, '.vite', 'manifest.json'), 'utf8')) as Manifest;
const gzipSize = (file: string) => zlib.gzipSync(fs.readFileSync(file), { level: 9 }).length;

/** Manifest keys reached from `key` by static imports. */
function closure(manifest: Manifest, key: string, out = new Set<string>()): Set<string> {
  if (out.has(key) || !manifest[key]) return out;
  out.add(key);
  for (const imported of manifest[key].imports ?? []) closure(manifest, imported, out);
  return out;
}

/** Manifest keys reached from `from` by static and lazy imports, never entering `stop`. */
function reachable(manifest: Manifest, from: string, stop: Set<string>, out = new Set<string>()): Set<string> {
  if (out.has(from) || stop.has(from) || !manifest[from]) return out;
  out.add(from);
  for (const next of [...(manifest[from].imports ?? []), ...(manifest[from].dynamicImports ?? [])]) reachable(manifest, next, stop, out);
  return out;
}

/**
 * The chunks a lazily loaded part of the app brings that nothing else loads: its static closure
 * and what it imports lazily itself, less whatever the entry or any other route reaches; with the
 * workers they start (a chunk's `.js` assets) and the JSON files they fetch (its `.json` assets).
 */
function ownFiles(manifest: Manifest, roots: string[]) {
  const entry = Object.keys(manifest).find((key) => manifest[key]!.isEntry && key.endsWith('index.html'));
  if (!entry) throw new Error('No index.html entry in the build manifest');
  const shared = reachable(manifest, entry, new Set(roots));
  const own = new Set<string>();
  for (const root of roots) for (const key of closure(manifest, root)) if (!shared.has(key)) own.add(key);
  const lazy = new Set<string>();
  for (const root of roots) for (const key of reachable(manifest, root, shared)) if (!own.has(key)) lazy.add(key);
  const files = (keys: Set<string>) => [...keys].map((key) => manifest[key]!.file);
  const assets = (extension: string) => [...new Set([...own, ...lazy].flatMap((key) => (manifest[key]!.assets ?? []).filter((asset) => asset.endsWith(extension))))];
  return { own: files(own), lazy: files(lazy), workers: assets('.js'), data: assets('.json'), landing: files(closure(manifest, entry)) };
}

export interface EditorCodeCost {
  /** What was measured: the editor's route, or (before the route exists) the bridge, worker and Konva. */
  basis: string;
  files: { file: string; gzipBytes: number; loaded: 'with the editor' | 'on demand' | 'worker' }[];
  gzipBytes: number;
  /** Editor files the landing page's JavaScript includes (should be none). */
  onLanding: string[];
  /** JSON files of the build the editor fetches (data, not code: the CJK slices' unicode ranges). */
  data: { file: string; gzipBytes: number }[];
}

function cost(distDir: string, basis: string, found: ReturnType<typeof ownFiles>): EditorCodeCost {
  const files = [
    ...found.own.map((file) => ({ file, loaded: 'with the editor' as const })),
    ...found.lazy.map((file) => ({ file, loaded: 'on demand' as const })),
    ...found.workers.map((file) => ({ file, loaded: 'worker' as const })),
  ].map((entry) => ({ ...entry, gzipBytes: gzipSize(path.join(distDir, entry.file)) }));
  const all = new Set(files.map((entry) => entry.file));
  return {
    basis,
    files,
    gzipBytes: files.reduce((sum, entry) => sum + entry.gzipBytes, 0),
    onLanding: found.landing.filter((file) => all.has(file)),
    data: found.data.map((file) => ({ file, gzipBytes: gzipSize(path.join(distDir, file)) })),
  };
}

/** The app's build has the editor's route: what opening it (and saving) loads. */
export function editorCodeCost(distDir: string): EditorCodeCost | null {
  const manifest = readManifest(distDir);
  if (!manifest[EDITOR_PAGE]) return null;
  return cost(distDir, 'the editor route (EditorPage) and what it loads', ownFiles(manifest, [EDITOR_PAGE]));
}

/**
 * Builds the app into a directory of its own with the render bridge as one more entry, its
 * exports kept so a page can import it. Before the editor's route exists, react-konva (which
 * brings Konva) is one more entry too, so its cost can be counted.
 */
export async function buildEditorBench(): Promise<{ dir: string; standIn: EditorCodeCost | null }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'solestudio-bench-editor-'));
  const hasRoute = fs.existsSync(path.join(ROOT, EDITOR_PAGE));
  const input: Record<string, string> = { index: path.join(ROOT, 'index.html'), 'edit-render-client': path.join(ROOT, RENDER_CLIENT) };
  if (!hasRoute) input['editor-konva'] = 'react-konva';
  await build({
    root: ROOT,
    logLevel: 'warn',
    build: { outDir: dir, emptyOutDir: true, rolldownOptions: { input, preserveEntrySignatures: 'strict' } },
  });
  if (hasRoute) return { dir, standIn: null };
  const manifest = readManifest(dir);
  const konva = Object.keys(manifest).find((key) => manifest[key]!.isEntry && manifest[key]!.file.includes('editor-konva'));
  const roots = [RENDER_CLIENT, ...(konva ? [konva] : [])];
  return { dir, standIn: cost(dir, 'no editor route yet: the render bridge, its worker and react-konva with Konva', ownFiles(manifest, roots)) };
}

export interface EditorRenderFigures {
  runs: number;
  /** decode + fonts + draw + encode, in the worker. */
  workerMedianMs: number;
  /** From the page's call to its answer (the bridge's measure). */
  pageMedianMs: number;
  parts: { decodeMs: number; fontsMs: number; drawMs: number; encodeMs: number };
  warmUpMs: number;
  longTasksOver50: number;
  longestTaskMs: number;
  /** The longest a 10 ms timer fired late on the main thread while rendering. */
  longestStallMs: number;
  outputBytes: number;
  width: number;
  height: number;
  fontFiles: number;
  fontBytes: number;
}

/** A PNG logo with transparency: a ring and a bar, 600 × 300. */
async function logoPng(): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="300">
    <circle cx="150" cy="150" r="120" fill="none" stroke="#e63946" stroke-width="40"/>
    <rect x="300" y="110" width="280" height="80" rx="20" fill="#1d3557"/></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

export async function editorRenderTimings(url: string, distDir: string, runs = 9): Promise<EditorRenderFigures> {
  const client = readManifest(distDir)[RENDER_CLIENT];
  if (!client) throw new Error(`${RENDER_CLIENT} is not an entry of the bench build`);
  const photo = (await shoePhoto({ width: 2080, height: 2080, noise: 40 })).jpeg;
  const logo = await logoPng();
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
  try {
    const page = await browser.newPage({ serviceWorkers: 'block' });
    // tsx keeps function names with a `__name` helper that does not exist in the page.
    await page.addInitScript({ content: 'globalThis.__name = (f) => f;' });
    const fonts: number[] = [];
    page.on('response', (response) => {
      if (response.url().endsWith('.woff2')) void response.body().then((body) => fonts.push(body.length), () => {});
    });
    await page.goto(`${url}/`, { waitUntil: 'networkidle' });
    const figures = await page.evaluate(
      async ({ client, photo, logo, runs }) => {
        const bytesOf = (base64: string) => Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
        const source = new Blob([bytesOf(photo)], { type: 'image/jpeg' });
        const logoBlob = new Blob([bytesOf(logo)], { type: 'image/png' });
        const edit = {
          version: 1,
          source: { asset_id: '7d1c3b1e-2f4a-4c8e-9b51-2a0f6f0c9d10', width: 2080, height: 2080 },
          crop: { ratio: null, x: 0, y: 0, width: 2080, height: 2080 },
          layers: [
            { type: 'text', id: 'price', text: 'Скидка −30%\nтолько до пятницы', font: 'sans', size: 64, color: '#ffffff', bold: true, align: 'center', plate: '#1d3557', x: 0.5, y: 0.82, rotation: 0, scale: 1 },
            { type: 'text', id: 'slogan', text: '新品上市 限时优惠', font: 'serif', size: 48, color: '#e63946', bold: false, align: 'left', plate: null, x: 0.35, y: 0.12, rotation: -8, scale: 1.2 },
            { type: 'logo', id: 'brand', file_key: 'logos/brand.png', width: 600, height: 300, opacity: 0.9, x: 0.82, y: 0.1, rotation: 0, scale: 0.75 },
          ],
          keep_transparency: false,
        };
        type Rendered = { bytes: ArrayBuffer; width: number; height: number };
        const { renderEdit } = (await import(`/${client}`)) as { renderEdit: (request: unknown) => Promise<Rendered> };
        const request = { edit, source, logos: { 'logos/brand.png': logoBlob } };

        // Warm-up: the worker's module, its fonts and CJK slices, the JIT.
        const warm = performance.now();
        await renderEdit(request);
        const warmUpMs = performance.now() - warm;
        performance.clearMeasures('edit-render');

        const longTasks: number[] = [];
        const observer = new PerformanceObserver((list) => {
          for (const entry of list.getEntries()) longTasks.push(entry.duration);
        });
        observer.observe({ type: 'longtask' });
        // A timer every 10 ms: how late it fires is how long the main thread was held.
        let stall = 0;
        let probing = true;
        const probe = () => {
          const planned = performance.now() + 10;
          setTimeout(() => {
            stall = Math.max(stall, performance.now() - planned);
            if (probing) probe();
          }, 10);
        };
        probe();
        let rendered: Rendered | null = null;
        for (let i = 0; i < runs; i += 1) rendered = await renderEdit(request);
        probing = false;
        await new Promise((resolve) => setTimeout(resolve, 100));
        observer.disconnect();

        const measures = performance.getEntriesByName('edit-render') as PerformanceMeasure[];
        const mid = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
        const detail = (name: 'decodeMs' | 'fontsMs' | 'drawMs' | 'encodeMs') => measures.map((m) => (m.detail as Record<string, number>)[name]!);
        const worker = measures.map((_, i) => detail('decodeMs')[i]! + detail('fontsMs')[i]! + detail('drawMs')[i]! + detail('encodeMs')[i]!);
        return {
          runs: measures.length,
          workerMedianMs: mid(worker),
          pageMedianMs: mid(measures.map((m) => m.duration)),
          parts: { decodeMs: mid(detail('decodeMs')), fontsMs: mid(detail('fontsMs')), drawMs: mid(detail('drawMs')), encodeMs: mid(detail('encodeMs')) },
          warmUpMs,
          longTasksOver50: longTasks.filter((d) => d > 50).length,
          longestTaskMs: Math.max(0, ...longTasks),
          longestStallMs: stall,
          outputBytes: rendered!.bytes.byteLength,
          width: rendered!.width,
          height: rendered!.height,
        };
      },
      { client: client.file, photo: photo.toString('base64'), logo: logo.toString('base64'), runs },
    );
    return { ...figures, fontFiles: fonts.length, fontBytes: fonts.reduce((sum, bytes) => sum + bytes, 0) };
  } finally {
    await browser.close();
  }
}

/** The scripts a fresh browser loads for the landing page (no service worker), by file name. */
export async function landingScripts(url: string): Promise<string[]> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
  try {
    const page = await (await browser.newContext({ serviceWorkers: 'block' })).newPage();
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname.replace(/^\//, ''));
    });
    await page.goto(`${url}/`, { waitUntil: 'networkidle' });
    return scripts;
  } finally {
    await browser.close();
  }
}
