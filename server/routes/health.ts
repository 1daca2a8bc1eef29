import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { healthResponses } from '../../contract/responses';

export const healthRoutes: FastifyPluginAsyncZod<{ version: string; database: 'pglite' | 'postgres' }> =
  async (app, { version, database }) => {
    app.get(
      '/health',
      {
        schema: {
          summary: 'Liveness and what this server runs on',
          tags: ['system'],
          response: healthResponses.health,
        },
      },
      async () => ({
        code: 200,
        message: 'ok',
        data: { status: 'ok' as const, version, database, uptime_s: Math.round(process.uptime()) },
      }),
    );
  };
