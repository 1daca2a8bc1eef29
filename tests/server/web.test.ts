// Serving the built web app: cache rules per kind of file, client routes answered with the
// app shell, /api and missing files never, a CSP that admits the shell's inline script.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app';

const INLINE = "document.documentElement.classList.add('ion-palette-dark')";
const INDEX = `<!doctype html><html><head><script>${INLINE}</script><script type="module" src="/assets/index-abc123.js"></script></head><body><div id="root"></div></body></html>`;
const APP_JS = `console.log(${JSON.stringify('x'.repeat(4000))});`;

let t: TestApp;
let staticDir: string;

beforeAll(async () => {
  staticDir = fs.mkdtempSync(path.join(os.tmpdir(), 'solestudio-web-'));
  fs.mkdirSync(path.join(staticDir, 'assets'));
  fs.mkdirSync(path.join(staticDir, 'legal', 'en'), { recursive: true });
  fs.writeFileSync(path.join(staticDir, 'index.html'), INDEX);
  fs.writeFileSync(path.join(staticDir, 'index.html.br'), zlib.brotliCompressSync(INDEX));
  fs.writeFileSync(path.join(staticDir, 'assets', 'index-abc123.js'), APP_JS);
  fs.writeFileSync(path.join(staticDir, 'assets', 'index-abc123.js.br'), zlib.brotliCompressSync(APP_JS));
  fs.writeFileSync(path.join(staticDir, 'sw.js'), 'self.addEventListener("fetch", () => {});');
  fs.writeFileSync(path.join(staticDir, 'sw.js.br'), zlib.brotliCompressSync('self.addEventListener("fetch", () => {});'));
  fs.writeFileSync(path.join(staticDir, 'version.json'), '{"version":"2.0.0"}');
  fs.writeFileSync(path.join(staticDir, 'manifest.webmanifest'), '{"name":"SoleStudio"}');
  fs.writeFileSync(path.join(staticDir, 'pwa-192x192.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
  fs.writeFileSync(path.join(staticDir, 'legal', 'en', 'terms.html'), '<h1>Terms</h1>');
  t = await createTestApp({ STATIC_DIR: staticDir });
});

afterAll(async () => {
  await t.close();
  fs.rmSync(staticDir, { recursive: true, force: true });
});

const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

describe('the web app', () => {
  it('serves index.html at / without caching it', async () => {
    const res = await get('/');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.body).toBe(INDEX);
  });

  it('answers every client route with index.html', async () => {
    for (const url of ['/shoes', '/task/history', '/localpay/subscription', '/home?type=person']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toBe(INDEX);
      expect(res.headers['cache-control'], url).toBe('no-cache');
    }
  });

  it('never answers /api with index.html', async () => {
    const res = await get('/api/v1/unknown');
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toBe('ROUTE_NOT_FOUND');
  });

  it('answers a missing file with 404, not the shell', async () => {
    const res = await get('/assets/missing-123.js');
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('<!doctype html>');
  });

  it('caches hashed assets for a year, immutable', async () => {
    const res = await get('/assets/index-abc123.js');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('sends the precompressed file to a browser that accepts brotli', async () => {
    const res = await get('/assets/index-abc123.js', { 'accept-encoding': 'br, gzip' });
    expect(res.headers['content-encoding']).toBe('br');
    expect(zlib.brotliDecompressSync(res.rawPayload).toString()).toBe(APP_JS);
  });

  it('revalidates the shell, service worker, version file and manifest on every load', async () => {
    for (const url of ['/', '/home', '/sw.js', '/version.json', '/manifest.webmanifest']) {
      const res = await get(url, { 'accept-encoding': 'br, gzip' });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control'], url).toBe('no-cache');
    }
  });

  it('serves the manifest with its media type', async () => {
    expect((await get('/manifest.webmanifest')).headers['content-type']).toContain('application/manifest+json');
  });

  it('never answers a legal page address with the shell', async () => {
    const res = await get('/legal/en/missing');
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('<div id="root">');
  });

  it('serves static legal pages as files', async () => {
    const res = await get('/legal/en/terms.html');
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('<h1>Terms</h1>');
  });

  it('admits exactly the inline script of index.html in its CSP', async () => {
    const hash = crypto.createHash('sha256').update(INLINE).digest('base64');
    const csp = String((await get('/')).headers['content-security-policy']);
    expect(csp).toContain(`script-src 'self' 'sha256-${hash}'`);
    expect(csp.match(/'sha256-/g)).toHaveLength(1);
    expect(csp).toContain("manifest-src 'self'");
    expect(csp).toContain("worker-src 'self'");
  });
});
