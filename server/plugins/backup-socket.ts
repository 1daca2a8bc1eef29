// The embedded database answers `npm run backup` on DATA_DIR/backup.sock while the server runs
// (ops/snapshot-socket.ts). A server that cannot open the socket still serves; it says why backups
// must wait until it stops.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { serveSnapshots } from '../ops/snapshot-socket';

export const backupSocketPlugin = fp(
  async (app: FastifyInstance) => {
    const snapshot = app.database.snapshot;
    if (!snapshot) return;
    let socket: { close(): Promise<void> } | null = null;
    app.addHook('onReady', async () => {
      try {
        socket = await serveSnapshots({
          dataDir: app.config.dataDir,
          snapshot,
          onSnapshot: (bytes, ms) => app.log.info({ bytes, ms }, 'database copied for a backup'),
          onError: (error) => app.log.error({ err: error }, 'copying the database for a backup failed'),
        });
      } catch (error) {
        app.log.warn({ err: error }, 'backups while this server runs are off: its backup socket could not open');
      }
    });
    app.addHook('onClose', async () => socket?.close());
  },
  { name: 'backup-socket' },
);
