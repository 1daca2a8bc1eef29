// Generation services: which engines this server has, the job runner (inside the server unless
// RUN_JOBS=false), and task events. A task's end is announced by e-mail from the process that
// finished it, and to the seller's open event streams by a poller that reads finished tasks
// from the database, so tasks finished by `npm run worker` processes are announced too.
import { EventEmitter } from 'node:events';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { and, asc, eq, gt, isNotNull } from 'drizzle-orm';
import { tasks, users } from '../db/schema';
import { DEFAULT_PRICES, type Prices } from '../../contract/selection';
import type { TaskEvent } from '../../contract/content';
import { isLocale, DEFAULT_LOCALE } from '../../contract/locales';
import type { EngineSupport } from '../content/catalogue';
import { generateHandler } from '../content/pipeline';
import type { TaskRow } from '../content/tasks';
import { JobRunner } from '../jobs/runner';
import { studioEngine } from '../studio/engine';
import { locateFfmpeg } from '../studio/video';
import { remoteEngine } from '../content/remote';
import { taskFinishedMail } from '../mail/templates';

export interface Generation {
  support: EngineSupport;
  prices: Prices;
  /** A job was added: look for work now. */
  wake(): void;
  /** Task events per seller: `on(userId, listener)`. */
  events: EventEmitter;
  runner: JobRunner | null;
}

declare module 'fastify' {
  interface FastifyInstance {
    generation: Generation;
  }
}

const POLL_MS = 1500;

export const generationPlugin = fp(
  async (app: FastifyInstance) => {
    const config = app.config;
    const ffmpeg = locateFfmpeg(config.ffmpegPath);
    const support: EngineSupport = {
      aiImages: Boolean(config.ai),
      aiVideo: Boolean(config.ai?.videoModel),
      ffmpeg: Boolean(ffmpeg),
    };
    const events = new EventEmitter();
    events.setMaxListeners(0);

    // Finished tasks, read from the database while anyone is listening.
    let since: Date | null = null;
    let polling: NodeJS.Timeout | undefined;
    const poll = async () => {
      if (events.eventNames().length === 0) return;
      since ??= new Date();
      const rows = await app.database.db
        .select({ id: tasks.id, userId: tasks.userId, status: tasks.status, failureType: tasks.failureType, finishedAt: tasks.finishedAt })
        .from(tasks)
        .where(and(isNotNull(tasks.finishedAt), gt(tasks.finishedAt, since)))
        .orderBy(asc(tasks.finishedAt))
        .limit(200);
      for (const row of rows) {
        since = row.finishedAt!;
        const event: TaskEvent = { type: 'task_updated', task_id: row.id, status: row.status, failure_type: row.failureType ?? null };
        events.emit(row.userId, event);
      }
    };
    const schedulePoll = (delay = POLL_MS) => {
      clearTimeout(polling);
      polling = setTimeout(() => {
        poll()
          .catch((error: unknown) => app.log.warn({ err: error }, 'reading finished tasks failed'))
          .finally(() => schedulePoll());
      }, delay);
      polling.unref();
    };
    events.on('newListener', () => {
      // The first stream starts the clock: only tasks that finish from now on are announced.
      if (events.eventNames().length === 0) since = new Date(Date.now() - 1000);
      if (!polling) schedulePoll();
    });

    const announce = async (task: TaskRow) => {
      schedulePoll(0);
      const [user] = await app.database.db.select({ email: users.email, username: users.username }).from(users).where(eq(users.id, task.userId));
      if (!user || task.status === 'pending' || task.status === 'processing') return;
      const locale = isLocale(task.locale) ? task.locale : DEFAULT_LOCALE;
      const mail = taskFinishedMail(locale, user.username, { status: task.status, failureType: task.failureType }, `${config.publicUrl}/task/history`);
      app.sendMailLater({ to: user.email, ...mail, logHint: `task ${task.id} ${task.status}` });
    };

    const runner = config.runJobs
      ? new JobRunner({
          db: app.database.db,
          log: app.log,
          concurrency: config.jobConcurrency,
          handlers: {
            generate: generateHandler({
              db: app.database.db,
              storage: app.storage,
              log: app.log,
              engines: () => ({ studio: studioEngine({ ffmpeg }), remote: config.ai ? remoteEngine(config.ai) : null }),
              finished: (task) => void announce(task).catch((error: unknown) => app.log.error({ err: error }, 'announcing a task failed')),
            }),
          },
        })
      : null;

    app.decorate('generation', {
      support,
      prices: DEFAULT_PRICES,
      wake: () => runner?.wake(),
      events,
      runner,
    });
    app.addHook('onReady', async () => runner?.start());
    app.addHook('onClose', async () => {
      clearTimeout(polling);
      await runner?.stop();
    });
  },
  { name: 'generation', dependencies: ['storage', 'mail'] },
);
