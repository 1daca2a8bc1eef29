// The JavaScript a fresh browser actually downloads to render a page (the page's own requests,
// not the service worker's precaching), gzip-compressed as the server sends it.
import zlib from 'node:zlib';
import { chromium } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export async function pageJavaScript(url: string): Promise<{ files: number; gzipBytes: number }> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
  try {
    const context = await browser.newContext({ serviceWorkers: 'block' });
    const page = await context.newPage();
    const bodies: Promise<Buffer>[] = [];
    page.on('response', (response) => {
      if (response.request().resourceType() === 'script') bodies.push(response.body());
    });
    await page.goto(url, { waitUntil: 'networkidle' });
    const scripts = await Promise.all(bodies);
    return {
      files: scripts.length,
      gzipBytes: scripts.reduce((sum, body) => sum + zlib.gzipSync(body, { level: 9 }).length, 0),
    };
  } finally {
    await browser.close();
  }
}
