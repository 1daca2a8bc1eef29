// SoleStudio can be installed to the home screen: Chromium reports no installability errors once
// the service worker controls the page, and the manifest says what a seller's phone shows.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, waitForServiceWorker } from './support';

test('Chromium finds the app installable', async ({ playwright, baseURL }, testInfo) => {
  // Installation needs a real profile; Playwright's usual contexts are incognito.
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'solestudio-profile-'));
  const context = await playwright.chromium.launchPersistentContext(profile, {
    ...testInfo.project.use.launchOptions,
    baseURL,
  });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto('/');
    await waitForServiceWorker(page);
    const cdp = await context.newCDPSession(page);
    const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
    expect(installabilityErrors).toEqual([]);
    const { url } = await cdp.send('Page.getAppManifest');
    expect(url).toMatch(/\/manifest\.webmanifest$/);
  } finally {
    await context.close();
    fs.rmSync(profile, { recursive: true, force: true });
  }
});

test('the manifest names the app, its colours and its icons', async ({ request }) => {
  const manifest = await (await request.get('/manifest.webmanifest')).json();
  expect(manifest).toMatchObject({
    name: 'SoleStudio',
    short_name: 'SoleStudio',
    display: 'standalone',
    start_url: '/?source=pwa',
    theme_color: '#121212',
    background_color: '#121212',
  });
  const sizes = (purpose: string) =>
    manifest.icons
      .filter((icon: { purpose?: string }) => (icon.purpose ?? 'any') === purpose)
      .map((icon: { sizes: string }) => icon.sizes);
  expect(sizes('any')).toEqual(expect.arrayContaining(['192x192', '512x512']));
  expect(sizes('maskable')).toEqual(expect.arrayContaining(['512x512']));
  for (const icon of manifest.icons) {
    const response = await request.get(`/${icon.src}`);
    expect(response.status(), icon.src).toBe(200);
    expect(response.headers()['content-type']).toBe('image/png');
  }
});
