// /api/v1/payment (SPEC §7 Local payment provider: payment status): a seller's payment as it
// stands (pending, completed or failed), under the page's name for its provider (`localpay`, or
// `card`), and the webhooks each provider notifies. A notification is read from its exact bytes
// (a signature covers them) and trusted only as the provider's adapter verifies it.
import { z } from 'zod';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { paymentResponses } from '../../../contract/responses';
import { CLIENT_PROVIDERS, type Payment } from '../../../contract/billing';
import { translate } from '../../lib/i18n';
import { HttpError } from '../../lib/errors';
import { currentUser } from '../../plugins/auth';
import { isIPv6 } from 'node:net';
import { NotificationRejected, PROVIDER_NAMES, type ProviderName } from '../../billing/provider';
import type { WebhookOutcome } from '../../metrics/metrics';
import type { PaymentRow } from '../../billing/payments';

/** A notification is small; anything larger is not one. */
const WEBHOOK_BODY_LIMIT = 256 * 1024;
/** Notifications one address may send a minute to a provider's webhook that costs API reads. */
const NOTIFICATIONS_PER_MINUTE = { max: 300, windowMs: 60_000 };

/** What the metrics call a notification that was not applied, by the answer it got. */
function webhookOutcomeOf(error: unknown): WebhookOutcome {
  const status = error instanceof HttpError ? error.statusCode : 500;
  if (status === 404) return 'absent';
  if (status === 429) return 'limited';
  return status < 500 ? 'rejected' : 'error';
}

function paymentView(row: PaymentRow): Payment {
  return {
    id: row.id,
    status: row.status,
    token_amount: row.tokens,
    amount: row.amountMinor,
    currency: row.currency as Payment['currency'],
    method: row.method as Payment['method'],
    failure_reason: (row.failureReason as Payment['failure_reason']) ?? null,
    created_at: row.createdAt.toISOString(),
  };
}

export const paymentRoutes: FastifyPluginAsyncZod = async (app) => {
  const trustedYooKassa = app.config.yookassa?.trustedIps ?? null;
  /**
   * Who sent a notification: the connection's address or, behind our proxy (TRUST_PROXY), the
   * address the proxy saw — the last X-Forwarded-For entry, the one it added. The entries before
   * it are whatever the caller wrote: read as the sender, they would let anyone pass as YooKassa
   * and dodge the limit by writing another address each time.
   */
  const senderOf = (request: FastifyRequest) => (app.config.trustProxy ? (request.ips?.[1] ?? request.ip) : request.ip);
  app.get(
    '/mode',
    {
      schema: {
        summary: 'Which provider serves each payment path, and whether payments are a sandbox where no money moves',
        tags: ['payments'],
        response: paymentResponses.mode,
      },
    },
    async (request) => {
      const { providers } = app.billing;
      return {
        code: 200,
        message: translate(request.locale, 'OK'),
        data: {
          sandbox: app.billing.sandbox !== null,
          warning: app.config.sandboxWarning,
          providers: { card: providers.card?.name ?? null, localpay: providers.localpay?.name ?? null },
        },
      };
    },
  );

  app.get(
    '/:provider/status/:id',
    {
      schema: {
        summary: 'A payment’s status: pending, completed or failed',
        tags: ['payments'],
        security: [{ bearer: [] }],
        params: z.object({ provider: z.enum(CLIENT_PROVIDERS), id: z.uuid() }),
        response: paymentResponses.status,
      },
      onRequest: app.requireUser,
    },
    async (request) => {
      const { user } = currentUser(request);
      const payment = await app.billing.payments.statusOf(user.id, request.params.id, request.log);
      if (!payment) throw new HttpError(404, 'NOT_FOUND', 'NOT_FOUND');
      return { code: 200, message: translate(request.locale, 'OK'), data: paymentView(payment) };
    },
  );

  /** Verifies a provider's notification and applies it; how many payments or subscriptions it changed. */
  const receive = async (request: FastifyRequest, provider: ProviderName): Promise<number> => {
    // A provider this server does not use has no webhook here at all.
    if (!Object.values(app.billing.providers).some((candidate) => candidate.name === provider)) {
      throw new HttpError(404, 'ROUTE_NOT_FOUND', 'ROUTE_NOT_FOUND', { method: request.method, url: request.url.split('?')[0] ?? '' });
    }
    if (provider === 'yookassa') {
      // YooKassa signs nothing and every notification costs API reads: only its own addresses
      // (when the operator lists them), and not too often from any one address.
      const sender = senderOf(request);
      if (trustedYooKassa && !trustedYooKassa.check(sender, isIPv6(sender) ? 'ipv6' : 'ipv4')) {
        request.log.warn({ ip: sender }, 'a YooKassa notification came from an address not in YOOKASSA_TRUSTED_IPS');
        throw new HttpError(403, 'NOTIFICATION_REJECTED', 'NOTIFICATION_REJECTED');
      }
      await app.limit(`webhook:${provider}:ip:${sender}`, NOTIFICATIONS_PER_MINUTE);
    }
    const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
    try {
      return await app.billing.notify(provider, { body, headers: request.headers }, request.log);
    } catch (error) {
      if (error instanceof NotificationRejected) {
        // Why is for our log; an anonymous caller learns nothing of the provider's answer.
        request.log.warn({ provider, reason: error.message }, 'a payment notification was rejected');
        throw new HttpError(400, 'NOTIFICATION_REJECTED', 'NOTIFICATION_REJECTED');
      }
      throw error;
    }
  };

  await app.register(async (webhooks) => {
    // Every provider notifies in JSON; its body is kept as the bytes that arrived.
    webhooks.removeAllContentTypeParsers();
    webhooks.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT }, (_request, body, done) => done(null, body));

    webhooks.withTypeProvider<ZodTypeProvider>().post(
      '/webhooks/:provider',
      {
        schema: {
          summary: 'Notifications from a payment provider (sandbox, stripe, yookassa)',
          tags: ['payments'],
          params: z.object({ provider: z.enum(PROVIDER_NAMES) }),
          response: paymentResponses.webhook,
        },
      },
      async (request) => {
        const { provider } = request.params;
        try {
          const changed = await receive(request, provider);
          app.metrics?.webhook(provider, changed > 0 ? 'applied' : 'unchanged');
          return { code: 200, message: translate(request.locale, 'OK'), data: { changed } };
        } catch (error) {
          app.metrics?.webhook(provider, webhookOutcomeOf(error));
          throw error;
        }
      },
    );
  });
};
