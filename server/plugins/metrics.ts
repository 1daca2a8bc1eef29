// GET /metrics (Prometheus' format) when METRICS_TOKEN is set, answered only to that bearer
// token; without it the route does not exist (404 as any unknown address) and nothing is
// measured. Every answered request is timed by its route's pattern and status, in one hook that
// allocates nothing of its own. /metrics has no request limit: Prometheus scrapes on its schedule,
// and a limit would only blind the operator when the server is busiest.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { HttpError } from '../lib/errors';
import type { Metrics } from '../metrics/metrics';

declare module 'fastify' {
  interface FastifyInstance {
    /** What the server measures; null when METRICS_TOKEN is unset. */
    metrics: Metrics | null;
  }
}

export interface MetricsPluginOptions {
  version: string;
  role: 'api' | 'worker';
}

export const metricsPlugin = fp<MetricsPluginOptions>(
  async (app: FastifyInstance, { version, role }) => {
    const settings = app.config.metrics;
    if (!settings) {
      app.decorate('metrics', null);
      return;
    }
    // prom-client loads only where metrics are on: a server without them does not pay its start-up.
    const { createMetrics, METRICS_PATH } = await import('../metrics/metrics');
    const metrics = createMetrics({ token: settings.token, database: app.database, dataDir: app.config.dataDir, version, role });
    app.decorate('metrics', metrics);

    // onResponse runs once the answer is sent; a hijacked answer (an event stream) never gets here.
    app.addHook('onResponse', (request, reply, done) => {
      metrics.request(request.method, request.routeOptions.url, reply.statusCode, reply.elapsedTime);
      done();
    });

    app.get(METRICS_PATH, { schema: { hide: true } }, async (request, reply) => {
      if (!metrics.authorizes(request.headers.authorization)) {
        reply.header('www-authenticate', 'Bearer realm="metrics"');
        throw new HttpError(401, 'UNAUTHORIZED', 'UNAUTHORIZED');
      }
      reply.header('cache-control', 'no-store').type(metrics.contentType);
      return metrics.scrape();
    });
  },
  { name: 'metrics', dependencies: ['errors'] },
);
