// Every signed-in screen passes axe's WCAG 2 A and AA rules, in the theme a seller first meets
// (dark) and in the light one: what a screen-reader or low-vision seller meets on each.
import { createRequire } from 'node:module';
import type { Page } from '@playwright/test';
import type { AxeResults, RunOptions } from 'axe-core';
import { createVerifiedSeller, signIn } from './accounts';
import { activePage, expect, test } from './support';

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

// axe is a script the page's own Content-Security-Policy would (rightly) refuse to run.
test.use({ bypassCSP: true });

/**
 * The signed-in screens a seller reaches from the menu, each with what shows it is ready. (/upgrade
 * is a subscriber's: a new seller is sent on to /subscription/manage, which is here.)
 */
const SCREENS = [
  ['/home', 'home-page'],
  ['/task?type=product', 'task-page'],
  ['/task/history', 'task-history'],
  ['/material', 'material-page'],
  ['/stores', 'stores-page'],
  ['/editor', 'editor-page'],
  ['/subscription', 'plans-page'],
  ['/recharge', 'recharge-page'],
  ['/consumption/history', 'consumption-page'],
  ['/subscription/manage', 'subscription-manage-page'],
] as const;

async function violations(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: AXE });
  const found = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: Element, options: RunOptions): Promise<AxeResults> } }).axe;
    // Only the page on screen: Ionic keeps the pages it left mounted, hidden.
    const shown = document.querySelector('.ion-page:not(.ion-page-hidden)') ?? document.body;
    return (await axe.run(shown, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa'] }, resultTypes: ['violations'] })).violations;
  });
  return found.flatMap((v) => v.nodes.map((node) => `${v.id} (${v.impact}): ${node.target.join(' ')} — ${node.failureSummary?.split('\n')[1]?.trim() ?? ''}`));
}

test('every signed-in screen passes WCAG 2 A and AA, in the dark theme and the light one', async ({ page, request }) => {
  test.setTimeout(180_000);
  const seller = await createVerifiedSeller(request, 'axe');
  await page.goto('/');
  await signIn(page, seller.username, seller.password, { remember: false, firstTime: true });
  const found: string[] = [];
  for (const theme of ['dark', 'light'] as const) {
    // The preference the theme toggle keeps, read before the first paint of every load.
    await page.evaluate((chosen) => localStorage.setItem('theme', chosen), theme);
    for (const [path, testId] of SCREENS) {
      await page.goto(path);
      await expect(activePage(page)).toHaveAttribute('data-testid', testId);
      await expect(page.locator('html')).toHaveClass(theme === 'dark' ? /ion-palette-dark/ : /^(?!.*ion-palette-dark)/);
      // Lists and prices arrive after the page: their texts are part of what is checked.
      await page.waitForLoadState('networkidle');
      // Still the same screen once its calls are answered (a page may send the seller on).
      await expect(activePage(page)).toHaveAttribute('data-testid', testId);
      for (const problem of await violations(page)) found.push(`${theme} ${path}: ${problem}`);
    }
  }
  expect(found).toEqual([]);
});
