// @vitest-environment happy-dom
// The page's api client (in a DOM, same origin) against the real server over HTTP: headers, the envelope, and every
// way a call can fail, each turned into a message in the seller's language.
import net from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { okEnvelope } from '../../contract/envelope';
import { healthSchema } from '../../contract/health';
import { ApiError, apiRequest, fetchStaticJson } from '../../src/lib/api-client';
import { initI18n } from '../../src/lib/i18n';
import { sessionTokenAtom, signedOutReasonAtom, store } from '../../src/lib/store';
import { SELLER_PASSWORD, signedInSeller } from '../support/sellers';
import { createTestApp, type TestApp } from '../support/test-app';

let t: TestApp;
let base: string;

beforeAll(async () => {
  t = await createTestApp({}, (app) => {
    app.get('/api/test/headers', async (request) => ({
      code: 200,
      message: 'ok',
      data: { authorization: request.headers.authorization ?? null, language: request.headers['accept-language'] },
    }));
    app.get('/api/test/unauthorized', async (_request, reply) =>
      reply.code(401).send({ code: 401, error: 'UNAUTHORIZED', message: 'Войдите, чтобы продолжить.' }),
    );
    app.get('/api/test/slow', async () => {
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      return { code: 200, message: 'ok', data: null };
    });
    app.get('/api/test/body-code', async () => ({ code: 450, error: 'PLAN_NOT_FOUND', message: 'Тариф не найден' }));
    app.get('/api/test/crash', async () => {
      throw new Error('internal detail');
    });
  });
  base = await t.app.listen({ host: '127.0.0.1', port: 0 });
  // The page and the API share an origin, as they do when the server serves the app.
  (window as unknown as { happyDOM: { setURL(url: string): void } }).happyDOM.setURL(`${base}/`);
});

afterAll(() => t.close());

beforeEach(async () => {
  store.set(sessionTokenAtom, null);
  store.set(signedOutReasonAtom, null);
  await initI18n('ru');
});

const headersSchema = okEnvelope(z.object({ authorization: z.string().nullable(), language: z.string() }));

describe('apiRequest', () => {
  it('returns the validated body of a successful call', async () => {
    const body = await apiRequest(`${base}/api/health`, { schema: okEnvelope(healthSchema) });
    expect(body.data.status).toBe('ok');
  });

  it('sends the current language and, when signed in, the bearer token', async () => {
    await initI18n('zh');
    store.set(sessionTokenAtom, 'token-abc');
    const body = await apiRequest(`${base}/api/test/headers`, { schema: headersSchema });
    expect(body.data).toEqual({ authorization: 'Bearer token-abc', language: 'zh' });
  });

  it('sends no token for a visitor', async () => {
    const body = await apiRequest(`${base}/api/test/headers`, { schema: headersSchema });
    expect(body.data.authorization).toBeNull();
  });

  it('fails with the server’s message in the seller’s language', async () => {
    await initI18n('en');
    const error = await apiRequest(`${base}/api/v1/missing`, { schema: z.unknown() }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 404, code: 'ROUTE_NOT_FOUND', message: 'There is no such API address: GET /api/v1/missing.' });
  });

  it('treats a body code outside 200-299 as a failure', async () => {
    const error = await apiRequest(`${base}/api/test/body-code`, { schema: z.unknown() }).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 200, code: 'PLAN_NOT_FOUND', message: 'Тариф не найден' });
  });

  it('forgets the session on 401', async () => {
    store.set(sessionTokenAtom, 'expired');
    await expect(apiRequest(`${base}/api/test/unauthorized`, { schema: z.unknown() })).rejects.toMatchObject({ status: 401 });
    expect(store.get(sessionTokenAtom)).toBeNull();
    // Nothing says why: the landing page stays quiet.
    expect(store.get(signedOutReasonAtom)).toBeNull();
  });

  it('remembers that the password was changed on another device when that ended the session', async () => {
    const seller = await signedInSeller(t, 'olga');
    const phone = (
      await t.app.inject({ method: 'POST', url: '/api/v1/auth/login/custom', payload: { username_or_email: 'olga', password: SELLER_PASSWORD } })
    ).json().data.access_token as string;
    const changed = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/change-password',
      headers: { authorization: `Bearer ${seller.token}` },
      payload: { current_password: SELLER_PASSWORD, new_password: 'N3w-secret!', confirm_password: 'N3w-secret!' },
    });
    expect(changed.statusCode).toBe(200);

    store.set(sessionTokenAtom, phone);
    await expect(apiRequest(`${base}/api/v1/auth/me`, { schema: z.unknown() })).rejects.toMatchObject({ status: 401, code: 'SESSION_REVOKED' });
    expect(store.get(sessionTokenAtom)).toBeNull();
    expect(store.get(signedOutReasonAtom)).toBe('password_changed');
  });

  it('shows the support message for a server error, not its details', async () => {
    const error = await apiRequest(`${base}/api/test/crash`, { schema: z.unknown() }).catch((e: unknown) => e);
    expect(error).toMatchObject({
      status: 500,
      message: 'Внутренняя ошибка сервера. Пожалуйста, обратитесь в поддержку.',
    });
  });

  it('gives up after its time limit', async () => {
    const error = await apiRequest(`${base}/api/test/slow`, { schema: z.unknown(), timeoutMs: 100 }).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 0, code: 'TIMEOUT', message: 'Сервер не ответил вовремя. Попробуйте ещё раз.' });
  });

  it('explains when the server cannot be reached', async () => {
    const closedPort = await new Promise<number>((resolve) => {
      const server = net.createServer().listen(0, '127.0.0.1', () => {
        const { port } = server.address() as net.AddressInfo;
        server.close(() => resolve(port));
      });
    });
    const error = await apiRequest(`http://127.0.0.1:${closedPort}/api/health`, { schema: z.unknown() }).catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ status: 0, code: 'NETWORK' });
  });

  it('rejects an answer that does not match the contract', async () => {
    const error = await apiRequest(`${base}/api/health`, { schema: okEnvelope(z.object({ nope: z.string() })) }).catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ code: 'INVALID_RESPONSE' });
  });

  it('adds query parameters', async () => {
    const error = await apiRequest(`${base}/api/v1/missing`, { schema: z.unknown(), query: { page: 2, q: undefined } }).catch(
      (e: unknown) => e,
    );
    expect((error as ApiError).status).toBe(404);
  });
});

describe('fetchStaticJson', () => {
  it('fails in the seller’s language when the file is missing', async () => {
    await expect(fetchStaticJson(`${base}/version.json`, z.unknown(), { cacheBust: true })).rejects.toMatchObject({
      status: 404,
      message: 'Что-то пошло не так. Обновите страницу и попробуйте ещё раз.',
    });
  });
});
