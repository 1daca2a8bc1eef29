import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { okEnvelope } from '../../contract/envelope';
import { healthSchema } from '../../contract/health';

export const healthRoutes: FastifyPluginAsyncZod<{ version: string; database: 'pglite' | 'postgres' }> =
  async (app, { version, database }) => {
    app.get(
      '/health',
      {
        schema: {
          summary: 'Liveness and what this server runs on',
          tags: ['system'],
          response: { 200: okEnvelope(healthSchema) },
        },
      },
      async () => ({
        code: 200,
        message: 'ok',
        data: { status: 'ok' as const, version, database, uptime_s: Math.round(process.uptime()) },
      }),
    );
  };
