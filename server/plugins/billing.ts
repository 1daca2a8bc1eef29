// Billing services (DESIGN §4 Billing): the provider behind the card and the local provider
// (Stripe and YooKassa when their keys are set, the embedded sandbox otherwise), the payments,
// the reconciliation of payments left pending (every minute where jobs run), and the wallet
// events that tell a seller's open pages a top-up landed — on every node: on PostgreSQL through
// NOTIFY, on the embedded database (one process) directly.
import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { sql } from 'drizzle-orm';
import { eq } from 'drizzle-orm';
import { createPayments, type Payments } from '../billing/payments';
import { createSubscriptions, type SubscriptionMail, type Subscriptions } from '../billing/subscriptions';
import { users } from '../db/schema';
import { subscriptionMail } from '../mail/templates';
import { DEFAULT_LOCALE, isLocale } from '../../contract/locales';
import { sandboxProvider, type Sandbox } from '../billing/providers/sandbox';
import { NotificationRejected, isPaymentEvent, type Notification, type PaymentProvider, type ProviderName } from '../billing/provider';
import { SANDBOX_CHECKOUT_PATH } from '../../contract/routes';
import type { WalletEvent } from '../../contract/billing';

export interface Billing {
  payments: Payments;
  subscriptions: Subscriptions;
  /** The embedded sandbox, when either provider is it. */
  sandbox: Sandbox | null;
  /** Asks the providers about pending payments now, as if the time were `at`. */
  reconcile(at?: Date): Promise<number>;
  /** Verifies a provider's notification and applies each event it holds; how many changed anything. */
  notify(provider: ProviderName, notification: Notification): Promise<number>;
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
    // A real provider's client loads only where it is configured.
    const card: PaymentProvider = config.stripe
      ? (await import('../billing/providers/stripe')).stripeProvider({
          secretKey: config.stripe.secretKey,
          webhookSecret: config.stripe.webhookSecret,
          apiBase: config.stripe.apiBase,
        })
      : theSandbox();
    const localpay: PaymentProvider = config.yookassa
      ? (await import('../billing/providers/yookassa')).yookassaProvider({
          shopId: config.yookassa.shopId,
          secretKey: config.yookassa.secretKey,
          apiUrl: config.yookassa.apiUrl,
        })
      : theSandbox();
    if (sandbox) {
      const names = [!config.stripe && 'card (STRIPE_SECRET_KEY)', !config.yookassa && 'local (YOOKASSA_SHOP_ID)'].filter(Boolean).join(' and ');
      app.log.info(`payments through the ${names} provider run in the sandbox: no money moves`);
    }

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

    const payments = createPayments({
      db,
      ledger: app.ledger,
      log: app.log,
      prices: config.prices,
      providers: { card, localpay },
      publicUrl: config.publicUrl,
      walletChanged,
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
      providers: { card, localpay },
      publicUrl: config.publicUrl,
      walletChanged,
      mail,
    });

    const notify = async (name: ProviderName, notification: Notification) => {
      const provider = [card, localpay].find((candidate) => candidate.name === name);
      if (!provider) throw new NotificationRejected(`${name} is not configured`);
      let changed = 0;
      for (const event of await provider.parseNotification(notification)) {
        if (await (isPaymentEvent(event) ? payments.apply(name, event) : subscriptions.apply(name, event))) changed += 1;
      }
      return changed;
    };

    app.decorate('billing', {
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
  { name: 'billing', dependencies: ['auth', 'generation'] },
);
