// The live-events stream (GET /api/v1/events) and shutdown: an open stream is ended when the app
// closes, so closing is quick and the database is closed cleanly behind it.
import fs from 'node:fs';
import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestApp } from '../support/test-app';
import { signedInSeller } from '../support/sellers';

/** Opens the seller's event stream and resolves once the server has said it is connected. */
async function openStream(base: string, ticket: string) {
  let text = '';
  let ended = false;
  let request!: http.ClientRequest;
  await new Promise<void>((resolve, reject) => {
    request = http.get(`${base}/api/v1/events?ticket=${encodeURIComponent(ticket)}`, (res) => {
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
        if (text.includes(': connected')) resolve();
      });
      res.on('end', () => (ended = true));
      res.on('error', () => (ended = true));
    });
    request.on('error', reject);
  });
  return { text: () => text, ended: () => ended, destroy: () => request.destroy() };
}

describe('closing the app with a live-events stream open', () => {
  it('ends the stream, closes within a second and closes the database', async () => {
    const t = await createTestApp();
    try {
      const seller = await signedInSeller(t, 'stella');
      const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
      const ticket = (await t.app.inject({ method: 'POST', url: '/api/v1/content/events/ticket', headers: { authorization: `Bearer ${seller.token}` } })).json().data.ticket;
      const stream = await openStream(base, ticket);

      const started = performance.now();
      await t.app.close();
      expect(performance.now() - started).toBeLessThan(1000);
      await expect.poll(stream.ended).toBe(true);
      await expect(t.app.database.db.execute(sql`SELECT 1`)).rejects.toThrow();
    } finally {
      fs.rmSync(t.dataDir, { recursive: true, force: true });
    }
  });
});
