// The card provider, Stripe, through its official SDK: a token pack is a Checkout Session in
// payment mode; its state is the session's (with the PaymentIntent behind it for asynchronous
// methods and refunds); a webhook is trusted only when its Stripe-Signature verifies against the
// endpoint's signing secret. Every SDK error becomes unavailable (try later) or refused.
// A subscription is a Checkout Session in subscription mode with an inline recurring price; Stripe
// then renews and retries by itself, and its invoice and subscription events are read into ours.
// Object shapes differ between API versions (the period moved from the subscription to its items,
// the invoice's subscription under `parent`): both are read.
import Stripe from 'stripe';
import {
  NotificationRejected,
  ProviderRefused,
  type Checkout,
  type CheckoutRequest,
  type PaymentProvider,
  type ProviderEvent,
  type RemotePayment,
  type SubscriptionBilling,
  type SubscriptionCheckoutRequest,
} from '../provider';
import { calling, dateOf, idOf, intentOfInvoice, mapped, paymentIdOf, periodOfSubscription, stripeEventReader } from './stripe-events';

export interface StripeOptions {
  secretKey: string;
  webhookSecret: string;
  /** Another address for the API (a test double), e.g. http://127.0.0.1:12111 */
  apiBase?: string;
  timeoutMs?: number;
}

const STRIPE_LOCALES: Record<string, Stripe.Checkout.SessionCreateParams.Locale> = { ru: 'ru', en: 'en', zh: 'zh' };

/** Adds `session_id={CHECKOUT_SESSION_ID}` to a return address, keeping its query. */
function withSessionId(url: string): string {
  return `${url}${url.includes('?') ? '&' : '?'}session_id={CHECKOUT_SESSION_ID}`;
}

/** The product a plan's prices belong to when a subscription moves to it: one per plan, made once. */
const planProductId = (planId: number) => `solestudio_plan_${planId}`;

export function stripeProvider(options: StripeOptions): PaymentProvider {
  const base = options.apiBase ? new URL(options.apiBase) : null;
  const stripe = new Stripe(options.secretKey, {
    maxNetworkRetries: 2,
    timeout: options.timeoutMs ?? 20_000,
    appInfo: { name: 'SoleStudio' },
    ...(base ? { host: base.hostname, port: Number(base.port) || (base.protocol === 'https:' ? 443 : 80), protocol: base.protocol.replace(':', '') as 'http' | 'https' } : {}),
  });

  const stateOf = (session: Stripe.Checkout.Session): RemotePayment['state'] => {
    if (session.status === 'complete' && (session.payment_status === 'paid' || session.payment_status === 'no_payment_required')) {
      return { status: 'succeeded', amountMinor: session.amount_total ?? 0, currency: (session.currency ?? '').toUpperCase() };
    }
    if (session.status === 'expired') return { status: 'failed', reason: 'expired' };
    const intent = typeof session.payment_intent === 'object' ? session.payment_intent : null;
    if (session.status === 'complete' && intent && (intent.status === 'canceled' || intent.status === 'requires_payment_method')) {
      return { status: 'failed', reason: 'declined' };
    }
    return { status: 'pending' };
  };

  const refundedOf = (session: Stripe.Checkout.Session) => {
    const intent = typeof session.payment_intent === 'object' ? session.payment_intent : null;
    const charge = intent && typeof intent.latest_charge === 'object' ? intent.latest_charge : null;
    return charge?.amount_refunded ?? 0;
  };

  /** The subscription's current state at Stripe. */
  const retrieveSubscription = (id: string) => calling(() => stripe.subscriptions.retrieve(id));
  const readEvent = stripeEventReader(stripe);

  /** The product a plan's price belongs to, made the first time a subscription moves to that plan. */
  const planProduct = async (planId: number, planName: string): Promise<string> => {
    const id = planProductId(planId);
    try {
      await stripe.products.retrieve(id);
      return id;
    } catch (error) {
      if (!(error instanceof Stripe.errors.StripeError) || error.code !== 'resource_missing') throw mapped(error);
    }
    try {
      await stripe.products.create({ id, name: `SoleStudio: ${planName}`, metadata: { plan_id: String(planId) } });
    } catch (error) {
      // Made at the same moment by another request: it is there all the same.
      if (!(error instanceof Stripe.errors.StripeError) || error.code !== 'resource_already_exists') throw mapped(error);
    }
    return id;
  };

  const subscriptions: SubscriptionBilling = {
    async createSubscriptionCheckout(request: SubscriptionCheckoutRequest): Promise<Checkout> {
      const metadata = { subscription_id: request.subscriptionId, plan_id: String(request.planId), user_id: request.userId };
      const session = await calling(() =>
        stripe.checkout.sessions.create(
          {
            mode: 'subscription',
            line_items: [
              {
                quantity: 1,
                price_data: {
                  currency: request.currency.toLowerCase(),
                  unit_amount: request.amountMinor,
                  product_data: { name: `SoleStudio: ${request.planName}` },
                  recurring: { interval: request.interval },
                },
              },
            ],
            // Our return address already names the session ({CHECKOUT_SESSION_ID}), as the success page reads it.
            success_url: request.successUrl,
            cancel_url: request.cancelUrl,
            client_reference_id: request.subscriptionId,
            metadata,
            // Copied onto the subscription, and from it onto every invoice it makes: renewals name our row.
            subscription_data: { metadata },
            locale: STRIPE_LOCALES[request.locale] ?? 'auto',
            ...(request.email ? { customer_email: request.email } : {}),
          },
          { idempotencyKey: `subscription-checkout:${request.subscriptionId}` },
        ),
      );
      if (!session.url) throw new ProviderRefused(`Stripe answered session ${session.id} without a page to pay on`);
      return { providerPaymentId: session.id, redirectUrl: session.url };
    },

    async retrieveSubscriptionCheckout(checkoutId: string) {
      const session = await calling(() => stripe.checkout.sessions.retrieve(checkoutId));
      const status = session.status === 'complete' ? 'complete' : session.status === 'expired' ? 'expired' : 'open';
      return { status, providerSubscriptionId: idOf(session.subscription) } as const;
    },

    async changePlan(providerSubscriptionId, change) {
      const current = await retrieveSubscription(providerSubscriptionId);
      const item = current.items.data[0];
      if (!item) throw new ProviderRefused(`Stripe subscription ${providerSubscriptionId} has no item to change`);
      const product = await planProduct(change.planId, change.planName);
      await calling(() =>
        stripe.subscriptions.update(
          providerSubscriptionId,
          {
            items: [
              {
                id: item.id,
                price_data: { currency: change.currency.toLowerCase(), unit_amount: change.amountMinor, product, recurring: { interval: change.interval } },
              },
            ],
            // Only plan_id changes; Stripe keeps the other keys (our subscription_id).
            metadata: { plan_id: String(change.planId) },
            // A new period starts now and is invoiced at once at the new price; nothing of the old
            // period is credited back (its tokens stay the seller's until they lapse).
            billing_cycle_anchor: { type: 'now' },
            proration_behavior: 'none',
          },
          // One move per subscription and plan: a retry after a lost answer changes nothing twice.
          { idempotencyKey: `change-plan:${providerSubscriptionId}:${change.planId}` },
        ),
      );
    },

    async cancelAtPeriodEnd(providerSubscriptionId) {
      const updated = await calling(() =>
        stripe.subscriptions.update(providerSubscriptionId, { cancel_at_period_end: true }, { idempotencyKey: `cancel:${providerSubscriptionId}` }),
      );
      const end = dateOf(updated.cancel_at) ?? periodOfSubscription(updated).end;
      if (!end) throw new ProviderRefused(`Stripe subscription ${providerSubscriptionId} has no period end to cancel at`);
      return end;
    },

    async closeCheckout(checkoutId) {
      try {
        await stripe.checkout.sessions.expire(checkoutId);
        return 'expired';
      } catch (error) {
        const refused = mapped(error);
        if (!(refused instanceof ProviderRefused) || refused.code === 'resource_missing') throw refused;
        // Stripe expires only an open session: this one was paid or ran out meanwhile.
        const session = await calling(() => stripe.checkout.sessions.retrieve(checkoutId));
        if (session.status === 'complete') return 'complete';
        if (session.status === 'expired') return 'expired';
        throw refused;
      }
    },

    async refundPeriod(providerSubscriptionId, invoiceId) {
      const intent = await intentOfInvoice(stripe, invoiceId);
      // An invoice paid with no PaymentIntent (a 0 invoice, a coupon) took no money to give back.
      if (intent) {
        try {
          await stripe.refunds.create(
            { payment_intent: intent, metadata: { invoice_id: invoiceId, subscription: providerSubscriptionId } },
            // One refund per invoice, whoever asks and however often.
            { idempotencyKey: `refund-period:${invoiceId}` },
          );
        } catch (error) {
          const refused = mapped(error);
          // Refunded already (a retry after Stripe forgot the key), or charged back by the seller's
          // bank: the money is on its way back either way, and the subscription must still end.
          if (!(refused instanceof ProviderRefused) || (refused.code !== 'charge_already_refunded' && refused.code !== 'charge_disputed')) throw refused;
        }
      }
      try {
        await stripe.subscriptions.cancel(providerSubscriptionId);
      } catch (error) {
        const refused = mapped(error);
        if (!(refused instanceof ProviderRefused) || refused.code !== 'resource_missing') throw refused;
        // Stripe answers "no such subscription" for one that has already ended.
        const subscription = await retrieveSubscription(providerSubscriptionId);
        if (subscription.status !== 'canceled' && subscription.status !== 'incomplete_expired') throw refused;
      }
    },
  };

  return {
    name: 'stripe',
    live: /^(sk|rk)_live_/.test(options.secretKey),
    methods: ['card_intl'],

    async createCheckout(request: CheckoutRequest): Promise<Checkout> {
      const session = await calling(() =>
        stripe.checkout.sessions.create(
          {
            mode: 'payment',
            line_items: [
              {
                quantity: 1,
                price_data: { currency: request.currency.toLowerCase(), unit_amount: request.amountMinor, product_data: { name: request.description } },
              },
            ],
            success_url: withSessionId(request.successUrl),
            cancel_url: request.cancelUrl,
            client_reference_id: request.paymentId,
            metadata: { payment_id: request.paymentId, user_id: request.userId },
            payment_intent_data: { metadata: { payment_id: request.paymentId } },
            locale: STRIPE_LOCALES[request.locale] ?? 'auto',
            ...(request.email ? { customer_email: request.email } : {}),
          },
          { idempotencyKey: `checkout:${request.paymentId}` },
        ),
      );
      if (!session.url) throw new ProviderRefused(`Stripe answered session ${session.id} without a page to pay on`);
      return { providerPaymentId: session.id, redirectUrl: session.url };
    },

    async closeCheckout(providerPaymentId: string): Promise<RemotePayment> {
      await subscriptions.closeCheckout(providerPaymentId);
      return this.retrieve(providerPaymentId);
    },

    async retrieve(providerPaymentId: string): Promise<RemotePayment> {
      const session = await calling(() => stripe.checkout.sessions.retrieve(providerPaymentId, { expand: ['payment_intent.latest_charge'] }));
      return { providerPaymentId: session.id, paymentId: paymentIdOf(session), state: stateOf(session), refundedMinor: refundedOf(session) };
    },

    subscriptions,

    async parseNotification(notification): Promise<ProviderEvent[]> {
      const signature = notification.headers['stripe-signature'];
      let event: Stripe.Event;
      try {
        if (typeof signature !== 'string') throw new Error('no Stripe-Signature header');
        event = stripe.webhooks.constructEvent(notification.body, signature, options.webhookSecret);
      } catch (error) {
        throw new NotificationRejected(`the Stripe signature does not verify: ${error instanceof Error ? error.message : String(error)}`);
      }
      return readEvent(event);
    },
  };
}
