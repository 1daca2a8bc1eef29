// Accounts end to end through the real server: registration and the mail it sends (through a
// real SMTP server), verification and the sign-up bonus, sign-in, sessions and tokens, password
// change and recovery, rate limits, and feedback.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { SignJWT } from 'jose';
import { eq, sql } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { feedback, ledger, passwordResetCodes, rateLimitHits, sessions, users, wallets } from '../../server/db/schema';
import { createTestApp, type TestApp } from '../support/test-app';
import { startMailbox, type Mailbox } from '../support/mailbox';
import { codeIn, linkIn } from '../support/mime';
import { waitForMail } from '../support/outbox';

let t: TestApp;
let mail: Mailbox;
let ipCounter = 0;
/** Each test calls from its own address unless it is testing per-IP limits. */
let ip = '10.1.0.1';

const PASSWORD = 'Shoes4ever!';

async function call(options: InjectOptions & { token?: string; lang?: string }) {
  const { token, lang = 'en', ...rest } = options;
  return t.app.inject({
    remoteAddress: ip,
    ...rest,
    headers: {
      'accept-language': lang,
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...rest.headers,
    },
  });
}

function registration(name: string, overrides: Record<string, unknown> = {}) {
  return {
    username: name,
    email: `${name}@shop.example`,
    password: PASSWORD,
    password_confirm: PASSWORD,
    channel: JSON.stringify({ key: 'friend', extra: '' }),
    ...overrides,
  };
}

async function register(name: string, lang = 'en') {
  const res = await call({ method: 'POST', url: '/api/v1/auth/register', payload: registration(name), lang });
  expect(res.statusCode, res.body).toBe(201);
  return res;
}

async function verify(name: string) {
  const link = linkIn(await mail.next(`${name}@shop.example`));
  const token = new URL(link).searchParams.get('token')!;
  return call({ method: 'GET', url: `/api/v1/auth/verify-email?token=${encodeURIComponent(token)}` });
}

async function login(identifier: string, password = PASSWORD, remember = false) {
  return call({
    method: 'POST',
    url: '/api/v1/auth/login/custom',
    payload: { username_or_email: identifier, password, remember_me: remember },
  });
}

async function signedIn(name: string, remember = false): Promise<string> {
  await register(name);
  expect((await verify(name)).statusCode).toBe(200);
  const res = await login(name, PASSWORD, remember);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.access_token as string;
}

/** The session id a token names. */
function sessionOf(token: string): string {
  const [, payload] = token.split('.');
  return JSON.parse(Buffer.from(payload!, 'base64url').toString()).sid as string;
}

const me = (token: string) => call({ method: 'GET', url: '/api/v1/auth/me', token });

beforeAll(async () => {
  mail = await startMailbox();
  t = await createTestApp({ SMTP_URL: mail.url, PUBLIC_URL: 'https://studio.example' });
});
afterAll(async () => {
  await t.close();
  await mail.close();
});
beforeEach(() => {
  ipCounter += 1;
  ip = `10.1.${ipCounter}.1`;
});

describe('registration', () => {
  it('creates the account, answers 201 and mails a verification link in the seller’s language', async () => {
    const res = await register('anna', 'ru');
    expect(res.json()).toMatchObject({ code: 201, data: { user: { username: 'anna', email: 'anna@shop.example', email_verified: false } } });
    const message = await mail.next('anna@shop.example');
    expect(message.subject).toBe('Подтвердите e-mail для SoleStudio');
    expect(message.text).toContain('Здравствуйте, anna!');
    expect(linkIn(message)).toMatch(/^https:\/\/studio\.example\/verify-email\?token=/);
    expect(message.html).toContain(linkIn(message).replace(/&/g, '&#38;'));
  });

  it('stores an argon2id hash at 19 MiB, 2 passes, 1 lane, and keeps the channel', async () => {
    await register('hashcheck');
    const [row] = await t.app.database.db.select().from(users).where(eq(users.username, 'hashcheck'));
    expect(row?.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(row?.passwordHash).not.toContain(PASSWORD);
    expect(row?.channel).toEqual({ key: 'friend', extra: '' });
  });

  it('refuses a taken e-mail and a taken username, ignoring case', async () => {
    await register('timur');
    const sameEmail = await call({
      method: 'POST',
      url: '/api/v1/auth/register',
      payload: registration('timur2', { email: 'TIMUR@shop.example' }),
    });
    expect(sameEmail.statusCode).toBe(409);
    expect(sameEmail.json()).toMatchObject({ error: 'EMAIL_TAKEN', message: 'This e-mail is already registered.' });
    const sameName = await call({ method: 'POST', url: '/api/v1/auth/register', payload: registration('TIMUR', { email: 'other@shop.example' }) });
    expect(sameName.statusCode).toBe(409);
    expect(sameName.json().error).toBe('USERNAME_TAKEN');
  });

  it('checks SPEC §5 rules and names each field in the caller’s language', async () => {
    const res = await call({
      method: 'POST',
      url: '/api/v1/auth/register',
      lang: 'ru',
      payload: registration('ok_name', {
        username: 'ab',
        password: 'onlyletters',
        password_confirm: 'different',
        channel: JSON.stringify({ key: 'promoter', extra: '' }),
      }),
    });
    expect(res.statusCode).toBe(400);
    const errors = res.json().errors as { field: string; message: string }[];
    expect(errors).toEqual(
      expect.arrayContaining([
        { field: 'username', message: 'Имя пользователя — от 3 до 20 букв или цифр.' },
        { field: 'password', message: 'Пароль — от 8 до 20 символов, с буквами, цифрами и символами.' },
        { field: 'channel.extra', message: 'Уточните, пожалуйста.' },
      ]),
    );
  });

  it('refuses a channel that is not JSON with a known key', async () => {
    const res = await call({ method: 'POST', url: '/api/v1/auth/register', payload: registration('chan', { channel: '{"key":"tv"}' }) });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0].message).toBe('Please choose how you heard about us.');
  });

  it('answers 429 once one address registers too often', async () => {
    for (let i = 0; i < 10; i += 1) await register(`bulk${i}`);
    const over = await call({ method: 'POST', url: '/api/v1/auth/register', payload: registration('limited') });
    expect(over.statusCode).toBe(429);
    expect(over.json().message).toMatch(/^Too many requests/);
  });
});

describe('e-mail verification', () => {
  it('confirms the address once, credits the sign-up bonus, and refuses the link a second time', async () => {
    await register('olga');
    const link = linkIn(await mail.next('olga@shop.example'));
    const url = new URL(link);
    const first = await call({ method: 'GET', url: `/api/v1/auth/verify-email${url.search}` });
    expect(first.statusCode).toBe(200);
    expect(first.json().data).toMatchObject({ bonus_tokens: 50, user: { username: 'olga', email_verified: true } });
    const again = await call({ method: 'GET', url: `/api/v1/auth/verify-email${url.search}` });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({ error: 'LINK_INVALID', message: 'The link is invalid or has expired.' });
    const token = (await login('olga')).json().data.access_token;
    const balance = await call({ method: 'GET', url: '/api/v1/tokens/balance', token });
    // The bonus never lapses: nothing of the balance has an expiry date.
    expect(balance.json().data).toEqual({ total_tokens: 50, expires_at: null, expiring_tokens: 0 });
  });

  it('credits the bonus exactly once when links are replayed concurrently', async () => {
    await register('racer');
    const firstLink = linkIn(await mail.next('racer@shop.example'));
    await call({ method: 'POST', url: '/api/v1/auth/resend-verification', payload: { email: 'racer@shop.example' } });
    const secondLink = linkIn(await mail.next('racer@shop.example'));
    const attempts = await Promise.all(
      [firstLink, firstLink, firstLink, secondLink, secondLink].map((link) =>
        call({ method: 'GET', url: `/api/v1/auth/verify-email${new URL(link).search}` }),
      ),
    );
    const succeeded = attempts.filter((r) => r.statusCode === 200);
    expect(succeeded).toHaveLength(2); // one per link
    expect(succeeded.map((r) => r.json().data.bonus_tokens).sort()).toEqual([0, 50]);
    const [user] = await t.app.database.db.select().from(users).where(eq(users.username, 'racer'));
    const entries = await t.app.database.db.select().from(ledger).where(eq(ledger.userId, user!.id));
    expect(entries).toEqual([expect.objectContaining({ type: 'sign_up_bonus', amount: 50 })]);
  });

  it('refuses an expired link and an unknown one', async () => {
    await register('late');
    const link = linkIn(await mail.next('late@shop.example'));
    await t.app.database.db.execute(sql`UPDATE email_verifications SET expires_at = now() - interval '1 minute'`);
    expect((await call({ method: 'GET', url: `/api/v1/auth/verify-email${new URL(link).search}` })).statusCode).toBe(400);
    expect((await call({ method: 'GET', url: '/api/v1/auth/verify-email?token=nope' })).statusCode).toBe(400);
  });

  it('resends only to unconfirmed addresses, answering the same for every address, and limits resends to one a minute', async () => {
    await register('slow');
    await mail.next('slow@shop.example');
    const known = await call({ method: 'POST', url: '/api/v1/auth/resend-verification', payload: { email: 'slow@shop.example' } });
    const unknown = await call({ method: 'POST', url: '/api/v1/auth/resend-verification', payload: { email: 'ghost@shop.example' } });
    expect(known.statusCode).toBe(200);
    expect(unknown.body).toBe(known.body);
    await mail.next('slow@shop.example');
    const soon = await call({ method: 'POST', url: '/api/v1/auth/resend-verification', payload: { email: 'slow@shop.example' } });
    expect(soon.statusCode).toBe(429);
    expect(Number(soon.headers['retry-after'])).toBeGreaterThan(50);
  });
});

describe('sign-in', () => {
  it('refuses an unconfirmed account with a way forward', async () => {
    await register('pending');
    const res = await login('pending');
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBe('EMAIL_NOT_VERIFIED');
  });

  it('signs in by username or e-mail; remember-me gives a month, otherwise half a day', async () => {
    await register('dana');
    await verify('dana');
    const short = await login('DANA');
    expect(short.statusCode).toBe(200);
    const shortData = short.json().data;
    expect(shortData).toMatchObject({ token_type: 'bearer', remember_me: false });
    const shortLife = Date.parse(shortData.expires_at) - Date.now();
    expect(shortLife).toBeGreaterThan(11 * 3600_000);
    expect(shortLife).toBeLessThanOrEqual(12 * 3600_000);

    const long = (await login('dana@shop.example', PASSWORD, true)).json().data;
    expect(long.remember_me).toBe(true);
    expect(Date.parse(long.expires_at) - Date.now()).toBeGreaterThan(29 * 24 * 3600_000);

    const who = await me(long.access_token);
    expect(who.json().data).toMatchObject({ username: 'dana', email: 'dana@shop.example', email_verified: true });
  });

  it('answers the same for a wrong password and an unknown account', async () => {
    await register('eve');
    await verify('eve');
    const wrong = await login('eve', 'Wrong-pass1');
    const unknown = await login('nobody', 'Wrong-pass1');
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual(unknown.json());
    expect(wrong.json().message).toBe('Wrong username, e-mail or password.');
  });

  it('limits attempts per identifier, whatever the address', async () => {
    for (let i = 0; i < 10; i += 1) {
      ip = `10.2.${i}.1`;
      expect((await login('target', 'Wrong-pass1')).statusCode).toBe(401);
    }
    ip = '10.2.99.1';
    const over = await login('target', 'Wrong-pass1');
    expect(over.statusCode).toBe(429);
  });

  it('limits attempts per address, whatever the identifier', async () => {
    for (let i = 0; i < 30; i += 1) expect((await login(`user${i}`, 'Wrong-pass1')).statusCode).toBe(401);
    expect((await login('another', 'Wrong-pass1')).statusCode).toBe(429);
  });
});

describe('tokens and sessions', () => {
  let token: string;
  beforeAll(async () => {
    ip = '10.9.0.1';
    token = await signedIn('frank');
  });

  /** A token for the same session signed by an independent JWT library, with chosen claims. */
  async function resigned(changes: Record<string, unknown>, key: Uint8Array = t.app.signingKey) {
    const [, payload] = token.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    return new SignJWT({ ...claims, ...changes }).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(key);
  }

  it('accepts the token it issued', async () => {
    expect((await me(token)).statusCode).toBe(200);
  });

  it('refuses a missing, malformed or forged token with 401', async () => {
    expect((await call({ method: 'GET', url: '/api/v1/auth/me' })).statusCode).toBe(401);
    expect((await me('not-a-token')).statusCode).toBe(401);
    const forged = await resigned({}, new TextEncoder().encode('a-key-that-is-not-the-servers-key-at-all'));
    const res = await me(forged);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 401, error: 'UNAUTHORIZED', message: 'Please sign in to continue.' });
  });

  it('refuses an unsigned token (alg: none) carrying a real session', async () => {
    const [, payload] = token.split('.');
    const header = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
    expect((await me(`${header}.${payload}.`)).statusCode).toBe(401);
  });

  it('accepts the same claims signed with its key by another JWT library', async () => {
    expect((await me(await resigned({}))).statusCode).toBe(200);
  });

  it('refuses an expired token even when correctly signed', async () => {
    expect((await me(await resigned({ exp: Math.floor(Date.now() / 1000) - 60 })))).toMatchObject({ statusCode: 401 });
  });

  it('refuses a token issued by someone else or naming another session', async () => {
    expect((await me(await resigned({ iss: 'elsewhere' }))).statusCode).toBe(401);
    expect((await me(await resigned({ sid: crypto.randomUUID() }))).statusCode).toBe(401);
  });

  it('refuses the token once its session has run out on the server', async () => {
    const other = (await login('frank')).json().data.access_token;
    await t.app.database.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.id, sessionOf(other)));
    expect((await me(other)).statusCode).toBe(401);
  });

  it('refuses a token the server has just answered once its session runs out', async () => {
    const token = (await login('frank', PASSWORD, false)).json().data.access_token;
    expect((await me(token)).statusCode).toBe(200);
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 12 * 3600_000 + 1000 });
    try {
      expect((await me(token)).statusCode).toBe(401);
    } finally {
      vi.useRealTimers();
    }
  });

  it('session-refresh extends the same session and returns the seller', async () => {
    const fresh = (await login('frank')).json().data;
    await t.app.database.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() + 3600_000) })
      .where(eq(sessions.id, sessionOf(fresh.access_token)));
    const res = await call({ method: 'POST', url: '/api/v1/auth/session-refresh', token: fresh.access_token });
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data.user.username).toBe('frank');
    expect(sessionOf(data.access_token)).toBe(sessionOf(fresh.access_token));
    expect(Date.parse(data.expires_at) - Date.now()).toBeGreaterThan(11 * 3600_000);
    expect((await me(data.access_token)).statusCode).toBe(200);
  });

  it('refresh-token rotates: the old token stops working, the new one works', async () => {
    const old = (await login('frank', PASSWORD, true)).json().data.access_token;
    const res = await call({ method: 'POST', url: '/api/v1/auth/refresh-token', token: old });
    expect(res.statusCode).toBe(200);
    const next = res.json().data;
    expect(next.remember_me).toBe(true);
    expect((await me(old)).json()).toMatchObject({ code: 401, error: 'UNAUTHORIZED' });
    expect((await me(next.access_token)).statusCode).toBe(200);
  });

  it('logout revokes the session', async () => {
    const mine = (await login('frank')).json().data.access_token;
    expect((await call({ method: 'POST', url: '/api/v1/auth/logout', token: mine })).statusCode).toBe(200);
    // Signed out, not ended by a password change.
    expect((await me(mine)).json()).toMatchObject({ code: 401, error: 'UNAUTHORIZED' });
    expect((await me(token)).statusCode).toBe(200); // another device stays signed in
  });
});

describe('change password', () => {
  it('needs the current password, keeps this session and ends the others', async () => {
    const here = await signedIn('gina');
    const elsewhere = (await login('gina')).json().data.access_token;
    // Used once, so the server may remember it: the change must still end it at once.
    expect((await me(elsewhere)).statusCode).toBe(200);
    const wrong = await call({
      method: 'POST',
      url: '/api/v1/auth/change-password',
      token: here,
      payload: { current_password: 'Wrong-pass1', new_password: 'N3w-secret!', confirm_password: 'N3w-secret!' },
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe('The current password is wrong.');
    expect((await me(here)).statusCode).toBe(200);

    const changed = await call({
      method: 'POST',
      url: '/api/v1/auth/change-password',
      token: here,
      payload: { current_password: PASSWORD, new_password: 'N3w-secret!', confirm_password: 'N3w-secret!' },
    });
    expect(changed.statusCode).toBe(200);
    expect((await me(here)).statusCode).toBe(200);
    // The other device is told why, in its language, and only that.
    const ended = await call({ method: 'GET', url: '/api/v1/auth/me', token: elsewhere, lang: 'ru' });
    expect(ended.statusCode).toBe(401);
    expect(ended.json()).toEqual({
      code: 401,
      error: 'SESSION_REVOKED',
      message: 'Вы вышли из аккаунта: пароль был изменён на другом устройстве. Войдите с новым паролем.',
    });
    // A token with an altered signature learns nothing of the kind.
    const [header, payload, signature] = elsewhere.split('.');
    const forged = `${header}.${payload}.${signature!.startsWith('A') ? 'B' : 'A'}${signature!.slice(1)}`;
    expect((await me(forged)).json().error).toBe('UNAUTHORIZED');
    expect((await login('gina')).statusCode).toBe(401);
    expect((await login('gina', 'N3w-secret!')).statusCode).toBe(200);
  });

  it('checks that the confirmation matches', async () => {
    const token = await signedIn('hugo');
    const res = await call({
      method: 'POST',
      url: '/api/v1/auth/change-password',
      token,
      payload: { current_password: PASSWORD, new_password: 'N3w-secret!', confirm_password: 'N3w-secret?' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([{ field: 'confirm_password', message: 'Passwords do not match.' }]);
  });
});

describe('forgot password', () => {
  const clearLimits = () => t.app.database.db.delete(rateLimitHits);

  it('answers the same for a known and an unknown e-mail, and mails a code only to the known one', async () => {
    await signedIn('ivan');
    const known = await call({ method: 'POST', url: '/api/v1/auth/forgot-password/request', payload: { email: 'ivan@shop.example' } });
    const unknown = await call({ method: 'POST', url: '/api/v1/auth/forgot-password/request', payload: { email: 'nobody@shop.example' } });
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(200);
    expect(unknown.body).toBe(known.body);
    const message = await mail.next('ivan@shop.example');
    expect(message.subject).toBe('Your SoleStudio password reset code');
    expect(codeIn(message)).toMatch(/^\d{6}$/);
    expect(mail.all().some((m) => m.to.includes('nobody@'))).toBe(false);
  });

  it('stores only a hash of the code and limits requests to one a minute', async () => {
    await signedIn('jana');
    await call({ method: 'POST', url: '/api/v1/auth/forgot-password/request', payload: { email: 'jana@shop.example' } });
    const code = codeIn(await mail.next('jana@shop.example'));
    const rows = await t.app.database.db.select().from(passwordResetCodes);
    expect(rows.some((r) => r.codeHash.includes(code))).toBe(false);
    const soon = await call({ method: 'POST', url: '/api/v1/auth/forgot-password/request', payload: { email: 'jana@shop.example' }, lang: 'ru' });
    expect(soon.statusCode).toBe(429);
    expect(soon.json().message).toMatch(/^Слишком много запросов\. Повторите через \d+ с\.$/);
  });

  it('goes through all three steps, then ends every session', async () => {
    const token = await signedIn('kira');
    expect((await me(token)).statusCode).toBe(200);
    await call({ method: 'POST', url: '/api/v1/auth/forgot-password/request', payload: { email: 'kira@shop.example' } });
    const code = codeIn(await mail.next('kira@shop.example'));
    const verified = await call({ method: 'POST', url: '/api/v1/auth/forgot-password/verify', payload: { email: 'kira@shop.example', code } });
    expect(verified.statusCode).toBe(200);
    const reset = await call({
      method: 'POST',
      url: '/api/v1/auth/forgot-password/reset',
      payload: { email: 'kira@shop.example', code, new_password: 'Fresh-start9', confirm_password: 'Fresh-start9' },
    });
    expect(reset.statusCode).toBe(200);
    expect((await me(token)).json()).toMatchObject({ code: 401, error: 'SESSION_REVOKED' });
    expect((await login('kira', 'Fresh-start9')).statusCode).toBe(200);
    // The code was used up.
    const replay = await call({
      method: 'POST',
      url: '/api/v1/auth/forgot-password/reset',
      payload: { email: 'kira@shop.example', code, new_password: 'Other-pass9', confirm_password: 'Other-pass9' },
    });
    expect(replay.statusCode).toBe(400);
    expect(replay.json().error).toBe('CODE_INVALID');
  });

  it('voids a code after five wrong tries, so the right one is refused after', async () => {
    await signedIn('lena');
    await call({ method: 'POST', url: '/api/v1/auth/forgot-password/request', payload: { email: 'lena@shop.example' } });
    const code = codeIn(await mail.next('lena@shop.example'));
    const wrongCode = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i += 1) {
      const res = await call({ method: 'POST', url: '/api/v1/auth/forgot-password/verify', payload: { email: 'lena@shop.example', code: wrongCode } });
      expect(res.statusCode).toBe(400);
    }
    const right = await call({ method: 'POST', url: '/api/v1/auth/forgot-password/verify', payload: { email: 'lena@shop.example', code } });
    expect(right.statusCode).toBe(400);
    expect(right.json().message).toBe('The code is wrong or has expired. Request a new one.');
  });

  it('refuses an expired code and one replaced by a newer code', async () => {
    await signedIn('mila');
    await call({ method: 'POST', url: '/api/v1/auth/forgot-password/request', payload: { email: 'mila@shop.example' } });
    const first = codeIn(await mail.next('mila@shop.example'));
    await clearLimits();
    await call({ method: 'POST', url: '/api/v1/auth/forgot-password/request', payload: { email: 'mila@shop.example' } });
    const second = codeIn(await mail.next('mila@shop.example'));
    if (first !== second) {
      const old = await call({ method: 'POST', url: '/api/v1/auth/forgot-password/verify', payload: { email: 'mila@shop.example', code: first } });
      expect(old.statusCode).toBe(400);
    }
    await t.app.database.db.execute(sql`UPDATE password_reset_codes SET expires_at = now() - interval '1 second'`);
    const late = await call({ method: 'POST', url: '/api/v1/auth/forgot-password/verify', payload: { email: 'mila@shop.example', code: second } });
    expect(late.statusCode).toBe(400);
  });

  it('limits code checks per e-mail', async () => {
    await clearLimits();
    for (let i = 0; i < 10; i += 1) {
      ip = `10.3.${i}.1`;
      await call({ method: 'POST', url: '/api/v1/auth/forgot-password/verify', payload: { email: 'someone@shop.example', code: '123456' } });
    }
    const over = await call({ method: 'POST', url: '/api/v1/auth/forgot-password/verify', payload: { email: 'someone@shop.example', code: '123456' } });
    expect(over.statusCode).toBe(429);
  });

  it('rejects a code that is not 6 digits before looking it up', async () => {
    const res = await call({ method: 'POST', url: '/api/v1/auth/forgot-password/verify', payload: { email: 'a@shop.example', code: '12345' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([{ field: 'code', message: 'The code is exactly 6 digits.' }]);
  });
});

describe('feedback', () => {
  it('stores a visitor’s message without a seller and a seller’s with theirs', async () => {
    const anonymous = await call({ method: 'POST', url: '/api/v1/feedback/', payload: { content: 'Add a sandals category please' } });
    expect(anonymous.statusCode).toBe(201);
    const token = await signedIn('nina');
    const signed = await call({ method: 'POST', url: '/api/v1/feedback/', token, payload: { content: 'The poster looks great' } });
    expect(signed.statusCode).toBe(201);
    const rows = await t.app.database.db.select().from(feedback);
    const [nina] = await t.app.database.db.select().from(users).where(eq(users.username, 'nina'));
    expect(rows.find((r) => r.content === 'Add a sandals category please')?.userId).toBeNull();
    expect(rows.find((r) => r.content === 'The poster looks great')?.userId).toBe(nina!.id);
  });

  it('requires content', async () => {
    const res = await call({ method: 'POST', url: '/api/v1/feedback/', payload: { content: '   ' }, lang: 'zh' });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([{ field: 'content', message: '请填写此项。' }]);
  });
});

describe('balance', () => {
  it('needs a session', async () => {
    expect((await call({ method: 'GET', url: '/api/v1/tokens/balance' })).statusCode).toBe(401);
  });

  it('is zero before the e-mail is confirmed', async () => {
    await register('olaf');
    const [olaf] = await t.app.database.db.select().from(users).where(eq(users.username, 'olaf'));
    const rows = await t.app.database.db.select().from(ledger).where(eq(ledger.userId, olaf!.id));
    expect(rows).toHaveLength(0);
    const [wallet] = await t.app.database.db.select().from(wallets).where(eq(wallets.userId, olaf!.id));
    expect(wallet?.totalTokens).toBe(0);
  });
});

describe('mail without an SMTP server', () => {
  let local: TestApp;
  beforeAll(async () => {
    local = await createTestApp({ SIGN_UP_BONUS_TOKENS: '75' });
  });
  afterAll(() => local.close());

  it('writes each message as an .eml file in DATA_DIR/mail and uses the configured bonus', async () => {
    const res = await local.app.inject({
      method: 'POST',
      url: '/api/v1/auth/register',
      headers: { 'accept-language': 'zh' },
      payload: registration('pavel'),
    });
    expect(res.statusCode).toBe(201);
    const message = await waitForMail(local.dataDir, 'pavel@shop.example');
    expect(fs.readdirSync(path.join(local.dataDir, 'mail')).filter((name) => name.endsWith('.eml'))).toHaveLength(1);
    expect(message.subject).toBe('确认您的 SoleStudio 邮箱');
    const link = new URL(linkIn(message));
    expect(link.origin).toBe('http://localhost:8080');
    const verified = await local.app.inject({ method: 'GET', url: `/api/v1/auth/verify-email${link.search}` });
    expect(verified.json().data.bonus_tokens).toBe(75);
  });
});
