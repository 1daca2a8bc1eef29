// @vitest-environment happy-dom
// The page's session life against the real server: beginning a session after sign-in (storage,
// store, the IndexedDB row for the service worker, the one-time balance load), resuming it at
// start, signing out, and a session ended elsewhere.
import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { beginSession, resumeSession, signOut } from '../../src/account/session';
import { getMe } from '../../src/account/api/get-me';
import { login } from '../../src/features/auth/api/login';
import { requestResetCode } from '../../src/features/auth/api/forgot-password';
import { ApiError } from '../../src/lib/api-client';
import { readSessionRecord } from '../../src/offline/db';
import { initI18n } from '../../src/lib/i18n';
import { balanceAtom, sessionTokenAtom, store, userAtom } from '../../src/lib/store';
import { linkIn } from '../support/mime';
import { waitForMail } from '../support/outbox';
import { createTestApp, type TestApp } from '../support/test-app';

let t: TestApp;
const seller = { username: 'kira', email: 'kira@shop.example', password: 'Shoes4ever!' };

beforeAll(async () => {
  t = await createTestApp();
  const base = await t.app.listen({ host: '127.0.0.1', port: 0 });
  (window as unknown as { happyDOM: { setURL(url: string): void } }).happyDOM.setURL(`${base}/`);
  await initI18n('en');
  const registered = await t.app.inject({
    method: 'POST',
    url: '/api/v1/auth/register',
    payload: {
      ...seller,
      password_confirm: seller.password,
      channel: JSON.stringify({ key: 'friend', extra: '' }),
    },
  });
  expect(registered.statusCode).toBe(201);
  const link = new URL(linkIn(await waitForMail(t.dataDir, seller.email)));
  expect((await t.app.inject({ method: 'GET', url: `/api/v1/auth/verify-email${link.search}` })).statusCode).toBe(200);
});

afterAll(() => t.close());

const serverSays = (token: string) =>
  t.app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: { authorization: `Bearer ${token}` } });

async function signedIn(remember: boolean) {
  const token = await login({ username_or_email: seller.username, password: seller.password, remember_me: remember });
  await beginSession(token, await getMe(token.access_token));
  return token.access_token;
}

describe('a session in the page', () => {
  it('begins after sign-in: stored per remember-me, in the store and in IndexedDB, with the balance loaded once', async () => {
    const token = await signedIn(true);
    expect(localStorage.getItem('auth_token')).toBe(token);
    expect(store.get(sessionTokenAtom)).toBe(token);
    expect(store.get(userAtom)).toMatchObject({ username: 'kira', email: 'kira@shop.example' });
    expect((await readSessionRecord())?.token).toBe(token);
    await expect.poll(() => store.get(balanceAtom)).toBe(50);
  });

  it('is confirmed and extended by the server when the app starts', async () => {
    const token = await signedIn(false);
    expect(sessionStorage.getItem('auth_token')).toBe(token);
    await resumeSession();
    const refreshed = store.get(sessionTokenAtom)!;
    expect((await serverSays(refreshed)).statusCode).toBe(200);
    expect(sessionStorage.getItem('auth_token')).toBe(refreshed);
    expect((await readSessionRecord())?.token).toBe(refreshed);
  });

  it('signing out ends it on the server and forgets it here', async () => {
    const token = await signedIn(true);
    await signOut();
    expect((await serverSays(token)).statusCode).toBe(401);
    expect(store.get(sessionTokenAtom)).toBeNull();
    expect(localStorage.getItem('auth_token')).toBeNull();
    await expect.poll(async () => readSessionRecord()).toBeUndefined();
  });

  it('a session ended elsewhere is forgotten at the next start', async () => {
    const token = await signedIn(true);
    await t.app.inject({ method: 'POST', url: '/api/v1/auth/logout', headers: { authorization: `Bearer ${token}` } });
    await resumeSession();
    expect(store.get(sessionTokenAtom)).toBeNull();
    expect(store.get(userAtom)).toBeNull();
    expect(localStorage.getItem('auth_user')).toBeNull();
    await expect.poll(async () => readSessionRecord()).toBeUndefined();
  });
});

describe('limits seen by the page', () => {
  it('a second code within a minute fails with the wait, in the seller’s language', async () => {
    await requestResetCode(seller.email);
    const error = await requestResetCode(seller.email).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(429);
    expect((error as ApiError).retryAfterS).toBeGreaterThan(50);
    expect((error as ApiError).message).toMatch(/^Too many requests\. Try again in \d+ s\.$/);
  });
});
