// The object storage every route uses: S3 when S3_BUCKET is set, otherwise DATA_DIR/files.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { LocalStorage } from '../storage/local';
import { HeldDeletes, holdFileOf } from '../storage/delete-hold';
import type { ObjectStorage } from '../storage/storage';

declare module 'fastify' {
  interface FastifyInstance {
    storage: ObjectStorage;
  }
}

export const storagePlugin = fp(
  async (app: FastifyInstance) => {
    const s3 = app.config.s3;
    if (s3) {
      const { S3Storage } = await import('../storage/s3');
      const storage = await S3Storage.create(s3);
      app.decorate('storage', storage);
      app.addHook('onClose', async () => storage.close());
    } else {
      const storage = new LocalStorage(app.config.filesDir, app.signingKey, new HeldDeletes(holdFileOf(app.config.dataDir)));
      app.decorate('storage', storage);
      app.addHook('onClose', async () => storage.settleDeletes());
    }
  },
  { name: 'storage', dependencies: ['auth'] },
);
