// A verified seller with a live session on a test app, made through the real account API.
import type { TestApp } from './test-app';
import { linkIn } from './mime';
import { waitForMail } from './outbox';

export const SELLER_PASSWORD = 'Shoes4ever!';

export async function signedInSeller(t: TestApp, username: string): Promise<{ token: string; id: string }> {
  const email = `${username}@shop.example`;
  const registered = await t.app.inject({
    method: 'POST',
    url: '/api/v1/auth/register',
    payload: {
      username,
      email,
      password: SELLER_PASSWORD,
      password_confirm: SELLER_PASSWORD,
      channel: JSON.stringify({ key: 'friend', extra: '' }),
    },
  });
  if (registered.statusCode !== 201) throw new Error(registered.body);
  const link = new URL(linkIn(await waitForMail(t.dataDir, email)));
  await t.app.inject({ method: 'GET', url: `/api/v1/auth/verify-email${link.search}` });
  const login = await t.app.inject({
    method: 'POST',
    url: '/api/v1/auth/login/custom',
    payload: { username_or_email: username, password: SELLER_PASSWORD },
  });
  if (login.statusCode !== 200) throw new Error(login.body);
  return { token: login.json().data.access_token, id: registered.json().data.user.id };
}
