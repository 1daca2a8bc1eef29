// Subscribing on a phone against the real server and its payment sandbox: a plan chosen, automatic
// payments authorised on the local provider's page, the plan, tokens and expiry in the drawer, an
// upgrade followed until it has taken, and a cancellation that hides what no longer applies; the
// card path through the sandbox's card page and a checkout the seller leaves; in Russian and English.
import type { Page } from '@playwright/test';
import { createVerifiedSeller, EN, signIn } from './accounts';
import { apiToken, entry, finishedTask, submitTask, uploadViews } from './content';
import { activePage, expect, openDrawer, test } from './support';

// Bounds for a busy machine: other journeys generate pictures and videos on the same two cores.
test.describe.configure({ timeout: 180_000 });

const DATE_TIME = /\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/;

/** From the drawer's subscribe-or-upgrade button to the screen it leads to. */
async function openPlanAction(page: Page, name: RegExp, testId: string) {
  if (!(await page.getByTestId('drawer').isVisible())) await openDrawer(page);
  const action = page.getByTestId('drawer-plan-action');
  await expect(action).toHaveText(name);
  await action.click();
  await expect(activePage(page)).toHaveAttribute('data-testid', testId);
  return activePage(page);
}

test('subscribing with the local provider: the mandate authorised, the plan, tokens and expiry in the drawer, an upgrade, then cancelling', async ({ page, request }) => {
  const seller = await createVerifiedSeller(request, 'sasha');
  await page.goto('/');
  await signIn(page, seller.username, seller.password, { remember: false, firstTime: true });

  const plans = await openPlanAction(page, /Оформить подписку/, 'plans-page');
  // Four plans, monthly by default; the yearly switch shows the yearly prices.
  await expect(plans.getByTestId('plan-list').locator('article')).toHaveCount(4);
  await expect(plans.getByTestId('interval-month')).toHaveAttribute('aria-checked', 'true');
  await expect(plans.getByTestId('plan-1')).toContainText('Старт');
  await expect(plans.getByTestId('plan-1').getByTestId('plan-price')).toContainText('9,99');
  await expect(plans.getByTestId('plan-1')).toContainText('200 токенов за период');
  await expect(plans.getByTestId('plan-1')).toContainText('Отмена в любой момент');
  await plans.getByTestId('interval-year').click();
  await expect(plans.getByTestId('plan-1').getByTestId('plan-price')).toContainText('99,90');
  await expect(plans.getByTestId('plan-1')).toContainText('2400 токенов за период');
  await plans.getByTestId('interval-month').click();
  await plans.getByTestId('choose-plan-1').click();

  // The checkout: the plan, the first of three steps, Russia and a Russian card by default.
  await expect(page).toHaveURL(/\/localpay\/subscription\?plan_id=1&interval=month$/);
  const checkout = activePage(page);
  await expect(checkout).toHaveAttribute('data-testid', 'local-checkout-page');
  await expect(checkout.getByTestId('stepper')).toHaveAttribute('data-step', 'init');
  await expect(checkout.getByTestId('plan-1')).toBeVisible();
  await expect(checkout.getByTestId('checkout-country')).toHaveValue('Россия');
  await expect(checkout.getByTestId('checkout-method')).toHaveValue('card_ru');
  await expect(checkout.getByTestId('checkout-total')).toContainText(/949,00\s?₽/);
  // Nothing is sent until the required fields are filled.
  await checkout.getByTestId('checkout-submit').click();
  await expect(checkout.getByText('Заполните это поле.')).toHaveCount(3);
  await expect(page).toHaveURL(/\/localpay\/subscription/);
  await checkout.getByTestId('checkout-state').fill('Московская область');
  await checkout.getByTestId('checkout-city').fill('Химки');
  await checkout.getByTestId('checkout-address').fill('ул. Ленина, 1');
  await checkout.getByText('Дополнительные сведения (по желанию)').click();
  await checkout.getByTestId('checkout-channel').selectOption('online');
  await checkout.getByTestId('checkout-submit').click();

  // The sandbox's page authorises automatic payments; nothing is charged there.
  await expect(page).toHaveURL(/\/sandbox\/checkout\//);
  await expect(page.getByTestId('sandbox-mandate')).toBeVisible();
  await page.getByTestId('sandbox-pay').click();

  await expect(page).toHaveURL(/\/subscription\/result\?mandate_id=/);
  const result = activePage(page).getByTestId('subscription-result');
  await expect(result).toHaveAttribute('data-state', 'success', { timeout: 60_000 });
  await expect(result).toContainText('Подписка «Старт» оформлена');
  await expect(activePage(page).getByTestId('stepper')).toHaveAttribute('data-step', 'done');

  // The drawer: the plan, the sign-up bonus and the plan's tokens, the date the plan's tokens lapse.
  await openDrawer(page);
  await expect(page.getByTestId('drawer-plan')).toHaveText('Старт');
  await expect(page.getByTestId('drawer-balance')).toHaveText('250 токенов');
  await expect(page.getByTestId('drawer-expiry')).toHaveText(DATE_TIME);
  const expiry = await page.getByTestId('drawer-expiry').textContent();
  await page.getByTestId('drawer').getByRole('link', { name: 'История расходов' }).click();
  const history = activePage(page);
  await expect(history).toHaveAttribute('data-testid', 'consumption-page');
  await expect(history.getByTestId('consumption-plan')).toHaveText('Старт');
  await expect(history.getByTestId('consumption-recharge')).toBeVisible();
  const credit = history.getByTestId('consumption-entry').first();
  await expect(credit).toContainText('Подписка');
  await expect(credit).toContainText('+200');
  await expect(credit.getByTestId('consumption-expires')).toHaveText(`действуют до ${expiry}`);

  // Upgrading: the current plan and the ones after it, a confirmation, progress, the result.
  const upgrade = await openPlanAction(page, /Повысить тариф/, 'upgrade-page');
  await expect(upgrade.getByTestId('upgrade-plans').locator('article')).toHaveCount(4);
  await expect(upgrade.getByTestId('upgrade-to-1')).toHaveText('Текущий');
  await expect(upgrade.getByTestId('upgrade-to-1')).toHaveAttribute('aria-disabled', 'true');
  await upgrade.getByTestId('upgrade-to-2').click();
  const confirm = page.getByTestId('upgrade-confirm');
  await expect(confirm).toContainText('Перейти на «Про»?');
  await expect(confirm).toContainText('600 токенов');
  await confirm.getByTestId('upgrade-confirm-button').click();
  const outcome = page.getByTestId('upgrade-result-text');
  await expect(outcome).toHaveText('Тариф изменён на «Про».', { timeout: 150_000 });
  await page.getByTestId('upgrade-home').click();
  await expect(activePage(page)).toHaveAttribute('data-testid', 'home-page');
  await openDrawer(page);
  await expect(page.getByTestId('drawer-plan')).toHaveText('Про');
  // The old period's tokens keep their date: the soonest expiry is still theirs.
  await expect(page.getByTestId('drawer-balance')).toHaveText('850 токенов');
  await expect(page.getByTestId('drawer-expiry')).toHaveText(expiry!);

  // Cancelling: confirmed, said, the page reloads with the end date and without cancel or upgrade.
  await page.getByTestId('drawer').getByRole('link', { name: 'Управление подпиской' }).click();
  const manage = activePage(page);
  await expect(manage).toHaveAttribute('data-testid', 'subscription-manage-page');
  await expect(manage.getByTestId('subscription-plan')).toHaveText('Про');
  await expect(manage.getByTestId('subscription-status')).toHaveText('Активна');
  await expect(manage.getByTestId('subscription-upgrade')).toBeVisible();
  await manage.getByTestId('subscription-cancel').click();
  // Waited for from before the confirmation, so a reload that comes at once is not missed.
  const reload = page.waitForEvent('load', { timeout: 30_000 });
  await page.getByTestId('cancel-dialog').getByTestId('cancel-confirm').click();
  await expect(manage.getByTestId('subscription-cancel-outcome')).toContainText('Подписка отменена');
  await reload;
  const reloaded = activePage(page);
  await expect(reloaded.getByTestId('subscription-cancel-at')).toHaveText(DATE_TIME);
  await expect(reloaded.getByTestId('subscription-status')).toHaveText('Активна');
  await expect(reloaded.getByTestId('subscription-cancel')).toHaveCount(0);
  await expect(reloaded.getByTestId('subscription-upgrade')).toHaveCount(0);
  // Once cancelled, the upgrade screen sends the seller back to management.
  await page.goto('/upgrade');
  await expect(page).toHaveURL(/\/subscription\/manage$/);
});

test('in English: the card path through the sandbox’s card page, and a checkout the seller leaves', async ({ page, request, signedInConsole }) => {
  const seller = await createVerifiedSeller(request, 'carl');
  await page.goto('/');
  await openDrawer(page);
  await page.getByTestId('language-select-menu').selectOption('en');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await signIn(page, seller.username, seller.password, { remember: false, firstTime: true, labels: EN });

  // Leaving the local provider's page: cancelled by the seller, nothing charged, no plan.
  let plans = await openPlanAction(page, /Subscribe/, 'plans-page');
  await plans.getByTestId('choose-plan-2').click();
  let checkout = activePage(page);
  await expect(checkout).toHaveAttribute('data-testid', 'local-checkout-page');
  await checkout.getByTestId('checkout-state').fill('Moscow');
  await checkout.getByTestId('checkout-city').fill('Moscow');
  await checkout.getByTestId('checkout-address').fill('1 Tverskaya St');
  await checkout.getByTestId('checkout-method').selectOption('yoomoney_ru');
  await checkout.getByTestId('checkout-submit').click();
  await expect(page).toHaveURL(/\/sandbox\/checkout\//);
  await page.getByTestId('sandbox-cancel').click();
  await expect(page).toHaveURL(/\/subscription\/cancel\?mandate_id=/);
  await expect(activePage(page).getByTestId('subscription-result')).toContainText('The subscription was cancelled by you. Nothing was charged.');
  await openDrawer(page);
  await expect(page.getByTestId('drawer-plan')).toHaveText('No subscription');

  // An international card: the card provider's page, then back to a subscription that is active.
  plans = await openPlanAction(page, /Subscribe/, 'plans-page');
  await plans.getByTestId('choose-plan-3').click();
  checkout = activePage(page);
  await expect(checkout).toHaveAttribute('data-testid', 'local-checkout-page');
  await checkout.getByTestId('checkout-state').fill('Astana');
  await checkout.getByTestId('checkout-city').fill('Astana');
  await checkout.getByTestId('checkout-address').fill('2 Abay Ave');
  await checkout.getByTestId('checkout-method').selectOption('card_intl');
  await expect(checkout.getByTestId('checkout-total')).toContainText('$69.99');
  await checkout.getByTestId('checkout-submit').click();
  await expect(page).toHaveURL(/\/sandbox\/checkout\//);
  await page.getByTestId('sandbox-pay').click();
  await expect(page).toHaveURL(/\/subscription\/success\?session_id=/);
  const result = activePage(page).getByTestId('subscription-result');
  await expect(result).toHaveAttribute('data-state', 'success', { timeout: 60_000 });
  await expect(result).toContainText('You are subscribed to “Business”');

  await openDrawer(page);
  await expect(page.getByTestId('drawer-plan')).toHaveText('Business');
  await expect(page.getByTestId('drawer-balance')).toHaveText(/^2,?050 tokens$/);
  await page.getByTestId('drawer').getByRole('link', { name: 'Manage subscription' }).click();
  const manage = activePage(page);
  await expect(manage.getByTestId('subscription-status')).toHaveText('Active');
  await expect(manage).toContainText('International card');
  // Subscribing again to the plan one has is refused plainly.
  signedInConsole.expectAnswer('/api/v1/subscription/create', 409);
  await page.goto('/localpay/subscription?plan_id=3&interval=month');
  checkout = activePage(page);
  await checkout.getByTestId('checkout-state').fill('Astana');
  await checkout.getByTestId('checkout-city').fill('Astana');
  await checkout.getByTestId('checkout-address').fill('2 Abay Ave');
  await checkout.getByTestId('checkout-method').selectOption('card_intl');
  await checkout.getByTestId('checkout-submit').click();
  await expect(checkout.getByRole('alert')).toHaveText('You are already subscribed to this plan.');
});

test.describe('a subscriber who has spent every token', () => {
  // The second server: no sign-up bonus and a three-token plan, so the plan's tokens are all there is.
  test.use({ baseURL: process.env.E2E_LEAN_URL });

  test('is offered a top-up or an upgrade when the app loads', async ({ page, request }) => {
    const seller = await createVerifiedSeller(request, 'zina', process.env.E2E_LEAN_DATA_DIR);
    const token = await apiToken(request, seller);
    const auth = { authorization: `Bearer ${token}` };
    // Subscribed on another device: automatic payments authorised on the sandbox's page, the plan started.
    const mandate = await request.post('/api/v1/localpay/mandates', { headers: auth, data: { reference: `m-${seller.username}`, payment_method: 'sberpay_ru', terminal_type: 'web' } });
    expect(mandate.status()).toBe(200);
    const { id: mandateId, redirect_url: authorise } = (await mandate.json()).data;
    expect((await request.post(`${authorise}/pay`, { maxRedirects: 0 })).status()).toBe(303);
    const subscribed = await request.post('/api/v1/localpay/subscriptions', { headers: auth, data: { plan_id: 1, mandate_id: mandateId, reference: `s-${seller.username}` } });
    expect(subscribed.status(), await subscribed.text()).toBe(200);
    expect((await subscribed.json()).data.status).toBe('active');
    // The plan's three tokens spent on a colour card.
    const task = await submitTask(request, token, await uploadViews(request, token), [entry('OUTFIT_COLOR')]);
    expect((await finishedTask(request, token, task, 120_000)).status).toBe('completed');
    const balance = await request.get('/api/v1/tokens/balance', { headers: auth });
    expect((await balance.json()).data.total_tokens).toBe(0);

    await page.goto('/');
    await signIn(page, seller.username, seller.password, { remember: false, firstTime: true });
    const prompt = page.getByTestId('top-up-prompt');
    await expect(prompt).toBeVisible({ timeout: 30_000 });
    await expect(prompt).toContainText('Токены закончились');
    await prompt.getByTestId('top-up-prompt-upgrade').click();
    const upgrade = activePage(page);
    await expect(upgrade).toHaveAttribute('data-testid', 'upgrade-page');
    await expect(upgrade.getByTestId('upgrade-to-1')).toHaveText('Текущий');
    await expect(upgrade.getByTestId('upgrade-to-4')).toHaveText('Повысить');
    await expect(prompt).toBeHidden();

    // Once per load: coming back to the app offers it again, and recharge leads to the top-up page.
    await page.reload();
    await expect(prompt).toBeVisible({ timeout: 30_000 });
    await prompt.getByTestId('top-up-prompt-recharge').click();
    await expect(activePage(page)).toHaveAttribute('data-testid', 'recharge-page');
  });
});
