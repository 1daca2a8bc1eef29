// The objects and wire format of the Stripe stand-in (stripe.ts): what its API answers, as the
// API version it speaks (clover) shapes them, and how it reads requests and words its errors.
import crypto from 'node:crypto';

export type Json = Record<string, unknown>;
export type Interval = 'day' | 'week' | 'month' | 'year';

export interface StripeSession {
  id: string;
  object: 'checkout.session';
  mode: string;
  status: 'open' | 'complete' | 'expired';
  payment_status: 'unpaid' | 'paid';
  amount_total: number;
  currency: string;
  client_reference_id: string | null;
  metadata: Record<string, string>;
  success_url: string;
  cancel_url: string;
  url: string | null;
  /** Payment mode: the PaymentIntent behind it; subscription mode: null (the invoices pay). */
  payment_intent: string | null;
  /** Subscription mode: the subscription it made, once complete. */
  subscription: string | null;
  customer: string | null;
  customer_email: string | null;
  locale: string | null;
  created: number;
  expires_at: number;
  livemode: false;
}

export interface Intent {
  id: string;
  object: 'payment_intent';
  status: 'requires_payment_method' | 'processing' | 'succeeded' | 'canceled';
  amount: number;
  currency: string;
  metadata: Record<string, string>;
  latest_charge: string | null;
  livemode: false;
}

export interface Charge {
  id: string;
  object: 'charge';
  amount: number;
  amount_refunded: number;
  refunded: boolean;
  /** Whether a dispute was opened on it (then it cannot be refunded). */
  disputed: boolean;
  captured: true;
  paid: true;
  status: 'succeeded';
  created: number;
  currency: string;
  payment_intent: string;
  livemode: false;
}

export interface Product {
  id: string;
  object: 'product';
  active: boolean;
  name: string;
  metadata: Record<string, string>;
  created: number;
  livemode: false;
}

export interface StripePrice {
  id: string;
  object: 'price';
  active: boolean;
  currency: string;
  unit_amount: number;
  product: string;
  recurring: { interval: Interval; interval_count: number; usage_type: 'licensed' } | null;
  type: 'recurring' | 'one_time';
  livemode: false;
}

export interface Customer {
  id: string;
  object: 'customer';
  email: string | null;
  created: number;
  metadata: Record<string, string>;
  livemode: false;
}

export interface StripeSubscriptionItem {
  id: string;
  object: 'subscription_item';
  created: number;
  current_period_start: number;
  current_period_end: number;
  metadata: Record<string, string>;
  price: StripePrice;
  quantity: number;
  subscription: string;
}

export interface StripeSubscription {
  id: string;
  object: 'subscription';
  status: 'incomplete' | 'active' | 'past_due' | 'unpaid' | 'canceled';
  customer: string;
  currency: string;
  metadata: Record<string, string>;
  items: { object: 'list'; data: StripeSubscriptionItem[]; has_more: false; total_count: number; url: string };
  cancel_at: number | null;
  cancel_at_period_end: boolean;
  canceled_at: number | null;
  ended_at: number | null;
  billing_cycle_anchor: number;
  collection_method: 'charge_automatically';
  created: number;
  start_date: number;
  latest_invoice: string | null;
  livemode: false;
}

export interface StripeInvoice {
  id: string;
  object: 'invoice';
  status: 'open' | 'paid';
  billing_reason: 'subscription_create' | 'subscription_cycle' | 'subscription_update';
  amount_due: number;
  amount_paid: number;
  amount_remaining: number;
  attempt_count: number;
  attempted: boolean;
  next_payment_attempt: number | null;
  collection_method: 'charge_automatically';
  currency: string;
  customer: string;
  created: number;
  period_start: number;
  period_end: number;
  subtotal: number;
  total: number;
  metadata: Record<string, string>;
  parent: {
    type: 'subscription_details';
    quote_details: null;
    subscription_details: { metadata: Record<string, string> | null; subscription: string };
  };
  lines: { object: 'list'; data: Json[]; has_more: false; total_count: number; url: string };
  status_transitions: { finalized_at: number; paid_at: number | null };
  livemode: false;
}

export interface StripeEvent {
  id: string;
  object: 'event';
  api_version: string;
  created: number;
  type: string;
  data: { object: Json; previous_attributes?: Json };
  livemode: false;
  pending_webhooks: number;
  request: { id: string | null; idempotency_key: string | null };
}

/** A request as the stand-in received it: what the SDK sent, parsed as Stripe parses it. */
export interface StripeRequest {
  method: string;
  path: string;
  params: Json;
  idempotencyKey: string | null;
}

export interface Failure {
  status: number;
  type: string;
  code?: string;
  message: string;
}

/** What an endpoint answers: a status and a body, or a Stripe error. */
export type Answer = { status: number; body: unknown } | { status: number; error: Omit<Failure, 'status'> & { param?: string } };

export const API_VERSION = '2025-10-29.clover';
export const INTERVALS: readonly string[] = ['day', 'week', 'month', 'year'];
export const now = () => Math.floor(Date.now() / 1000);
export const randomId = (prefix: string) => `${prefix}${crypto.randomBytes(12).toString('base64url').replace(/[-_]/g, 'x')}`;
export const clone = <T>(value: T): T => structuredClone(value);

/** `a[b][0][c]=1` → { a: { b: [{ c: '1' }] } }, as Stripe reads form bodies. */
export function parseForm(body: string): Json {
  const root: Json = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const path = key.split(/\[|\]\[|\]/).filter((part) => part !== '');
    let node: Json | unknown[] = root;
    path.forEach((part, index) => {
      const last = index === path.length - 1;
      const nextIsIndex = !last && /^\d+$/.test(path[index + 1]!);
      const slot = Array.isArray(node) ? Number(part) : part;
      const container = node as Record<string | number, unknown>;
      if (last) container[slot] = value;
      else {
        container[slot] ??= nextIsIndex ? [] : {};
        node = container[slot] as Json | unknown[];
      }
    });
  }
  return root;
}

export const objectAt = (value: unknown): Json | undefined => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : undefined);
export const textAt = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
export const metadataAt = (value: unknown): Record<string, string> => {
  const given = objectAt(value) ?? {};
  return Object.fromEntries(Object.entries(given).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
};

/** The same moment an interval later, as Stripe bills (the 31st of a month → the last day of a shorter one). */
export function addInterval(seconds: number, interval: Interval): number {
  const date = new Date(seconds * 1000);
  if (interval === 'day') return seconds + 24 * 60 * 60;
  if (interval === 'week') return seconds + 7 * 24 * 60 * 60;
  const day = date.getUTCDate();
  date.setUTCDate(1);
  if (interval === 'month') date.setUTCMonth(date.getUTCMonth() + 1);
  else date.setUTCFullYear(date.getUTCFullYear() + 1);
  const last = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate();
  date.setUTCDate(Math.min(day, last));
  return Math.floor(date.getTime() / 1000);
}

export const missing = (param: string): Answer => ({ status: 400, error: { type: 'invalid_request_error', code: 'parameter_missing', param, message: `Missing required param: ${param}.` } });
export const invalid = (param: string, message: string, code = 'parameter_invalid_string'): Answer => ({ status: 400, error: { type: 'invalid_request_error', code, param, message } });
export const noSuch = (kind: string, id: string, param = 'id'): Answer => ({
  status: 404,
  error: { type: 'invalid_request_error', code: 'resource_missing', param, message: `No such ${kind}: '${id}'` },
});

export interface Refund {
  id: string;
  object: 'refund';
  amount: number;
  balance_transaction: string;
  charge: string;
  created: number;
  currency: string;
  destination_details: { type: 'card'; card: { reference_status: 'pending'; reference_type: 'acquirer_reference_number'; type: 'refund' } };
  metadata: Record<string, string>;
  payment_intent: string;
  reason: string | null;
  receipt_number: null;
  source_transfer_reversal: null;
  status: 'succeeded';
  transfer_reversal: null;
}

/** How an invoice was paid: Stripe makes one when the invoice is finalised and keeps it in step. */
export interface InvoicePayment {
  id: string;
  object: 'invoice_payment';
  amount_paid: number | null;
  amount_requested: number;
  created: number;
  currency: string;
  invoice: string;
  is_default: true;
  livemode: false;
  payment: { type: 'payment_intent'; payment_intent: string };
  status: 'open' | 'paid';
  status_transitions: { canceled_at: null; paid_at: number | null };
}

/** A chargeback (`needs_response` …) or an inquiry before one (`warning_*`, no money withdrawn). */
export interface Dispute {
  id: string;
  object: 'dispute';
  amount: number;
  balance_transactions: { id: string; object: 'balance_transaction'; amount: number; currency: string; type: 'adjustment' }[];
  charge: string;
  created: number;
  currency: string;
  enhanced_eligibility_types: string[];
  evidence: Record<string, null>;
  evidence_details: { due_by: number; enhanced_eligibility: Record<string, never>; has_evidence: boolean; past_due: boolean; submission_count: number };
  is_charge_refundable: boolean;
  livemode: false;
  metadata: Record<string, string>;
  payment_intent: string;
  payment_method_details: { type: 'card'; card: { brand: 'visa'; case_type: 'chargeback' | 'inquiry'; network_reason_code: string } };
  reason: string;
  status: 'warning_needs_response' | 'warning_under_review' | 'warning_closed' | 'needs_response' | 'under_review' | 'won' | 'lost';
}
