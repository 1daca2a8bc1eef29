// `npm run restore -- <file>`: a backup brought back into an empty DATA_DIR (and, for PostgreSQL,
// an empty database at DATABASE_URL), checked whole before anything is written there
// (server/ops/restore.ts). The target is named by the same environment as `npm start`.
import { ConfigError, loadConfig } from '../server/config/env';
import { BackupRefused } from '../server/ops/backup-archive';
import { PostgresToolProblem } from '../server/ops/postgres-tools';
import { restoreBackup } from '../server/ops/restore';

const args = process.argv.slice(2);
if (args.length !== 1 || args[0]!.startsWith('-')) {
  console.error('Usage: DATA_DIR=<empty directory> npm run restore -- <file>');
  process.exit(2);
}

try {
  await restoreBackup({ config: loadConfig(), file: args[0]!, say: (line) => console.log(line) });
} catch (error) {
  if (error instanceof BackupRefused || error instanceof ConfigError || error instanceof PostgresToolProblem) {
    console.error(`Restore refused: ${error.message}`);
  } else {
    console.error('Restore failed (DATA_DIR is left as it was):', error);
  }
  process.exit(1);
}
