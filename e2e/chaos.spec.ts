// The offline promise under chaos (Pixel 7): while six photos are taken, retaken and deleted, random
// faults strike — the network drops and returns, the page reloads, the service worker is stopped,
// the browser is closed and reopened with its storage, the link slows to a crawl. At the end the
// server holds exactly the photos in the slots, each once (none lost, none twice, no replaced or
// deleted photo left behind), and the task made from them is sent and charged once.
//
// Seeded: CHAOS_SEED repeats a run, CHAOS_CYCLES sets its length (30 here; `npm run chaos` runs 100).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { devices, type BrowserContext, type Page } from '@playwright/test';
import { createVerifiedSeller, signIn } from './accounts';
import { activePage, expect, shoeFiles, test, waitForServiceWorker } from './support';

const SIX = ['right_45', 'right_side', 'left_side', 'front', 'back', 'bottom'] as const;
type View = (typeof SIX)[number];

const cycles = Number(process.env.CHAOS_CYCLES ?? 30);
const seed = Number(process.env.CHAOS_SEED ?? Math.floor(Math.random() * 2 ** 31));

/** A small seeded generator (mulberry32): the same seed makes the same run. */
function random(start: number) {
  let state = start >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

interface Material {
  id: string;
  view: string | null;
  file_size: number;
}

test.describe.configure({ timeout: 90_000 + cycles * 8_000 });
test(`the outbox under ${cycles} random faults: every photo on the server once, the task charged once`, async ({ playwright, launchOptions, request, baseURL }, info) => {
  info.annotations.push({ type: 'seed', description: String(seed) });
  process.stdout.write(`chaos: seed ${seed}, ${cycles} cycles (repeat with CHAOS_SEED=${seed})\n`);
  const next = random(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  const pool = await shoeFiles(8);
  let shots = 0;

  const seller = await createVerifiedSeller(request, 'chaos');
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'solestudio-chaos-'));
  const { defaultBrowserType: _, ...phone } = devices['Pixel 7'];
  // A profile on disk: closing the browser and opening it again keeps IndexedDB and the service worker.
  const launch = () => playwright.chromium.launchPersistentContext(profile, { ...launchOptions, ...phone, baseURL, serviceWorkers: 'allow' });

  let context: BrowserContext = await launch();
  let page: Page = context.pages()[0] ?? (await context.newPage());
  let offline = false;
  let slow = false;
  const filled = new Set<View>();

  /**
   * A task page opened on a draft with no photo shows the shooting requirements first; the seller
   * reads them and closes them. With photos in the draft they stay closed.
   */
  const taskOpened = async () => {
    await expect(activePage(page).getByTestId('slot-front')).toBeVisible({ timeout: 30_000 });
    const requirements = page.getByTestId('requirements-dialog');
    if (filled.size > 0) return expect(requirements).toBeHidden();
    await requirements.getByRole('button', { name: 'Понятно' }).click();
    await expect(requirements).toBeHidden();
  };
  const openTask = async () => {
    await page.goto('/task?type=product');
    await taskOpened();
  };
  const shaping = async (on: boolean) => {
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', on
      ? { offline: false, latency: 400, downloadThroughput: 40_000, uploadThroughput: 20_000 }
      : { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    await cdp.detach();
  };

  // Playwright takes the page and its service worker offline together. A worker stopped by the
  // fault below keeps its DevTools session, which holds every message until the worker runs
  // again, so a stopped worker is woken first (a message it ignores, as a page's next request
  // would wake it); otherwise going offline would wait for ever.
  const setOffline = async (on: boolean) => {
    await page.evaluate(async () => (await navigator.serviceWorker?.getRegistration())?.active?.postMessage({ type: 'WAKE' }));
    await context.setOffline(on);
  };

  try {
    await page.goto('/');
    // The service worker installs a few seconds after the first load, while the seller signs in.
    await signIn(page, seller.username, seller.password, { remember: true, firstTime: true });
    await waitForServiceWorker(page);
    await openTask();

    const faults: Record<string, () => Promise<void>> = {
      network: async () => {
        offline = !offline;
        await setOffline(offline);
      },
      reload: async () => {
        await page.reload();
        await taskOpened();
      },
      'stop service worker': async () => {
        const cdp = await context.newCDPSession(page);
        await cdp.send('ServiceWorker.enable');
        await cdp.send('ServiceWorker.stopAllWorkers');
        await cdp.detach();
      },
      'close and reopen': async () => {
        await context.close();
        context = await launch();
        page = context.pages()[0] ?? (await context.newPage());
        if (offline) await setOffline(true);
        slow = false;
        await openTask();
      },
      'slow link': async () => {
        slow = !slow;
        await shaping(slow);
      },
    };
    const shoot = async (view: View) => {
      const slot = activePage(page).getByTestId(`slot-${view}`);
      const picture = slot.locator('.slot__picture img');
      // A replaced photo's slot keeps showing the old one (and its upload) until the new one is
      // compressed and stored: the shot has landed once the slot shows another picture.
      const before = filled.has(view) ? await picture.getAttribute('src') : null;
      await slot.locator('input[type=file]').setInputFiles(pick(pool));
      shots += 1;
      await expect(slot).not.toHaveAttribute('data-state', 'empty', { timeout: 30_000 });
      if (before) await expect(picture).not.toHaveAttribute('src', before, { timeout: 30_000 });
      filled.add(view);
    };

    for (let cycle = 0; cycle < cycles; cycle += 1) {
      const roll = next();
      const empty = SIX.filter((view) => !filled.has(view));
      if (empty.length > 0 && roll < 0.5) await shoot(pick(empty));
      else if (filled.size > 0 && roll < 0.75) await shoot(pick([...filled]));
      else if (filled.size > 0 && roll < 0.85) {
        const view = pick([...filled]);
        await activePage(page).getByTestId(`slot-${view}`).getByRole('button', { name: 'Удалить' }).click();
        await expect(activePage(page).getByTestId(`slot-${view}`)).toHaveAttribute('data-state', 'empty');
        filled.delete(view);
      }
      const fault = pick(Object.keys(faults));
      const started = Date.now();
      await faults[fault]!();
      info.annotations.push({ type: 'fault', description: `${cycle + 1}: ${fault} (${Date.now() - started} ms)` });
      // Uploads in flight meet the next fault at a different point each time.
      await page.waitForTimeout(Math.floor(next() * 400));
    }

    // The seller finishes the set and the network comes back for good.
    for (const view of SIX.filter((v) => !filled.has(v))) await shoot(view);
    if (offline) await setOffline(false);
    if (slow) await shaping(false);
    offline = false;
    for (const view of SIX) {
      await expect(activePage(page).getByTestId(`slot-${view}`)).toHaveAttribute('data-state', 'uploaded', { timeout: 60_000 });
    }

    const token = await page.evaluate(() => localStorage.getItem('auth_token'));
    const auth = { authorization: `Bearer ${token}` };
    // The draft and the outbox as IndexedDB holds them, to compare with the server and to explain a failure.
    const stored = async () =>
      page.evaluate(
        () =>
          new Promise<{ slots: Record<string, { materialId?: string; state: string; jobId?: string }>; outbox: unknown[] }>((resolve, reject) => {
            const open = indexedDB.open('solestudio');
            open.onerror = () => reject(open.error);
            open.onsuccess = () => {
              const read = open.result.transaction(['drafts', 'outbox']);
              const draft = read.objectStore('drafts').get('product');
              const jobs = read.objectStore('outbox').getAll();
              read.oncomplete = () => {
                resolve({ slots: draft.result?.slots ?? {}, outbox: (jobs.result as Record<string, unknown>[]).map(({ draft: _, ...job }) => job) });
                open.result.close();
              };
              read.onerror = () => reject(read.error);
            };
          }),
      );
    const onServer = async (): Promise<Material[]> => {
      const all: Material[] = [];
      for (let p = 1; ; p += 1) {
        const body = await (await request.get(`/api/v1/materials/list?page_size=50&page=${p}`, { headers: auth })).json();
        all.push(...(body.data as Material[]));
        if (p >= (body.meta?.total_pages ?? 1)) return all;
      }
    };
    const device = await stored();
    const slots = Object.fromEntries(Object.entries(device.slots).map(([view, slot]) => [view, slot.materialId]));
    expect(Object.values(slots).every(Boolean), `seed ${seed}: every uploaded slot knows its material\n${JSON.stringify(device, null, 1)}`).toBe(true);
    const wanted = new Set(Object.values(slots));
    expect(Object.keys(slots).sort(), `seed ${seed}`).toEqual([...SIX].sort());
    // Deletions of replaced photos are jobs of their own: wait until the server has settled.
    const settled = async () => (await onServer()).map((m) => m.id).sort().join() === [...wanted].sort().join();
    await expect.poll(settled, { timeout: 60_000 }).toBe(true).catch(() => {});
    const materials = await onServer();
    const kept = materials.filter((m) => wanted.has(m.id));
    const extra = materials.filter((m) => !wanted.has(m.id));
    // The same photo sent twice has its view and size; any other left-over is a replaced or deleted photo.
    const isCopy = (m: Material) => kept.some((k) => k.view === m.view && k.file_size === m.file_size);
    const counts = { lost: wanted.size - kept.length, duplicated: extra.filter(isCopy).length, orphaned: extra.filter((m) => !isCopy(m)).length };
    process.stdout.write(`chaos: seed ${seed}, ${cycles} cycles, ${shots} shots: ${counts.lost} lost, ${counts.duplicated} duplicated, ${counts.orphaned} orphaned\n`);
    expect(counts, `seed ${seed}`).toEqual({ lost: 0, duplicated: 0, orphaned: 0 });
    for (const m of materials) expect(slots[m.view!], `seed ${seed}: ${m.view}`).toBe(m.id);

    // The task goes offline, survives a reload, and is sent once when the network returns.
    await activePage(page).getByTestId('task-next').click();
    await activePage(page).getByTestId('category-PRODUCT2').getByRole('checkbox').first().click();
    await setOffline(true);
    await activePage(page).getByTestId('task-add').click();
    await page.getByTestId('confirm-dialog').getByTestId('confirm-submit').click();
    await expect(page.getByTestId('toast').filter({ hasText: 'Задача сохранена: Фото товара, 4 токена.' })).toBeVisible();
    await page.reload();
    await setOffline(false);
    const tasks = async () => (await (await request.get('/api/v1/content/tasks', { headers: auth })).json()).data as { id: string; cost: number }[];
    await expect.poll(async () => (await tasks()).length, { timeout: 60_000, message: `seed ${seed}: the task is sent` }).toBe(1);
    // A further reload and service worker start must not send it again.
    await page.reload();
    await faults['stop service worker']!();
    await expect(activePage(page).getByTestId('pending-tasks')).toBeHidden({ timeout: 30_000 });
    expect(await tasks(), `seed ${seed}`).toHaveLength(1);
    const task = (await (await request.get(`/api/v1/content/tasks/${(await tasks())[0]!.id}`, { headers: auth })).json()).data;
    expect([...(task.material_ids as string[])].sort(), `seed ${seed}`).toEqual([...wanted].sort());
    const balance = (await (await request.get('/api/v1/tokens/balance', { headers: auth })).json()).data;
    expect(balance, `seed ${seed}: charged once`).toEqual({ total_tokens: 46, expires_at: null, expiring_tokens: 0 });
  } finally {
    await context.close().catch(() => {});
    fs.rmSync(profile, { recursive: true, force: true });
  }
});
