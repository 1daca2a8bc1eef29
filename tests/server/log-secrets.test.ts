// What the server logs, read at the finest level, while a seller uses every key the server hands
// out by mail or in an address: a verification link, a password reset code and an event ticket.
// Without SMTP_URL the log says where a mail was written and never the link or code in it, and a
// request is logged without the key in its address. Every line a request logs carries its id,
// a proxy's own (X-Request-Id) when it is a plain one, and the answer says which.
import http from 'node:http';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app';
import { codeIn, linkIn } from '../support/mime';
import { waitForMail } from '../support/outbox';
import { SELLER_PASSWORD, signedInSeller } from '../support/sellers';
import { withoutSecrets } from '../../server/lib/log';
import { signedSandboxNotification, withForgedSignature } from '../support/sandbox';
import { SANDBOX_WEBHOOK_PATH } from '../../server/plugins/billing';

let t: TestApp;
const lines: string[] = [];
const log = () => lines.join('');
const logged = (secret: string) => log().includes(secret);
/** A 6-digit code in the log, not as part of a longer number (a time in milliseconds). */
const codeLogged = (code: string) => new RegExp(`(?<!\\d)${code}(?!\\d)`).test(log());

beforeAll(async () => {
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  t = await createTestApp({}, undefined, { level: 'trace', stream });
});

afterAll(() => t.close());

describe('the log', () => {
  it('says where a mail was written, never the verification link or reset code in it', async () => {
    const email = 'lev@shop.example';
    const registered = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/register',
      payload: { username: 'lev', email, password: SELLER_PASSWORD, password_confirm: SELLER_PASSWORD, channel: JSON.stringify({ key: 'friend', extra: '' }) },
    });
    expect(registered.statusCode).toBe(201);
    const link = new URL(linkIn(await waitForMail(t.dataDir, email)));
    const token = link.searchParams.get('token')!;
    // The page the link opens, and the call it makes.
    await t.app.inject({ method: 'GET', url: `${link.pathname}${link.search}` });
    expect((await t.app.inject({ method: 'GET', url: `/api/v1/auth/verify-email${link.search}` })).statusCode).toBe(200);

    const sentAt = Date.now();
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/auth/forgot-password/request', payload: { email } })).statusCode).toBe(200);
    const code = codeIn(await waitForMail(t.dataDir, email, { after: sentAt }));
    const verified = await t.app.inject({ method: 'POST', url: '/api/v1/auth/forgot-password/verify', payload: { email, code } });
    expect(verified.statusCode).toBe(200);

    // Both mails are in the log (they are sent after the answer), by file.
    await expect.poll(() => log().match(/"msg":"mail to lev@shop\.example written to [^"]+\.eml"/g)?.length ?? 0).toBe(2);
    expect(logged(token)).toBe(false);
    expect(logged(encodeURIComponent(token))).toBe(false);
    expect(codeLogged(code)).toBe(false);
    expect(log().match(/"msg":"mail to lev@shop\.example written to [^"]+\.eml"/g)).toHaveLength(2);
    expect(log()).toContain(path.join(t.dataDir, 'mail'));
    expect(log()).toContain('"url":"/api/v1/auth/verify-email?token=…"');
  });

  it('logs the stream a ticket opened without the ticket', async () => {
    // A seller of its own: the tests run in any order.
    const seller = await signedInSeller(t, 'lada');
    const auth = { authorization: `Bearer ${seller.token}` };
    const ticket = (await t.app.inject({ method: 'POST', url: '/api/v1/content/events/ticket', headers: auth })).json().data.ticket as string;
    const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const status = await new Promise<number>((resolve, reject) => {
      const request = http.get(`${base}/api/v1/events?ticket=${encodeURIComponent(ticket)}`, (res) => {
        resolve(res.statusCode ?? 0);
        request.destroy();
      });
      request.on('error', reject);
    });
    expect(status).toBe(200);
    expect(log()).toContain('"url":"/api/v1/events?ticket=…"');
    expect(logged(ticket)).toBe(false);
    expect(logged(encodeURIComponent(ticket))).toBe(false);
  });
});

describe('an address in the log', () => {
  it('keeps every parameter but the keys', () => {
    expect(withoutSecrets('/api/v1/storage/photos/a.jpg?op=get&exp=1795737371&sig=abc')).toBe('/api/v1/storage/photos/a.jpg?op=get&exp=1795737371&sig=…');
    expect(withoutSecrets('/api/v1/content/tasks?page=2&page_size=10')).toBe('/api/v1/content/tasks?page=2&page_size=10');
    expect(withoutSecrets('/verify-email?%74oken=x&lang=en')).toBe('/verify-email?%74oken=…&lang=en');
    expect(withoutSecrets('/api/health')).toBe('/api/health');
  });
});

describe('request ids', () => {
  const linesOf = (reqId: string) =>
    lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line.reqId === reqId);

  it('keeps a proxy\'s id, answers it, and puts it on every line the request logs', async () => {
    const forged = withForgedSignature(signedSandboxNotification(t, { id: 'evt_logged', type: 'payment.succeeded' }));
    const reqId = 'edge-7f3a.12:node@lb';
    const answer = await t.app.inject({ method: 'POST', url: SANDBOX_WEBHOOK_PATH, payload: forged.body, headers: { ...forged.headers, 'x-request-id': reqId } });
    expect(answer.statusCode).toBe(400);
    expect(answer.headers['x-request-id']).toBe(reqId);
    await expect.poll(() => linesOf(reqId).map((line) => line.msg)).toEqual(['incoming request', 'a payment notification was rejected', 'request completed']);
  });

  it('gives a request a fresh id when it brings none, or one that is not a plain token', async () => {
    for (const given of [undefined, 'has spaces and "quotes"', 'x'.repeat(129), '{"level":60}']) {
      const answer = await t.app.inject({ method: 'GET', url: '/api/health', headers: given === undefined ? {} : { 'x-request-id': given } });
      const reqId = answer.headers['x-request-id'] as string;
      expect(reqId, given).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      await expect.poll(() => linesOf(reqId).map((line) => line.msg)).toEqual(['incoming request', 'request completed']);
    }
  });
});
