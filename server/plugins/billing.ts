// Billing services (DESIGN §4 Billing): the provider behind the card and the local provider
// (Stripe and YooKassa when their keys are set; without them the embedded sandbox only where
// PAYMENTS_SANDBOX lets it run, otherwise none, and nothing is sold through it), the payments,
// the reconciliation of payments left pending (every minute where jobs run), and the wallet
// events that tell a seller's open pages a top-up landed — on every node: on PostgreSQL through
// NOTIFY, on the embedded database (one process) directly.
import crypto from 'node:crypto';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { sql } from 'drizzle-orm';
import { eq } from 'drizzle-orm';
import { createPayments, type Payments } from '../billing/payments';
import { createSubscriptions, type SubscriptionMail, type Subscriptions } from '../billing/subscriptions';
import { users } from '../db/schema';
import { subscriptionMail } from '../mail/templates';
import { DEFAULT_LOCALE, isLocale } from '../../contract/locales';
import { sandboxProvider, type Sandbox } from '../billing/providers/sandbox';
import { ProviderAbsent, isPaymentEvent, providerNamed, type Notification, type PaymentProvider, type ProviderName, type Providers } from '../billing/provider';
import type { Config } from '../config/env';
import { SANDBOX_CHECKOUT_PATH } from '../../contract/routes';
import { PAYMENT_METHODS, providerOfMethod, type WalletEvent } from '../../contract/billing';

export interface Billing {
  payments: Payments;
  subscriptions: Subscriptions;
  /** The provider behind each of the page's provider names; a name without keys (and no sandbox) is absent. */
  providers: Providers;
  /** The embedded sandbox, when either provider is it. */
  sandbox: Sandbox | null;
  /** Asks the providers about pending payments now, as if the time were `at`. */
  reconcile(at?: Date): Promise<number>;
  /** Verifies a provider's notification and applies each event it holds; how many changed anything. `log`: the request's. */
  notify(provider: ProviderName, notification: Notification, log?: FastifyBaseLogger): Promise<number>;
}

declare module 'fastify' {
  interface FastifyInstance {
    billing: Billing;
  }
}

export const RECONCILE_EVERY_MS = 60_000;
const FIRST_RECONCILE_MS = 30_000;
/** The PostgreSQL NOTIFY channel of changed wallets; the payload is the seller's id. */
const WALLET_EVENTS_CHANNEL = 'solestudio_wallet_events';
export const SANDBOX_WEBHOOK_PATH = '/api/v1/payment/webhooks/sandbox';

/**
 * Says at start-up which provider serves each payment method, and whether money moves through it:
 * loudly where the sandbox runs at an address sellers could reach.
 */
function logProviders(log: FastifyBaseLogger, providers: Providers, config: Config) {
  const served = PAYMENT_METHODS.map((method) => {
    const provider = providers[providerOfMethod(method)];
    if (!provider) return `${method}: none`;
    const mode = provider.name === 'sandbox' ? 'sandbox, no money moves' : provider.live ? 'live' : 'test keys';
    return `${method}: ${provider.name} (${mode})`;
  });
  log.info(`payment methods: ${served.join('; ')}`);
  if (!providers.card && !providers.localpay) log.warn('no payment provider is configured: buying tokens and plans is not available on this server (set STRIPE_* or YOOKASSA_*)');
  if (config.sandboxWarning) {
    log.warn(`PAYMENTS_SANDBOX is on at ${config.publicUrl}: every payment through the sandbox is a test, no money moves, and its tokens are free; every page says so`);
  }
}

export const billingPlugin = fp(
  async (app: FastifyInstance) => {
    const { config } = app;
    const db = app.database.db;

    let sandbox: Sandbox | null = null;
    const theSandbox = () =>
      (sandbox ??= sandboxProvider({
        db,
        secret: crypto.createHmac('sha256', app.signingKey).update('sandbox-notifications').digest(),
        pagesUrl: `${config.publicUrl}${SANDBOX_CHECKOUT_PATH}`,
        deliveryDelaysMs: [config.sandboxNotifyDelayMs, config.sandboxNotifyDelayMs * 3],
        // The sandbox posts to our webhook through the whole HTTP stack, as a provider would.
        deliver: async ({ body, headers }) => (await app.inject({ method: 'POST', url: SANDBOX_WEBHOOK_PATH, payload: body, headers })).statusCode,
      }));
    // A real provider's client loads only where it is configured; without its keys the sandbox
    // stands in only where nobody can be charged, otherwise the provider is absent.
    const card: PaymentProvider | undefined = config.stripe
      ? (await import('../billing/providers/stripe')).stripeProvider({
          secretKey: config.stripe.secretKey,
          webhookSecret: config.stripe.webhookSecret,
          apiBase: config.stripe.apiBase,
        })
      : config.paymentsSandbox
        ? theSandbox()
        : undefined;
    const localpay: PaymentProvider | undefined = config.yookassa
      ? (await import('../billing/providers/yookassa')).yookassaProvider({
          shopId: config.yookassa.shopId,
          secretKey: config.yookassa.secretKey,
          apiUrl: config.yookassa.apiUrl,
          // A notification naming a payment we never made is answered without asking YooKassa.
          knows: async (providerPaymentId) => {
            const found = await db.execute(sql`
              SELECT 1 FROM payments WHERE provider = 'yookassa' AND provider_payment_id = ${providerPaymentId}
              UNION ALL SELECT 1 FROM mandates WHERE provider = 'yookassa' AND provider_mandate_id = ${providerPaymentId}
              UNION ALL SELECT 1 FROM subscription_charges WHERE provider_payment_id = ${providerPaymentId}
              LIMIT 1`);
            return (found as unknown as { rows: unknown[] }).rows.length > 0;
          },
        })
      : config.paymentsSandbox
        ? theSandbox()
        : undefined;
    const providers: Providers = { ...(card ? { card } : {}), ...(localpay ? { localpay } : {}) };
    logProviders(app.log, providers, config);

    const announce = async (userId: string) => {
      if (app.generation.events.listenerCount(userId) === 0) return;
      const event: WalletEvent = { type: 'wallet_updated', total_tokens: await app.ledger.balanceOf(userId) };
      app.generation.events.emit(userId, event);
    };
    const warn = (error: unknown) => app.log.warn({ err: error }, 'announcing a balance failed');
    const listen = app.database.listen;
    const walletChanged = (userId: string) => {
      const notice = listen ? db.execute(sql`SELECT pg_notify(${WALLET_EVENTS_CHANNEL}, ${userId})`).then(() => undefined) : announce(userId);
      notice.catch(warn);
    };

    const metrics = app.metrics;
    const payments = createPayments({
      db,
      ledger: app.ledger,
      log: app.log,
      prices: config.prices,
      providers,
      publicUrl: config.publicUrl,
      walletChanged,
      stepped: metrics ? (provider, step) => metrics.payment(provider, step) : undefined,
    });
    const mail = (userId: string, message: SubscriptionMail) => {
      void (async () => {
        const [user] = await db.select({ email: users.email, username: users.username, locale: users.locale }).from(users).where(eq(users.id, userId));
        if (!user) return;
        const locale = isLocale(user.locale) ? user.locale : DEFAULT_LOCALE;
        const rendered = subscriptionMail(locale, user.username, message, `${config.publicUrl}/subscription/manage`);
        app.sendMailLater({ to: user.email, ...rendered });
      })().catch((error: unknown) => app.log.error({ err: error }, 'a subscription mail could not be sent'));
    };
    const subscriptions = createSubscriptions({
      db,
      ledger: app.ledger,
      log: app.log,
      prices: config.prices,
      providers,
      publicUrl: config.publicUrl,
      walletChanged,
      mail,
    });

    const notify = async (name: ProviderName, notification: Notification, log?: FastifyBaseLogger) => {
      const provider = providerNamed(providers, name);
      if (!provider) throw new ProviderAbsent(name);
      let changed = 0;
      for (const event of await provider.parseNotification(notification)) {
        const onPayment = isPaymentEvent(event) || (event.kind === 'disputed' && event.on === 'payment');
        if (await (onPayment ? payments.apply(name, event, log) : subscriptions.apply(name, event))) changed += 1;
      }
      return changed;
    };

    app.decorate('billing', {
      providers,
      payments,
      subscriptions,
      sandbox,
      notify,
      reconcile: async (at?: Date) => {
        const asked = await payments.reconcile(at);
        const run = await subscriptions.run(at);
        return asked + run.renewed;
      },
    });

    const stopListening = listen?.(WALLET_EVENTS_CHANNEL, (userId) => void announce(userId).catch(warn), () => undefined);

    let timer: NodeJS.Timeout | undefined;
    if (config.runJobs) {
      const schedule = (delay: number) => {
        timer = setTimeout(() => {
          app.billing
            .reconcile()
            .catch((error: unknown) => app.log.warn({ err: error }, 'reconciling payments failed'))
            .finally(() => schedule(RECONCILE_EVERY_MS));
        }, delay);
        timer.unref();
      };
      app.addHook('onReady', async () => schedule(FIRST_RECONCILE_MS));
    }
    app.addHook('onClose', async () => {
      clearTimeout(timer);
      sandbox?.close();
      await stopListening?.();
    });
  },
  { name: 'billing', dependencies: ['auth', 'generation', 'metrics'] },
);
