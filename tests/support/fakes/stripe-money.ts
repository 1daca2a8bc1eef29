// The Stripe stand-in's money after a checkout: the PaymentIntent and charge behind each payment
// (a payment-mode session's, or a subscription invoice's through its Invoice Payment), refunds
// (POST /v1/refunds and the dashboard's), disputes a card issuer opens and decides, expiring an
// open Checkout Session, and reading charges and invoice payments — with the events Stripe sends
// for each and its errors when a request cannot be done.
import type {
  Answer,
  Charge,
  Dispute,
  Intent,
  InvoicePayment,
  Json,
  Refund,
  StripeEvent,
  StripeInvoice,
  StripeSession,
} from './stripe-objects';
import { metadataAt, missing, noSuch, randomId, textAt } from './stripe-objects';

/** What the rest of the stand-in keeps, which the money reads and changes. */
export interface Books {
  sessions: Map<string, StripeSession>;
  intents: Map<string, Intent>;
  invoices: Map<string, StripeInvoice>;
  event(type: string, object: object, previous?: Json, request?: { id: string | null; idempotency_key: string | null }): StripeEvent;
  time(): number;
}

const refused = (message: string, code?: string, param?: string): Answer => ({
  status: 400,
  error: { type: 'invalid_request_error', message, ...(code ? { code } : {}), ...(param ? { param } : {}) },
});
const dollars = (minor: number) => `$${(minor / 100).toFixed(2)}`;

export function stripeMoney(books: Books) {
  const charges = new Map<string, Charge>();
  const refunds = new Map<string, Refund>();
  const disputes = new Map<string, Dispute>();
  /** Each invoice's payment, by invoice id. */
  const invoicePayments = new Map<string, InvoicePayment>();

  const newIntent = (amount: number, currency: string, metadata: Record<string, string> = {}): Intent => {
    const intent: Intent = { id: randomId('pi_'), object: 'payment_intent', status: 'requires_payment_method', amount, currency, metadata, latest_charge: null, livemode: false };
    books.intents.set(intent.id, intent);
    return intent;
  };

  /** The card is charged: the intent succeeds with a charge behind it. */
  const chargeIntent = (intent: Intent) => {
    const made: Charge = {
      id: randomId('ch_'),
      object: 'charge',
      amount: intent.amount,
      amount_refunded: 0,
      refunded: false,
      disputed: false,
      captured: true,
      paid: true,
      status: 'succeeded',
      created: books.time(),
      currency: intent.currency,
      payment_intent: intent.id,
      livemode: false,
    };
    charges.set(made.id, made);
    intent.status = 'succeeded';
    intent.latest_charge = made.id;
    return made;
  };

  const chargeOfIntent = (intent: Intent | undefined) => (intent?.latest_charge ? charges.get(intent.latest_charge) : undefined);

  /** Gives back `amount` (all that is left when absent) of a charge; Stripe's refusal when it cannot. */
  const refundCharge = (charge: Charge, amount: number | undefined, metadata: Record<string, string>, reason: string | null, request?: { id: string; idempotency_key: string | null }) => {
    if (charge.disputed) return { refused: refused(`Charge ${charge.id} has been charged back; cannot issue a refund.`, 'charge_disputed') };
    const left = charge.amount - charge.amount_refunded;
    if (left === 0) return { refused: refused(`Charge ${charge.id} has already been refunded.`, 'charge_already_refunded') };
    const given = amount ?? left;
    if (!Number.isInteger(given) || given <= 0) return { refused: refused('Invalid positive integer', 'parameter_invalid_integer', 'amount') };
    if (given > left) return { refused: refused(`Refund amount (${dollars(given)}) is greater than unrefunded amount on charge (${dollars(left)})`, 'amount_too_large', 'amount') };
    const made: Refund = {
      id: randomId('re_'),
      object: 'refund',
      amount: given,
      balance_transaction: randomId('txn_'),
      charge: charge.id,
      created: books.time(),
      currency: charge.currency,
      destination_details: { type: 'card', card: { reference_status: 'pending', reference_type: 'acquirer_reference_number', type: 'refund' } },
      metadata,
      payment_intent: charge.payment_intent,
      reason,
      receipt_number: null,
      source_transfer_reversal: null,
      status: 'succeeded',
      transfer_reversal: null,
    };
    refunds.set(made.id, made);
    charge.amount_refunded += given;
    charge.refunded = charge.amount_refunded === charge.amount;
    const events = [books.event('charge.refunded', charge, { amount_refunded: charge.amount_refunded - given, refunded: false }, request), books.event('refund.created', made, undefined, request)];
    return { refund: made, events };
  };

  const createRefund = (params: Json, request: { id: string; idempotency_key: string | null }): Answer => {
    const intentId = textAt(params.payment_intent);
    const chargeId = textAt(params.charge);
    if (!intentId && !chargeId) return missing('charge');
    let charge: Charge | undefined;
    if (chargeId) {
      charge = charges.get(chargeId);
      if (!charge) return noSuch('charge', chargeId, 'charge');
    } else {
      const intent = books.intents.get(intentId!);
      if (!intent) return noSuch('payment_intent', intentId!, 'payment_intent');
      charge = chargeOfIntent(intent);
      if (!charge) return refused(`This PaymentIntent (${intent.id}) does not have a successful charge to refund.`, undefined, 'payment_intent');
    }
    const amount = params.amount === undefined ? undefined : Number(params.amount);
    const reason = textAt(params.reason) ?? null;
    if (reason && !['duplicate', 'fraudulent', 'requested_by_customer'].includes(reason)) {
      return refused('Invalid reason: must be one of duplicate, fraudulent, or requested_by_customer', 'parameter_invalid_string', 'reason');
    }
    const done = refundCharge(charge, amount, metadataAt(params.metadata), reason, request);
    return done.refused ?? { status: 200, body: done.refund };
  };

  const listInvoicePayments = (query: Json): Answer => {
    const payment = query.payment as Json | undefined;
    if (payment !== undefined && !textAt(payment.type)) return missing('payment[type]');
    if (payment && payment.type !== 'payment_intent' && payment.type !== 'payment_record') {
      return refused('Invalid payment[type]: must be one of payment_intent or payment_record', 'parameter_invalid_string', 'payment[type]');
    }
    const invoice = textAt(query.invoice);
    const intent = textAt(payment?.payment_intent);
    const status = textAt(query.status);
    const limit = Number(query.limit ?? 10);
    const data = [...invoicePayments.values()]
      .filter((made) => (!invoice || made.invoice === invoice) && (!intent || made.payment.payment_intent === intent) && (!status || made.status === status))
      .sort((a, b) => b.created - a.created);
    return { status: 200, body: { object: 'list', data: data.slice(0, limit), has_more: data.length > limit, url: '/v1/invoice_payments' } };
  };

  /** POST /v1/checkout/sessions/:id/expire — only an open session can be. */
  const expireSession = (id: string, request: { id: string; idempotency_key: string | null }): Answer => {
    const session = books.sessions.get(id);
    if (!session) return noSuch('checkout.session', id, 'session');
    if (session.status !== 'open') {
      return refused(`Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of \`${session.status}\`.`);
    }
    return { status: 200, body: expire(session, request).session };
  };

  const expire = (session: StripeSession, request?: { id: string; idempotency_key: string | null }) => {
    session.status = 'expired';
    session.url = null;
    const intent = session.payment_intent ? books.intents.get(session.payment_intent) : undefined;
    if (intent) intent.status = 'canceled';
    return { session, events: [books.event('checkout.session.expired', { ...session }, undefined, request)] };
  };

  /** The charge a session or an invoice was paid with (a test names what was paid, as the dashboard shows it). */
  const paidCharge = (id: string) => {
    const session = books.sessions.get(id);
    const intent = session?.payment_intent ? books.intents.get(session.payment_intent) : books.intents.get(invoicePayments.get(id)?.payment.payment_intent ?? '');
    const charge = chargeOfIntent(intent);
    if (!charge) throw new Error(`${id} has no charge`);
    return charge;
  };

  const disputeOf = (id: string) => {
    const found = disputes.get(id);
    if (!found) throw new Error(`no dispute ${id}`);
    return found;
  };

  const refundPaid = (paidId: string, amountMinor?: number): StripeEvent[] => {
    const done = refundCharge(paidCharge(paidId), amountMinor, {}, null);
    if (done.refused) throw new Error('error' in done.refused ? done.refused.error.message : 'refused');
    return done.events;
  };

  return {
    charges: charges as ReadonlyMap<string, Charge>,
    refunds: refunds as ReadonlyMap<string, Refund>,
    disputes: disputes as ReadonlyMap<string, Dispute>,
    invoicePayments: invoicePayments as ReadonlyMap<string, InvoicePayment>,
    newIntent,
    chargeIntent,
    chargeOfIntent,
    expire,

    /** Stripe finalises an invoice: its default Invoice Payment, open, with the PaymentIntent that will pay it. */
    invoiceOpened(invoice: StripeInvoice) {
      const intent = newIntent(invoice.amount_due, invoice.currency);
      invoicePayments.set(invoice.id, {
        id: randomId('inpay_'),
        object: 'invoice_payment',
        amount_paid: null,
        amount_requested: invoice.amount_due,
        created: books.time(),
        currency: invoice.currency,
        invoice: invoice.id,
        is_default: true,
        livemode: false,
        payment: { type: 'payment_intent', payment_intent: intent.id },
        status: 'open',
        status_transitions: { canceled_at: null, paid_at: null },
      });
    },
    /** The card on file paid the invoice: its intent succeeds with a charge, its Invoice Payment is paid. */
    invoicePaid(invoice: StripeInvoice) {
      const payment = invoicePayments.get(invoice.id)!;
      chargeIntent(books.intents.get(payment.payment.payment_intent)!);
      Object.assign(payment, { status: 'paid', amount_paid: invoice.amount_paid, status_transitions: { canceled_at: null, paid_at: books.time() } });
    },

    /** A request this part of Stripe answers; null for one it does not. */
    route(method: string, path: string, params: Json, query: Json, request: { id: string; idempotency_key: string | null }): Answer | null {
      if (method === 'POST' && path === '/v1/refunds') return createRefund(params, request);
      if (method === 'GET' && path === '/v1/invoice_payments') return listInvoicePayments(query);
      const expiring = /^\/v1\/checkout\/sessions\/([^/]+)\/expire$/.exec(path);
      if (method === 'POST' && expiring) return expireSession(decodeURIComponent(expiring[1]!), request);
      const charge = /^\/v1\/charges\/([^/]+)$/.exec(path);
      if (method === 'GET' && charge) {
        const found = charges.get(decodeURIComponent(charge[1]!));
        return found ? { status: 200, body: found } : noSuch('charge', charge[1]!);
      }
      const dispute = /^\/v1\/disputes\/([^/]+)$/.exec(path);
      if (method === 'GET' && dispute) {
        const found = disputes.get(decodeURIComponent(dispute[1]!));
        return found ? { status: 200, body: found } : noSuch('dispute', dispute[1]!);
      }
      return null;
    },

    control: {
      /** A refund from the dashboard of a paid session: all of what is left, or `amountMinor`. */
      refund: (sessionId: string, amountMinor?: number) => refundPaid(sessionId, amountMinor),
      /** A refund from the dashboard of a paid subscription invoice. */
      refundInvoice: (invoiceId: string, amountMinor?: number) => refundPaid(invoiceId, amountMinor),
      /**
       * The card issuer disputes what a session or an invoice was paid with: a chargeback (the
       * money is withdrawn at once) or an inquiry (nothing moves until it escalates or closes).
       */
      openDispute(paidId: string, how: { inquiry?: boolean; amountMinor?: number; reason?: string } = {}): { dispute: Dispute; events: StripeEvent[] } {
        const charge = paidCharge(paidId);
        if (charge.disputed) throw new Error(`charge ${charge.id} is already disputed`);
        charge.disputed = true;
        const amount = how.amountMinor ?? charge.amount - charge.amount_refunded;
        const inquiry = how.inquiry === true;
        const made: Dispute = {
          id: randomId('dp_'),
          object: 'dispute',
          amount,
          balance_transactions: inquiry ? [] : [{ id: randomId('txn_'), object: 'balance_transaction', amount: -amount, currency: charge.currency, type: 'adjustment' }],
          charge: charge.id,
          created: books.time(),
          currency: charge.currency,
          enhanced_eligibility_types: [],
          evidence: { customer_name: null, product_description: null, receipt: null, uncategorized_text: null },
          evidence_details: { due_by: books.time() + 7 * 24 * 60 * 60, enhanced_eligibility: {}, has_evidence: false, past_due: false, submission_count: 0 },
          is_charge_refundable: inquiry,
          livemode: false,
          metadata: {},
          payment_intent: charge.payment_intent,
          payment_method_details: { type: 'card', card: { brand: 'visa', case_type: inquiry ? 'inquiry' : 'chargeback', network_reason_code: '10.4' } },
          reason: how.reason ?? 'fraudulent',
          status: inquiry ? 'warning_needs_response' : 'needs_response',
        };
        disputes.set(made.id, made);
        const events = [books.event('charge.dispute.created', made)];
        if (!inquiry) events.push(books.event('charge.dispute.funds_withdrawn', made));
        return { dispute: made, events };
      },
      /** Evidence is submitted: the dispute is under review. */
      reviewDispute(disputeId: string): StripeEvent[] {
        const dispute = disputeOf(disputeId);
        const before = dispute.status;
        dispute.status = before.startsWith('warning_') ? 'warning_under_review' : 'under_review';
        dispute.evidence_details = { ...dispute.evidence_details, has_evidence: true, submission_count: dispute.evidence_details.submission_count + 1 };
        return [books.event('charge.dispute.updated', dispute, { status: before })];
      },
      /** The issuer decides: won returns the money (an inquiry just closes), lost leaves it with the cardholder. */
      closeDispute(disputeId: string, outcome: 'won' | 'lost'): StripeEvent[] {
        const dispute = disputeOf(disputeId);
        const before = dispute.status;
        if (before === 'won' || before === 'lost' || before === 'warning_closed') throw new Error(`dispute ${disputeId} is closed`);
        if (before.startsWith('warning_')) {
          dispute.status = 'warning_closed';
          return [books.event('charge.dispute.closed', dispute, { status: before })];
        }
        dispute.status = outcome;
        if (outcome === 'lost') return [books.event('charge.dispute.closed', dispute, { status: before })];
        dispute.balance_transactions.push({ id: randomId('txn_'), object: 'balance_transaction', amount: dispute.amount, currency: dispute.currency, type: 'adjustment' });
        return [books.event('charge.dispute.closed', dispute, { status: before }), books.event('charge.dispute.funds_reinstated', dispute)];
      },
    },
  };
}
