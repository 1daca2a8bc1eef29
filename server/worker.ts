// `npm run worker`: a generation worker without a port. Run any number of them against the same
// PostgreSQL (DATABASE_URL) as the API nodes, which then run with RUN_JOBS=false. Each claims
// jobs with FOR UPDATE SKIP LOCKED; SIGTERM lets the jobs in hand finish first. With
// METRICS_TOKEN and WORKER_METRICS_PORT set, it serves its own /metrics on that port and nothing
// else (metrics/listener.ts): what a worker ran is counted only in that worker.
import closeWithGrace from 'close-with-grace';
import { ConfigError, loadConfig } from './config/env';
import { openDatabase } from './db/client';
import { buildApp } from './app';
import { listenForMetrics, type MetricsListener } from './metrics/listener';

async function main() {
  const config = { ...loadConfig(), runJobs: true };
  if (!config.databaseUrl) {
    console.error('A worker needs DATABASE_URL: the embedded database belongs to the one server process, which runs jobs itself.');
    process.exit(1);
  }
  const database = await openDatabase(config);
  const app = await buildApp({ config, database, role: 'worker' });
  // Listening before any job is claimed: a port taken stops the worker before it holds work.
  const port = config.metrics?.workerPort;
  let listener: MetricsListener | undefined;
  if (app.metrics && port !== undefined) {
    listener = await listenForMetrics(app.metrics, { host: config.host, port }).catch(async (error: unknown) => {
      await app.close();
      throw new Error(`WORKER_METRICS_PORT ${port} could not be listened on: ${error instanceof Error ? error.message : String(error)}`);
    });
    app.log.info(`metrics are served at http://${config.host}:${listener.port}/metrics`);
  } else if (app.metrics) {
    app.log.warn('METRICS_TOKEN is set but WORKER_METRICS_PORT is not: the jobs this worker runs are not counted anywhere Prometheus can read');
  }
  closeWithGrace({ delay: 10 * 60_000 }, async ({ signal, err }) => {
    if (err) app.log.error({ err }, 'worker stopping after an error');
    else app.log.info(`${signal} received, finishing the jobs in hand`);
    // Scraped until the jobs in hand are done: the last of them are counted too.
    await app.close();
    await listener?.close();
  });
  await app.ready();
  app.log.info(`generation worker ${app.generation.runner?.workerId} is running (concurrency ${config.jobConcurrency})`);
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
