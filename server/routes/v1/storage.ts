// /api/v1/storage/<key>: the embedded object storage's signed URLs. A PUT brings a photo's bytes
// to its upload key (checked and cleaned before it counts, and kept under the photo's storage key,
// which no PUT can name); a GET reads a stored file. Only with S3 off.
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { MAX_UPLOAD_BYTES } from '../../../contract/materials';
import { storageResponses } from '../../../contract/responses';
import { HttpError } from '../../lib/errors';
import { translate } from '../../lib/i18n';
import { LocalStorage, type StorageOperation } from '../../storage/local';
import { acceptUpload, findByStorageKey, storageKeyOfUpload } from '../../materials/materials';

/** Checked in the route, not declared: a query that does not match its signature is refused as 403. */
const signedQuery = z.object({
  op: z.enum(['put', 'get']),
  exp: z.coerce.number().int(),
  sig: z.string().max(100),
  ct: z.string().max(100).optional(),
  len: z.coerce.number().int().positive().optional(),
});

const params = z.object({ '*': z.string() });
const CONTENT_TYPES: Record<string, string> = { '.jpg': 'image/jpeg', '.png': 'image/png', '.mp4': 'video/mp4' };

export const storageRoutes: FastifyPluginAsyncZod<{ root: string }> = async (app, { root }) => {
  const storage = app.storage;
  if (!(storage instanceof LocalStorage)) return;

  // Bytes arrive as they are; the type is checked against the signed one and the file's signature.
  app.addContentTypeParser(['image/jpeg', 'image/png'], { parseAs: 'buffer', bodyLimit: MAX_UPLOAD_BYTES }, (_request, body, done) =>
    done(null, body),
  );

  const invalid = () => new HttpError(403, 'STORAGE_LINK_INVALID', 'STORAGE_LINK_INVALID');

  /** The signed size of an upload (none for a read); refuses a request its signature does not cover. */
  const authorise = (request: FastifyRequest, key: string, op: StorageOperation) => {
    const query = signedQuery.safeParse(request.query);
    const contentType = op === 'put' ? (request.headers['content-type'] ?? '').split(';')[0]!.trim() : '';
    if (
      !query.success ||
      query.data.op !== op ||
      (query.data.ct ?? '') !== contentType ||
      (op === 'put') !== (query.data.len !== undefined) ||
      !storage.verify({ op, key, exp: query.data.exp, contentType, byteSize: query.data.len ?? null, sig: query.data.sig })
    ) {
      throw invalid();
    }
    return query.data.len ?? null;
  };

  app.put(
    '/*',
    {
      bodyLimit: MAX_UPLOAD_BYTES,
      schema: {
        summary: "A photo's bytes, to the address POST /materials/upload gave (embedded storage only)",
        tags: ['materials'],
        params,
        response: storageResponses.put,
      },
    },
    async (request, reply) => {
      const uploadKey = request.params['*'];
      const byteSize = authorise(request, uploadKey, 'put');
      const storageKey = storageKeyOfUpload(uploadKey);
      const material = storageKey ? await findByStorageKey(app.database.db, storageKey) : undefined;
      if (!material) throw invalid();
      const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      // Bound like S3's signed Content-Length: only the declared size.
      if (body.length !== byteSize) throw invalid();
      const accepted = await acceptUpload(app.database.db, storage, material, body);
      return reply.send({ code: 200, message: translate(request.locale, 'OK'), data: { material_id: accepted.id, status: accepted.status } });
    },
  );

  app.get(
    '/*',
    {
      schema: {
        summary: 'A stored file, at an address the API gave (embedded storage only)',
        tags: ['materials'],
        params,
        response: storageResponses.get,
      },
    },
    async (request, reply) => {
      const key = request.params['*'];
      authorise(request, key, 'get');
      const file = path.join(root, key);
      if (!fs.existsSync(file)) throw new HttpError(404, 'NOT_FOUND', 'NOT_FOUND');
      return reply
        .type(CONTENT_TYPES[path.extname(key)] ?? 'application/octet-stream')
        .header('cache-control', 'private, max-age=3600')
        .header('content-disposition', 'inline')
        .send(fs.createReadStream(file));
    },
  );
};
