// The one interface every payment provider is used through (DESIGN §4 Billing): a one-off
// payment for a token pack becomes a checkout the seller is redirected to; a payment's state can
// be asked for at any time; a notification is verified and read into events. Payments, the ledger
// and the routes know nothing else about a provider.
import type { IncomingHttpHeaders } from 'node:http';
import type { ChargeCurrency, ClientProvider, PaymentMethod } from '../../contract/billing';

export type { ChargeCurrency, PaymentMethod };

export const PROVIDER_NAMES = ['sandbox', 'stripe', 'yookassa'] as const;
export type ProviderName = (typeof PROVIDER_NAMES)[number];

export interface CheckoutRequest {
  /** Our payment's id (a UUID): kept by the provider in metadata, and the request's idempotency key. */
  paymentId: string;
  userId: string;
  /** Tokens the pack holds (for the description on the provider's page). */
  tokens: number;
  /** What the seller pays, in minor units of `currency` (cents, kopecks). */
  amountMinor: number;
  currency: ChargeCurrency;
  method: PaymentMethod;
  /** One line the provider shows on its page and in its dashboard, e.g. "SoleStudio: 300 tokens". */
  description: string;
  /** Where the seller's browser goes after paying (and, for a provider with one return URL, after anything). */
  successUrl: string;
  /** Where the seller's browser goes after leaving the provider's page without paying. */
  cancelUrl: string;
  /** The seller's language, for the provider's page. */
  locale: string;
  email?: string;
}

export interface Checkout {
  /** The provider's id of what was created (a Checkout Session, a payment). */
  providerPaymentId: string;
  /** The provider's page the seller pays on. */
  redirectUrl: string;
}

/** A payment as the provider sees it when asked. */
export type RemoteState =
  | { status: 'pending' }
  | { status: 'succeeded'; amountMinor: number; currency: string }
  | { status: 'failed'; reason: FailureReason };

/** Why a payment did not go through: the seller declined or cancelled, the card was refused, time ran out. */
export type FailureReason = 'declined' | 'canceled' | 'expired';

export interface RemotePayment {
  providerPaymentId: string;
  /** Our payment id, from the provider's metadata (null when the provider lost it). */
  paymentId: string | null;
  state: RemoteState;
  /** How much of it the provider has refunded so far, in minor units. */
  refundedMinor: number;
}

/**
 * What a verified notification says. `eventId` is the provider's id of the event, unique per
 * provider: recorded once, so a repeated delivery changes nothing.
 */
export type PaymentEvent =
  | { kind: 'succeeded'; eventId: string; providerPaymentId: string; paymentId: string | null; amountMinor: number; currency: string }
  | { kind: 'failed'; eventId: string; providerPaymentId: string; paymentId: string | null; reason: FailureReason }
  | {
      kind: 'refunded';
      eventId: string;
      providerPaymentId: string;
      paymentId: string | null;
      /** The total refunded on this payment so far (not just this refund), in minor units. */
      refundedMinor: number;
    };

/** A mandate (a saved payment method) as the provider sees it. */
export interface RemoteMandate {
  providerMandateId: string;
  /** Our mandate id, from the provider's metadata. */
  mandateId: string | null;
  status: 'pending' | 'active' | 'failed' | 'revoked';
  /** The saved method renewals charge, once active. */
  providerMethodId: string | null;
  reason?: FailureReason;
}

/** A charge of a saved method (a renewal) as the provider sees it. */
export interface RemoteCharge {
  providerPaymentId: string;
  /** Our subscription charge id, from the provider's metadata. */
  chargeId: string | null;
  state: RemoteState;
  /** The seller withdrew the permission to charge the method: renewals cannot go on. */
  revoked: boolean;
}

/** What a verified notification about a mandate or a renewal says (the mandate providers). */
export type MandateEvent =
  | { kind: 'mandate'; eventId: string; mandate: RemoteMandate }
  | { kind: 'method_revoked'; eventId: string; providerMethodId: string }
  | { kind: 'charge'; eventId: string; charge: RemoteCharge };

/**
 * What a verified notification about a subscription the card provider bills says (Stripe renews
 * by itself and tells us). `subscriptionId` is ours, from the provider's metadata.
 */
export type ProviderSubscriptionEvent =
  | {
      kind: 'checkout_completed';
      eventId: string;
      checkoutId: string;
      providerSubscriptionId: string;
      subscriptionId: string | null;
    }
  | {
      kind: 'period_paid';
      eventId: string;
      /** The provider's invoice: one credit per invoice. */
      invoiceId: string;
      providerSubscriptionId: string;
      subscriptionId: string | null;
      planId: number | null;
      periodStart: Date;
      periodEnd: Date;
      amountMinor: number;
      currency: string;
    }
  | { kind: 'period_failed'; eventId: string; invoiceId: string; providerSubscriptionId: string; subscriptionId: string | null }
  | {
      kind: 'subscription_changed';
      eventId: string;
      providerSubscriptionId: string;
      subscriptionId: string | null;
      /** The provider's status, read as ours. */
      status: 'active' | 'past_due' | 'unpaid' | 'canceled' | 'pending';
      cancelAt: Date | null;
      planId: number | null;
      periodStart: Date | null;
      periodEnd: Date | null;
      /** When the provider made this state: an older one never overwrites a newer. */
      at: Date;
    };

/**
 * Money going back to the seller, or fought over, after it was paid. `on` says what was paid: a
 * top-up (`providerPaymentId` as our payments keep it: a Checkout Session, a YooKassa payment) or a
 * subscription charge (as our charges keep it: a Stripe invoice, a YooKassa payment).
 */
export type ReversalEvent =
  | {
      kind: 'charge_refunded';
      eventId: string;
      /** The subscription charge as we keep it: a Stripe invoice id, a YooKassa or sandbox payment id. */
      providerPaymentId: string;
      /** The total refunded on this charge so far (not just this refund), in minor units. */
      refundedMinor: number;
    }
  | {
      kind: 'disputed';
      eventId: string;
      /** The provider's id of the dispute: one take-back and at most one give-back per dispute. */
      disputeId: string;
      on: 'payment' | 'charge';
      providerPaymentId: string;
      /**
       * open: the money is held back from us; won: it came back to us; lost: it stays with the
       * seller's bank. Inquiries that hold back no money are not reported; `won` may be reported
       * more than once (closed, then funds reinstated): a dispute moves tokens once each way.
       */
      status: 'open' | 'won' | 'lost';
      /** What is disputed, in minor units of `currency`. */
      amountMinor: number;
      currency: string;
    };

export type ProviderEvent = PaymentEvent | MandateEvent | ProviderSubscriptionEvent | ReversalEvent;

export function isPaymentEvent(event: ProviderEvent): event is PaymentEvent {
  return event.kind === 'succeeded' || event.kind === 'failed' || event.kind === 'refunded';
}

export function isReversalEvent(event: ProviderEvent): event is ReversalEvent {
  return event.kind === 'charge_refunded' || event.kind === 'disputed';
}

export interface MandateRequest {
  /** Our mandate's id: kept in the provider's metadata, and the request's idempotency key. */
  mandateId: string;
  userId: string;
  method: PaymentMethod;
  /** What the provider holds to check the method, in minor units (returned at once); 0 when it needs nothing. */
  holdMinor: number;
  currency: ChargeCurrency;
  description: string;
  /** Where the seller's browser goes after authorising (or not). */
  returnUrl: string;
  cancelUrl: string;
  locale: string;
  email?: string;
}

export interface ChargeRequest {
  /** Our subscription charge's id: kept in metadata, and the idempotency key. */
  chargeId: string;
  providerMethodId: string;
  amountMinor: number;
  currency: ChargeCurrency;
  description: string;
}

/** A provider that saves a payment method the seller authorises, and charges it without them when asked. */
export interface MandateBilling {
  createMandate(request: MandateRequest): Promise<Checkout>;
  retrieveMandate(providerMandateId: string): Promise<RemoteMandate>;
  /** Charges a saved method; idempotent per `chargeId`. */
  charge(request: ChargeRequest): Promise<RemoteCharge>;
  retrieveCharge(providerPaymentId: string): Promise<RemoteCharge>;
  /**
   * Finds a charge whose answer was lost (so we never learnt its provider id) by our charge id,
   * among what the provider made around `requestedAt`; null when the provider never made it.
   */
  findCharge(chargeId: string, requestedAt: Date): Promise<RemoteCharge | null>;
  /**
   * Closes a mandate's checkout the seller has not finished (a newer checkout replaces it), where
   * the provider lets the shop; answers the mandate as it then stands. `active`: authorised
   * meanwhile; `pending`: the provider cannot close it (YooKassa cannot cancel a payment the
   * seller has not confirmed), so it may still be authorised later — a subscription we closed is
   * never charged for it, and the mandate is simply kept.
   */
  closeMandate(providerMandateId: string): Promise<RemoteMandate>;
}

export interface SubscriptionCheckoutRequest {
  subscriptionId: string;
  userId: string;
  planId: number;
  planName: string;
  interval: 'month' | 'year';
  amountMinor: number;
  currency: ChargeCurrency;
  successUrl: string;
  cancelUrl: string;
  locale: string;
  email?: string;
}

/** A provider that bills subscriptions itself (renews, retries) and notifies us of each step. */
export interface SubscriptionBilling {
  createSubscriptionCheckout(request: SubscriptionCheckoutRequest): Promise<Checkout>;
  /** The checkout as the provider has it: its status and the subscription it made. */
  retrieveSubscriptionCheckout(checkoutId: string): Promise<{ status: 'open' | 'complete' | 'expired'; providerSubscriptionId: string | null }>;
  /** Moves the subscription to another plan at once: a new period starts and is invoiced now. */
  changePlan(providerSubscriptionId: string, change: { planId: number; planName: string; interval: 'month' | 'year'; amountMinor: number; currency: ChargeCurrency }): Promise<void>;
  /** Cancels at the current period's end; answers that moment. */
  cancelAtPeriodEnd(providerSubscriptionId: string): Promise<Date>;
  /**
   * Closes a checkout the seller has not finished (a newer checkout replaces it) so it can no
   * longer be paid; answers `complete` when it was paid before it could be closed.
   */
  closeCheckout(checkoutId: string): Promise<'expired' | 'complete'>;
  /**
   * Gives back a paid period in full and ends its subscription at once (a payment for a checkout
   * we had closed, when the seller already has a plan); idempotent per invoice.
   */
  refundPeriod(providerSubscriptionId: string, invoiceId: string): Promise<void>;
}

export interface Notification {
  /** The request body exactly as it arrived (a signature covers these bytes). */
  body: Buffer;
  headers: IncomingHttpHeaders;
}

export interface PaymentProvider {
  readonly name: ProviderName;
  /** Whether money really moves: live keys (a provider's test keys and the sandbox charge nobody). */
  readonly live: boolean;
  /** The methods this provider takes. */
  readonly methods: readonly PaymentMethod[];
  /** Creates the provider's checkout; idempotent per `paymentId`. */
  createCheckout(request: CheckoutRequest): Promise<Checkout>;
  /** Asks the provider about a payment (reconciliation, the status route while pending). */
  retrieve(providerPaymentId: string): Promise<RemotePayment>;
  /**
   * Closes a checkout nobody paid so it can no longer be paid (a payment given up as expired),
   * where the provider lets the shop; answers the payment as it then stands, paid meanwhile or
   * not. A provider without it ends unpaid checkouts itself (YooKassa within hours).
   */
  closeCheckout?(providerPaymentId: string): Promise<RemotePayment>;
  /**
   * Verifies a notification and reads what it says. Throws NotificationRejected when it cannot
   * be trusted (a bad signature, a payment the provider does not confirm). An event of a kind
   * payments do not follow reads as an empty list.
   */
  parseNotification(notification: Notification): Promise<ProviderEvent[]>;
  /** Saved methods and charges without the seller, where the provider offers them (we renew). */
  readonly mandates?: MandateBilling;
  /** Subscriptions the provider bills itself, where it offers them (it renews). */
  readonly subscriptions?: SubscriptionBilling;
}

/** The provider behind each of the page's provider names; one without keys (and no sandbox) is absent. */
export type Providers = Partial<Record<ClientProvider, PaymentProvider>>;

/** The provider a row or a notification names (sandbox, stripe, yookassa), when this server has it. */
export function providerNamed(providers: Providers, name: string): PaymentProvider | undefined {
  return Object.values(providers).find((provider) => provider.name === name);
}

/** The provider could not be reached or failed (a timeout, a network error, a 5xx, a 429): try again later. */
export class ProviderUnavailable extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ProviderUnavailable';
  }
}

/** The provider refused the request itself (a 4xx: bad credentials, bad parameters): retrying will not help. */
export class ProviderRefused extends Error {
  constructor(
    message: string,
    readonly code?: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'ProviderRefused';
  }
}

/** A notification to a provider this server does not use (no keys, no sandbox): answered as a route that does not exist. */
export class ProviderAbsent extends Error {
  constructor(readonly provider: string) {
    super(`${provider} is not configured`);
    this.name = 'ProviderAbsent';
  }
}

/** A notification that cannot be trusted; answered 400 and nothing is credited. */
export class NotificationRejected extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NotificationRejected';
  }
}
