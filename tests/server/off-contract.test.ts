// A route answers only what it declares: a body its schema refuses, or a status it does not
// declare, fails as a logged 500 envelope that shows nothing of it, never reaching the caller.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { errorResponses, okEnvelope } from '../../contract/envelope';
import { HttpError } from '../../server/lib/errors';
import { sendSerialised, serialisedAnswer } from '../../server/content/list-answers';
import { createTestApp, type TestApp } from '../support/test-app';

let t: TestApp;
const logged: { msg?: string; route?: string; level?: number }[] = [];
const internal = { code: 500, error: 'INTERNAL', message: 'Internal server error. Please contact support.' };

beforeAll(async () => {
  const logger = { level: 'error', stream: { write: (line: string) => void logged.push(JSON.parse(line)) } };
  t = await createTestApp(
    {},
    (app) => {
      // Untyped on purpose: the zod type provider would not let these answers compile.
      const schema = { response: { 200: okEnvelope(z.object({ pairs: z.number().int() })), ...errorResponses(404) } };
      app.get('/api/test/declared', { schema }, async () => ({ code: 200, message: 'ok', data: { pairs: 2 } }));
      app.get('/api/test/declared-failure', { schema }, async () => {
        throw new HttpError(404, 'NOT_FOUND', 'NOT_FOUND');
      });
      app.get('/api/test/wrong-body', { schema }, async () => ({ code: 200, message: 'ok', data: { pairs: 'two' } }));
      app.get('/api/test/wrong-kept-body', { schema }, async (_request, reply) =>
        sendSerialised(reply, serialisedAnswer(reply, { code: 200, message: 'ok', data: { pairs: 'two' } })),
      );
      app.get('/api/test/undeclared-success', { schema }, async (_request, reply) => {
        // reply.code() is typed by the declared statuses; the status is set past it.
        reply.statusCode = 201;
        return reply.send({ code: 201, message: 'ok', data: { pairs: 2, padding: 'x'.repeat(4000) } });
      });
      app.get('/api/test/undeclared-failure', { schema }, async () => {
        throw new HttpError(409, 'MATERIAL_IN_USE', 'MATERIAL_IN_USE');
      });
    },
    logger,
  );
});

afterAll(() => t.close());

const call = (url: string) => t.app.inject({ method: 'GET', url, headers: { 'accept-language': 'en', 'accept-encoding': 'gzip' } });

describe('a route on its contract', () => {
  it('answers as declared, success and failure', async () => {
    expect((await call('/api/test/declared')).json()).toEqual({ code: 200, message: 'ok', data: { pairs: 2 } });
    const failure = await call('/api/test/declared-failure');
    expect(failure.statusCode).toBe(404);
    expect(failure.json()).toMatchObject({ code: 404, error: 'NOT_FOUND' });
  });
});

describe('a route off its contract', () => {
  it.each([
    ['a body its schema refuses', '/api/test/wrong-body'],
    ['a kept answer its schema refused when it was made', '/api/test/wrong-kept-body'],
    ['a success with a status it does not declare', '/api/test/undeclared-success'],
    ['a failure with a status it does not declare', '/api/test/undeclared-failure'],
  ])('fails on %s: a 500 envelope with nothing of the answer, and a log line naming the route', async (_case, url) => {
    logged.length = 0;
    const res = await call(url);
    expect(res.statusCode).toBe(500);
    // Sent as plain JSON even where the answer it replaces would have been compressed.
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.json()).toEqual(internal);
    expect(res.body).not.toMatch(/pairs|padding|MATERIAL_IN_USE/);
    expect(logged).toEqual([expect.objectContaining({ level: 50, msg: 'answer off the contract', route: `GET ${url}` })]);
  });
});
