// Buying tokens on a phone against the real server and its payment sandbox: a pack, a country and
// a method are chosen, the sandbox's hosted page is paid, declined or left, and the seller comes
// back to a page that says what happened — with the balance, the drawer and the consumption
// history updated only when the payment really went through. In Russian and in English.
import type { Page } from '@playwright/test';
import { createVerifiedSeller, EN, signIn } from './accounts';
import { activePage, expect, openDrawer, test } from './support';

// Bounds for a busy machine: the other journeys generate pictures and videos on the same two cores.
test.describe.configure({ timeout: 180_000 });

/** From the drawer to the top-up page. */
async function openRecharge(page: Page) {
  await openDrawer(page);
  await page.getByTestId('drawer').getByRole('link', { name: /Пополнить|Top up/ }).first().click();
  await expect(activePage(page)).toHaveAttribute('data-testid', 'recharge-page');
  return activePage(page);
}

test('a top-up paid on the sandbox page lands on the balance, the drawer and the consumption history', async ({ page, request }) => {
  const seller = await createVerifiedSeller(request, 'rita');
  await page.goto('/');
  await signIn(page, seller.username, seller.password, { remember: false, firstTime: true });
  const form = await openRecharge(page);

  await expect(form.getByTestId('recharge-balance')).toContainText('50 токенов');
  // The first pack is chosen; choosing it again clears the choice, and nothing can be sent.
  const first = form.getByTestId('pack-100');
  await expect(first).toHaveAttribute('aria-pressed', 'true');
  await first.click();
  await expect(first).toHaveAttribute('aria-pressed', 'false');
  await expect(form.getByTestId('recharge-no-pack')).toHaveText('Выберите пакет токенов.');
  await expect(form.getByTestId('recharge-submit')).toHaveAttribute('aria-disabled', 'true');
  await form.getByTestId('pack-300').click();
  // Russia and a Russian card by default; the price in roubles, exactly what will be charged.
  await expect(form.getByTestId('recharge-country')).toHaveValue('Россия');
  await expect(form.getByTestId('recharge-method')).toHaveValue('card_ru');
  await expect(form.getByTestId('recharge-total')).toContainText(/1\s?234,00\s?₽/);
  // A country that is not on the list is refused until it is.
  await form.getByTestId('recharge-country').fill('Атлантида');
  await expect(form.getByTestId('recharge-submit')).toHaveAttribute('aria-disabled', 'true');
  await form.getByTestId('recharge-country').fill('Казахстан');
  await form.getByTestId('recharge-submit').click();

  // The sandbox's page: plainly a test, with the same amount. A reload in the middle changes nothing.
  await expect(page).toHaveURL(/\/sandbox\/checkout\//);
  await expect(page.getByRole('note')).toContainText('деньги не списываются');
  await expect(page.getByTestId('sandbox-amount')).toContainText(/1\s?234,00\s?₽/);
  await page.reload();
  await page.getByTestId('sandbox-pay').click();

  await expect(page).toHaveURL(/\/recharge\/result\?payment_id=/);
  const result = activePage(page).getByTestId('recharge-result');
  await expect(result).toHaveAttribute('data-state', 'success', { timeout: 30_000 });
  await expect(result).toContainText('зачислено 300 токенов');
  await page.reload();
  await expect(activePage(page).getByTestId('recharge-result')).toContainText('зачислено 300 токенов');

  await openDrawer(page);
  await expect(page.getByTestId('drawer-balance')).toHaveText('350 токенов');
  await page.getByTestId('drawer').getByRole('link', { name: 'История расходов' }).click();
  const history = activePage(page);
  await expect(history).toHaveAttribute('data-testid', 'consumption-page');
  await expect(history.getByTestId('consumption-balance')).toHaveText('350 токенов');
  await expect(history.getByTestId('consumption-plan')).toHaveText('Без подписки');
  await expect(history.getByTestId('consumption-recharge')).toHaveCount(0);
  const entries = history.getByTestId('consumption-entry');
  await expect(entries).toHaveCount(2);
  await expect(entries.first()).toContainText('Пополнение');
  await expect(entries.first()).toContainText('+300');
  await expect(entries.first()).toContainText(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/);
  await expect(entries.last()).toContainText('Бонус за регистрацию');
});

test('in English: a declined payment and a cancelled one change nothing and say so', async ({ page, request }) => {
  const seller = await createVerifiedSeller(request, 'dora');
  await page.goto('/');
  await openDrawer(page);
  await page.getByTestId('language-select-menu').selectOption('en');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await signIn(page, seller.username, seller.password, { remember: false, firstTime: true, labels: EN });

  let form = await openRecharge(page);
  await form.getByTestId('recharge-method').selectOption('card_intl');
  await expect(form.getByTestId('recharge-total')).toContainText('$4.99');
  await form.getByTestId('recharge-submit').click();
  await expect(page).toHaveURL(/\/sandbox\/checkout\//);
  await expect(page.getByRole('note')).toContainText('no money moves');
  // A card that declines, as providers' test cards do.
  await page.getByLabel('Card number').fill('4000 0000 0000 0002');
  await page.getByTestId('sandbox-pay').click();
  await expect(page).toHaveURL(/\/recharge\/success\?payment_id=/);
  const declined = activePage(page).getByTestId('recharge-result');
  await expect(declined).toHaveAttribute('data-state', 'error', { timeout: 30_000 });
  await expect(declined).toContainText('The payment did not go through');
  await declined.getByTestId('recharge-close').click();

  form = activePage(page);
  await expect(form).toHaveAttribute('data-testid', 'recharge-page');
  await form.getByTestId('recharge-method').selectOption('yoomoney_ru');
  await form.getByTestId('recharge-submit').click();
  await expect(page).toHaveURL(/\/sandbox\/checkout\//);
  await expect(page.getByText('Confirm the payment in ЮMoney')).toBeVisible();
  await page.getByTestId('sandbox-cancel').click();
  await expect(page).toHaveURL(/\/recharge\/cancel\?payment_id=/);
  const cancelled = activePage(page).getByTestId('recharge-result');
  await expect(cancelled).toContainText('The payment was cancelled. Nothing was charged.', { timeout: 30_000 });

  await openDrawer(page);
  await expect(page.getByTestId('drawer-balance')).toHaveText('50 tokens');
});

test('a seller who left the provider’s page comes back to a pending payment that completes on its own', async ({ page, request }) => {
  const seller = await createVerifiedSeller(request, 'lena');
  await page.goto('/');
  await signIn(page, seller.username, seller.password, { remember: false, firstTime: true });
  const form = await openRecharge(page);
  await form.getByTestId('recharge-method').selectOption('sberpay_ru');
  await form.getByTestId('recharge-submit').click();
  await expect(page).toHaveURL(/\/sandbox\/checkout\//);
  const checkout = page.url();

  // Back in the app without paying (the tab was closed; the payment id was kept).
  await page.goto('/recharge/result');
  const result = activePage(page).getByTestId('recharge-result');
  await expect(result).toHaveAttribute('data-state', 'pending');
  await expect(result).toContainText('Ждём подтверждения оплаты');

  // Paid later, on another device: the waiting page sees it.
  const paid = await request.post(`${checkout}/pay`, { maxRedirects: 0 });
  expect(paid.status()).toBe(303);
  await expect(result).toHaveAttribute('data-state', 'success', { timeout: 60_000 });
  await expect(result).toContainText('зачислено 100 токенов');
  await openDrawer(page);
  await expect(page.getByTestId('drawer-balance')).toHaveText('150 токенов');
});
