// Account journeys on phones against the real server: sign-up with the e-mail link, sign-in
// with and without remember-me, change and reset the password, sign out, the drawer's balance.
import { codeIn, linkIn } from '../tests/support/mime';
import { EN, createVerifiedSeller, mailTo, openLogin, sessionRecord, signIn, uniqueSeller } from './accounts';
import { activePage, expect, openDrawer, test } from './support';

test('register, confirm the e-mail, sign in with remember-me, change the password, sign out, sign in again', async ({ page, browser, signedInConsole }) => {
  // Two phones signing in and out: longer than most journeys on a busy 2-core machine.
  test.slow();
  const seller = uniqueSeller('anna');
  await page.goto('/');
  await openDrawer(page);
  await page.getByTestId('menu-register').click();
  const dialog = page.getByTestId('register-dialog');
  await dialog.getByLabel('E-mail', { exact: true }).fill(seller.email);
  await dialog.getByLabel('Имя пользователя', { exact: true }).fill(seller.username);
  await dialog.getByLabel('Пароль', { exact: true }).fill('short');
  await dialog.getByLabel('Повторите пароль').fill('other');
  await dialog.getByRole('button', { name: 'Зарегистрироваться' }).click();
  // SPEC §5 rules, inline, before anything is sent.
  await expect(dialog.getByText('Пароль — от 8 до 20 символов, с буквами, цифрами и символами.')).toBeVisible();
  await expect(dialog.getByText('Пароли не совпадают.')).toBeVisible();
  await expect(dialog.getByText('Выберите, откуда вы о нас узнали.')).toBeVisible();

  await dialog.getByLabel('Пароль', { exact: true }).fill(seller.password);
  await dialog.getByLabel('Повторите пароль').fill(seller.password);
  await dialog.getByLabel('Откуда вы о нас узнали?').selectOption('promoter');
  await dialog.getByRole('button', { name: 'Зарегистрироваться' }).click();
  await expect(dialog.getByText('Уточните, пожалуйста.')).toBeVisible();
  await dialog.getByLabel('Имя представителя или партнёра').fill('Ирина из Казани');
  await dialog.getByRole('button', { name: 'Зарегистрироваться' }).click();
  await expect(dialog.getByText(`Мы отправили ссылку для подтверждения на ${seller.email}`)).toBeVisible();
  await expect(dialog.getByRole('button', { name: /Отправить ещё раз через \d+ с/ })).toBeDisabled();

  const message = await mailTo(seller.email);
  expect(message.subject).toBe('Подтвердите e-mail для SoleStudio');
  await page.goto(linkIn(message));
  const verify = page.getByTestId('verify-email-page');
  await expect(verify.getByRole('heading', { name: 'E-mail подтверждён' })).toBeVisible();
  await expect(verify.getByText('На ваш баланс начислено 50 токенов в подарок.')).toBeVisible();

  await verify.getByRole('button', { name: 'Войти' }).click();
  await expect(page.getByTestId('login-dialog')).toBeVisible();
  await signIn(page, seller.username, seller.password, { remember: true, firstTime: true });
  expect(await page.evaluate(() => [localStorage.getItem('auth_remember'), sessionStorage.getItem('auth_token')])).toEqual(['true', null]);
  const token = await page.evaluate(() => localStorage.getItem('auth_token'));
  expect((await sessionRecord(page))?.token).toBe(token);

  await page.reload();
  await expect(page).toHaveURL(/\/home$/);
  await openDrawer(page);
  await expect(page.getByTestId('drawer-username')).toHaveText(seller.username);
  await expect(page.getByTestId('drawer-balance')).toHaveText('50 токенов');
  await expect(page.getByTestId('drawer-plan')).toHaveText('Без подписки');
  await expect(page.getByTestId('drawer-expiry')).toHaveText('нет');

  // The same seller on a second phone, which the password change will sign out.
  const secondPhone = await browser.newContext();
  const other = await secondPhone.newPage();
  await other.goto('/');
  await signIn(other, seller.username, seller.password, { remember: true, firstTime: true });

  await page.getByTestId('menu-change-password').click();
  const change = page.getByTestId('change-password-dialog');
  signedInConsole.expectAnswer('/api/v1/auth/change-password', 400);
  await change.getByLabel('Текущий пароль').fill('Wrong-pass1');
  await change.getByLabel('Новый пароль', { exact: true }).fill('N3w-secret!');
  await change.getByLabel('Повторите новый пароль').fill('N3w-secret!');
  await change.getByRole('button', { name: 'Сменить пароль' }).click();
  await expect(change.getByText('Не удалось сменить пароль: Текущий пароль указан неверно.')).toBeVisible();
  await change.getByLabel('Текущий пароль').fill(seller.password);
  await change.getByRole('button', { name: 'Сменить пароль' }).click();
  await expect(page.getByTestId('toast')).toHaveText('Пароль изменён. На других устройствах потребуется войти заново.');
  await expect(change).toBeHidden();

  // The second phone's next start is refused: it lands on / and is told why, then signs in anew.
  await other.reload();
  await expect(other).toHaveURL(/\/$/);
  const notice = other.getByTestId('signed-out-notice');
  await expect(notice).toContainText('Вы вышли из аккаунта: пароль был изменён на другом устройстве.');
  expect(await other.evaluate(() => localStorage.getItem('auth_token'))).toBeNull();
  await notice.getByRole('button', { name: 'Войти' }).click();
  await expect(other.getByTestId('login-dialog')).toBeVisible();
  await signIn(other, seller.username, 'N3w-secret!', { remember: true, firstTime: false });
  // Back to / within the same page: signing in has cleared the notice.
  await activePage(other).getByRole('link', { name: 'SoleStudio — на главную' }).click();
  await expect(other).toHaveURL(/\/$/);
  await expect(other.getByTestId('landing-page')).toBeVisible();
  await expect(other.getByTestId('signed-out-notice')).toHaveCount(0);
  await secondPhone.close();

  await openDrawer(page);
  await page.getByTestId('menu-logout').click();
  await expect(page).toHaveURL(/\/$/);
  expect(await page.evaluate(() => localStorage.getItem('auth_token'))).toBeNull();
  await expect.poll(() => sessionRecord(page)).toBeNull();

  const login = await openLogin(page);
  await login.getByLabel('E-mail или имя пользователя').fill(seller.email);
  await login.getByLabel('Пароль', { exact: true }).fill(seller.password);
  await login.getByRole('button', { name: 'Войти', exact: true }).click();
  await expect(login.getByText('Не удалось войти: Неверное имя пользователя, e-mail или пароль.')).toBeVisible();
  await signIn(page, seller.email, 'N3w-secret!', { remember: false, firstTime: false });
});

test('forgot password: e-mail, code, new password, then sign in', async ({ page, request }) => {
  const seller = await createVerifiedSeller(request, 'boris');
  await page.goto('/');
  const login = await openLogin(page);
  await login.getByRole('button', { name: 'Забыли пароль?' }).click();
  const forgot = page.getByTestId('forgot-dialog');
  await expect(forgot.locator('[aria-current="step"]')).toHaveText('1. E-mail');
  const sentAfter = Date.now();
  await forgot.getByLabel('E-mail аккаунта').fill(seller.email);
  await forgot.getByRole('button', { name: 'Отправить код' }).click();
  await expect(forgot.getByText('Код отправлен.', { exact: false })).toBeVisible();
  await expect(forgot.getByRole('button', { name: /Новый код через \d+ с/ })).toBeDisabled();

  const code = codeIn(await mailTo(seller.email, sentAfter - 1000));
  await forgot.getByLabel('Код из письма').fill('12345');
  await forgot.getByRole('button', { name: 'Проверить код' }).click();
  await expect(forgot.getByText('Код — ровно 6 цифр.')).toBeVisible();
  await forgot.getByLabel('Код из письма').fill(code);
  await forgot.getByRole('button', { name: 'Проверить код' }).click();
  await expect(forgot.getByText('Код подтверждён. Придумайте новый пароль.')).toBeVisible();
  await expect(forgot.locator('[aria-current="step"]')).toHaveText('3. Новый пароль');

  await forgot.getByLabel('Новый пароль', { exact: true }).fill('Fresh-start9');
  await forgot.getByLabel('Повторите новый пароль').fill('Fresh-start9');
  await forgot.getByRole('button', { name: 'Сменить пароль' }).click();
  await expect(forgot).toBeHidden();
  await expect(page.getByTestId('login-dialog')).toBeVisible();
  await expect(page.getByTestId('toast')).toHaveText('Пароль изменён. Войдите с новым паролем.');
  await signIn(page, seller.username, 'Fresh-start9', { remember: false, firstTime: true });
});

test('without remember-me the session lives only in this tab', async ({ page, context, request }) => {
  const seller = await createVerifiedSeller(request, 'vera');
  await page.goto('/');
  await signIn(page, seller.username, seller.password, { remember: false, firstTime: true });
  expect(await page.evaluate(() => [sessionStorage.getItem('auth_remember'), localStorage.getItem('auth_token')])).toEqual(['false', null]);

  await page.reload();
  await expect(page).toHaveURL(/\/home$/);

  const other = await context.newPage();
  await other.goto('/home');
  await expect(other).toHaveURL(/\/$/);
  await expect(other.getByTestId('landing-page')).toBeVisible();
});

test('a session ended elsewhere signs this device out on the next start', async ({ page, request, signedInConsole }) => {
  const seller = await createVerifiedSeller(request, 'gleb');
  await page.goto('/');
  await signIn(page, seller.username, seller.password, { remember: true, firstTime: true });
  const token = await page.evaluate(() => localStorage.getItem('auth_token'));
  const ended = await request.post('/api/v1/auth/logout', { headers: { authorization: `Bearer ${token}` }, data: {} });
  expect(ended.status()).toBe(200);

  // The server's refusal of the ended session is how this device learns of it.
  signedInConsole.expectAnswer('/api/v1/auth/session-refresh', 401);
  await page.reload();
  await expect(page).toHaveURL(/\/$/);
  expect(await page.evaluate(() => [localStorage.getItem('auth_token'), localStorage.getItem('auth_user')])).toEqual([null, null]);
  await expect.poll(() => sessionRecord(page)).toBeNull();
  // Signed out, not a password change: nothing claims otherwise.
  await expect(page.getByTestId('landing-page')).toBeVisible();
  await expect(page.getByTestId('signed-out-notice')).toHaveCount(0);
});

test('the same journey in English', { tag: '@small-screen' }, async ({ page }) => {
  const seller = uniqueSeller('emma');
  await page.goto('/');
  await openDrawer(page);
  await page.getByTestId('language-select-menu').selectOption('en');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await openDrawer(page);
  await page.getByTestId('menu-register').click();
  const dialog = page.getByTestId('register-dialog');
  await dialog.getByLabel('E-mail', { exact: true }).fill(seller.email);
  await dialog.getByLabel('Username', { exact: true }).fill(seller.username);
  await dialog.getByLabel('Password', { exact: true }).fill(seller.password);
  await dialog.getByLabel('Repeat the password').fill('Not-the-same1');
  await dialog.getByLabel('How did you hear about us?').selectOption('friend');
  await dialog.getByRole('button', { name: 'Register' }).click();
  await expect(dialog.getByText('Passwords do not match.')).toBeVisible();
  await dialog.getByLabel('Repeat the password').fill(seller.password);
  await dialog.getByRole('button', { name: 'Register' }).click();
  await expect(dialog.getByText(`We sent a confirmation link to ${seller.email}`, { exact: false })).toBeVisible();

  const message = await mailTo(seller.email);
  expect(message.subject).toBe('Confirm your e-mail for SoleStudio');
  expect(message.text).toContain(`Hello, ${seller.username}!`);
  await page.goto(linkIn(message));
  await expect(page.getByRole('heading', { name: 'E-mail confirmed' })).toBeVisible();
  await expect(page.getByText('50 tokens have been added to your balance as a gift.')).toBeVisible();
  await page.getByTestId('verify-email-page').getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByTestId('login-dialog')).toBeVisible();
  await signIn(page, seller.email, seller.password, { remember: true, firstTime: true, labels: EN });

  await openDrawer(page);
  await expect(page.getByTestId('drawer-balance')).toHaveText('50 tokens');
  await expect(page.getByTestId('drawer-plan')).toHaveText('No subscription');
  await expect(activePage(page)).toBeVisible();
});

test('a used or broken verification link offers a new one', async ({ page, request }) => {
  const seller = await createVerifiedSeller(request, 'dina');
  await page.goto('/verify-email?token=not-a-real-token');
  const verify = page.getByTestId('verify-email-page');
  await expect(verify.getByRole('heading', { name: 'Ссылка недействительна' })).toBeVisible();
  await verify.getByLabel('E-mail').fill(seller.email);
  await verify.getByRole('button', { name: 'Отправить ссылку ещё раз' }).click();
  await expect(verify.getByText('Мы отправили новое письмо.', { exact: false })).toBeVisible();
});

test('feedback from a visitor', async ({ page }) => {
  await page.goto('/feedback');
  const feedback = page.getByTestId('feedback-page');
  await feedback.getByRole('button', { name: 'Отправить' }).click();
  await expect(feedback.getByText('Заполните это поле.')).toBeVisible();
  await feedback.getByLabel('Ваше сообщение').fill('Добавьте, пожалуйста, категорию сандалий');
  await feedback.getByRole('button', { name: 'Отправить' }).click();
  await expect(feedback.getByText('Спасибо! Мы получили ваше сообщение.')).toBeVisible();
  await expect(feedback.getByLabel('Ваше сообщение')).toHaveValue('');
});
