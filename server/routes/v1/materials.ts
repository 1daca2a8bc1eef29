// /api/v1/materials (SPEC §7 Materials): register an upload (a shoe photo, or an edit's picture or
// logo), list, delete, shoe categories.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { materialResponses } from '../../../contract/responses';
import {
  idempotencyHeadersSchema,
  idempotencyKeyRule,
  listQuerySchema,
  materialIdParamsSchema,
  materialKeyParamsSchema,
  uploadRequestSchema,
} from '../../../contract/materials';
import type { Locale } from '../../../contract/locales';
import { HttpError } from '../../lib/errors';
import { translate } from '../../lib/i18n';
import { currentUser } from '../../plugins/auth';
import { DOWNLOAD_URL_LIFETIME_S, UPLOAD_URL_LIFETIME_S } from '../../storage/storage';
import { deleteOwn, findOwnByKey, listOwn, publicMaterial, registerUpload, uploadKeyOf } from '../../materials/materials';
import { storageUsage } from '../../materials/quota';
import { shoeCategories } from '../../materials/shoe-categories';
import { listAnswer, sendSerialised, serialisedAnswer } from '../../content/list-answers';

const REGISTRATIONS_PER_HOUR = { max: 600, windowMs: 60 * 60 * 1000 };

export const materialRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.database.db;

  /** Deletes the seller's material and answers as the delete calls do. */
  const deletion = async (locale: Locale, userId: string, id: string | undefined) => {
    const outcome = id ? await deleteOwn(db, app.storage, userId, id) : 'missing';
    if (outcome === 'missing') throw new HttpError(404, 'NOT_FOUND', 'NOT_FOUND');
    // A task's photos stay as long as the task; an edit's logo as long as the edit.
    if (outcome === 'in_use') throw new HttpError(409, 'MATERIAL_IN_USE', 'MATERIAL_IN_USE');
    if (outcome === 'in_edit') throw new HttpError(409, 'MATERIAL_IN_USE', 'MATERIAL_IN_EDIT');
    return { code: 200, message: translate(locale, 'OK'), data: null };
  };

  app.post(
    '/upload',
    {
      schema: {
        summary:
          'Register a photo, or an edit’s picture or logo, and get the URL to PUT exactly its declared bytes to (repeatable under one Idempotency-Key; once the upload is accepted a repeat answers the material with no URL)',
        tags: ['materials'],
        security: [{ bearer: [] }],
        headers: idempotencyHeadersSchema,
        body: uploadRequestSchema,
        response: materialResponses.upload,
      },
      onRequest: app.requireUser,
    },
    async (request) => {
      const { user } = currentUser(request);
      const key = idempotencyKeyRule.safeParse(request.headers['idempotency-key']);
      if (!key.success) throw new HttpError(400, 'IDEMPOTENCY_KEY_REQUIRED', 'IDEMPOTENCY_KEY_REQUIRED');
      await app.limit(`materials:user:${user.id}`, REGISTRATIONS_PER_HOUR);
      const { file_name, file_type, file_size, description } = request.body;
      const material = await registerUpload(db, user.id, key.data, {
        fileName: file_name,
        fileType: file_type,
        fileSize: file_size,
        // A photo's description is kept as JSON of its view alone; an edit upload's as sent.
        description: description.kind === 'photo' ? JSON.stringify({ view: description.view }) : description.edit,
        view: description.kind === 'photo' ? description.view : null,
      }, app.config.storageQuotaBytes);
      // An accepted upload is never written again: its repeat gets no address to write to.
      const writable = material.status !== 'uploaded';
      return {
        code: 200,
        message: translate(request.locale, 'OK'),
        data: {
          material_id: material.id,
          presigned_url: writable
            ? await app.storage.uploadUrl(uploadKeyOf(material.storageKey), { contentType: material.fileType, byteSize: material.fileSize }, UPLOAD_URL_LIFETIME_S)
            : null,
          expires_at: writable ? new Date(Date.now() + UPLOAD_URL_LIFETIME_S * 1000).toISOString() : null,
          status: material.status,
          file_key: material.storageKey,
          public_url: await app.storage.downloadUrl(material.storageKey, DOWNLOAD_URL_LIFETIME_S),
        },
      };
    },
  );

  app.get(
    '/storage',
    {
      schema: {
        summary: 'How much the seller keeps in storage (photos, edit uploads, results) against the quota',
        tags: ['materials'],
        security: [{ bearer: [] }],
        response: materialResponses.storage,
      },
      onRequest: app.requireUser,
    },
    async (request) => {
      const usage = await storageUsage(db, currentUser(request).user.id, app.config.storageQuotaBytes);
      return { code: 200, message: translate(request.locale, 'OK'), data: { used_bytes: usage.usedBytes, quota_bytes: usage.quotaBytes } };
    },
  );

  app.get(
    '/list',
    {
      schema: {
        summary: "The seller's photos, newest first",
        tags: ['materials'],
        security: [{ bearer: [] }],
        querystring: listQuerySchema,
        response: materialResponses.list,
      },
      onRequest: app.requireUser,
    },
    async (request, reply) => {
      const { user } = currentUser(request);
      const { page, page_size } = request.query;
      const body = await listAnswer(db, user.id, `materials|${page}|${page_size}|${request.locale}`, async () => {
        const { rows, total } = await listOwn(db, user.id, page, page_size);
        return serialisedAnswer(reply, {
          code: 200,
          message: translate(request.locale, 'OK'),
          data: await Promise.all(rows.map((row) => publicMaterial(row, app.storage))),
          meta: { total, total_pages: Math.ceil(total / page_size), page },
        });
      }, request.contentVersion);
      return sendSerialised(reply, body);
    },
  );

  app.delete(
    '/:id',
    {
      schema: {
        summary: 'Delete a photo and its stored file (409 while a task uses it, or an edit places it as a logo)',
        tags: ['materials'],
        security: [{ bearer: [] }],
        params: materialIdParamsSchema,
        response: materialResponses.delete,
      },
      onRequest: app.requireUser,
    },
    async (request) => deletion(request.locale, currentUser(request).user.id, request.params.id),
  );

  app.delete(
    '/by-key/:key',
    {
      schema: {
        summary: 'Delete the photo registered under an Idempotency-Key, for an upload whose answer was lost (409 while a task uses it)',
        tags: ['materials'],
        security: [{ bearer: [] }],
        params: materialKeyParamsSchema,
        response: materialResponses.delete,
      },
      onRequest: app.requireUser,
    },
    async (request) => {
      const userId = currentUser(request).user.id;
      return deletion(request.locale, userId, (await findOwnByKey(db, userId, request.params.key))?.id);
    },
  );

  app.get(
    '/shoe-categories',
    {
      schema: {
        summary: 'Shoe types and the parameters (cm) that apply to each',
        tags: ['materials'],
        response: materialResponses.shoeCategories,
      },
    },
    async (request) => ({ code: 200, message: translate(request.locale, 'OK'), data: shoeCategories(request.locale) }),
  );
};
