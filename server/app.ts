// Builds the SoleStudio API server as a Fastify instance without listening, so tests call
// `app.inject()` and server.ts adds the port. Plugins load in a fixed order: external, then
// the app's services, then routes.
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import compress from '@fastify/compress';
import {
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { Config } from './config/env';
import type { DatabaseHandle } from './db/client';
import { createLedger, type Ledger } from './ledger/ledger';
import { loadSecretsKey, type SecretsKey } from './publisher/secrets';
import { requestIdOf, withSafeRequests } from './lib/log';
import { localePlugin } from './plugins/locale';
import { errorsPlugin, sendRouteNotFound } from './plugins/errors';
import { metricsPlugin } from './plugins/metrics';
import { securityPlugin } from './plugins/security';
import { rateLimitPlugin } from './plugins/rate-limit';
import { docsPlugin } from './plugins/docs';
import { hasWebBuild, inlineScriptHashes, webPlugin } from './plugins/web';
import { authPlugin } from './plugins/auth';
import { mailPlugin } from './plugins/mail';
import { storagePlugin } from './plugins/storage';
import { generationPlugin } from './plugins/generation';
import { billingPlugin } from './plugins/billing';
import { materialSweepPlugin } from './plugins/material-sweep';
import { listCountsPlugin } from './plugins/list-counts';
import { backupSocketPlugin } from './plugins/backup-socket';
import { healthRoutes } from './routes/health';
import { authRoutes } from './routes/v1/auth';
import { assetRoutes } from './routes/v1/assets';
import { feedbackRoutes } from './routes/v1/feedback';
import { tokenRoutes } from './routes/v1/tokens';
import { materialRoutes } from './routes/v1/materials';
import { storageRoutes } from './routes/v1/storage';
import { shoeVerificationRoutes } from './routes/v1/shoe-verification';
import { contentRoutes } from './routes/v1/content';
import { eventRoutes } from './routes/v1/events';
import { publisherRoutes } from './routes/v1/publisher';
import { localPayRoutes, subscriptionRoutes } from './routes/v1/subscription';
import { paymentRoutes } from './routes/v1/payments';
import { sandboxCheckoutRoutes } from './routes/sandbox-checkout';
import { SANDBOX_CHECKOUT_PATH } from '../contract/routes';
import pkg from '../package.json' with { type: 'json' };

declare module 'fastify' {
  interface FastifyInstance {
    database: DatabaseHandle;
    config: Config;
    ledger: Ledger;
    /** The key store keys are sealed with (SECRETS_KEY, or the data directory's key file), read once. */
    secretsKey: SecretsKey;
  }
}

export interface AppOptions {
  config: Config;
  database: DatabaseHandle;
  logger?: FastifyServerOptions['logger'];
  /** `worker` for `npm run worker` (its metrics say so); the API server otherwise. */
  role?: 'api' | 'worker';
}

/**
 * Every route is checked and answered through its zod schemas, so Fastify's own compilers (Ajv and
 * fast-json-stringify) are never loaded: they cost start-up time and would do nothing here. Their
 * factories' types are Ajv's; zod's compilers take the same route definitions.
 */
const ZOD_COMPILERS = {
  buildValidator: () => validatorCompiler,
  buildSerializer: () => serializerCompiler,
} as unknown as NonNullable<FastifyServerOptions['schemaController']>['compilersFactory'];

export async function buildApp({ config, database, logger, role = 'api' }: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: withSafeRequests(logger ?? { level: config.logLevel }),
    trustProxy: config.trustProxy,
    // Request ids in every line a request logs and in the x-request-id header help match a
    // seller's report to a log line; a proxy's own id (X-Request-Id) is kept when it is a plain one.
    genReqId: requestIdOf,
    requestIdHeader: false,
    routerOptions: { ignoreTrailingSlash: true },
    schemaController: { compilersFactory: ZOD_COMPILERS },
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('config', config);
  app.decorate('database', database);
  app.decorate('ledger', createLedger(database.db));
  app.decorate('secretsKey', loadSecretsKey(config.publisher.secretsKey, config.dataDir));
  // The app closes the database it was given. onClose hooks run in reverse order of
  // registration: registered first, this runs last, once the job runner has stopped.
  app.addHook('onClose', () => database.close());
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });

  const web = hasWebBuild(config.staticDir);

  // External plugins.
  await app.register(localePlugin);
  await app.register(errorsPlugin);
  await app.register(metricsPlugin, { version: pkg.version, role });
  await app.register(securityPlugin, {
    scriptHashes: web ? inlineScriptHashes(config.staticDir) : [],
    https: config.publicUrl.startsWith('https://'),
    storageOrigins: config.s3 ? [await (await import('./storage/s3')).bucketOrigin(config.s3)] : [],
  });
  await app.register(compress, { global: true, threshold: 1024 });
  await app.register(rateLimitPlugin, { db: database.db, disabled: config.rateLimitDisabled });
  await app.register(docsPlugin, { version: pkg.version, publicUrl: config.publicUrl });

  // App services.
  await app.register(authPlugin);
  await app.register(mailPlugin);
  await app.register(storagePlugin);
  await app.register(generationPlugin);
  await app.register(materialSweepPlugin);
  await app.register(listCountsPlugin);
  await app.register(billingPlugin);
  await app.register(backupSocketPlugin);

  // Routes.
  await app.register(healthRoutes, { prefix: '/api', version: pkg.version, database: database.kind });
  await app.register(authRoutes, { prefix: '/api/v1/auth' });
  await app.register(feedbackRoutes, { prefix: '/api/v1/feedback' });
  await app.register(tokenRoutes, { prefix: '/api/v1/tokens' });
  await app.register(materialRoutes, { prefix: '/api/v1/materials' });
  await app.register(storageRoutes, { prefix: '/api/v1/storage', root: config.filesDir });
  await app.register(shoeVerificationRoutes, { prefix: '/api/v1/shoe-verification' });
  await app.register(contentRoutes, { prefix: '/api/v1/content' });
  await app.register(assetRoutes, { prefix: '/api/v1/content/assets' });
  await app.register(eventRoutes, { prefix: '/api/v1/events' });
  await app.register(paymentRoutes, { prefix: '/api/v1/payment' });
  await app.register(subscriptionRoutes, { prefix: '/api/v1/subscription' });
  await app.register(localPayRoutes, { prefix: '/api/v1/localpay' });
  await app.register(publisherRoutes, { prefix: '/api/v1/publisher' });
  if (app.billing.sandbox) await app.register(sandboxCheckoutRoutes, { prefix: SANDBOX_CHECKOUT_PATH, sandbox: app.billing.sandbox });

  if (web) await app.register(webPlugin, { staticDir: config.staticDir });
  else app.setNotFoundHandler(sendRouteNotFound);

  return app;
}
