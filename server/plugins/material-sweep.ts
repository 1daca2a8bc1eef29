// Photos no task uses are deleted, with their files, once they are MATERIAL_RETENTION_DAYS old:
// retakes and photos the seller deleted (the app deletes those itself, but not from a device that
// never came back online), drafts never sent. Storage does not grow with every retake; a photo a
// task uses is never deleted. Runs where generation jobs run (RUN_JOBS), every hour; several
// nodes sweeping at once delete each material once.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { sweepUnusedMaterials } from '../materials/materials';

const DAY_MS = 24 * 60 * 60_000;
export const SWEEP_EVERY_MS = 60 * 60_000;
/** The first sweep waits a little, so a start-up is not slowed by it. */
const FIRST_SWEEP_MS = 60_000;

declare module 'fastify' {
  interface FastifyInstance {
    /** Sweeps now as if the time were `now`; how many materials it deleted. */
    sweepMaterials(now?: Date): Promise<number>;
  }
}

export const materialSweepPlugin = fp(
  async (app: FastifyInstance) => {
    const retentionMs = app.config.materialRetentionDays * DAY_MS;
    const sweep = (now = new Date()) => sweepUnusedMaterials(app.database.db, app.storage, new Date(now.getTime() - retentionMs));
    app.decorate('sweepMaterials', sweep);
    if (!app.config.runJobs) return;

    let timer: NodeJS.Timeout | undefined;
    const schedule = (delay: number) => {
      timer = setTimeout(() => {
        sweep()
          .then((deleted) => deleted > 0 && app.log.info({ deleted }, 'deleted photos no task uses'))
          .catch((error: unknown) => app.log.warn({ err: error }, 'sweeping unused photos failed'))
          .finally(() => schedule(SWEEP_EVERY_MS));
      }, delay);
      timer.unref();
    };
    app.addHook('onReady', async () => schedule(FIRST_SWEEP_MS));
    app.addHook('onClose', async () => clearTimeout(timer));
  },
  { name: 'material-sweep', dependencies: ['storage'] },
);
