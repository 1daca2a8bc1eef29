import { expect, type Page } from '@playwright/test';

/** The Ionic page on screen (the router keeps visited pages mounted but hidden). */
export const activePage = (page: Page) =>
  page.locator('.ion-page:not(.ion-page-hidden)').filter({ visible: true }).last();

/** Waits until the service worker controls the page, with the app shell precached. */
export async function waitForServiceWorker(page: Page) {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
}

export async function openDrawer(page: Page) {
  await activePage(page).getByTestId('menu-button').click();
  await expect(page.getByTestId('drawer')).toBeVisible();
}
