// Reading Stripe's webhook events as ours: a top-up's Checkout Session paid, failed, expired or
// refunded; a subscription's checkout, invoices and states; and money going back after it was
// paid — a refund or a dispute of a charge, traced to what it paid for (a payment-mode session,
// or a subscription's invoice through Invoice Payments). Object shapes differ between API
// versions (the period moved from the subscription to its items, the invoice's subscription
// under `parent`, a charge no longer names its invoice): both are read.
import Stripe from 'stripe';
import {
  NotificationRejected,
  ProviderRefused,
  ProviderUnavailable,
  type ProviderEvent,
  type ProviderSubscriptionEvent,
} from '../provider';

/** What an SDK failure means for us: try later, or the request itself is wrong. */
export function mapped(error: unknown): Error {
  if (error instanceof Stripe.errors.StripeConnectionError || error instanceof Stripe.errors.StripeAPIError || error instanceof Stripe.errors.StripeRateLimitError) {
    return new ProviderUnavailable(`Stripe: ${error.message}`, { cause: error });
  }
  if (error instanceof Stripe.errors.StripeError) {
    if ((error.statusCode ?? 0) >= 500) return new ProviderUnavailable(`Stripe: ${error.message}`, { cause: error });
    return new ProviderRefused(`Stripe: ${error.message}`, error.code, { cause: error });
  }
  return error instanceof Error ? error : new Error(String(error));
}

export async function calling<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw mapped(error);
  }
}

export const idOf = (value: string | { id: string } | null | undefined) => (typeof value === 'string' ? value : (value?.id ?? null));

/** Seconds since the epoch, as Stripe gives times, to a Date (null stays null). */
export const dateOf = (seconds: number | null | undefined) => (typeof seconds === 'number' ? new Date(seconds * 1000) : null);

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
/** Before the basil version a charge named the invoice it paid. */
interface LegacyCharge {
  invoice?: string | { id: string } | null;
}

/** A subscription's current period: from its item (current versions) or itself (older ones). */
export function periodOfSubscription(subscription: Stripe.Subscription): { start: Date | null; end: Date | null } {
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

export const paymentIdOf = (session: Stripe.Checkout.Session) => session.metadata?.payment_id ?? session.client_reference_id ?? null;

/**
 * A dispute's status as ours, or null while no money is held: an inquiry (`warning_*`) withdraws
 * nothing and, closed, returns nothing; a prevented dispute never became a chargeback (its
 * refund, if any, arrives as charge.refunded).
 */
function disputeStatusOf(type: string, status: Stripe.Dispute.Status): 'open' | 'won' | 'lost' | null {
  if (type === 'charge.dispute.funds_reinstated' || status === 'won') return 'won';
  if (status === 'lost') return 'lost';
  if (status === 'prevented' || status.startsWith('warning_')) return null;
  return 'open';
}

/** The invoice a PaymentIntent paid, through Invoice Payments (a charge no longer names it). */
export async function invoiceOfIntent(stripe: Stripe, intent: string): Promise<string | null> {
  const found = await calling(() => stripe.invoicePayments.list({ payment: { type: 'payment_intent', payment_intent: intent }, limit: 1 }));
  return idOf(found.data[0]?.invoice);
}

/** The PaymentIntent an invoice's payment went through (a paid invoice has one; null when it was paid without one). */
export async function intentOfInvoice(stripe: Stripe, invoice: string): Promise<string | null> {
  const found = await calling(() => stripe.invoicePayments.list({ invoice, status: 'paid', limit: 10 }));
  const paid = found.data.find((payment) => payment.payment.type === 'payment_intent' && payment.payment.payment_intent);
  return idOf(paid?.payment.payment_intent);
}

/** Reads verified Stripe events into ours, asking Stripe what an event leaves out. */
export function stripeEventReader(stripe: Stripe) {
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

  /**
   * What a charge paid for: a top-up's payment-mode session, or a subscription's invoice (named by
   * an older charge itself, otherwise found through Invoice Payments); null when it is not ours.
   */
  const paidBy = async (charge: { intent: string | null; invoice: string | null }) => {
    if (charge.invoice) return { on: 'charge', invoiceId: charge.invoice } as const;
    if (!charge.intent) return null;
    const intent = charge.intent;
    const sessions = await calling(() => stripe.checkout.sessions.list({ payment_intent: intent, limit: 1 }));
    const session = sessions.data[0];
    if (session?.mode === 'payment') return { on: 'payment', session } as const;
    const invoiceId = await invoiceOfIntent(stripe, intent);
    return invoiceId ? ({ on: 'charge', invoiceId } as const) : null;
  };

  /** A paid invoice of one of our subscriptions read as its period paid; none for an invoice of no subscription. */
  const periodPaidOf = async (eventId: string, invoice: Stripe.Invoice): Promise<ProviderSubscriptionEvent[]> => {
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
        eventId,
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
  };

  /**
   * Money going back on an invoice says it was paid: the period paid comes first (credited once,
   * by the invoice), so a refund or a dispute heard before `invoice.paid` still takes back what
   * the period gave, whatever order Stripe delivers them in.
   */
  const paidFirst = async (eventId: string, invoiceId: string): Promise<ProviderSubscriptionEvent[]> => {
    const invoice = await calling(() => stripe.invoices.retrieve(invoiceId));
    return invoice.status === 'paid' ? periodPaidOf(`${eventId}:paid`, invoice) : [];
  };

  const chargeRefunded = async (eventId: string, charge: Stripe.Charge): Promise<ProviderEvent[]> => {
    const paid = await paidBy({ intent: idOf(charge.payment_intent), invoice: idOf((charge as unknown as LegacyCharge).invoice) });
    if (!paid) return [];
    if (paid.on === 'payment') {
      return [{ kind: 'refunded', eventId, providerPaymentId: paid.session.id, paymentId: paymentIdOf(paid.session), refundedMinor: charge.amount_refunded }];
    }
    return [...(await paidFirst(eventId, paid.invoiceId)), { kind: 'charge_refunded', eventId, providerPaymentId: paid.invoiceId, refundedMinor: charge.amount_refunded }];
  };

  const disputed = async (eventId: string, type: string, dispute: Stripe.Dispute): Promise<ProviderEvent[]> => {
    const status = disputeStatusOf(type, dispute.status);
    if (!status) return [];
    let intent = idOf(dispute.payment_intent);
    let invoice: string | null = null;
    if (!intent) {
      // A charge made without a PaymentIntent (before 2019): the charge itself says what it paid.
      const charge = typeof dispute.charge === 'object' ? dispute.charge : await calling(() => stripe.charges.retrieve(dispute.charge as string));
      intent = idOf(charge.payment_intent);
      invoice = idOf((charge as unknown as LegacyCharge).invoice);
    }
    const paid = await paidBy({ intent, invoice });
    if (!paid) return [];
    return [
      ...(paid.on === 'charge' ? await paidFirst(eventId, paid.invoiceId) : []),
      {
        kind: 'disputed',
        eventId,
        disputeId: dispute.id,
        on: paid.on,
        providerPaymentId: paid.on === 'payment' ? paid.session.id : paid.invoiceId,
        status,
        amountMinor: dispute.amount,
        currency: dispute.currency.toUpperCase(),
      },
    ];
  };

  return async function read(event: Stripe.Event): Promise<ProviderEvent[]> {
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
      case 'charge.refunded':
        return chargeRefunded(event.id, event.data.object);
      case 'charge.dispute.created':
      case 'charge.dispute.updated':
      case 'charge.dispute.closed':
      case 'charge.dispute.funds_withdrawn':
      case 'charge.dispute.funds_reinstated':
        return disputed(event.id, event.type, event.data.object);
      case 'invoice.paid':
        return periodPaidOf(event.id, event.data.object);
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
  };
}
