import { expect, type Page } from '@playwright/test';
import { shoePhoto } from '../tests/fixtures/shoes';

// Every journey runs under the watch of the signed-in session's console (signed-in-console.ts).
export { expect, test } from './signed-in-console';

/** The Ionic page on screen (the router keeps visited pages mounted but hidden). */
export const activePage = (page: Page) => shownPages(page).last();

/** The pages on screen: one, except while one gives way to the next (ion-app is a page of its own). */
const shownPages = (page: Page) => page.locator('.ion-page:not(.ion-page-hidden):not(ion-app)').filter({ visible: true });

/** Waits until the service worker controls the page, with the app shell precached. */
export async function waitForServiceWorker(page: Page) {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
}

/**
 * Starts watching for a toast before the step that causes it, and resolves once it has been on
 * screen. An event toast stays 6 s: a one-output task can finish, and its toast come and go,
 * while the page is still busy elsewhere (the 7 s before the workspace after a submission).
 */
export function toastShown(page: Page, text: string, timeout: number): Promise<void> {
  return page.getByTestId('toast').filter({ hasText: text }).first().waitFor({ state: 'visible', timeout });
}

export async function openDrawer(page: Page) {
  // While one page gives way to the next (a transition, or one shell handing over to the other)
  // both are on screen; a button taken from the leaving page would be waited on after it is gone.
  await expect(shownPages(page)).toHaveCount(1);
  await activePage(page).getByTestId('menu-button').click();
  await expect(page.getByTestId('drawer')).toBeVisible();
}

/**
 * Shoe photos as files to pick, each a different shoe. Every journey picks from the same shoes, so
 * the studio's segmentation of each (seconds of both cores) is made once in a run and read back
 * from the answers the servers share after.
 */
export async function shoeFiles(count: number) {
  return Promise.all(
    Array.from({ length: count }, async (_, i) => ({
      name: `shoe-${i + 1}.jpg`,
      mimeType: 'image/jpeg',
      buffer: (await shoePhoto({ seed: 11 + i, colour: [30 + i * 30, 60, 140 - i * 15] })).jpeg,
    })),
  );
}
