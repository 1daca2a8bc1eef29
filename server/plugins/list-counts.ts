// Sellers made before their list counts were kept (migration 0015) are counted once, in the
// background after start-up, a seller at a time (server/db/pages.ts countSellers); their lists
// answer the same meanwhile, counted as they are read. Every node does it; each seller is counted
// by one of them. Nothing is left to count on a database created after 0015.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { countSellers } from '../db/pages';

export const listCountsPlugin = fp(
  async (app: FastifyInstance) => {
    const stop = new AbortController();
    let counting: Promise<void> = Promise.resolve();
    app.addHook('onReady', async () => {
      counting = countSellers(app.database.db, stop.signal)
        .then((counted) => {
          if (counted > 0) app.log.info({ counted }, 'counted the lists of sellers made before list counts were kept');
        })
        .catch((error: unknown) => {
          if (!stop.signal.aborted) app.log.warn({ err: error }, 'counting sellers’ lists failed; it is tried again at the next start');
        });
    });
    app.addHook('onClose', async () => {
      stop.abort();
      await counting;
    });
  },
  { name: 'list-counts' },
);
