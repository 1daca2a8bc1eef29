// Generation services: which engines this server has, the job runner (inside the server unless
// RUN_JOBS=false), and task events. A task's end is announced by e-mail from the process that
// finished it, and to the seller's open event streams on every node: on PostgreSQL by a NOTIFY
// (seller and task id) that each node LISTENing reads the task for, so tasks finished by
// `npm run worker` processes or other API nodes are announced at once; on the embedded database
// (one process) by reading finished tasks, at once when a task finishes here and every 1.5 s.
import { EventEmitter } from 'node:events';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { and, asc, eq, gt, isNotNull, sql, type SQL } from 'drizzle-orm';
import { tasks, users } from '../db/schema';
import { DEFAULT_PRICES, type Prices } from '../../contract/selection';
import type { TaskEvent } from '../../contract/content';
import { isLocale, DEFAULT_LOCALE } from '../../contract/locales';
import type { EngineSupport } from '../content/catalogue';
import { generateHandler } from '../content/pipeline';
import type { TaskRow } from '../content/tasks';
import { JobRunner } from '../jobs/runner';
import { publishHandler, type FinishedPublication } from '../publisher/publish-job';
import { PLATFORM_NAMES } from '../publisher/publications';
import type { PublicationEvent } from '../../contract/publisher';
import { translate } from '../lib/i18n';
import { studioEngine } from '../studio/engine';
import { locateFfmpeg } from '../studio/video';
import { remoteEngine } from '../content/remote';
import { comfyuiEngine } from '../content/comfyui';
import { publicationFinishedMail, taskFinishedMail } from '../mail/templates';

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
/** The PostgreSQL NOTIFY channel of finished tasks; the payload is `<seller id> <task id>`. */
export const TASK_EVENTS_CHANNEL = 'solestudio_task_events';
/** The NOTIFY channel of ended publications; the payload is `<seller id> <event JSON>`. */
const PUBLICATION_EVENTS_CHANNEL = 'solestudio_publication_events';

export const generationPlugin = fp(
  async (app: FastifyInstance) => {
    const config = app.config;
    const ffmpeg = locateFfmpeg(config.ffmpegPath);
    if (!ffmpeg) app.log.warn('ffmpeg was not found on PATH: creative videos are unavailable (FFMPEG_PATH names one)');
    const support: EngineSupport = {
      aiImages: Boolean(config.ai),
      aiVideo: Boolean(config.ai?.videoModel),
      ffmpeg: Boolean(ffmpeg),
      comfyui: Boolean(config.comfyui),
      routes: config.engineRoutes,
    };
    const events = new EventEmitter();
    events.setMaxListeners(0);

    const db = app.database.db;
    /** Sends the finished tasks `where` picks to their sellers' streams; the newest's end. */
    const emitFinished = async (where: SQL | undefined): Promise<Date | null> => {
      const rows = await db
        .select({ id: tasks.id, userId: tasks.userId, status: tasks.status, failureType: tasks.failureType, finishedAt: tasks.finishedAt })
        .from(tasks)
        .where(and(isNotNull(tasks.finishedAt), where))
        .orderBy(asc(tasks.finishedAt))
        .limit(200);
      for (const row of rows) {
        const event: TaskEvent = { type: 'task_updated', task_id: row.id, status: row.status, failure_type: row.failureType ?? null };
        events.emit(row.userId, event);
      }
      return rows.at(-1)?.finishedAt ?? null;
    };
    const warn = (error: unknown) => app.log.warn({ err: error }, 'reading finished tasks failed');
    const streams = () => events.eventNames().some((name) => name !== 'newListener');

    // PGlite: finished tasks read while anyone is listening, from when the first stream opened.
    let since = new Date();
    let polling: NodeJS.Timeout | undefined;
    const schedulePoll = (delay = POLL_MS) => {
      clearTimeout(polling);
      polling = setTimeout(() => {
        const poll = streams() ? emitFinished(gt(tasks.finishedAt, since)).then((end) => void (since = end ?? since)) : Promise.resolve();
        void poll.catch(warn).finally(() => schedulePoll());
      }, delay);
      polling.unref();
    };

    // PostgreSQL: NOTIFY from whichever process finished the task, heard on a connection that is
    // opened when the first stream opens.
    let stopListening: (() => Promise<void>) | undefined;
    const listen = app.database.listen;
    const hear = (payload: string) => {
      const [userId, taskId] = payload.split(' ');
      if (!userId || !taskId || events.listenerCount(userId) === 0) return;
      emitFinished(eq(tasks.id, taskId)).catch(warn);
    };
    // Notices sent while the connection was down are lost: read what finished meanwhile.
    const resume = (droppedAt: Date) => void emitFinished(gt(tasks.finishedAt, new Date(droppedAt.getTime() - 1000))).catch(warn);

    // Ended publications carry all they say in the notice: a node with the seller's stream passes it on.
    let stopHearingPublications: (() => Promise<void>) | undefined;
    const hearPublication = (payload: string) => {
      const space = payload.indexOf(' ');
      const userId = payload.slice(0, space);
      if (space < 0 || events.listenerCount(userId) === 0) return;
      events.emit(userId, JSON.parse(payload.slice(space + 1)) as PublicationEvent);
    };

    events.on('newListener', () => {
      if (listen) {
        stopListening ??= listen(TASK_EVENTS_CHANNEL, hear, resume);
        stopHearingPublications ??= listen(PUBLICATION_EVENTS_CHANNEL, hearPublication, () => {});
      }
      else if (!streams()) {
        // The first stream starts the clock: only tasks that finish from now on are announced.
        since = new Date(Date.now() - 1000);
        schedulePoll();
      }
    });

    const announce = async (task: TaskRow, log: FastifyBaseLogger) => {
      if (listen) await db.execute(sql`SELECT pg_notify(${TASK_EVENTS_CHANNEL}, ${`${task.userId} ${task.id}`})`);
      else if (streams()) schedulePoll(0);
      const [user] = await db.select({ email: users.email, username: users.username }).from(users).where(eq(users.id, task.userId));
      if (!user || task.status === 'pending' || task.status === 'processing') return;
      const locale = isLocale(task.locale) ? task.locale : DEFAULT_LOCALE;
      const mail = taskFinishedMail(locale, user.username, { status: task.status, failureType: task.failureType }, `${config.publicUrl}/task/history`);
      app.sendMailLater({ to: user.email, ...mail }, log);
    };

    const announcePublication = async (ended: FinishedPublication, log: FastifyBaseLogger) => {
      const event: PublicationEvent = { type: 'publication_updated', publication_id: ended.id, status: ended.status, applied: ended.applied, failed: ended.failed };
      if (listen) await db.execute(sql`SELECT pg_notify(${PUBLICATION_EVENTS_CHANNEL}, ${`${ended.userId} ${JSON.stringify(event)}`})`);
      else events.emit(ended.userId, event);
      const [user] = await db.select({ email: users.email, username: users.username }).from(users).where(eq(users.id, ended.userId));
      if (!user) return;
      const locale = isLocale(ended.locale) ? ended.locale : DEFAULT_LOCALE;
      const mail = publicationFinishedMail(
        locale,
        user.username,
        { ...ended, platform: translate(locale, PLATFORM_NAMES[ended.platform]), product: ended.productTitle || ended.productArticle },
        `${config.publicUrl}/stores`,
      );
      app.sendMailLater({ to: user.email, ...mail }, log);
    };

    const metrics = app.metrics;
    const runner = config.runJobs
      ? new JobRunner({
          db: app.database.db,
          log: app.log,
          concurrency: config.jobConcurrency,
          onFinished: metrics ? (kind, outcome, seconds) => metrics.jobFinished(kind, outcome, seconds) : undefined,
          handlers: {
            generate: generateHandler({
              db: app.database.db,
              ledger: app.ledger,
              storage: app.storage,
              engines: (log) => ({
                studio: studioEngine({ ffmpeg }),
                remote: config.ai ? remoteEngine(config.ai) : null,
                comfyui: config.comfyui ? comfyuiEngine(config.comfyui, log) : null,
              }),
              ffmpeg,
              finished: (task, log) => void announce(task, log).catch((error: unknown) => log.error({ err: error }, 'announcing a task failed')),
              onOutput: metrics ? (engine, category, outcome, seconds) => metrics.engineOutput(engine, category, outcome, seconds) : undefined,
            }),
            publish: publishHandler({
              db: app.database.db,
              storage: app.storage,
              options: config.publisher,
              publicUrl: config.publicUrl,
              secrets: app.secretsKey,
              finished: (ended, log) => void announcePublication(ended, log).catch((error: unknown) => log.error({ err: error }, 'announcing a publication failed')),
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
      await stopListening?.();
      await stopHearingPublications?.();
      await runner?.stop();
    });
  },
  { name: 'generation', dependencies: ['storage', 'mail', 'metrics'] },
);
