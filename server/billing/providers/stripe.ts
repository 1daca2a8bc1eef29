// The card provider, Stripe, through its official SDK: a token pack is a Checkout Session in
// payment mode; its state is the session's (with the PaymentIntent behind it for asynchronous
// methods and refunds); a webhook is trusted only when its Stripe-Signature verifies against the
// endpoint's signing secret. Every SDK error becomes unavailable (try later) or refused.
import Stripe from 'stripe';
import {
  NotificationRejected,
  ProviderRefused,
  ProviderUnavailable,
  type Checkout,
  type CheckoutRequest,
  type PaymentEvent,
  type PaymentProvider,
  type RemotePayment,
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

  return {
    name: 'stripe',
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

    async parseNotification(notification): Promise<PaymentEvent[]> {
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
        default:
          return [];
      }
    },
  };
}
