// Event-stream tickets on two API nodes sharing one database: a ticket opens one stream whichever
// node it reaches, and the record of a used ticket is deleted once the ticket has expired. The
// second node is built from a fresh load of the server's modules, so the two share nothing in
// memory, as two processes do; on PostgreSQL it has a pool of its own.
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { usedEventTickets } from '../../server/db/schema';
import { TICKET_LIFETIME_S, issueTicket } from '../../server/content/tickets';
import { borrowed, createTestApp, type TestApp } from '../support/test-app';
import { signedInSeller } from '../support/sellers';

let t: TestApp;
let otherNode: FastifyInstance;
const bases = new Map<FastifyInstance, string>();
let seller: { token: string; id: string };

async function ticketFrom(node: FastifyInstance): Promise<string> {
  const res = await node.inject({
    method: 'POST',
    url: '/api/v1/content/events/ticket',
    headers: { authorization: `Bearer ${seller.token}` },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.ticket as string;
}

/** The status a node answers a stream opened with `ticket`; an opened stream is closed at once. */
function openStream(node: FastifyInstance, ticket: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.get(`${bases.get(node)}/api/v1/events?ticket=${encodeURIComponent(ticket)}`, (res) => {
      resolve(res.statusCode ?? 0);
      request.destroy();
    });
    request.on('error', reject);
  });
}

/** An API node of its own: the server's modules loaded afresh, on the test's database. */
async function anotherNode(database: 'own pool' | 'borrowed'): Promise<FastifyInstance> {
  vi.resetModules();
  const { buildApp } = await import('../../server/app');
  const { loadConfig } = await import('../../server/config/env');
  const { openPostgres } = await import('../../server/db/client');
  const config = loadConfig({ DATA_DIR: t.dataDir, STATIC_DIR: path.join(t.dataDir, 'no-web-build'), LOG_LEVEL: 'silent', RUN_JOBS: 'false' });
  const node = await buildApp({ config, database: database === 'own pool' ? await openPostgres(t.databaseUrl!) : borrowed(t.app.database), logger: false });
  bases.set(node, await node.listen({ port: 0, host: '127.0.0.1' }));
  return node;
}

async function usedNonces(): Promise<string[]> {
  const rows = await t.app.database.db.select({ nonce: usedEventTickets.nonce }).from(usedEventTickets);
  return rows.map((row) => row.nonce);
}

beforeAll(async () => {
  t = await createTestApp();
  seller = await signedInSeller(t, 'tikhon');
  otherNode = await anotherNode(t.databaseUrl ? 'own pool' : 'borrowed');
  bases.set(t.app, await t.app.listen({ port: 0, host: '127.0.0.1' }));
}, 120_000);

afterAll(async () => {
  await otherNode?.close();
  await t?.close();
});

describe('event-stream tickets across API nodes', () => {
  it('open one stream whichever node they reach', async () => {
    const ticket = await ticketFrom(t.app);
    expect(await openStream(otherNode, ticket)).toBe(200);
    expect(await openStream(t.app, ticket)).toBe(401);
    expect(await openStream(otherNode, ticket)).toBe(401);

    // And the other way round, both nodes asked at once: one stream opens.
    const second = await ticketFrom(otherNode);
    const answers = await Promise.all([openStream(t.app, second), openStream(otherNode, second)]);
    expect(answers.sort()).toEqual([200, 401]);
  });

  it('refuse a forged or expired ticket without recording it', async () => {
    const before = await usedNonces();
    const ticket = await ticketFrom(t.app);
    const forged = `${ticket.slice(0, -2)}${ticket.endsWith('AA') ? 'BB' : 'AA'}`;
    expect(await openStream(otherNode, forged)).toBe(401);
    const expired = issueTicket(t.app.signingKey, seller.id, Date.now() - 2 * TICKET_LIFETIME_S * 1000).ticket;
    expect(await openStream(otherNode, expired)).toBe(401);
    expect(await usedNonces()).toEqual(before);
  });

  it('forget used tickets once they have long expired, and keep the others', async () => {
    const now = Date.now();
    await t.app.database.db.insert(usedEventTickets).values([
      { nonce: 'expired-an-hour-ago', expiresAt: new Date(now - 60 * 60 * 1000) },
      { nonce: 'expires-in-a-minute', expiresAt: new Date(now + 60 * 1000) },
    ]);
    // A node forgets at most once a ticket's lifetime: a node that has not forgotten yet does it
    // when it next opens a stream.
    const fresh = await anotherNode('borrowed');
    try {
      expect(await openStream(fresh, await ticketFrom(fresh))).toBe(200);
      const left = await usedNonces();
      expect(left).not.toContain('expired-an-hour-ago');
      expect(left).toContain('expires-in-a-minute');
    } finally {
      await fresh.close();
    }
  });
});
