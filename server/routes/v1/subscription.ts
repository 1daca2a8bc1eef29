// /api/v1/subscription (SPEC §7 Subscription) and /api/v1/localpay (SPEC §7 Local payment
// provider: customers, mandates, subscriptions): thin routes over the subscriptions of
// server/billing, every object scoped to the caller (another seller's id answers 404).
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { localPayResponses, subscriptionResponses } from '../../../contract/responses';
import {
  customerSchema,
  localSubscriptionRequestSchema,
  mandateQuerySchema,
  mandateRequestSchema,
  subscriptionCreateSchema,
  subscriptionQuerySchema,
  subscriptionUpdateSchema,
  type Mandate,
  type Subscription,
} from '../../../contract/billing';
import type { Locale } from '../../../contract/locales';
import { text } from '../../../contract/text';
import { idempotencyHeadersSchema, idempotencyKeyRule } from '../../../contract/materials';
import { translate } from '../../lib/i18n';
import { HttpError } from '../../lib/errors';
import { currentUser } from '../../plugins/auth';
import type { MandateRow, Subscriptions, SubscriptionRow } from '../../billing/subscriptions';

/** Checkouts and mandates one seller may start in an hour: plenty for a person, few for a script. */
const STARTS_PER_HOUR = { max: 30, windowMs: 60 * 60 * 1000 };

export function subscriptionView(subscriptions: Subscriptions, row: SubscriptionRow, locale: Locale): Subscription {
  return {
    id: row.id,
    status: row.status,
    cancel_at: row.cancelAt?.toISOString() ?? null,
    provider: row.client === 'card' ? 'card' : 'localpay',
    current_period_end: row.currentPeriodEnd?.toISOString() ?? null,
    plan: subscriptions.planOf(row, locale),
    mandate_id: row.mandateId,
    created_at: row.createdAt.toISOString(),
  };
}

function mandateView(row: MandateRow): Mandate {
  return {
    id: row.id,
    status: row.status,
    payment_method: row.method as Mandate['payment_method'],
    redirect_url: row.redirectUrl,
    created_at: row.createdAt.toISOString(),
  };
}

const bearer = [{ bearer: [] }];

/**
 * The seller's Idempotency-Key of an upgrade: the same key answers the same upgrade, charged once.
 * Without one every request is its own (two at once are still refused by the upgrade's lease).
 */
function upgradeKey(request: FastifyRequest): string {
  const sent = request.headers['idempotency-key'];
  if (sent === undefined) return crypto.randomUUID();
  const key = idempotencyKeyRule.safeParse(sent);
  if (!key.success) throw new HttpError(400, 'IDEMPOTENCY_KEY_REQUIRED', 'IDEMPOTENCY_KEY_REQUIRED');
  return key.data;
}

export const subscriptionRoutes: FastifyPluginAsyncZod = async (app) => {
  const subscriptions = () => app.billing.subscriptions;
  const ok = (request: FastifyRequest, key: Parameters<typeof translate>[1] = 'OK') => translate(request.locale, key);

  app.get(
    '/plans',
    { schema: { summary: 'The subscription plans, at each interval', tags: ['subscription'], response: subscriptionResponses.plans } },
    async (request) => ({ code: 200, message: ok(request), data: subscriptions().plans(request.locale) }),
  );

  app.get(
    '/my',
    {
      schema: {
        summary: "The seller's subscription; with none, data null and error SUBSCRIPTION_NOT_FOUND (still a 200)",
        tags: ['subscription'],
        security: bearer,
        response: subscriptionResponses.mine,
      },
      onRequest: app.requireUser,
    },
    async (request) => {
      const row = await subscriptions().mine(currentUser(request).user.id);
      if (!row) return { code: 200 as const, error: 'SUBSCRIPTION_NOT_FOUND' as const, message: ok(request, 'SUBSCRIPTION_NOT_FOUND'), data: null };
      return { code: 200, message: ok(request), data: subscriptionView(subscriptions(), row, request.locale) };
    },
  );

  app.post(
    '/create',
    {
      schema: {
        summary: 'Subscribes through the card provider: answers its checkout page',
        tags: ['subscription'],
        security: bearer,
        body: subscriptionCreateSchema,
        response: subscriptionResponses.create,
      },
      onRequest: app.requireUser,
    },
    async (request) => {
      const { user } = currentUser(request);
      await app.limit(`subscribe:user:${user.id}`, STARTS_PER_HOUR);
      const started = await subscriptions().createWithCard(user.id, request.body, { locale: request.locale, email: user.email });
      return { code: 200, message: ok(request, 'PAYMENT_STARTED'), data: { redirect_url: started.redirectUrl, session_id: started.sessionId } };
    },
  );

  app.get(
    '/checkout-session/:id',
    {
      schema: {
        summary: "The card provider's subscription checkout as it stands",
        tags: ['subscription'],
        security: bearer,
        params: z.object({ id: text().min(1).max(255) }),
        response: subscriptionResponses.checkoutSession,
      },
      onRequest: app.requireUser,
    },
    async (request) => {
      const session = await subscriptions().checkoutSession(currentUser(request).user.id, request.params.id);
      return {
        code: 200,
        message: ok(request),
        data: {
          id: request.params.id,
          status: session.status,
          subscription: session.subscription ? subscriptionView(subscriptions(), session.subscription, request.locale) : null,
        },
      };
    },
  );

  app.post(
    '/cancel',
    {
      schema: {
        summary: 'Cancels the subscription at the end of the paid period',
        tags: ['subscription'],
        security: bearer,
        body: z.object({}).strict().nullish(),
        response: subscriptionResponses.cancel,
      },
      onRequest: app.requireUser,
    },
    async (request) => {
      const row = await subscriptions().cancel(currentUser(request).user.id);
      return { code: 200, message: ok(request, 'SUBSCRIPTION_CANCEL_SCHEDULED'), data: subscriptionView(subscriptions(), row, request.locale) };
    },
  );

  app.post(
    '/update',
    {
      schema: {
        summary: 'Upgrades to a higher plan at once: a new period starts with its tokens',
        tags: ['subscription'],
        security: bearer,
        headers: idempotencyHeadersSchema,
        body: subscriptionUpdateSchema,
        response: subscriptionResponses.update,
      },
      onRequest: app.requireUser,
    },
    async (request) => {
      const { user } = currentUser(request);
      await app.limit(`upgrade:user:${user.id}`, STARTS_PER_HOUR);
      const row = await subscriptions().upgrade(user.id, request.body.plan_id, { requestKey: upgradeKey(request) });
      return { code: 200, message: ok(request, 'SUBSCRIPTION_UPDATED'), data: subscriptionView(subscriptions(), row, request.locale) };
    },
  );
};

export const localPayRoutes: FastifyPluginAsyncZod = async (app) => {
  const subscriptions = () => app.billing.subscriptions;
  const ok = (request: FastifyRequest) => translate(request.locale, 'OK');
  const idParams = z.object({ id: z.uuid() });

  app.post(
    '/customers',
    {
      schema: { summary: "Keeps the seller's billing details", tags: ['localpay'], security: bearer, body: customerSchema, response: localPayResponses.customer },
      onRequest: app.requireUser,
    },
    async (request) => ({ code: 200, message: ok(request), data: await subscriptions().saveCustomer(currentUser(request).user.id, request.body) }),
  );

  app.get(
    '/mandates',
    {
      schema: { summary: "The seller's mandates, filtered", tags: ['localpay'], security: bearer, querystring: mandateQuerySchema, response: localPayResponses.mandates },
      onRequest: app.requireUser,
    },
    async (request) => ({
      code: 200,
      message: ok(request),
      data: (await subscriptions().mandatesOf(currentUser(request).user.id, request.query)).map(mandateView),
    }),
  );

  app.post(
    '/mandates',
    {
      schema: {
        summary: 'Starts authorising automatic payments: answers the page to send the seller to',
        tags: ['localpay'],
        security: bearer,
        body: mandateRequestSchema,
        response: localPayResponses.createMandate,
      },
      onRequest: app.requireUser,
    },
    async (request) => {
      const { user } = currentUser(request);
      await app.limit(`mandate:user:${user.id}`, STARTS_PER_HOUR);
      const row = await subscriptions().createMandate(user.id, request.body, { locale: request.locale, email: user.email });
      return { code: 200, message: ok(request), data: mandateView(row) };
    },
  );

  app.get(
    '/subscriptions',
    {
      schema: { summary: "The seller's subscriptions, filtered", tags: ['localpay'], security: bearer, querystring: subscriptionQuerySchema, response: localPayResponses.subscriptions },
      onRequest: app.requireUser,
    },
    async (request) => {
      const rows = await subscriptions().listLocal(currentUser(request).user.id, request.query);
      return { code: 200, message: ok(request), data: rows.map((row) => subscriptionView(subscriptions(), row, request.locale)) };
    },
  );

  app.post(
    '/subscriptions',
    {
      schema: {
        summary: 'Subscribes through an authorised mandate, charging it for the first period',
        tags: ['localpay'],
        security: bearer,
        body: localSubscriptionRequestSchema,
        response: localPayResponses.subscribe,
      },
      onRequest: app.requireUser,
    },
    async (request) => {
      const { user } = currentUser(request);
      await app.limit(`subscribe:user:${user.id}`, STARTS_PER_HOUR);
      const row = await subscriptions().subscribeWithMandate(user.id, request.body);
      return { code: 200, message: ok(request), data: subscriptionView(subscriptions(), row, request.locale) };
    },
  );

  app.put(
    '/subscriptions/:id',
    {
      schema: {
        summary: 'Changes the plan (upgrade): a new period starts with its tokens',
        tags: ['localpay'],
        security: bearer,
        params: idParams,
        headers: idempotencyHeadersSchema,
        body: subscriptionUpdateSchema,
        response: localPayResponses.change,
      },
      onRequest: app.requireUser,
    },
    async (request) => {
      const { user } = currentUser(request);
      await app.limit(`upgrade:user:${user.id}`, STARTS_PER_HOUR);
      const row = await subscriptions().upgrade(user.id, request.body.plan_id, { id: request.params.id, requestKey: upgradeKey(request) });
      return { code: 200, message: translate(request.locale, 'SUBSCRIPTION_UPDATED'), data: subscriptionView(subscriptions(), row, request.locale) };
    },
  );

  app.post(
    '/subscriptions/:id/cancel',
    {
      schema: {
        summary: 'Cancels at the end of the paid period',
        tags: ['localpay'],
        security: bearer,
        params: idParams,
        body: z.object({}).strict().nullish(),
        response: localPayResponses.cancel,
      },
      onRequest: app.requireUser,
    },
    async (request) => {
      const row = await subscriptions().cancel(currentUser(request).user.id, request.params.id);
      return { code: 200, message: translate(request.locale, 'SUBSCRIPTION_CANCEL_SCHEDULED'), data: subscriptionView(subscriptions(), row, request.locale) };
    },
  );
};
