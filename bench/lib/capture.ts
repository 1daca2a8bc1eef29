// Capture in headless Chromium against the real server:
//   - compressing a 4000×3000 JPEG in the app's compression worker, against the floor of a
//     single-pass createImageBitmap resize + OffscreenCanvas JPEG encode of the same file, and
//     the main thread's long tasks meanwhile;
//   - six photos queued offline, then sent over an emulated 10 Mbit/s link, against one request
//     carrying the same bytes over the same link right after (and against bytes ÷ rate).
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { shoePhoto } from '../../tests/fixtures/shoes';
import { verifiedSeller } from './auth';
import { CHROMIUM, CHROMIUM_FLAGS } from './page-js';
import { ROOT } from './server';

/** tsx keeps function names with a `__name` helper that does not exist in the page. */
const KEEP_NAMES = { content: 'globalThis.__name = (f) => f;' };

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

export interface CompressionFigures {
  workerMedianMs: number;
  floorMedianMs: number;
  longTasksOver50: number;
  outputBytes: number;
}

export async function compressionTimings(url: string, runs = 5): Promise<CompressionFigures> {
  const workerFile = fs.readdirSync(path.join(ROOT, 'dist', 'assets')).find((f) => /^compress\.worker-.*\.js$/.test(f));
  if (!workerFile) throw new Error('no compression worker in dist/assets (build first)');
  const jpeg = (await shoePhoto({ width: 4000, height: 3000, noise: 40 })).jpeg;
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
  try {
    const page = await browser.newPage({ serviceWorkers: 'block' });
    await page.addInitScript(KEEP_NAMES);
    await page.goto(`${url}/legal/en/terms.html`);
    return await page.evaluate(
      async ({ base64, worker, runs }) => {
        const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
        const file = new File([bytes], 'shoe.jpg', { type: 'image/jpeg' });
        const longTasks: number[] = [];
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries()) longTasks.push(entry.duration);
        }).observe({ type: 'longtask' });
        // Speaks Comlink's wire protocol to the app's worker (as the page's bridge does).
        const compressor = new Worker(`/assets/${worker}`, { type: 'module' });
        let next = 0;
        const call = (argument: File) =>
          new Promise<{ bytes: ArrayBuffer }>((resolve, reject) => {
            const id = `bench-${(next += 1)}`;
            const listener = (event: MessageEvent) => {
              if (event.data?.id !== id) return;
              compressor.removeEventListener('message', listener);
              if (event.data.type === 'HANDLER') reject(new Error(String(event.data.value?.value?.message)));
              else resolve(event.data.value);
            };
            compressor.addEventListener('message', listener);
            compressor.postMessage({ id, type: 'APPLY', path: ['compressImage'], argumentList: [{ type: 'RAW', value: argument }] });
          });
        const inWorker: number[] = [];
        let outputBytes = 0;
        await call(file); // warm-up: module load, JIT
        longTasks.length = 0;
        for (let i = 0; i < runs; i += 1) {
          const started = performance.now();
          const result = await call(file);
          inWorker.push(performance.now() - started);
          outputBytes = result.bytes.byteLength;
        }
        const during = longTasks.filter((d) => d > 50).length;
        const floor: number[] = [];
        for (let i = 0; i < runs; i += 1) {
          const started = performance.now();
          const scale = 2080 / Math.max(4000, 3000);
          const bitmap = await createImageBitmap(file, { resizeWidth: Math.round(4000 * scale), resizeHeight: Math.round(3000 * scale), resizeQuality: 'high' });
          const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
          canvas.getContext('2d')!.drawImage(bitmap, 0, 0);
          await canvas.convertToBlob({ type: 'image/jpeg', quality: 0.9 });
          bitmap.close();
          floor.push(performance.now() - started);
        }
        compressor.terminate();
        const mid = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)]!;
        return { workerMedianMs: mid(inWorker), floorMedianMs: mid(floor), longTasksOver50: during, outputBytes };
      },
      { base64: jpeg.toString('base64'), worker: workerFile, runs },
    );
  } finally {
    await browser.close();
  }
}

export interface UploadFigures {
  bytes: number;
  seconds: number;
  idealSeconds: number;
  /**
   * One request carrying the same bytes over the same emulated link, right after, from a page of
   * its own: requests the task page still has waiting (its photo checks) hold none of its
   * connections, so only the link and the machine's load of the moment set it.
   */
  rawSeconds: number;
}

const LINK_BYTES_PER_S = 10_000_000 / 8;
/** The emulated link once the network is back: 10 Mbit/s each way, 20 ms latency. */
const LINK = { offline: false, latency: 20, downloadThroughput: LINK_BYTES_PER_S, uploadThroughput: LINK_BYTES_PER_S };

async function slotStates(page: Page) {
  return page.$$eval('[data-testid^="slot-"]', (slots) => slots.map((s) => s.getAttribute('data-state')));
}

export async function uploadAfterReconnect(url: string, dataDir: string): Promise<UploadFigures> {
  const seller = await verifiedSeller(url, dataDir, 'benchuploads');
  const login = await fetch(`${url}/api/v1/auth/login/custom`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username_or_email: seller.username, password: seller.password, remember_me: true }),
  });
  const token = ((await login.json()) as { data: { access_token: string } }).data.access_token;
  const me = await fetch(`${url}/api/v1/auth/me`, { headers: { authorization: `Bearer ${token}` } });
  const user = ((await me.json()) as { data: { id: string; username: string; email: string } }).data;
  const photos = await Promise.all(
    Array.from({ length: 6 }, async (_, i) => ({
      name: `shoe-${i}.jpg`,
      mimeType: 'image/jpeg',
      buffer: (await shoePhoto({ width: 2080, height: 2080, noise: 40, seed: 21 + i })).jpeg,
    })),
  );

  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
  try {
    // Without the service worker: its pass-through fetches would escape the page's emulated link.
    const context = await browser.newContext({ viewport: { width: 412, height: 915 }, serviceWorkers: 'block' });
    await context.addInitScript(KEEP_NAMES);
    await context.addInitScript(
      ({ token, user }) => {
        localStorage.setItem('auth_token', token);
        localStorage.setItem('auth_user', JSON.stringify(user));
        localStorage.setItem('auth_remember', 'true');
        localStorage.setItem('user_info_asked', JSON.stringify([user.id]));
      },
      { token, user },
    );
    const page = await context.newPage();
    await page.goto(`${url}/task?type=product`);
    await page.getByTestId('requirements-dialog').waitFor();
    await page.keyboard.press('Escape');
    // The session row the outbox uploads with is written once the server confirms the session.
    await page.waitForFunction(
      () =>
        new Promise<boolean>((resolve) => {
          const open = indexedDB.open('solestudio');
          open.onsuccess = () => {
            const get = open.result.transaction('session').objectStore('session').get('current');
            get.onsuccess = () => resolve(Boolean(get.result));
            get.onerror = () => resolve(false);
          };
          open.onerror = () => resolve(false);
        }),
    );

    // One photo while online loads the compression worker (a seller's service worker would have
    // it cached); it is removed again before the measured six.
    await page.getByTestId('slot-optional2').locator('input[type=file]').setInputFiles(photos[0]!);
    await page.waitForFunction(() => document.querySelector('[data-testid="slot-optional2"]')?.getAttribute('data-state') === 'uploaded', undefined, { timeout: 60_000 });
    await page.getByTestId('slot-optional2').locator('.slot__button--danger').click();
    await page.waitForFunction(() => document.querySelector('[data-testid="slot-optional2"]')?.getAttribute('data-state') === 'empty');
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: true, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    await page.getByTestId('batch-input').setInputFiles(photos);
    await page.waitForFunction(
      () => [...document.querySelectorAll('[data-testid^="slot-"]')].filter((s) => s.getAttribute('data-state') === 'queued').length === 6,
      undefined,
      { timeout: 120_000 },
    );
    const bytes = await page.evaluate(
      () =>
        new Promise<number>((resolve, reject) => {
          const open = indexedDB.open('solestudio');
          open.onsuccess = () => {
            const all = open.result.transaction('photos').objectStore('photos').getAll();
            all.onsuccess = () => resolve((all.result as { bytes: ArrayBuffer }[]).reduce((sum, p) => sum + p.bytes.byteLength, 0));
            all.onerror = () => reject(all.error);
          };
        }),
    );

    const started = performance.now();
    await cdp.send('Network.emulateNetworkConditions', LINK);
    await page.waitForFunction(
      () => [...document.querySelectorAll('[data-testid^="slot-"]')].filter((s) => s.getAttribute('data-state') === 'uploaded').length === 6,
      undefined,
      { timeout: 300_000, polling: 50 },
    );
    const seconds = (performance.now() - started) / 1000;
    // The same number of bytes in one request over the same link: what the link itself allows.
    const probeContext = await browser.newContext({ serviceWorkers: 'block' });
    await probeContext.addInitScript(KEEP_NAMES);
    const probe = await probeContext.newPage();
    await probe.goto(`${url}/legal/en/terms.html`);
    const probeLink = await probeContext.newCDPSession(probe);
    await probeLink.send('Network.enable');
    await probeLink.send('Network.emulateNetworkConditions', LINK);
    const rawSeconds = await probe.evaluate(async (n) => {
      const t0 = performance.now();
      await fetch('/api/v1/storage/materials/link-probe.jpg?op=put&exp=1&sig=x&ct=image%2Fjpeg', {
        method: 'PUT',
        headers: { 'content-type': 'image/jpeg' },
        body: new Uint8Array(n),
      });
      return (performance.now() - t0) / 1000;
    }, bytes);
    if ((await slotStates(page)).filter((s) => s === 'uploaded').length !== 6) throw new Error('not all photos uploaded');
    return { bytes, seconds, idealSeconds: bytes / LINK_BYTES_PER_S, rawSeconds };
  } finally {
    await browser.close();
  }
}

export { median };
