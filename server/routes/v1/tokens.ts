// /api/v1/tokens (SPEC §7 Tokens): the seller's balance from the ledger's wallet, the price list,
// the payment methods, starting a top-up, and the consumption history (every ledger entry).
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { tokenResponses } from '../../../contract/responses';
import { topUpRequestSchema, type ConsumptionEntry } from '../../../contract/billing';
import { translate } from '../../lib/i18n';
import { currentUser } from '../../plugins/auth';
import { tiersOf } from '../../billing/prices';
import { listAnswer, sendSerialised, serialisedAnswer } from '../../content/list-answers';

/** Checkouts one seller may start in an hour: plenty for a person, few for a script. */
const TOP_UPS_PER_HOUR = { max: 30, windowMs: 60 * 60 * 1000 };
const HISTORY_PAGE_SIZE = 20;

const historyQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce.number().int().min(1).max(100).default(HISTORY_PAGE_SIZE),
});

export const tokenRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.database.db;
  const ok = (locale: Parameters<typeof translate>[0]) => translate(locale, 'OK');

  app.get(
    '/balance',
    {
      schema: { summary: 'The token balance, and when some of it next lapses', tags: ['tokens'], security: [{ bearer: [] }], response: tokenResponses.balance },
      onRequest: app.requireUser,
    },
    async (request, reply) => {
      const { user } = currentUser(request);
      const body = await listAnswer(db, user.id, `balance|${request.locale}`, async () => {
        const wallet = await app.ledger.walletOf(user.id);
        return serialisedAnswer(reply, {
          code: 200,
          message: ok(request.locale),
          data: { total_tokens: wallet.total, expires_at: wallet.expiresAt?.toISOString() ?? null, expiring_tokens: wallet.expiring },
        });
      }, request.contentVersion);
      return sendSerialised(reply, body);
    },
  );

  app.get(
    '/tiers',
    { schema: { summary: 'The token packs: tokens → price in USD', tags: ['tokens'], response: tokenResponses.tiers } },
    async (request) => ({ code: 200, message: ok(request.locale), data: tiersOf(app.config.prices) }),
  );

  app.get(
    '/methods',
    {
      schema: {
        summary: 'The payment methods, each with its provider and the currency it charges in',
        tags: ['tokens'],
        response: tokenResponses.methods,
      },
    },
    async (request) => ({ code: 200, message: ok(request.locale), data: app.billing.payments.methods() }),
  );

  app.post(
    '/topup',
    {
      schema: {
        summary: 'Starts buying a token pack: answers the provider page to send the seller to',
        tags: ['tokens'],
        security: [{ bearer: [] }],
        body: topUpRequestSchema,
        response: tokenResponses.topUp,
      },
      onRequest: app.requireUser,
    },
    async (request) => {
      const { user } = currentUser(request);
      await app.limit(`topup:user:${user.id}`, TOP_UPS_PER_HOUR);
      const started = await app.billing.payments.startTopUp(user.id, request.body, { locale: request.locale, email: user.email, log: request.log });
      return {
        code: 200,
        message: translate(request.locale, 'PAYMENT_STARTED'),
        data: { payment_id: started.paymentId, redirect_url: started.redirectUrl },
      };
    },
  );

  app.get(
    '/history',
    {
      schema: {
        summary: 'The consumption history: every token movement, newest first',
        tags: ['tokens'],
        security: [{ bearer: [] }],
        querystring: historyQuerySchema,
        response: tokenResponses.history,
      },
      onRequest: app.requireUser,
    },
    async (request, reply) => {
      const { user } = currentUser(request);
      const { page, page_size } = request.query;
      const body = await listAnswer(db, user.id, `history|${page}|${page_size}|${request.locale}`, async () => {
        const { entries, total } = await app.ledger.entriesOf(user.id, { page, pageSize: page_size });
        const data: ConsumptionEntry[] = entries.map((entry) => ({
          id: String(entry.id),
          type: entry.type,
          created_at: entry.createdAt.toISOString(),
          amount: entry.amount,
          expires_at: entry.expiresAt?.toISOString() ?? null,
        }));
        return serialisedAnswer(reply, { code: 200, message: ok(request.locale), data, meta: { total, total_pages: Math.ceil(total / page_size), page } });
      }, request.contentVersion);
      return sendSerialised(reply, body);
    },
  );
};
