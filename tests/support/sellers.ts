// A verified seller with a live session on a test app, made through the real account API.
import type { TestApp } from './test-app';
import { linkIn } from './mime';
import { waitForMail } from './outbox';

export const SELLER_PASSWORD = 'Shoes4ever!';

/** A loopback address of the seller's own, derived from the name. */
function addressOf(username: string): string {
  let hash = 0;
  for (const char of username) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return `127.${(hash >> 16) & 255}.${(hash >> 8) & 255}.${(hash & 255) || 1}`;
}

export async function signedInSeller(t: TestApp, username: string): Promise<{ token: string; id: string }> {
  const email = `${username}@shop.example`;
  const registered = await t.app.inject({
    method: 'POST',
    url: '/api/v1/auth/register',
    // Each seller signs up from an address of their own, as real sellers do: a suite that needs
    // more sellers than one address may register in an hour is not refused.
    remoteAddress: addressOf(username),
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

/**
 * A new session of a seller who already signed up: a test that moves the clock past the first
 * session's end signs in again at the new time.
 */
export async function signIn(t: TestApp, username: string): Promise<string> {
  const login = await t.app.inject({
    method: 'POST',
    url: '/api/v1/auth/login/custom',
    remoteAddress: addressOf(username),
    payload: { username_or_email: username, password: SELLER_PASSWORD },
  });
  if (login.statusCode !== 200) throw new Error(login.body);
  return login.json().data.access_token;
}
