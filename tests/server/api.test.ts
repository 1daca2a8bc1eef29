// The API's common behaviour: the envelope, errors in the caller's language, validation that
// names fields, 5xx that hide internals, and the OpenAPI document.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { createTestApp, type TestApp } from '../support/test-app';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({}, (app) => {
    const typed = app.withTypeProvider<ZodTypeProvider>();
    typed.post(
      '/api/test/echo',
      {
        schema: {
          body: z.object({ email: z.email(), count: z.number().int().min(1) }),
          querystring: z.object({ page: z.coerce.number().int().positive().optional() }),
        },
      },
      async (request) => ({ code: 200, message: 'ok', data: request.body }),
    );
    typed.get('/api/test/explode', async () => {
      throw new Error('connection to db-secret-host:5432 refused for user admin');
    });
  });
});

afterAll(() => t.close());

describe('GET /api/health', () => {
  it('answers in the envelope with the version and the database kind', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ code: 200, message: 'ok', data: { status: 'ok', version: '2.0.0' } });
    expect(['pglite', 'postgres']).toContain(body.data.database);
    expect(res.headers['x-request-id']).toMatch(/[0-9a-f-]{36}/);
  });
});

describe('unknown API routes', () => {
  it('answer 404 in the envelope, in Russian by default', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/nothing-here' });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toContain('application/json');
    expect(res.json()).toEqual({
      code: 404,
      error: 'ROUTE_NOT_FOUND',
      message: 'Такого адреса API нет: GET /api/v1/nothing-here.',
    });
  });

  it('follow Accept-Language', async () => {
    const en = await t.app.inject({ method: 'DELETE', url: '/api/x', headers: { 'accept-language': 'en-GB,en;q=0.9' } });
    expect(en.json().message).toBe('There is no such API address: DELETE /api/x.');
    const zh = await t.app.inject({ method: 'GET', url: '/api/x', headers: { 'accept-language': 'zh-CN' } });
    expect(zh.json().message).toBe('不存在该 API 地址：GET /api/x。');
  });

  it('answer 404 for other paths when no web build is present', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/shoes' });
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toBe('ROUTE_NOT_FOUND');
  });
});

describe('validation errors', () => {
  it('answer 400 naming every bad field, localised', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/test/echo?page=zero',
      payload: { email: 'not-an-email', count: 0 },
      headers: { 'accept-language': 'en' },
    });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.code).toBe(400);
    expect(body.error).toBe('VALIDATION_FAILED');
    const fields = body.errors.map((e: { field: string }) => e.field);
    expect(fields).toEqual(expect.arrayContaining(['email', 'count']));
    expect(body.message).toContain('email');
    expect(body.errors.find((e: { field: string }) => e.field === 'email').message).toBe('Invalid email address');
  });

  it('translate the field messages into Russian', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/test/echo', payload: { email: 'x', count: 2 } });
    expect(res.json().errors).toEqual([{ field: 'email', message: 'Неверный email адрес' }]);
  });

  it('name query string fields with their place', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/test/echo?page=-1',
      payload: { email: 'a@b.co', count: 1 },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0].field).toBe('query.page');
  });

  it('reject malformed JSON with 400, not 500', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/test/echo',
      payload: '{"email": ',
      headers: { 'content-type': 'application/json', 'accept-language': 'en' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 400, message: 'The request is malformed.' });
  });

  it('passes a valid body through', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/test/echo', payload: { email: 'a@b.co', count: 3 } });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({ email: 'a@b.co', count: 3 });
  });
});

describe('server errors', () => {
  it('answer 500 without leaking what went wrong inside', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/test/explode', headers: { 'accept-language': 'en' } });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({
      code: 500,
      error: 'INTERNAL',
      message: 'Internal server error. Please contact support.',
    });
    expect(res.body).not.toContain('secret');
    expect(res.body).not.toContain('5432');
  });
});

describe('security headers', () => {
  it('send a Content-Security-Policy and no HSTS on plain http', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    // Embedded storage: uploads and pictures come from this origin alone.
    expect(csp).toContain("connect-src 'self';");
    expect(csp).toContain("img-src 'self' data: blob:;");
    expect(csp).toContain("media-src 'self' blob:;");
    expect(csp).not.toContain('upgrade-insecure-requests');
    expect(res.headers['strict-transport-security']).toBeUndefined();
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });
});

describe('OpenAPI', () => {
  it('serves the document generated from the route schemas', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.info.title).toBe('SoleStudio API');
    const health = doc.paths['/api/health'].get;
    expect(health.responses['200'].content['application/json'].schema.properties.data.properties.database.enum).toEqual([
      'pglite',
      'postgres',
    ]);
  });

  it('describes every account call with its request body', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
    for (const [method, path] of [
      ['post', '/api/v1/auth/register'],
      ['post', '/api/v1/auth/login/custom'],
      ['get', '/api/v1/auth/me'],
      ['post', '/api/v1/auth/logout'],
      ['post', '/api/v1/auth/refresh-token'],
      ['post', '/api/v1/auth/session-refresh'],
      ['post', '/api/v1/auth/forgot-password/request'],
      ['post', '/api/v1/auth/forgot-password/verify'],
      ['post', '/api/v1/auth/forgot-password/reset'],
      ['post', '/api/v1/auth/change-password'],
      ['get', '/api/v1/auth/verify-email'],
      ['post', '/api/v1/auth/resend-verification'],
      ['post', '/api/v1/feedback'],
      ['get', '/api/v1/tokens/balance'],
    ] as const) {
      expect(doc.paths[path]?.[method], `${method} ${path}`).toBeDefined();
    }
    const login = doc.paths['/api/v1/auth/login/custom'].post.requestBody.content['application/json'].schema;
    expect(login.required).toEqual(expect.arrayContaining(['username_or_email', 'password']));
  });

  it('serves a browsable page', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
  });
});
