// `npm run backup -- <file>`: a backup of this install, made while it serves (server/ops/backup.ts).
// It reads the server's configuration from the same environment as `npm start` (DATA_DIR,
// DATABASE_URL, S3_*); docs/operating/backups.md says what it holds and what it does not.
import { ConfigError, loadConfig } from '../server/config/env';
import { BackupFailed, createBackup } from '../server/ops/backup';
import { PostgresToolProblem } from '../server/ops/postgres-tools';
import { SnapshotUnavailable, SocketPathTooLong } from '../server/ops/snapshot-socket';
import { BackupRunningError } from '../server/storage/delete-hold';
import { DataDirLockedError } from '../server/db/lock';

const args = process.argv.slice(2);
if (args.length !== 1 || args[0]!.startsWith('-')) {
  console.error('Usage: npm run backup -- <file>   (e.g. npm run backup -- /backups/solestudio-$(date +%F).tar.gz)');
  process.exit(2);
}

try {
  await createBackup({ config: loadConfig(), file: args[0]!, say: (line) => console.log(line) });
} catch (error) {
  const known = [ConfigError, BackupFailed, PostgresToolProblem, SnapshotUnavailable, SocketPathTooLong, BackupRunningError, DataDirLockedError];
  if (known.some((kind) => error instanceof kind)) console.error(`Backup failed: ${(error as Error).message}`);
  else console.error('Backup failed:', error);
  process.exit(1);
}
