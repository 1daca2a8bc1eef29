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
  ProviderUnavailable,
  type Checkout,
  type CheckoutRequest,
  type PaymentProvider,
  type ProviderEvent,
  type ProviderSubscriptionEvent,
  type RemotePayment,
  type SubscriptionBilling,
  type SubscriptionCheckoutRequest,
} from '../provider';

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

/** What an SDK failure means for us: try later, or the request itself is wrong. */
function mapped(error: unknown): Error {
  if (error instanceof Stripe.errors.StripeConnectionError || error instanceof Stripe.errors.StripeAPIError || error instanceof Stripe.errors.StripeRateLimitError) {
    return new ProviderUnavailable(`Stripe: ${error.message}`, { cause: error });
  }
  if (error instanceof Stripe.errors.StripeError) {
    if ((error.statusCode ?? 0) >= 500) return new ProviderUnavailable(`Stripe: ${error.message}`, { cause: error });
    return new ProviderRefused(`Stripe: ${error.message}`, error.code, { cause: error });
  }
  return error instanceof Error ? error : new Error(String(error));
}

async function calling<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw mapped(error);
  }
}

const idOf = (value: string | { id: string } | null | undefined) => (typeof value === 'string' ? value : (value?.id ?? null));

/** Seconds since the epoch, as Stripe gives times, to a Date (null stays null). */
const dateOf = (seconds: number | null | undefined) => (typeof seconds === 'number' ? new Date(seconds * 1000) : null);

/** Our plan's id from metadata; null when absent or not a plan id. */
const planIdOf = (metadata: Record<string, string> | null | undefined) => {
  const value = Number(metadata?.plan_id);
  return Number.isInteger(value) && value > 0 ? value : null;
};

/** Fields older API versions had, read when present (an account may pin an older version for its webhooks). */
interface LegacySubscription {
  current_period_start?: number | null;
  current_period_end?: number | null;
}
interface LegacyInvoice {
  subscription?: string | { id: string } | null;
  subscription_details?: { metadata?: Record<string, string> | null } | null;
}
interface LegacyLine {
  subscription?: string | { id: string } | null;
  type?: string;
  proration?: boolean;
}

/** A subscription's current period: from its item (current versions) or itself (older ones). */
function periodOfSubscription(subscription: Stripe.Subscription): { start: Date | null; end: Date | null } {
  const item = subscription.items?.data?.[0];
  const legacy = subscription as unknown as LegacySubscription;
  return { start: dateOf(item?.current_period_start ?? legacy.current_period_start), end: dateOf(item?.current_period_end ?? legacy.current_period_end) };
}

/** Stripe's subscription status read as ours. */
function statusOf(status: Stripe.Subscription.Status): Extract<ProviderSubscriptionEvent, { kind: 'subscription_changed' }>['status'] {
  switch (status) {
    case 'active':
    case 'trialing':
      return 'active';
    case 'past_due':
      return 'past_due';
    // A paused subscription collects nothing and is not over: like an unpaid one.
    case 'unpaid':
    case 'paused':
      return 'unpaid';
    case 'canceled':
    case 'incomplete_expired':
      return 'canceled';
    default:
      return 'pending';
  }
}

/** The invoice's line for the subscription's period (not a proration, not a one-off item). */
function periodLine(invoice: Stripe.Invoice): Stripe.InvoiceLineItem | undefined {
  const lines = invoice.lines?.data ?? [];
  const ofItem = (line: Stripe.InvoiceLineItem) => {
    const legacy = line as unknown as LegacyLine;
    const details = line.parent?.subscription_item_details;
    if (details) return !details.proration;
    return legacy.type === 'subscription' && !legacy.proration;
  };
  return lines.find(ofItem) ?? lines[0];
}

/** The subscription an invoice bills, wherever the API version puts it. */
function subscriptionOfInvoice(invoice: Stripe.Invoice): string | null {
  const legacy = invoice as unknown as LegacyInvoice;
  const line = periodLine(invoice);
  return (
    idOf(invoice.parent?.subscription_details?.subscription) ??
    idOf(legacy.subscription) ??
    line?.parent?.subscription_item_details?.subscription ??
    idOf((line as unknown as LegacyLine | undefined)?.subscription) ??
    null
  );
}

/** The subscription's metadata as the invoice carries it (a snapshot taken when it was finalised). */
function invoiceMetadata(invoice: Stripe.Invoice): Record<string, string> | null {
  return invoice.parent?.subscription_details?.metadata ?? (invoice as unknown as LegacyInvoice).subscription_details?.metadata ?? null;
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

  const paymentIdOf = (session: Stripe.Checkout.Session) => session.metadata?.payment_id ?? session.client_reference_id ?? null;

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

  /** Our subscription and plan ids for an invoice: from its snapshot, else from the subscription itself. */
  const invoiceOwner = async (invoice: Stripe.Invoice, providerSubscriptionId: string) => {
    let metadata = invoiceMetadata(invoice);
    let subscription: Stripe.Subscription | null = null;
    if (!metadata?.subscription_id || !planIdOf(metadata)) {
      subscription = await retrieveSubscription(providerSubscriptionId);
      metadata = { ...subscription.metadata, ...(metadata ?? {}) };
    }
    return { subscriptionId: metadata.subscription_id ?? null, planId: planIdOf(metadata), subscription };
  };

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
  };

  /** A subscription event read as ours; `at` is when Stripe made that state. */
  const subscriptionChanged = (eventId: string, created: number, subscription: Stripe.Subscription): ProviderSubscriptionEvent => {
    const period = periodOfSubscription(subscription);
    const cancelAt = dateOf(subscription.cancel_at) ?? (subscription.cancel_at_period_end ? period.end : null);
    return {
      kind: 'subscription_changed',
      eventId,
      providerSubscriptionId: subscription.id,
      subscriptionId: subscription.metadata?.subscription_id ?? null,
      status: statusOf(subscription.status),
      cancelAt,
      planId: planIdOf(subscription.metadata),
      periodStart: period.start,
      periodEnd: period.end,
      at: new Date(created * 1000),
    };
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
      const common = (session: Stripe.Checkout.Session) => ({ eventId: event.id, providerPaymentId: session.id, paymentId: paymentIdOf(session) });
      switch (event.type) {
        case 'checkout.session.completed':
        case 'checkout.session.async_payment_succeeded': {
          const session = event.data.object;
          if (session.mode === 'subscription') {
            const providerSubscriptionId = idOf(session.subscription);
            if (event.type !== 'checkout.session.completed' || !providerSubscriptionId) return [];
            const subscriptionId = session.metadata?.subscription_id ?? session.client_reference_id ?? null;
            return [{ kind: 'checkout_completed', eventId: event.id, checkoutId: session.id, providerSubscriptionId, subscriptionId }];
          }
          if (session.mode !== 'payment' || session.payment_status === 'unpaid') return [];
          return [{ kind: 'succeeded', ...common(session), amountMinor: session.amount_total ?? 0, currency: (session.currency ?? '').toUpperCase() }];
        }
        case 'checkout.session.async_payment_failed': {
          const session = event.data.object;
          return session.mode === 'payment' ? [{ kind: 'failed', ...common(session), reason: 'declined' }] : [];
        }
        case 'checkout.session.expired': {
          const session = event.data.object;
          return session.mode === 'payment' ? [{ kind: 'failed', ...common(session), reason: 'expired' }] : [];
        }
        case 'charge.refunded': {
          const charge = event.data.object;
          const intent = idOf(charge.payment_intent);
          if (!intent) return [];
          const sessions = await calling(() => stripe.checkout.sessions.list({ payment_intent: intent, limit: 1 }));
          const session = sessions.data[0];
          if (!session || session.mode !== 'payment') return [];
          return [{ kind: 'refunded', ...common(session), refundedMinor: charge.amount_refunded }];
        }
        case 'invoice.paid': {
          const invoice = event.data.object;
          const providerSubscriptionId = subscriptionOfInvoice(invoice);
          // An invoice of no subscription (none are made today) credits nothing.
          if (!providerSubscriptionId || !invoice.id) return [];
          const owner = await invoiceOwner(invoice, providerSubscriptionId);
          const line = periodLine(invoice);
          let start = dateOf(line?.period?.start);
          let end = dateOf(line?.period?.end);
          if (!start || !end) {
            const period = periodOfSubscription(owner.subscription ?? (await retrieveSubscription(providerSubscriptionId)));
            start = period.start;
            end = period.end;
          }
          if (!start || !end) throw new NotificationRejected(`Stripe invoice ${invoice.id} names no period`);
          return [
            {
              kind: 'period_paid',
              eventId: event.id,
              invoiceId: invoice.id,
              providerSubscriptionId,
              subscriptionId: owner.subscriptionId,
              planId: owner.planId,
              periodStart: start,
              periodEnd: end,
              amountMinor: invoice.amount_paid,
              currency: invoice.currency.toUpperCase(),
            },
          ];
        }
        case 'invoice.payment_failed': {
          const invoice = event.data.object;
          const providerSubscriptionId = subscriptionOfInvoice(invoice);
          if (!providerSubscriptionId || !invoice.id) return [];
          const owner = await invoiceOwner(invoice, providerSubscriptionId);
          return [{ kind: 'period_failed', eventId: event.id, invoiceId: invoice.id, providerSubscriptionId, subscriptionId: owner.subscriptionId }];
        }
        case 'customer.subscription.updated':
        case 'customer.subscription.deleted':
          return [subscriptionChanged(event.id, event.created, event.data.object)];
        default:
          return [];
      }
    },
  };
}
