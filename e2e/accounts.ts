// Helpers for account journeys: unique sellers, the server's mail outbox (DATA_DIR/mail), and
// a verified account made through the real API.
import crypto from 'node:crypto';
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { linkIn, type ReadMessage } from '../tests/support/mime';
import { waitForMail } from '../tests/support/outbox';
import { activePage, openDrawer } from './support';

export const PASSWORD = 'Shoes4ever!';

export function uniqueSeller(prefix: string) {
  const username = `${prefix}${crypto.randomBytes(5).toString('hex')}`.slice(0, 20);
  return { username, email: `${username}@shop.example`, password: PASSWORD };
}

/** The newest message to `to` that the server wrote to its outbox, waiting for it to arrive. */
export function mailTo(to: string, after = 0, dataDir = process.env.E2E_DATA_DIR!): Promise<ReadMessage> {
  return waitForMail(dataDir, to, { after });
}

/** Registers and verifies a seller through the API, as if they had done it on another device. */
export async function createVerifiedSeller(request: APIRequestContext, prefix: string, dataDir?: string) {
  const seller = uniqueSeller(prefix);
  const registered = await request.post('/api/v1/auth/register', {
    data: {
      username: seller.username,
      email: seller.email,
      password: seller.password,
      password_confirm: seller.password,
      channel: JSON.stringify({ key: 'online', extra: '' }),
    },
  });
  expect(registered.status()).toBe(201);
  const link = new URL(linkIn(await mailTo(seller.email, 0, dataDir)));
  expect((await request.get(`/api/v1/auth/verify-email${link.search}`)).status()).toBe(200);
  return seller;
}

/** Opens the sign-in dialog of the public layout. */
export async function openLogin(page: Page) {
  // Wide screens have the sign-in button in the bar; phones have it in the drawer.
  const inline = activePage(page).getByTestId('login-button');
  // Either is shown once the bar is drawn: asked before that (a busy machine), a wide screen would
  // look for the drawer's button, which it never shows.
  await expect(inline.or(activePage(page).getByTestId('menu-button')).filter({ visible: true }).first()).toBeVisible();
  if (await inline.isVisible()) {
    await inline.click();
  } else {
    await openDrawer(page);
    await page.getByTestId('menu-login').click();
  }
  await expect(page.getByTestId('login-dialog')).toBeVisible();
  return page.getByTestId('login-dialog');
}

export async function signIn(
  page: Page,
  identifier: string,
  password: string,
  { remember, firstTime, labels = RU }: { remember: boolean; firstTime: boolean; labels?: Labels },
) {
  const open = page.getByTestId('login-dialog');
  const dialog = (await open.isVisible()) ? open : await openLogin(page);
  await dialog.getByLabel(labels.identifier, { exact: true }).fill(identifier);
  await dialog.getByLabel(labels.password, { exact: true }).fill(password);
  if (remember) await dialog.getByLabel(labels.remember).check();
  await dialog.getByRole('button', { name: labels.submit, exact: true }).click();
  await expect(page).toHaveURL(/\/home$/);
  // The first sign-in of a seller on a device asks about the store, once.
  const userInfo = page.getByTestId('user-info-dialog');
  if (firstTime) {
    await expect(userInfo).toBeVisible();
    await userInfo.getByRole('button', { name: labels.later }).click();
  }
  await expect(userInfo).toBeHidden();
  // The workspace, not the page that was there when the address changed, is the one on screen.
  await expect(activePage(page)).toHaveAttribute('data-testid', 'home-page');
}

export interface Labels {
  identifier: string;
  password: string;
  remember: string;
  submit: string;
  later: string;
}

export const RU: Labels = {
  identifier: 'E-mail или имя пользователя',
  password: 'Пароль',
  remember: 'Запомнить меня',
  submit: 'Войти',
  later: 'Позже',
};

export const EN: Labels = {
  identifier: 'E-mail or username',
  password: 'Password',
  remember: 'Remember me',
  submit: 'Sign in',
  later: 'Later',
};

/** The session row the service worker reads from IndexedDB (DESIGN §3). */
export function sessionRecord(page: Page) {
  return page.evaluate(
    () =>
      new Promise<{ token: string } | null>((resolve, reject) => {
        const open = indexedDB.open('solestudio');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains('session')) {
            db.close();
            resolve(null);
            return;
          }
          const get = db.transaction('session').objectStore('session').get('current');
          get.onsuccess = () => {
            db.close();
            resolve((get.result as { token: string } | undefined) ?? null);
          };
          get.onerror = () => reject(get.error);
        };
      }),
  );
}
