// /api/v1/publisher (SPEC §7 Publisher; DESIGN's publisher): the platforms a seller can connect
// a store on, with the keys each asks for and its rules for media; connecting a store (the keys
// checked live with the platform before they are kept, sealed), the seller's connections, and
// disconnecting one.
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { connectRequestSchema, MEDIA_RULES, PLATFORM_FIELDS, PLATFORMS, PUBLICATIONS_PAGE_SIZE, publishRequestSchema, type Platform, type PlatformInfo } from '../../../contract/publisher';
import { idempotencyHeadersSchema, idempotencyKeyRule } from '../../../contract/materials';
import { publisherResponses } from '../../../contract/responses';
import { HttpError } from '../../lib/errors';
import { translate, type MessageKey } from '../../lib/i18n';
import { currentUser } from '../../plugins/auth';
import { storeConnectionsOf } from '../../publisher/connections';
import { PLATFORM_NAMES, PublicationConflict, publicationsOf } from '../../publisher/publications';
import { checkKeys, listProducts } from '../../publisher/platforms';
import { demoStoreOf } from '../../publisher/platforms/demo';
import { BadCursor, REFUSALS, StoreRefused } from '../../publisher/platforms/store';
import { isPublicUrl } from '../../publisher/public-url';
import { SecretDamaged, SecretsKeyMismatch } from '../../publisher/secrets';

/** Publications one seller may start in an hour. */
const PUBLISHES_PER_HOUR = { max: 120, windowMs: 60 * 60 * 1000 };
/** The largest picture read to check it stands on white: a platform's own limit. */
const MAIN_PICTURE_BYTES = Math.max(...Object.values(MEDIA_RULES).map((rules) => rules.maxImageBytes));
const pageQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce.number().int().min(1).max(50).default(PUBLICATIONS_PAGE_SIZE),
});

/** Key checks one seller may ask for in an hour: each calls the platform. */
const CONNECTS_PER_HOUR = { max: 30, windowMs: 60 * 60 * 1000 };

const KEY_PLACES: Record<Platform, MessageKey> = {
  wildberries: 'KEY_PLACE_WILDBERRIES',
  ozon: 'KEY_PLACE_OZON',
  amazon: 'KEY_PLACE_AMAZON',
  demo: 'PLATFORM_DEMO',
};
/** The status a refusal answers with: the seller's keys (422), the platform down (502) or asking to slow down (429, with its wait). */
const REFUSAL_STATUS = { wrong: 422, expired: 422, scope: 422, unreachable: 502, busy: 429 } as const;

const idParams = z.object({ id: z.uuid() });
const productsParams = z.object({ platform: z.enum(PLATFORMS) });
const productsQuery = z.object({
  connection: z.uuid(),
  q: z.string().trim().max(200).default(''),
  cursor: z.string().max(2000).optional(),
});

/** A platform's refusal as the error the seller reads, naming the platform and where its keys are made. */
function refusalError(error: StoreRefused, platform: Platform, locale: string): HttpError {
  const { date, scope, seconds } = error.vars;
  return new HttpError(REFUSAL_STATUS[error.refusal], `STORE_${error.refusal.toUpperCase()}`, REFUSALS[error.refusal], {
    platform: PLATFORM_NAMES[platform],
    place: KEY_PLACES[platform],
    ...(date ? { date: date.toLocaleDateString(locale) } : {}),
    ...(scope ? { scope } : {}),
    ...(seconds ? { seconds } : {}),
  });
}

export const publisherRoutes: FastifyPluginAsyncZod = async (app) => {
  const options = app.config.publisher;
  const connections = storeConnectionsOf(app.database.db, app.secretsKey);
  const published = publicationsOf(app.database.db, (key) => app.storage.get(key, MAIN_PICTURE_BYTES));
  const offered = PLATFORMS.filter((platform) => platform !== 'demo' || options.demoStore);
  /** Where a publication can go: a demo connection left from when the demo was on goes nowhere. */
  const publishing = new Set<Platform>(offered);
  const demo = demoStoreOf(app.database.db, app.storage);
  const publicUrl = isPublicUrl(app.config.publicUrl);

  app.get(
    '/platforms',
    {
      schema: { summary: 'The marketplaces a store can be connected on, their keys and their rules for media', tags: ['publisher'], security: [{ bearer: [] }], response: publisherResponses.platforms },
      onRequest: app.requireUser,
    },
    async (request) => {
      const mine = await connections.list(currentUser(request).user.id);
      const data: PlatformInfo[] = offered.map((platform) => {
        const rules = MEDIA_RULES[platform];
        return {
          id: platform,
          fields: [...PLATFORM_FIELDS[platform]],
          connected: mine.some((connection) => connection.platform === platform),
          rules: {
            max_images: rules.maxImages,
            min_width: rules.minWidth,
            min_height: rules.minHeight,
            max_image_bytes: rules.maxImageBytes,
            formats: [...rules.formats],
            max_video_bytes: rules.maxVideoBytes,
            replaces_all: rules.replacesAll,
            white_main: rules.whiteMain,
          },
          needs_public_url: rules.needsPublicUrl,
          public_url_reachable: publicUrl,
          demo: platform === 'demo',
        };
      });
      return { code: 200, message: translate(request.locale, 'OK'), data };
    },
  );

  app.post(
    '/auth',
    {
      schema: {
        summary: 'Connect a store: its keys are checked with the platform, then kept sealed',
        tags: ['publisher'],
        security: [{ bearer: [] }],
        body: connectRequestSchema,
        response: publisherResponses.connect,
      },
      onRequest: app.requireUser,
    },
    async (request, reply) => {
      const { user } = currentUser(request);
      const platform = request.body.platform;
      if (!offered.includes(platform)) throw new HttpError(404, 'DEMO_STORE_OFF', 'DEMO_STORE_OFF');
      await app.limit(`publisher-connect:user:${user.id}`, CONNECTS_PER_HOUR);
      let account;
      try {
        account = await checkKeys(options, request.body);
      } catch (error) {
        if (!(error instanceof StoreRefused)) throw error;
        request.log.info({ platform, refusal: error.refusal, detail: error.detail }, 'the platform refused the keys');
        throw refusalError(error, platform, request.locale);
      }
      const connection = await connections.keep(user.id, request.body, account);
      if (platform === 'demo') await demo.seed(user.id, request.locale);
      return reply.code(201).send({ code: 201, message: translate(request.locale, 'STORE_CONNECTED', { account: connection.account_name }), data: connection });
    },
  );

  app.get(
    '/auth',
    {
      schema: { summary: 'The stores the seller connected (nothing of their keys but the last four characters)', tags: ['publisher'], security: [{ bearer: [] }], response: publisherResponses.connections },
      onRequest: app.requireUser,
    },
    async (request) => ({ code: 200, message: translate(request.locale, 'OK'), data: await connections.list(currentUser(request).user.id) }),
  );

  app.delete(
    '/auth/:id',
    {
      schema: { summary: 'Disconnect a store and delete its keys', tags: ['publisher'], security: [{ bearer: [] }], params: idParams, response: publisherResponses.disconnect },
      onRequest: app.requireUser,
    },
    async (request) => {
      if (!(await connections.remove(currentUser(request).user.id, request.params.id))) throw new HttpError(404, 'STORE_NOT_FOUND', 'STORE_NOT_FOUND');
      return { code: 200, message: translate(request.locale, 'STORE_DISCONNECTED'), data: null };
    },
  );

  app.get(
    '/platforms/:platform/products',
    {
      schema: {
        summary: 'A page of the product cards on a connected store, searchable by article',
        tags: ['publisher'],
        security: [{ bearer: [] }],
        params: productsParams,
        querystring: productsQuery,
        response: publisherResponses.products,
      },
      onRequest: app.requireUser,
    },
    async (request) => {
      const { platform } = request.params;
      if (!offered.includes(platform)) throw new HttpError(404, 'DEMO_STORE_OFF', 'DEMO_STORE_OFF');
      const { connection: id, q, cursor } = request.query;
      const found = await connections.withKeys(currentUser(request).user.id, id).catch((error: unknown) => {
        // Keys sealed under another server key (SECRETS_KEY changed, or differs between nodes): the seller connects again.
        if (error instanceof SecretsKeyMismatch || error instanceof SecretDamaged) throw new HttpError(409, 'STORE_KEYS_UNREADABLE', 'STORE_KEYS_UNREADABLE');
        throw error;
      });
      if (!found || found.connection.platform !== platform) throw new HttpError(404, 'STORE_NOT_FOUND', 'STORE_NOT_FOUND');
      try {
        const data = platform === 'demo' ? await demo.products(currentUser(request).user.id, q, cursor ?? null) : await listProducts(options, platform, found.keys, q, cursor ?? null);
        return { code: 200, message: translate(request.locale, 'OK'), data };
      } catch (error) {
        if (error instanceof BadCursor) throw new HttpError(400, 'VALIDATION_FAILED', 'VALIDATION_FAILED', { fields: 'cursor' });
        if (!(error instanceof StoreRefused)) throw error;
        request.log.info({ platform, refusal: error.refusal, detail: error.detail }, 'the platform refused a products page');
        // Keys refused after they were kept: the store is marked, so the seller sees which one needs new keys.
        if (REFUSAL_STATUS[error.refusal] === 422) await connections.markInvalid(id);
        throw refusalError(error, platform, request.locale);
      }
    },
  );

  app.post(
    '/publish',
    {
      schema: {
        summary: 'Publish results onto a product card of a connected store (once per Idempotency-Key); each picture is checked against the platform’s rules first',
        tags: ['publisher'],
        security: [{ bearer: [] }],
        headers: idempotencyHeadersSchema,
        body: publishRequestSchema,
        response: publisherResponses.publish,
      },
      onRequest: app.requireUser,
    },
    async (request, reply) => {
      const userId = currentUser(request).user.id;
      const key = idempotencyKeyRule.safeParse(request.headers['idempotency-key']);
      if (!key.success) throw new HttpError(400, 'IDEMPOTENCY_KEY_REQUIRED', 'IDEMPOTENCY_KEY_REQUIRED');
      await app.limit(`publisher-publish:user:${userId}`, PUBLISHES_PER_HOUR);
      let started;
      try {
        started = await published.start(userId, key.data, request.body, request.locale, publishing);
      } catch (error) {
        if (error instanceof PublicationConflict) throw new HttpError(409, 'IDEMPOTENCY_MISMATCH', 'IDEMPOTENCY_MISMATCH');
        throw error;
      }
      if (!started) throw new HttpError(404, 'STORE_NOT_FOUND', 'STORE_NOT_FOUND');
      if (started.created) app.generation.wake();
      return reply.code(started.created ? 201 : 200).send({ code: started.created ? 201 : 200, message: translate(request.locale, 'PUBLISH_STARTED'), data: started.publication });
    },
  );

  app.get(
    '/publish/:id',
    {
      schema: { summary: 'A publication and where each of its pictures stands', tags: ['publisher'], security: [{ bearer: [] }], params: idParams, response: publisherResponses.publication },
      onRequest: app.requireUser,
    },
    async (request) => {
      const publication = await published.get(currentUser(request).user.id, request.params.id);
      if (!publication) throw new HttpError(404, 'NOT_FOUND', 'NOT_FOUND');
      return { code: 200, message: translate(request.locale, 'OK'), data: publication };
    },
  );

  app.get(
    '/publish',
    {
      schema: { summary: 'The seller’s publications, newest first', tags: ['publisher'], security: [{ bearer: [] }], querystring: pageQuery, response: publisherResponses.publications },
      onRequest: app.requireUser,
    },
    async (request) => {
      const { page, page_size: pageSize } = request.query;
      const { rows, total } = await published.list(currentUser(request).user.id, page, pageSize);
      return { code: 200, message: translate(request.locale, 'OK'), data: rows, meta: { total, page, total_pages: Math.ceil(total / pageSize) } };
    },
  );
};
