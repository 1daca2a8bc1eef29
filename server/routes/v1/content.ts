// /api/v1/content (SPEC §7 Content): what can be made, submitting a task, and the seller's
// tasks. Every task route answers 404 for another seller's task.
import crypto from 'node:crypto';
import type { z } from 'zod';
import { and, eq, inArray } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { contentResponses } from '../../../contract/responses';
import { generateRequestSchema, regenerateRequestSchema, taskIdParamsSchema, taskListQuerySchema } from '../../../contract/content';
import { idempotencyHeadersSchema, idempotencyKeyRule } from '../../../contract/materials';
import { HttpError } from '../../lib/errors';
import { acceptPending } from '../../materials/materials';
import { translate, type MessageKey } from '../../lib/i18n';
import { currentUser } from '../../plugins/auth';
import { catalogue } from '../../content/catalogue';
import { createTask, deleteOwnTask, failureDetails, findOwnTask, listOwnTasks, taskDetails } from '../../content/tasks';
import { publicTask } from '../../content/present';
import { assets, materials, taskOutputs, tasks } from '../../db/schema';
import { DOWNLOAD_URL_LIFETIME_S } from '../../storage/storage';
import { issueTicket } from '../../content/tickets';
import { listAnswer, sendSerialised, serialisedAnswer } from '../../content/list-answers';

const SUBMISSIONS_PER_HOUR = { max: 300, windowMs: 60 * 60 * 1000 };

export const contentRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.database.db;
  const ok = (locale: Parameters<typeof translate>[0], key: MessageKey = 'OK') => translate(locale, key);

  /** Creates (or replays) a task for the caller and answers with its id, cost and the balance left. */
  const submit = async (
    request: FastifyRequest,
    key: string,
    body: z.output<typeof generateRequestSchema>,
    onlyView?: string,
  ) => {
    const { user } = currentUser(request);
    await app.limit(`generate:user:${user.id}`, SUBMISSIONS_PER_HOUR);
    await acceptPending(db, app.storage, user.id, body.material_ids);
    const created = await createTask(db, app.ledger, {
      userId: user.id,
      locale: request.locale,
      idempotencyKey: key,
      request: body,
      support: app.generation.support,
      prices: app.generation.prices,
      onlyView,
    });
    if (!created.replayed) app.generation.wake();
    return {
      code: 200,
      message: ok(request.locale, 'TASK_CREATED'),
      data: { id: created.task.id, status: created.task.status, cost: created.task.cost, total_tokens: created.balance },
    };
  };

  app.get(
    '/config',
    {
      schema: {
        summary: 'The categories, backgrounds and scenes this server can make, their prices, and why any is unavailable',
        tags: ['content'],
        response: contentResponses.config,
      },
    },
    async (request) => ({
      code: 200,
      message: ok(request.locale),
      data: catalogue(app.generation.support, request.locale, app.generation.prices),
    }),
  );

  app.post(
    '/generate',
    {
      schema: {
        summary: 'Submit a task: checked, priced and charged once per Idempotency-Key',
        tags: ['content'],
        security: [{ bearer: [] }],
        headers: idempotencyHeadersSchema,
        body: generateRequestSchema,
        response: contentResponses.generate,
      },
      onRequest: app.requireUser,
    },
    async (request) => {
      const key = idempotencyKeyRule.safeParse(request.headers['idempotency-key']);
      if (!key.success) throw new HttpError(400, 'IDEMPOTENCY_KEY_REQUIRED', 'IDEMPOTENCY_KEY_REQUIRED');
      return submit(request, key.data, request.body);
    },
  );

  app.get(
    '/tasks',
    {
      schema: {
        summary: "The seller's tasks, newest first",
        tags: ['content'],
        security: [{ bearer: [] }],
        querystring: taskListQuerySchema,
        response: contentResponses.tasks,
      },
      onRequest: app.requireUser,
    },
    async (request, reply) => {
      const { user } = currentUser(request);
      const { page, page_size } = request.query;
      const body = await listAnswer(db, user.id, `tasks|${page}|${page_size}|${request.locale}`, async () => {
        const { rows, total } = await listOwnTasks(db, user.id, page, page_size);
        const details = await taskDetails(db, rows);
        return serialisedAnswer(reply, {
          code: 200,
          message: ok(request.locale),
          data: await Promise.all(rows.map((row) => publicTask(row, details, app.storage, request.locale))),
          meta: { total, total_pages: Math.ceil(total / page_size), page },
        });
      }, request.contentVersion);
      return sendSerialised(reply, body);
    },
  );

  const ownTask = async (userId: string, id: string) => {
    const task = await findOwnTask(db, userId, id);
    if (!task) throw new HttpError(404, 'NOT_FOUND', 'NOT_FOUND');
    return task;
  };

  app.get(
    '/tasks/:id',
    {
      schema: {
        summary: 'One task: its config (history merged by name), status, outputs and results',
        tags: ['content'],
        security: [{ bearer: [] }],
        params: taskIdParamsSchema,
        response: contentResponses.task,
      },
      onRequest: app.requireUser,
    },
    async (request) => {
      const task = await ownTask(currentUser(request).user.id, request.params.id);
      return { code: 200, message: ok(request.locale), data: await publicTask(task, await taskDetails(db, [task]), app.storage, request.locale) };
    },
  );

  app.get(
    '/tasks/:id/failure-details',
    {
      schema: {
        summary: 'Why each photo of a rejected task was turned away',
        tags: ['content'],
        security: [{ bearer: [] }],
        params: taskIdParamsSchema,
        response: contentResponses.failureDetails,
      },
      onRequest: app.requireUser,
    },
    async (request) => {
      const task = await ownTask(currentUser(request).user.id, request.params.id);
      const rows = await failureDetails(db, task.id);
      const photos = (await taskDetails(db, [task])).photos;
      return {
        code: 200,
        message: ok(request.locale),
        data: await Promise.all(
          rows.map(async (row) => {
            const photo = photos.find((p) => p.id === row.materialId);
            return {
              id: row.id,
              material_id: row.materialId,
              file_url: photo && photo.status === 'uploaded' ? await app.storage.downloadUrl(photo.storageKey, DOWNLOAD_URL_LIFETIME_S) : null,
              reason: translate(request.locale, row.reason as MessageKey),
            };
          }),
        ),
      };
    },
  );

  app.get(
    '/tasks/:id/materials',
    {
      schema: {
        summary: "A task's photos, with addresses to download them",
        tags: ['content'],
        security: [{ bearer: [] }],
        params: taskIdParamsSchema,
        response: contentResponses.taskMaterials,
      },
      onRequest: app.requireUser,
    },
    async (request) => {
      const task = await ownTask(currentUser(request).user.id, request.params.id);
      const shown = await publicTask(task, await taskDetails(db, [task]), app.storage, request.locale);
      return { code: 200, message: ok(request.locale), data: shown.materials };
    },
  );

  app.delete(
    '/tasks/:id',
    {
      schema: {
        summary: 'Delete a finished task (its results stay in material history)',
        tags: ['content'],
        security: [{ bearer: [] }],
        params: taskIdParamsSchema,
        response: contentResponses.deleteTask,
      },
      onRequest: app.requireUser,
    },
    async (request) => {
      if (!(await deleteOwnTask(db, currentUser(request).user.id, request.params.id))) throw new HttpError(404, 'NOT_FOUND', 'NOT_FOUND');
      return { code: 200, message: ok(request.locale), data: null };
    },
  );

  app.post(
    '/regenerate',
    {
      schema: {
        summary: "Make one result again: a new task for the asset's entry, from the same photos",
        tags: ['content'],
        security: [{ bearer: [] }],
        headers: idempotencyHeadersSchema,
        body: regenerateRequestSchema,
        response: contentResponses.regenerate,
      },
      onRequest: app.requireUser,
    },
    async (request) => {
      const { user } = currentUser(request);
      const key = idempotencyKeyRule.safeParse(request.headers['idempotency-key'] ?? `regenerate-${crypto.randomUUID()}`);
      if (!key.success) throw new HttpError(400, 'IDEMPOTENCY_KEY_REQUIRED', 'IDEMPOTENCY_KEY_REQUIRED');
      const [source] = await db
        .select({ task: tasks, output: taskOutputs })
        .from(assets)
        .innerJoin(tasks, eq(tasks.id, assets.taskId))
        .innerJoin(taskOutputs, eq(taskOutputs.id, assets.outputId))
        .where(and(eq(assets.id, request.body.asset_id), eq(assets.userId, user.id)));
      if (!source) throw new HttpError(404, 'NOT_FOUND', 'NOT_FOUND');
      const entry = (source.task.contentConfig as { name: string }[]).find((e) => e.name === source.output.name);
      if (!entry) throw new HttpError(409, 'ASSET_NOT_REGENERABLE', 'ASSET_NOT_REGENERABLE');
      const photos = await db
        .select({ id: materials.id })
        .from(materials)
        .where(and(eq(materials.userId, user.id), inArray(materials.id, source.task.materialIds)));
      if (photos.length !== source.task.materialIds.length) throw new HttpError(409, 'ASSET_NOT_REGENERABLE', 'ASSET_NOT_REGENERABLE');
      // A product shot is made again from its own view only, and priced as one output.
      const body = generateRequestSchema.parse({ content_config: [entry], material_ids: source.task.materialIds });
      return submit(request, key.data, body, source.output.view ?? undefined);
    },
  );

  app.post(
    '/events/ticket',
    {
      schema: {
        summary: 'A short-lived ticket that opens the task event stream once',
        tags: ['content'],
        security: [{ bearer: [] }],
        response: contentResponses.eventTicket,
      },
      onRequest: app.requireUser,
    },
    async (request) => ({ code: 200, message: ok(request.locale), data: issueTicket(app.signingKey, currentUser(request).user.id) }),
  );
};
