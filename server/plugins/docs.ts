// The OpenAPI document, generated from the routes' zod schemas: JSON at /api/docs/json and a
// browsable page at /api/docs.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

export const docsPlugin = fp<{ version: string; publicUrl: string }>(
  async (app: FastifyInstance, { version, publicUrl }) => {
    await app.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: {
          title: 'SoleStudio API',
          description:
            'Every answer is an envelope `{ code, message, data, meta? }`; every failure ' +
            '`{ code, error, message, errors? }` with the HTTP status. Send `Accept-Language` ' +
            '(ru, en, zh) to get messages in that language.',
          version,
        },
        servers: [{ url: publicUrl }],
        components: {
          securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
        },
      },
      transform: jsonSchemaTransform,
    });
    await app.register(swaggerUi, {
      routePrefix: '/api/docs',
      staticCSP: true,
      uiConfig: { deepLinking: true },
    });
  },
  { name: 'docs' },
);
