// Starts the SoleStudio server: configuration, database (migrated), then the port. SIGINT and
// SIGTERM close it gracefully: in-flight requests finish and the database closes cleanly.
import closeWithGrace from 'close-with-grace';
import { ConfigError, loadConfig } from './config/env';
import { openDatabase } from './db/client';
import { DataDirLockedError } from './db/lock';
import { buildApp } from './app';

async function main() {
  const config = loadConfig();
  const database = await openDatabase(config);
  const app = await buildApp({ config, database });

  closeWithGrace({ delay: 10_000 }, async ({ signal, err }) => {
    if (err) app.log.error({ err }, 'shutting down after an error');
    else app.log.info(`${signal} received, shutting down`);
    await app.close();
  });

  await app.listen({ host: config.host, port: config.port });
  app.log.info(
    `SoleStudio is ready at ${config.publicUrl} (database: ${database.kind === 'pglite' ? config.pgliteDir : 'PostgreSQL'})`,
  );
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof DataDirLockedError) {
    console.error(error.message);
  } else {
    console.error('SoleStudio could not start:', error);
  }
  process.exit(1);
});
