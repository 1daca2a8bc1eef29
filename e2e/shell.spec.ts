// The app shell a visitor meets: language, theme, routes and guards, offline use, updates.
import { activePage, expect, openDrawer, test, waitForServiceWorker } from './support';

test('the landing page renders in Russian by default', { tag: '@small-screen' }, async ({ page }) => {
  await page.goto('/');
  await expect(page.locator('html')).toHaveAttribute('lang', 'ru');
  const landing = page.getByTestId('landing-page');
  await expect(landing.getByRole('heading', { level: 1 })).toHaveText('Фото и видео, которые продают обувь');
  await expect(landing.getByTestId('users-claim')).toContainText('Более 50 000 продавцов');
  await expect(landing.getByTestId('shoes-card')).toHaveAttribute('href', '/shoes');
  const trends = landing.getByTestId('trends-card');
  await expect(trends).toContainText('Тренды сезона');
  await expect(trends.locator('a')).toHaveCount(0);
  await expect(landing.getByRole('heading', { name: 'Что говорят продавцы' })).toBeVisible();
  await expect(landing.locator('.comments li')).toHaveCount(3);
  await expect(landing.getByRole('link', { name: 'Условия использования' })).toHaveAttribute('href', '/legal/ru/terms.html');
  await expect(page).toHaveTitle(/SoleStudio/);
});

test('the shoes card leads to what SoleStudio makes for shoe sellers', { tag: '@small-screen' }, async ({ page }) => {
  await page.goto('/');
  await page.getByTestId('shoes-card').click();
  await expect(page).toHaveURL(/\/shoes$/);
  const shoes = page.getByTestId('shoes-page');
  await expect(shoes.getByRole('heading', { level: 1 })).toHaveText('SoleStudio для продавцов обуви');
  await expect(shoes.getByRole('img', { name: /Пример:/ })).toHaveCount(7);
});

test('switching to English reloads the app in English, and it stays English', { tag: '@small-screen' }, async ({ page }) => {
  await page.goto('/');
  await openDrawer(page);
  await Promise.all([
    page.waitForEvent('load'),
    page.getByTestId('drawer').getByLabel('Язык').selectOption('en'),
  ]);
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(page.getByTestId('landing-page').getByRole('heading', { level: 1 })).toHaveText(
    'Photos and videos that sell shoes',
  );
  await expect(page.getByTestId('landing-page').getByRole('link', { name: 'Terms of use' })).toHaveAttribute(
    'href',
    '/legal/en/terms.html',
  );
  await page.reload();
  await expect(page.getByTestId('landing-page').getByTestId('users-claim')).toContainText('More than 50,000 sellers');
});

test('the theme is dark by default, toggles, and stays after a reload', { tag: '@small-screen' }, async ({ page }) => {
  await page.goto('/');
  const html = page.locator('html');
  await expect(html).toHaveClass(/ion-palette-dark/);
  await activePage(page).getByTestId('theme-toggle').click();
  await expect(html).not.toHaveClass(/ion-palette-dark/);
  await expect(page.locator('meta[name="theme-color"]')).toHaveAttribute('content', '#ffffff');
  await page.reload();
  await expect(html).not.toHaveClass(/ion-palette-dark/);
  await expect(activePage(page).getByTestId('theme-toggle')).toHaveAttribute('data-theme', 'light');
  await activePage(page).getByTestId('theme-toggle').click();
  await expect(html).toHaveClass(/ion-palette-dark/);
});

test('a keyboard user skips the bar to the page’s content', { tag: '@small-screen' }, async ({ page }) => {
  // The landing page (drawn without Ionic) and the feedback page (in the Ionic app).
  for (const [path, firstInContent] of [
    ['/', page.getByTestId('start-button')],
    ['/feedback', page.getByLabel('Ваше сообщение')],
  ] as const) {
    await page.goto(path);
    // The <main> of the page (Ionic's IonContent calls itself main too, around it).
    const main = activePage(page).locator('main');
    await expect(main.getByRole('heading', { level: 1 })).toBeVisible();
    const skip = activePage(page).getByRole('link', { name: 'Перейти к содержимому' });
    expect((await skip.boundingBox())?.width, `${path}: hidden until focused`).toBeLessThanOrEqual(1);
    await page.keyboard.press('Tab');
    await expect(skip, path).toBeFocused();
    expect((await skip.boundingBox())?.width, `${path}: shown when focused`).toBeGreaterThan(100);
    await page.keyboard.press('Enter');
    await expect(main, path).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(firstInContent, path).toBeFocused();
  }
});

test('a visitor on a login-required route lands on the landing page', { tag: '@small-screen' }, async ({ page }) => {
  for (const path of ['/home', '/task/history', '/localpay/subscription']) {
    await page.goto(path);
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByTestId('landing-page').getByRole('heading', { level: 1 })).toBeVisible();
  }
});

test('contact us and an unknown address', { tag: '@small-screen' }, async ({ page }) => {
  await page.goto('/contact_us');
  await expect(page.getByTestId('contact-page').getByRole('link', { name: 'support@solestudio.app' })).toHaveAttribute(
    'href',
    'mailto:support@solestudio.app',
  );
  await page.goto('/no/such/page');
  await expect(page.getByTestId('not-found-page').getByRole('heading', { level: 1 })).toHaveText('Такой страницы нет');
});

test('the legal pages exist in every language', { tag: '@small-screen' }, async ({ page }) => {
  for (const locale of ['ru', 'en', 'zh']) {
    for (const name of ['terms', 'privacy']) {
      const response = await page.goto(`/legal/${locale}/${name}.html`);
      expect(response?.status(), `${locale}/${name}`).toBe(200);
      await expect(page.locator('html')).toHaveAttribute('lang', locale);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    }
  }
});

test('after one visit, public pages reload offline', { tag: '@small-screen' }, async ({ page, context }) => {
  await page.goto('/');
  await waitForServiceWorker(page);
  await context.setOffline(true);
  await page.reload();
  await expect(page.getByTestId('landing-page').getByRole('heading', { level: 1 })).toHaveText(
    'Фото и видео, которые продают обувь',
  );
  await expect(page.getByTestId('offline-banner')).toBeVisible();
  await page.goto('/shoes');
  await expect(page.getByTestId('shoes-page').getByRole('heading', { level: 1 })).toHaveText(
    'SoleStudio для продавцов обуви',
  );
  await page.goto('/legal/ru/privacy.html');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await context.setOffline(false);
});

test('the app runs under its Content-Security-Policy without a violation', { tag: '@small-screen' }, async ({ page }) => {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (event) =>
      seen.push(`${event.violatedDirective} ${event.blockedURI} ${event.sourceFile}`),
    );
  });
  // The update check (zod parsing /version.json) runs after the page has loaded and settled.
  const versionChecked = page.waitForResponse((response) => response.url().includes('/version.json'), {
    timeout: 20_000,
  });
  await page.goto('/');
  await versionChecked;
  await page.waitForTimeout(500);
  await page.getByTestId('shoes-card').click();
  await expect(page.getByTestId('shoes-page')).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)).toEqual([]);
});
