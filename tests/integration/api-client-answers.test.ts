// @vitest-environment happy-dom
// The page's api client against a server answering off the contract: a proxy's HTML page, an
// empty body, an envelope missing fields, a success of the wrong shape, an error code under a
// success status. Each becomes one ApiError with a message in the seller's language, never a
// value a component would find undefined.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { okEnvelope } from '../../contract/envelope';
import { ApiError, apiRequest } from '../../src/lib/api-client';
import { initI18n } from '../../src/lib/i18n';
import { sessionTokenAtom, signedOutReasonAtom, store } from '../../src/lib/store';
import { answer, answerJson, localServer, type LocalServer } from '../support/local-http';

const INTERNAL = 'Внутренняя ошибка сервера. Пожалуйста, обратитесь в поддержку.';
const WEBSITE = 'Что-то пошло не так. Обновите страницу и попробуйте ещё раз.';

let server: LocalServer;

beforeAll(async () => {
  server = await localServer((request, response) => {
    switch (request.url) {
      case '/api/proxy-502':
        return answer(response, 502, '<html><body><h1>502 Bad Gateway</h1></body></html>', { 'content-type': 'text/html' });
      case '/api/empty-200':
        return answer(response, 200, '');
      case '/api/empty-500':
        return answer(response, 500, '');
      case '/api/not-found-text':
        return answer(response, 404, 'Not Found', { 'content-type': 'text/plain' });
      case '/api/envelope-without-error':
        return answerJson(response, 400, { code: 400, message: 'detail a proxy made up' });
      case '/api/envelope-bad-field-errors':
        return answerJson(response, 422, { code: 422, error: 'VALIDATION_FAILED', message: 'Проверьте поля.', errors: [{ field: 1 }] });
      case '/api/field-errors':
        return answerJson(response, 422, {
          code: 422,
          error: 'VALIDATION_FAILED',
          message: 'Проверьте поля.',
          errors: [{ field: 'email', message: 'Неверный адрес.' }],
        });
      case '/api/wrong-shape':
        return answerJson(response, 200, { code: 200, message: 'ok', data: { count: 'three' } });
      case '/api/array':
        return answerJson(response, 200, [1, 2, 3]);
      case '/api/error-under-200':
        return answerJson(response, 200, { code: 402, error: 'INSUFFICIENT_TOKENS', message: 'Недостаточно токенов.' });
      case '/api/bare-code-under-200':
        return answerJson(response, 200, { code: 450, message: 'Тариф не найден', data: null });
      case '/api/crash':
        return answerJson(response, 500, { code: 500, error: 'INTERNAL', message: 'stack: at db.query (pool.ts:12)' });
      case '/api/rate-limited':
        return answerJson(response, 429, { code: 429, error: 'RATE_LIMITED', message: 'Слишком много попыток.' }, { 'retry-after': '30' });
      case '/api/unauthorized-html':
        return answer(response, 401, '<html>401</html>', { 'content-type': 'text/html' });
      default:
        return answerJson(response, 200, { code: 200, message: 'ok', data: { count: 3 } });
    }
  });
  (window as unknown as { happyDOM: { setURL(url: string): void } }).happyDOM.setURL(`${server.origin}/`);
});

afterAll(() => server.close());

beforeEach(async () => {
  store.set(sessionTokenAtom, null);
  store.set(signedOutReasonAtom, null);
  await initI18n('ru');
});

const counted = okEnvelope(z.object({ count: z.number() }));
const failureOf = (path: string, schema: z.ZodType = counted) => apiRequest(path, { schema }).catch((error: unknown) => error);

describe('apiRequest on answers off the contract', () => {
  it('returns the typed body when the answer keeps the contract', async () => {
    expect((await apiRequest('/api/ok', { schema: counted })).data.count).toBe(3);
  });

  it('turns a proxy’s HTML error page into the support message', async () => {
    const error = await failureOf('/api/proxy-502');
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 502, code: 'HTTP_502', message: INTERNAL, fieldErrors: [] });
  });

  it('rejects an empty body, whatever the status', async () => {
    expect(await failureOf('/api/empty-200')).toMatchObject({ status: 200, code: 'INVALID_RESPONSE', message: INTERNAL });
    expect(await failureOf('/api/empty-500')).toMatchObject({ status: 500, code: 'HTTP_500', message: INTERNAL });
  });

  it('asks for a reload when a refusal is not our envelope, and never shows what it said', async () => {
    expect(await failureOf('/api/not-found-text')).toMatchObject({ status: 404, code: 'HTTP_404', message: WEBSITE });
    expect(await failureOf('/api/envelope-without-error')).toMatchObject({ status: 400, code: 'HTTP_400', message: WEBSITE });
    // An envelope whose field errors are malformed is not the envelope.
    expect(await failureOf('/api/envelope-bad-field-errors')).toMatchObject({ status: 422, code: 'HTTP_422', message: WEBSITE, fieldErrors: [] });
  });

  it('keeps the envelope’s name, message and field errors when the refusal is ours', async () => {
    expect(await failureOf('/api/field-errors')).toMatchObject({
      status: 422,
      code: 'VALIDATION_FAILED',
      message: 'Проверьте поля.',
      fieldErrors: [{ field: 'email', message: 'Неверный адрес.' }],
    });
    expect(await failureOf('/api/rate-limited')).toMatchObject({ status: 429, code: 'RATE_LIMITED', retryAfterS: 30 });
  });

  it('shows the support message for a 500, not the details its envelope carries', async () => {
    expect(await failureOf('/api/crash')).toMatchObject({ status: 500, code: 'INTERNAL', message: INTERNAL });
  });

  it('rejects a success of the wrong shape', async () => {
    expect(await failureOf('/api/wrong-shape')).toMatchObject({ status: 200, code: 'INVALID_RESPONSE', message: INTERNAL });
    expect(await failureOf('/api/array')).toMatchObject({ status: 200, code: 'INVALID_RESPONSE', message: INTERNAL });
  });

  it('treats an error envelope under a success status as that error', async () => {
    expect(await failureOf('/api/error-under-200', z.unknown())).toMatchObject({
      status: 200,
      code: 'INSUFFICIENT_TOKENS',
      message: 'Недостаточно токенов.',
    });
  });

  it('rejects an error code under a success status when the rest of the envelope is missing', async () => {
    // Even a schema that accepts anything does not let a failure through as a success.
    expect(await failureOf('/api/bare-code-under-200', z.unknown())).toMatchObject({ status: 200, code: 'INVALID_RESPONSE', message: INTERNAL });
  });

  it('speaks the seller’s language', async () => {
    await initI18n('en');
    expect(await failureOf('/api/proxy-502')).toMatchObject({ message: 'Internal server error. Please contact support.' });
    await initI18n('zh');
    expect(await failureOf('/api/not-found-text')).toMatchObject({ message: '出现问题，请刷新页面后重试。' });
  });

  it('forgets the session on a 401 even when its body is not the envelope', async () => {
    store.set(sessionTokenAtom, 'expired');
    expect(await failureOf('/api/unauthorized-html')).toMatchObject({ status: 401, code: 'HTTP_401' });
    expect(store.get(sessionTokenAtom)).toBeNull();
    expect(store.get(signedOutReasonAtom)).toBeNull();
  });
});
