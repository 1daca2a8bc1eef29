// The request limiter that later routes opt into: counts live in the database, so they hold
// across API nodes; over the limit a caller gets 429 with a message in their language.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { like } from 'drizzle-orm';
import { buildApp } from '../../server/app';
import { rateLimitHits } from '../../server/db/schema';
import { borrowed, createTestApp, type TestApp } from '../support/test-app';

const limited = (app: TestApp['app']) => {
  app.get('/api/test/limited', { config: { rateLimit: { max: 2, timeWindow: '1 minute' } } }, async () => ({
    code: 200,
    message: 'ok',
    data: null,
  }));
  app.get('/api/test/open', async () => ({ code: 200, message: 'ok', data: null }));
};

describe('rate limits', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({}, limited);
  });
  afterAll(() => t.close());

  it('answer 429 with the wait in seconds once a route is over its limit', async () => {
    const call = (ip: string) =>
      t.app.inject({ method: 'GET', url: '/api/test/limited', remoteAddress: ip, headers: { 'accept-language': 'en' } });
    expect((await call('10.0.0.1')).statusCode).toBe(200);
    expect((await call('10.0.0.1')).statusCode).toBe(200);
    const third = await call('10.0.0.1');
    expect(third.statusCode).toBe(429);
    expect(third.json()).toMatchObject({ code: 429, error: 'RATE_LIMITED' });
    expect(third.json().message).toMatch(/^Too many requests\. Try again in \d+ s\.$/);
    expect(Number(third.headers['retry-after'])).toBeGreaterThan(0);
    // Another caller still gets through.
    expect((await call('10.0.0.2')).statusCode).toBe(200);
  });

  it('keep their counters in the database, so every API node counts against one window', async () => {
    // A second node on the same database: the counts of both add up to one limit per caller.
    const other = await buildApp({ config: t.app.config, database: borrowed(t.app.database), logger: false });
    limited(other);
    await other.ready();
    try {
      const call = (app: TestApp['app']) => app.inject({ method: 'GET', url: '/api/test/limited', remoteAddress: '10.0.0.3' });
      expect((await call(t.app)).statusCode).toBe(200);
      expect((await call(other)).statusCode).toBe(200);
      expect((await call(t.app)).statusCode).toBe(429);
      expect((await call(other)).statusCode).toBe(429);
      const [row] = await t.app.database.db.select({ count: rateLimitHits.count }).from(rateLimitHits).where(like(rateLimitHits.key, '%10.0.0.3'));
      expect(row?.count).toBe(4);
    } finally {
      await other.close();
    }
  });

  it('leave routes without a limit alone', async () => {
    for (let i = 0; i < 5; i += 1) {
      expect((await t.app.inject({ method: 'GET', url: '/api/test/open' })).statusCode).toBe(200);
    }
  });
});

describe('rate limits switched off', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT_DISABLED: 'true' }, limited);
  });
  afterAll(() => t.close());

  it('never answer 429', async () => {
    for (let i = 0; i < 5; i += 1) {
      expect((await t.app.inject({ method: 'GET', url: '/api/test/limited' })).statusCode).toBe(200);
    }
  });
});
