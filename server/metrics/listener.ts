// The metrics of an `npm run worker` process, which has no HTTP port of its own: with
// METRICS_TOKEN and WORKER_METRICS_PORT set it listens on HOST:WORKER_METRICS_PORT and answers
// GET /metrics (behind the same bearer token as the API's) and nothing else — no API, no pages,
// nothing a seller could reach. Prometheus scrapes each worker there, as it scrapes each API node
// on its own port: the jobs a worker ran, the time its engines took and the mail it sent are
// counted in that worker alone, and nowhere else.
import http from 'node:http';
import { METRICS_PATH, type Metrics } from './metrics';

export interface MetricsListener {
  /** The port it listens on (the one asked for, or the one given for 0). */
  port: number;
  close(): Promise<void>;
}

export async function listenForMetrics(metrics: Metrics, { host, port }: { host: string; port: number }): Promise<MetricsListener> {
  const server = http.createServer((request, response) => {
    const path = (request.url ?? '').split('?')[0];
    if (path !== METRICS_PATH || (request.method !== 'GET' && request.method !== 'HEAD')) {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found\n');
      return;
    }
    if (!metrics.authorizes(request.headers.authorization)) {
      response.writeHead(401, { 'content-type': 'text/plain; charset=utf-8', 'www-authenticate': 'Bearer realm="metrics"' }).end('Unauthorized\n');
      return;
    }
    metrics.scrape().then(
      (text) => {
        response.writeHead(200, { 'content-type': metrics.contentType, 'cache-control': 'no-store' });
        response.end(request.method === 'HEAD' ? undefined : text);
      },
      () => response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('The metrics could not be read\n'),
    );
  });
  // A scrape is one short request: an idle connection is not kept waiting on shutdown.
  server.keepAliveTimeout = 5000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    port: (server.address() as { port: number }).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
