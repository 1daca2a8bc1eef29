// GET /api/v1/events?ticket=…: the seller's task and wallet events as server-sent events (SPEC §4
// notifications). A comment every 25 s keeps proxies from closing an idle stream. Open streams
// are ended when the app closes (preClose: the HTTP server waits for them before it can close).
// The metrics count the streams open; a stream is not a request they time.
import type { FastifyBaseLogger } from 'fastify';
import type { PublicationEvent } from '../../../contract/publisher';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { text } from '../../../contract/text';
import { contentResponses } from '../../../contract/responses';
import { HttpError } from '../../lib/errors';
import { TICKET_LIFETIME_S, forgetExpiredTickets, redeemTicket } from '../../content/tickets';
import type { TaskEvent } from '../../../contract/content';
import type { WalletEvent } from '../../../contract/billing';

const KEEP_ALIVE_MS = 25_000;

export const eventRoutes: FastifyPluginAsyncZod = async (app) => {
  const open = new Set<() => void>();
  // Used tickets are forgotten at most once a ticket's lifetime per node: one indexed delete a
  // minute keeps the table to the tickets of the last few minutes.
  let forgotAt = 0;
  const forgetNowAndThen = async (log: FastifyBaseLogger) => {
    const now = Date.now();
    if (now - forgotAt < TICKET_LIFETIME_S * 1000) return;
    forgotAt = now;
    await forgetExpiredTickets(app.database.db, now).catch((error: unknown) => log.warn({ err: error }, 'forgetting used event tickets failed'));
  };
  app.addHook('preClose', async () => {
    for (const end of open) end();
  });

  app.get(
    '/',
    {
      schema: {
        summary: 'Task events (text/event-stream), opened with a ticket from POST /content/events/ticket',
        tags: ['content'],
        querystring: z.object({ ticket: text().max(300) }),
        response: contentResponses.events,
      },
      // Compression would hold events back in its buffer.
      config: { compress: false },
    },
    async (request, reply) => {
      const userId = await redeemTicket(app.database.db, app.signingKey, request.query.ticket);
      if (!userId) throw new HttpError(401, 'TICKET_INVALID', 'TICKET_INVALID');
      await forgetNowAndThen(request.log);
      reply.hijack();
      const raw = reply.raw;
      raw.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
        'x-request-id': request.id,
      });
      raw.write('retry: 5000\n: connected\n\n');
      const send = (event: TaskEvent | WalletEvent | PublicationEvent) => raw.write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
      app.generation.events.on(userId, send);
      const keepAlive = setInterval(() => raw.write(': keep-alive\n\n'), KEEP_ALIVE_MS);
      const end = () => {
        close();
        raw.end();
      };
      const close = () => {
        if (!open.delete(end)) return;
        clearInterval(keepAlive);
        app.generation.events.off(userId, send);
        app.metrics?.streamClosed();
      };
      open.add(end);
      app.metrics?.streamOpened();
      request.raw.on('close', close);
    },
  );
};
