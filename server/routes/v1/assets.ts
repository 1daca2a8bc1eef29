// /api/v1/content/assets (SPEC §7 Content): material history's pages, deleting results, and a
// selection downloaded as one zip. Another seller's asset is answered as not found.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { assetResponses } from '../../../contract/responses';
import {
  ASSET_DOWNLOAD_LIFETIME_S,
  assetBatchCreateSchema,
  assetDownloadQuerySchema,
  assetIdParamsSchema,
  assetIdsSchema,
  assetListQuerySchema,
} from '../../../contract/assets';
import { idempotencyHeadersSchema, idempotencyKeyRule } from '../../../contract/materials';
import { HttpError } from '../../lib/errors';
import { translate } from '../../lib/i18n';
import { currentUser } from '../../plugins/auth';
import { listAnswer, sendSerialised, serialisedAnswer } from '../../content/list-answers';
import { archiveName, assetsAmong, createAssets, deleteOwnAssets, DownloadTokens, listOwnAssets, ownAssets, publicAssets, zipOf } from '../../content/assets';

/** Each batch copies up to 20 files of up to 10 MB: a seller saves edits far more slowly than this. */
const BATCHES_PER_HOUR = { max: 60, windowMs: 60 * 60 * 1000 };

export const assetRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.database.db;
  const tokens = new DownloadTokens(app.signingKey);

  app.get(
    '/',
    {
      schema: {
        summary: "The seller's results in one material-history section, newest first",
        tags: ['content'],
        security: [{ bearer: [] }],
        querystring: assetListQuerySchema,
        response: assetResponses.list,
      },
      onRequest: app.requireUser,
    },
    async (request, reply) => {
      const { material_category, page, page_size } = request.query;
      const userId = currentUser(request).user.id;
      const body = await listAnswer(db, userId, `assets|${material_category ?? ''}|${page}|${page_size}|${request.locale}`, async () => {
        const { rows, total } = await listOwnAssets(db, userId, material_category, page, page_size);
        return serialisedAnswer(reply, {
          code: 200,
          message: translate(request.locale, 'OK'),
          data: await publicAssets(db, app.storage, userId, rows),
          meta: { total, total_pages: Math.ceil(total / page_size), page },
        });
      }, request.contentVersion);
      return sendSerialised(reply, body);
    },
  );

  app.get(
    '/:id',
    {
      schema: {
        summary: 'One of the seller’s results, with what its edit reopens with',
        tags: ['content'],
        security: [{ bearer: [] }],
        params: assetIdParamsSchema,
        response: assetResponses.one,
      },
      onRequest: app.requireUser,
    },
    async (request) => {
      const userId = currentUser(request).user.id;
      const rows = await assetsAmong(db, userId, [request.params.id]);
      if (rows.length === 0) throw new HttpError(404, 'NOT_FOUND', 'NOT_FOUND');
      const [asset] = await publicAssets(db, app.storage, userId, rows);
      return { code: 200, message: translate(request.locale, 'OK'), data: asset! };
    },
  );

  app.post(
    '/batch-create',
    {
      schema: {
        summary:
          'Add results from images the seller uploaded, such as edited images (once per Idempotency-Key, when one is sent; within the seller’s storage quota)',
        tags: ['content'],
        security: [{ bearer: [] }],
        headers: idempotencyHeadersSchema,
        body: assetBatchCreateSchema,
        response: assetResponses.batchCreate,
      },
      onRequest: app.requireUser,
    },
    async (request) => {
      const userId = currentUser(request).user.id;
      // Optional: without a key every request adds its results; with one, only the first does.
      const sent = request.headers['idempotency-key'];
      const key = sent === undefined ? undefined : idempotencyKeyRule.safeParse(sent);
      if (key && !key.success) throw new HttpError(400, 'IDEMPOTENCY_KEY_REQUIRED', 'IDEMPOTENCY_KEY_REQUIRED');
      await app.limit(`assets:batch-create:user:${userId}`, BATCHES_PER_HOUR);
      const rows = await createAssets(db, app.storage, userId, request.body, { idempotencyKey: key?.data, quotaBytes: app.config.storageQuotaBytes });
      return { code: 200, message: translate(request.locale, 'OK'), data: await publicAssets(db, app.storage, userId, rows) };
    },
  );

  app.delete(
    '/',
    {
      schema: {
        summary: 'Delete results and their files; nothing is deleted when any id is not the seller’s',
        tags: ['content'],
        security: [{ bearer: [] }],
        body: assetIdsSchema,
        response: assetResponses.delete,
      },
      onRequest: app.requireUser,
    },
    async (request) => {
      const deleted = await deleteOwnAssets(db, app.storage, currentUser(request).user.id, request.body.asset_ids);
      if (!deleted) throw new HttpError(404, 'NOT_FOUND', 'NOT_FOUND');
      return { code: 200, message: translate(request.locale, 'ASSETS_DELETED'), data: null };
    },
  );

  app.post(
    '/download',
    {
      schema: {
        summary: 'An address, valid for ten minutes, that downloads these results as one zip',
        tags: ['content'],
        security: [{ bearer: [] }],
        body: assetIdsSchema,
        response: assetResponses.requestDownload,
      },
      onRequest: app.requireUser,
    },
    async (request) => {
      const { user } = currentUser(request);
      const rows = await ownAssets(db, user.id, request.body.asset_ids);
      if (!rows) throw new HttpError(404, 'NOT_FOUND', 'NOT_FOUND');
      const expiresAt = new Date(Date.now() + ASSET_DOWNLOAD_LIFETIME_S * 1000);
      const token = tokens.issue(user.id, request.body.asset_ids, expiresAt);
      return {
        code: 200,
        message: translate(request.locale, 'DOWNLOAD_READY'),
        // Relative, like the storage addresses: it works whichever address reached this server.
        data: { download_url: `/api/v1/content/assets/download?token=${token}`, expires_at: expiresAt.toISOString(), total: rows.length },
      };
    },
  );

  app.get(
    '/download',
    {
      schema: {
        summary: 'The zip a download address names; the address itself is the permission',
        tags: ['content'],
        querystring: assetDownloadQuerySchema,
        response: assetResponses.download,
      },
    },
    async (request, reply) => {
      const claims = tokens.read(request.query.token);
      if (!claims) throw new HttpError(403, 'DOWNLOAD_LINK_INVALID', 'DOWNLOAD_LINK_INVALID');
      // Assets deleted since the address was made are left out; a zip of nothing is refused.
      const rows = await assetsAmong(db, claims.userId, claims.ids);
      if (rows.length === 0) throw new HttpError(404, 'NOT_FOUND', 'NOT_FOUND');
      return reply
        .type('application/zip')
        .header('content-disposition', `attachment; filename="${archiveName()}"`)
        .header('cache-control', 'private, no-store')
        .send(zipOf(app.storage, rows));
    },
  );
};
