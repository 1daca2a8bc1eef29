// A phone's OS kills the tab at the worst moment: right after a shot is stored in IndexedDB,
// before anything else runs. The photo must still reach the server once the task page is open
// again. The renderer is crashed over CDP while the page's main thread is held at the commit.
import type { Page } from '@playwright/test';
import { createVerifiedSeller, signIn } from './accounts';
import { activePage, expect, test } from './support';

declare global {
  interface Window {
    /** Set by the test: hold the page at the next commit of a photo. */
    __holdAfterPhotoStored?: boolean;
  }
}

async function materialsOnServer(page: Page): Promise<{ id: string; status: string; view: string }[]> {
  return page.evaluate(async () => {
    const token = localStorage.getItem('auth_token') ?? sessionStorage.getItem('auth_token');
    const res = await fetch('/api/v1/materials/list?page_size=50', { headers: { authorization: `Bearer ${token}` } });
    return (await res.json()).data;
  });
}

test('a tab killed right after a shot is stored still sends the photo once the task is opened again', async ({ page, context, request }) => {
  // Once armed, the first read-write transaction over the photos store that commits says so and
  // then holds the main thread, so nothing after the commit (in older builds: queueing the upload)
  // runs before the crash.
  await context.addInitScript(() => {
    const open = IDBDatabase.prototype.transaction;
    IDBDatabase.prototype.transaction = function (this: IDBDatabase, ...args: Parameters<IDBDatabase['transaction']>) {
      const transaction = open.apply(this, args);
      const stores = typeof args[0] === 'string' ? [args[0]] : [...args[0]];
      if (args[1] === 'readwrite' && stores.includes('photos')) {
        transaction.addEventListener('complete', () => {
          if (!window.__holdAfterPhotoStored) return;
          window.__holdAfterPhotoStored = false;
          console.warn('photo stored');
          const until = Date.now() + 30_000;
          while (Date.now() < until) {
            // The renderer is crashed meanwhile.
          }
        });
      }
      return transaction;
    } as typeof open;
  });

  const seller = await createVerifiedSeller(request, 'crash');
  await page.goto('/');
  await signIn(page, seller.username, seller.password, { remember: true, firstTime: true });
  await activePage(page).getByTestId('tile-product').click();
  await expect(page).toHaveURL(/\/task\?type=product$/);
  await page.getByTestId('requirements-dialog').getByTestId('requirements-camera').click();
  const camera = page.getByTestId('camera-dialog');
  await expect(camera.getByTestId('camera-shutter')).toBeEnabled();

  // Opened beforehand: attaching needs the page's main thread, which will be held.
  const cdp = await context.newCDPSession(page);
  await page.evaluate(() => (window.__holdAfterPhotoStored = true));
  const stored = page.waitForEvent('console', { predicate: (message) => message.text() === 'photo stored', timeout: 30_000 });
  const crashed = page.waitForEvent('crash', { timeout: 30_000 });
  await camera.getByTestId('camera-shutter').click();
  await stored;
  // Not awaited: the renderer that would answer is gone.
  cdp.send('Page.crash').catch(() => {});
  await crashed;

  const again = await context.newPage();
  await again.goto('/task?type=product');
  const slot = activePage(again).getByTestId('slot-right_45');
  await expect(slot).toHaveAttribute('data-state', 'uploaded', { timeout: 60_000 });
  await expect
    .poll(async () => (await materialsOnServer(again)).map((m) => [m.view, m.status]), { timeout: 30_000 })
    .toEqual([['right_45', 'uploaded']]);
});
