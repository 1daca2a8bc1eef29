// End-to-end journeys in the system Chromium (never a downloaded browser), in Pixel 7 and
// iPhone 13 emulation and on a desktop for the history pages, against the built app served by
// the real server on a temporary DATA_DIR.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';

const port = Number(process.env.E2E_PORT ?? 4179);
const baseURL = `http://127.0.0.1:${port}`;
// Chromium's headless shell (Debian's chromium-headless-shell, the same build's old headless mode,
// which Playwright itself runs headless by default) where it is installed: the journeys pass alike
// in it and in the full browser's headless mode, and it takes about a third less CPU (256 against
// 164 core-seconds for every journey), on two cores shared with the vitest suite.
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';
const executablePath = process.env.CHROMIUM_PATH ?? (fs.existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : '/usr/bin/chromium');
// The config is read by every worker; only the runner starts the server, so one directory is used.
const dataDir = process.env.E2E_DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'solestudio-e2e-'));
process.env.E2E_DATA_DIR = dataDir;
// A second server for journeys that need other settings: no sign-up bonus and a three-token plan,
// so a subscriber can spend every token they have.
const leanPort = port + 1;
const leanURL = `http://127.0.0.1:${leanPort}`;
const leanDataDir = process.env.E2E_LEAN_DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'solestudio-e2e-lean-'));
process.env.E2E_LEAN_DATA_DIR = leanDataDir;
process.env.E2E_LEAN_URL = leanURL;

// The studio's network answers, shared by both servers for this run (server/studio/networks.ts):
// many journeys upload the same drawn photos, and each segmentation takes seconds of both cores.
const networkCacheDir = process.env.E2E_NETWORK_CACHE_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'solestudio-e2e-networks-'));
process.env.E2E_NETWORK_CACHE_DIR = networkCacheDir;

const chromium = {
  browserName: 'chromium' as const,
  launchOptions: {
    executablePath,
    args: [
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-gpu',
      '--use-fake-device-for-media-stream',
      '--use-fake-ui-for-media-stream',
    ],
  },
};

export default defineConfig({
  testDir: 'e2e',
  fullyParallel: true,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [['list'], ['html', { open: 'never' }], ['./e2e/slowest-reporter.ts']] : [['list'], ['./e2e/slowest-reporter.ts']],
  use: {
    baseURL,
    // Recorded on a journey's retry, not on every journey: recording took a third of the browser's
    // time. A first failure keeps its screenshot; `--trace on` records every journey.
    trace: 'on-first-retry',
    screenshot: 'only-on-failure',
    serviceWorkers: 'allow',
  },
  projects: [
    { name: 'pixel-7', use: { ...devices['Pixel 7'], ...chromium }, testIgnore: /(chaos|desktop)\.spec\.ts/ },
    // The smaller phone (390×664) sees every public screen, the dialogs and the guided camera:
    // tests tagged @small-screen. The rest depend on the outbox, the server and the studio, not on
    // the width, and run once, on the Pixel 7.
    { name: 'iphone-13', use: { ...devices['iPhone 13'], ...chromium }, grep: /@small-screen/ },
    // What a wide screen shows otherwise: My materials' and the task list's grids change with the
    // width, and the editor is worked with a mouse and a keyboard. The journeys run on the phones.
    { name: 'desktop', use: { ...devices['Desktop Chrome'], ...chromium }, testMatch: /desktop\.spec\.ts/ },
    // The chaos journey runs last, on its own: its faults strike uploads in flight at moments
    // that only mean something when the browser is not sharing two cores with another journey,
    // and so its 30 cycles keep within their two minutes. `npm run chaos` runs it alone.
    {
      name: 'chaos',
      use: { ...devices['Pixel 7'], ...chromium },
      testMatch: /chaos\.spec\.ts/,
      dependencies: ['pixel-7', 'iphone-13', 'desktop'],
    },
  ],
  webServer: [
    {
      // Exactly what `npm start` runs once the build exists.
      command: 'node dist-server/server.js',
      url: `${baseURL}/api/health`,
      reuseExistingServer: false,
      timeout: 120_000,
      env: {
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        NETWORK_CACHE_DIR: networkCacheDir,
        NETWORK_MEMORY_KEPT: 'true',
        STATIC_DIR: 'dist',
        LOG_LEVEL: 'warn',
        PUBLIC_URL: baseURL,
        // Every journey signs up from 127.0.0.1; the limits themselves are covered by server tests.
        RATE_LIMIT_DISABLED: 'true',
      },
    },
    {
      command: 'node dist-server/server.js',
      url: `${leanURL}/api/health`,
      reuseExistingServer: false,
      timeout: 120_000,
      env: {
        PORT: String(leanPort),
        HOST: '127.0.0.1',
        DATA_DIR: leanDataDir,
        NETWORK_CACHE_DIR: networkCacheDir,
        NETWORK_MEMORY_KEPT: 'true',
        STATIC_DIR: 'dist',
        LOG_LEVEL: 'warn',
        PUBLIC_URL: leanURL,
        RATE_LIMIT_DISABLED: 'true',
        SIGN_UP_BONUS_TOKENS: '0',
        PRICES_FILE: 'e2e/fixtures/trial-plan-prices.json',
      },
    },
  ],
});
