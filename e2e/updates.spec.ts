// The update dialog: a newer /version.json (as a new deployment publishes it) opens it with the
// changelog in the seller's language; a forced update cannot be dismissed.
import type { Page } from '@playwright/test';
import { expect, test } from './support';

/**
 * Resolves once the app has read /version.json and had a moment to act on it: the check runs a
 * few seconds after start-up (src/app/main.tsx), so a test that looks sooner proves nothing.
 */
async function versionRead(page: Page) {
  await page.waitForFunction(() => (window as unknown as { versionRead?: Promise<void> }).versionRead !== undefined);
  await page.evaluate(async () => {
    await (window as unknown as { versionRead: Promise<void> }).versionRead;
    // The offer goes from the parsed answer to the store and React in tasks queued after it.
    await new Promise((resolve) => setTimeout(resolve, 0));
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  });
}

async function announce(page: Page, version: string, forceUpdate: boolean) {
  // Notes when the page has read the file's body (the app parses it right after).
  await page.addInitScript(() => {
    for (const reader of ['json', 'text'] as const) {
      const read = Response.prototype[reader] as (this: Response) => Promise<unknown>;
      Object.defineProperty(Response.prototype, reader, {
        configurable: true,
        value(this: Response) {
          const body = read.call(this);
          if (new URL(this.url, location.href).pathname === '/version.json') {
            (window as unknown as { versionRead: Promise<void> }).versionRead = body.then(() => undefined);
          }
          return body;
        },
      });
    }
  });
  await page.context().route('**/version.json*', (route) =>
    route.fulfill({
      json: {
        version,
        forceUpdate,
        changelog: { ru: 'Новые стили постеров.', en: 'New poster styles.', zh: '新的海报风格。' },
      },
      headers: { 'cache-control': 'no-store' },
    }),
  );
}

test('a newer version opens the update dialog, which can be postponed', { tag: '@small-screen' }, async ({ page }) => {
  await announce(page, '2.1.0', false);
  await page.goto('/');
  await versionRead(page);
  const dialog = page.getByTestId('update-dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('heading', { level: 2 })).toHaveText('Доступна новая версия 2.1.0');
  await expect(dialog.getByTestId('update-changelog')).toHaveText('Новые стили постеров.');
  await dialog.getByTestId('update-later').click();
  await expect(dialog).toBeHidden();
});

test('accepting the update reloads the app', { tag: '@small-screen' }, async ({ page }) => {
  await announce(page, '2.1.0', false);
  await page.goto('/');
  await versionRead(page);
  await expect(page.getByTestId('update-dialog')).toBeVisible();
  await page.evaluate(() => ((window as unknown as { beforeUpdate: boolean }).beforeUpdate = true));
  await Promise.all([page.waitForEvent('load'), page.getByTestId('update-now').click()]);
  expect(await page.evaluate(() => (window as unknown as { beforeUpdate?: boolean }).beforeUpdate)).toBeUndefined();
});

test('the changelog follows the chosen language', { tag: '@small-screen' }, async ({ page }) => {
  await page.addInitScript(() => localStorage.setItem('locale', 'en'));
  await announce(page, '3.0.0', false);
  await page.goto('/');
  await versionRead(page);
  const dialog = page.getByTestId('update-dialog');
  await expect(dialog.getByRole('heading', { level: 2 })).toHaveText('Version 3.0.0 is available');
  await expect(dialog.getByTestId('update-changelog')).toHaveText('New poster styles.');
});

test('a forced update cannot be dismissed', { tag: '@small-screen' }, async ({ page }) => {
  await announce(page, '2.1.0', true);
  await page.goto('/');
  await versionRead(page);
  const dialog = page.getByTestId('update-dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId('update-later')).toHaveCount(0);
  await expect(dialog).toContainText('Чтобы продолжить работу, установите обновление.');
  await page.keyboard.press('Escape');
  await page.mouse.click(5, 5); // the backdrop
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId('update-now')).toBeEnabled();
});

test('the same version opens no dialog', { tag: '@small-screen' }, async ({ page }) => {
  await announce(page, '2.0.0', true);
  await page.goto('/');
  await expect(page.getByTestId('landing-page').getByRole('heading', { level: 1 })).toBeVisible();
  await versionRead(page);
  await expect(page.getByTestId('update-dialog')).toBeHidden();
});
