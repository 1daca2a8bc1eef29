// POST /api/v1/shoe-verification/verify-angle: what the shooting requirements would say about one
// uploaded photo (SPEC §7), shown on its slot so the seller can retake before paying.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { MAX_UPLOAD_BYTES, verifyAngleRequestSchema } from '../../../contract/materials';
import { materialResponses } from '../../../contract/responses';
import { HttpError } from '../../lib/errors';
import { translate } from '../../lib/i18n';
import { currentUser } from '../../plugins/auth';
import { acceptUpload, findOwn } from '../../materials/materials';
import { analysePhoto, refusal } from '../../materials/findings';

const PER_USER = { max: 600, windowMs: 60 * 60 * 1000 };

export const shoeVerificationRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/verify-angle',
    {
      schema: {
        summary: 'Check one uploaded photo against the shooting requirements',
        tags: ['materials'],
        security: [{ bearer: [] }],
        body: verifyAngleRequestSchema,
        response: materialResponses.verifyAngle,
      },
      onRequest: app.requireUser,
    },
    async (request) => {
      const { user } = currentUser(request);
      await app.limit(`verify:user:${user.id}`, PER_USER);
      let material = await findOwn(app.database.db, user.id, request.body.material_id);
      // An edit's picture or logo is no shoe photo: there is no such photo to check.
      if (!material || material.view === null) throw new HttpError(404, 'NOT_FOUND', 'NOT_FOUND');
      // With S3 the bytes went straight to the bucket: they are checked here, the first time.
      material = await acceptUpload(app.database.db, app.storage, material);
      const bytes = await app.storage.get(material.storageKey, MAX_UPLOAD_BYTES);
      if (!bytes) throw new HttpError(409, 'MATERIAL_NOT_UPLOADED', 'MATERIAL_NOT_UPLOADED');
      const raw = await analysePhoto(bytes);
      const findings = raw.map((f) => ({
        check: f.check,
        ok: f.ok,
        value: f.value,
        message: translate(request.locale, f.verdict),
      }));
      return {
        code: 200,
        message: translate(request.locale, 'OK'),
        data: { material_id: material.id, view: request.body.view, ok: refusal(raw) === null, findings },
      };
    },
  );
};
