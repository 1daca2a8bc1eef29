// `npm run worker`: a generation worker without a port. Run any number of them against the same
// PostgreSQL (DATABASE_URL) as the API nodes, which then run with RUN_JOBS=false. Each claims
// jobs with FOR UPDATE SKIP LOCKED; SIGTERM lets the jobs in hand finish first.
import closeWithGrace from 'close-with-grace';
import { ConfigError, loadConfig } from './config/env';
import { openDatabase } from './db/client';
import { buildApp } from './app';

async function main() {
  const config = { ...loadConfig(), runJobs: true };
  if (!config.databaseUrl) {
    console.error('A worker needs DATABASE_URL: the embedded database belongs to the one server process, which runs jobs itself.');
    process.exit(1);
  }
  const database = await openDatabase(config);
  const app = await buildApp({ config, database });
  closeWithGrace({ delay: 10 * 60_000 }, async ({ signal, err }) => {
    if (err) app.log.error({ err }, 'worker stopping after an error');
    else app.log.info(`${signal} received, finishing the jobs in hand`);
    await app.close();
  });
  await app.ready();
  app.log.info(`generation worker ${app.generation.runner?.workerId} is running (concurrency ${config.jobConcurrency})`);
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
