// The local provider, YooKassa (API v3), through a small client of its own (there is no official
// Node SDK): Basic auth with the shop's id and secret key, an Idempotence-Key on every POST (the
// payment's id, so a retried create never makes a second payment), and retries of what YooKassa
// says to retry (202 with retry_after, 429, 5xx, network failures) with the same key. YooKassa does
// not sign its notifications, so nothing in one is trusted: the payment or refund it names is
// read back from the API and that answer is what counts.
//
// Mandates are YooKassa's autopayments: the seller confirms one payment made with
// `save_payment_method: true`, YooKassa keeps the method under the payment's id, and later
// payments naming it as `payment_method_id` go through without the seller. Every object we make
// carries `metadata.kind` ('mandate' or 'charge'; top-ups carry none), so a notification is routed
// by what the API says the payment is, not by what its body claims.
import {
  NotificationRejected,
  ProviderRefused,
  ProviderUnavailable,
  type FailureReason,
  type MandateBilling,
  type PaymentMethod,
  type PaymentProvider,
  type ProviderEvent,
  type RemoteCharge,
  type RemoteMandate,
  type RemotePayment,
} from '../provider';
import { retryDelayMs as backoff } from '../../../contract/backoff';

export interface YooKassaOptions {
  shopId: string;
  secretKey: string;
  apiUrl?: string;
  timeoutMs?: number;
  /** The wait before retry `attempt` (1-based) when the answer gives none. */
  retryDelayMs?: (attempt: number) => number;
  /** Tries of one request before giving up as unavailable. */
  attempts?: number;
  /**
   * Whether a payment id is one we made (a top-up, a mandate or a charge of ours): a notification
   * naming another is answered without asking YooKassa, so forged ones cost no API quota.
   */
  knows?: (providerPaymentId: string) => Promise<boolean>;
}

/** SPEC's methods as YooKassa's payment_method_data.type. */
const METHOD_TYPES: Partial<Record<PaymentMethod, string>> = {
  card_ru: 'bank_card',
  yoomoney_ru: 'yoo_money',
  sberpay_ru: 'sberbank',
  tbank_ru: 'tinkoff_bank',
};

interface Amount {
  value: string;
  currency: string;
}

interface YooPayment {
  id: string;
  status: 'pending' | 'waiting_for_capture' | 'succeeded' | 'canceled';
  amount: Amount;
  refunded_amount?: Amount;
  confirmation?: { type: string; confirmation_url?: string };
  /** The method paid with; `saved` while the shop may charge it again under `id`. */
  payment_method?: { type: string; id: string; saved: boolean };
  metadata?: Record<string, string>;
  cancellation_details?: { party: string; reason: string };
}

/**
 * What authorising a mandate holds when our caller asks for no hold: YooKassa refuses a payment
 * of 0, and a method is only saved by a payment the seller confirms. The payment is two-stage
 * (`capture: false`) and cancelled as soon as it is authorised, so the hold is released and the
 * seller is never charged for authorising (YooKassa's own advice for saving a method).
 */
export const VERIFICATION_HOLD_MINOR = 100;

/**
 * Cancellations of a mandate's payment that come after the seller authorised it: ours, releasing
 * the hold, or YooKassa's when a hold was never captured. The method stays saved.
 */
const AFTER_AUTHORISATION = new Set(['canceled_by_merchant', 'expired_on_capture']);
/** The seller withdrew the shop's permission to charge the method (in their bank or wallet). */
const REVOKED = 'permission_revoked';

interface YooRefund {
  id: string;
  payment_id: string;
  status: 'pending' | 'succeeded' | 'canceled';
  amount: Amount;
}

/** A page of a list, newest first; `next_cursor` is absent on the last page. */
interface YooList<T> {
  type: 'list';
  items: T[];
  next_cursor?: string;
}

interface YooError {
  type: 'error';
  id?: string;
  code?: string;
  description?: string;
  parameter?: string;
}

/** '1234.50' → 123450. */
const toMinor = (amount: Amount | undefined) => (amount ? Math.round(Number(amount.value) * 100) : 0);
const fromMinor = (minor: number) => (minor / 100).toFixed(2);

const EXPIRED = new Set(['expired_on_confirmation', 'expired_on_capture']);
const CANCELED = new Set(['canceled_by_merchant', 'canceled_by_user', 'permission_revoked', 'deal_expired']);

function failureOf(payment: YooPayment): FailureReason {
  const reason = payment.cancellation_details?.reason ?? '';
  if (EXPIRED.has(reason)) return 'expired';
  if (CANCELED.has(reason) || payment.cancellation_details?.party === 'merchant') return 'canceled';
  return 'declined';
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Where a lost charge is looked for: from shortly before it was asked for (clocks differ) to past YooKassa's 24 h idempotency window. */
const FIND_FROM_MS = 10 * 60_000;
const FIND_UNTIL_MS = 25 * 60 * 60_000;
/** The longest page YooKassa gives. */
const PAGE_LIMIT = 100;

export function yookassaProvider(options: YooKassaOptions): PaymentProvider {
  const apiUrl = (options.apiUrl ?? 'https://api.yookassa.ru/v3').replace(/\/+$/, '');
  const authorization = `Basic ${Buffer.from(`${options.shopId}:${options.secretKey}`).toString('base64')}`;
  const timeoutMs = options.timeoutMs ?? 20_000;
  const attempts = options.attempts ?? 4;
  const delay = options.retryDelayMs ?? ((attempt: number) => backoff(attempt, { firstMs: 500, longestMs: 5_000, jitter: 0.2 }));

  /** One API call, retried as YooKassa asks; the parsed answer of a 200. */
  async function call<T>(method: 'GET' | 'POST', path: string, body?: unknown, idempotenceKey?: string): Promise<T> {
    let lastProblem = '';
    for (let attempt = 1; attempt <= attempts; attempt += 1) {
      let response: Response;
      try {
        response = await fetch(`${apiUrl}${path}`, {
          method,
          headers: {
            authorization,
            accept: 'application/json',
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
            ...(idempotenceKey ? { 'idempotence-key': idempotenceKey } : {}),
          },
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (error) {
        lastProblem = error instanceof Error ? error.message : String(error);
        if (attempt < attempts) await sleep(delay(attempt));
        continue;
      }
      const text = await response.text().catch(() => '');
      let parsed: unknown;
      try {
        parsed = text ? JSON.parse(text) : null;
      } catch {
        parsed = null;
      }
      if (response.status === 200) {
        if (parsed === null || typeof parsed !== 'object') throw new ProviderUnavailable(`YooKassa answered ${path} with something that is not JSON`);
        return parsed as T;
      }
      const error = (parsed ?? {}) as YooError & { retry_after?: number };
      if (response.status === 202 || response.status === 429 || response.status >= 500) {
        lastProblem = `HTTP ${response.status} ${error.code ?? ''} ${error.description ?? ''}`.trim();
        if (attempt < attempts) await sleep(typeof error.retry_after === 'number' ? error.retry_after : delay(attempt));
        continue;
      }
      throw new ProviderRefused(`YooKassa: ${error.description ?? `HTTP ${response.status}`}${error.parameter ? ` (${error.parameter})` : ''}`, error.code ?? `http_${response.status}`);
    }
    throw new ProviderUnavailable(`YooKassa did not answer ${method} ${path}: ${lastProblem}`);
  }

  const remoteOf = (payment: YooPayment): RemotePayment => ({
    providerPaymentId: payment.id,
    paymentId: payment.metadata?.payment_id ?? null,
    state:
      payment.status === 'succeeded'
        ? { status: 'succeeded', amountMinor: toMinor(payment.amount), currency: payment.amount.currency }
        : payment.status === 'canceled'
          ? { status: 'failed', reason: failureOf(payment) }
          : { status: 'pending' },
    refundedMinor: toMinor(payment.refunded_amount),
  });

  /** Reads an object a notification names; one the API does not know makes the notification untrusted. */
  async function confirmed<T>(path: string): Promise<T> {
    try {
      return await call<T>('GET', path);
    } catch (error) {
      if (error instanceof ProviderRefused) throw new NotificationRejected(`YooKassa does not confirm ${path}: ${error.message}`);
      throw error;
    }
  }

  const paymentPath = (id: string) => `/payments/${encodeURIComponent(id)}`;

  /**
   * A mandate's payment read as a mandate. Authorised (held) → the hold is released first, then
   * active; the release failing for a reason that may pass throws, so the mandate stays pending and
   * is asked about again rather than reported active with money still held.
   */
  async function mandateOf(payment: YooPayment): Promise<RemoteMandate> {
    let current = payment;
    if (current.status === 'waiting_for_capture') {
      try {
        // Keyed by the payment, so any number of nodes releasing it at once make one cancellation.
        current = await call<YooPayment>('POST', `${paymentPath(current.id)}/cancel`, {}, `cancel-${current.id}`);
      } catch (error) {
        if (!(error instanceof ProviderRefused)) throw error;
        // Refused: it moved on meanwhile (captured, cancelled, expired); what it is now decides.
        current = await call<YooPayment>('GET', paymentPath(current.id));
      }
    }
    const common = { providerMandateId: current.id, mandateId: current.metadata?.mandate_id ?? null };
    const method = current.payment_method;
    const authorised =
      current.status === 'waiting_for_capture' ||
      current.status === 'succeeded' ||
      (current.status === 'canceled' && AFTER_AUTHORISATION.has(current.cancellation_details?.reason ?? ''));
    if (authorised) {
      // Saving is unconditional (save_payment_method: true), so a method the seller authorised and
      // that is no longer saved was withdrawn by them since.
      if (method?.saved) return { ...common, status: 'active', providerMethodId: method.id };
      return { ...common, status: 'revoked', providerMethodId: method?.id ?? null };
    }
    if (current.status === 'canceled') return { ...common, status: 'failed', providerMethodId: null, reason: failureOf(current) };
    return { ...common, status: 'pending', providerMethodId: null };
  }

  const chargeOf = (payment: YooPayment): RemoteCharge => {
    const remote = remoteOf(payment);
    return {
      providerPaymentId: payment.id,
      chargeId: payment.metadata?.charge_id ?? null,
      state: remote.state,
      revoked: payment.status === 'canceled' && payment.cancellation_details?.reason === REVOKED,
    };
  };

  const mandates: MandateBilling = {
    async createMandate(request) {
      const type = METHOD_TYPES[request.method];
      if (!type) throw new ProviderRefused(`YooKassa does not save ${request.method}`);
      if (request.currency !== 'RUB') throw new ProviderRefused(`YooKassa charges roubles, not ${request.currency}`);
      const holdMinor = request.holdMinor > 0 ? request.holdMinor : VERIFICATION_HOLD_MINOR;
      const payment = await call<YooPayment>(
        'POST',
        '/payments',
        {
          amount: { value: fromMinor(holdMinor), currency: 'RUB' },
          // Two-stage: authorised, never captured; mandateOf releases it (see VERIFICATION_HOLD_MINOR).
          capture: false,
          save_payment_method: true,
          confirmation: { type: 'redirect', return_url: request.returnUrl, locale: request.locale === 'ru' ? 'ru_RU' : 'en_US' },
          payment_method_data: { type },
          description: request.description.slice(0, 128),
          metadata: { mandate_id: request.mandateId, user_id: request.userId, kind: 'mandate' },
        },
        request.mandateId,
      );
      const url = payment.confirmation?.confirmation_url;
      if (!url) throw new ProviderRefused(`YooKassa answered payment ${payment.id} without a page to authorise on`);
      return { providerPaymentId: payment.id, redirectUrl: url };
    },

    async retrieveMandate(providerMandateId) {
      return mandateOf(await call<YooPayment>('GET', paymentPath(providerMandateId)));
    },

    async charge(request) {
      if (request.currency !== 'RUB') throw new ProviderRefused(`YooKassa charges roubles, not ${request.currency}`);
      // No confirmation: an autopayment is final at once (succeeded or canceled) or, rarely, pending.
      const payment = await call<YooPayment>(
        'POST',
        '/payments',
        {
          amount: { value: fromMinor(request.amountMinor), currency: 'RUB' },
          capture: true,
          payment_method_id: request.providerMethodId,
          description: request.description.slice(0, 128),
          metadata: { charge_id: request.chargeId, kind: 'charge' },
        },
        request.chargeId,
      );
      return chargeOf(payment);
    },

    async retrieveCharge(providerPaymentId) {
      return chargeOf(await call<YooPayment>('GET', paymentPath(providerPaymentId)));
    },

    async findCharge(chargeId, requestedAt) {
      // YooKassa keeps no index of metadata for payments: the payments made around the request are read page by page.
      const query = new URLSearchParams({
        'created_at.gte': new Date(requestedAt.getTime() - FIND_FROM_MS).toISOString(),
        'created_at.lte': new Date(requestedAt.getTime() + FIND_UNTIL_MS).toISOString(),
        limit: String(PAGE_LIMIT),
      });
      for (;;) {
        const page = await call<YooList<YooPayment>>('GET', `/payments?${query.toString()}`);
        const found = page.items.find((payment) => payment.metadata?.kind === 'charge' && payment.metadata.charge_id === chargeId);
        if (found) return chargeOf(found);
        if (!page.next_cursor) return null;
        query.set('cursor', page.next_cursor);
      }
    },

    async closeMandate(providerMandateId) {
      // The shop cannot cancel a payment the seller has not confirmed (YooKassa cancels only one
      // waiting for capture, and lets a pending one expire by itself): it is answered as it stands,
      // an authorised one released by mandateOf.
      return mandateOf(await call<YooPayment>('GET', paymentPath(providerMandateId)));
    },
  };

  return {
    name: 'yookassa',
    live: options.secretKey.startsWith('live_'),
    methods: Object.keys(METHOD_TYPES) as PaymentMethod[],

    async createCheckout(request) {
      const type = METHOD_TYPES[request.method];
      if (!type) throw new ProviderRefused(`YooKassa does not take ${request.method}`);
      if (request.currency !== 'RUB') throw new ProviderRefused(`YooKassa charges roubles, not ${request.currency}`);
      const payment = await call<YooPayment>(
        'POST',
        '/payments',
        {
          amount: { value: fromMinor(request.amountMinor), currency: 'RUB' },
          capture: true,
          confirmation: { type: 'redirect', return_url: request.successUrl, locale: request.locale === 'ru' ? 'ru_RU' : 'en_US' },
          payment_method_data: { type },
          description: request.description.slice(0, 128),
          metadata: { payment_id: request.paymentId, user_id: request.userId },
        },
        request.paymentId,
      );
      const url = payment.confirmation?.confirmation_url;
      if (!url) throw new ProviderRefused(`YooKassa answered payment ${payment.id} without a page to pay on`);
      return { providerPaymentId: payment.id, redirectUrl: url };
    },

    async retrieve(providerPaymentId) {
      return remoteOf(await call<YooPayment>('GET', `/payments/${encodeURIComponent(providerPaymentId)}`));
    },

    async parseNotification(notification): Promise<ProviderEvent[]> {
      let body: { type?: unknown; event?: unknown; object?: { id?: unknown; payment_id?: unknown } };
      try {
        body = JSON.parse(notification.body.toString('utf8')) as typeof body;
      } catch {
        throw new NotificationRejected('the notification is not JSON');
      }
      const event = typeof body.event === 'string' ? body.event : '';
      const id = typeof body.object?.id === 'string' ? body.object.id : '';
      if (body.type !== 'notification' || !event || !id) throw new NotificationRejected('the body is not a YooKassa notification');
      const eventId = `${event}:${id}`;
      // Only a payment of ours (or a refund of one) is worth an API call.
      if (options.knows) {
        const paymentId = event.startsWith('refund.') ? body.object?.payment_id : event.startsWith('payment.') ? id : undefined;
        if (typeof paymentId !== 'string' || !(await options.knows(paymentId))) return [];
      }

      if (event === 'payment.succeeded' || event === 'payment.canceled' || event === 'payment.waiting_for_capture') {
        const payment = await confirmed<YooPayment>(`/payments/${encodeURIComponent(id)}`);
        // The kind is the API's metadata, which only we write: a body claiming another changes nothing.
        const kind = payment.metadata?.kind;
        if (kind === 'mandate') {
          const mandate = await mandateOf(payment);
          // One event per state the mandate is read in, so a replay is recorded once and a later state is not lost.
          return [{ kind: 'mandate', eventId: `${eventId}:${mandate.status}`, mandate }];
        }
        if (kind === 'charge') {
          const charge = chargeOf(payment);
          const events: ProviderEvent[] = [{ kind: 'charge', eventId: `${eventId}:${charge.state.status}`, charge }];
          // YooKassa tells no one when a seller withdraws a method; a refused autopayment is how we learn it.
          const method = payment.payment_method?.id;
          if (charge.revoked && method) events.push({ kind: 'method_revoked', eventId: `${eventId}:method_revoked`, providerMethodId: method });
          return events;
        }
        const remote = remoteOf(payment);
        const common = { eventId: `${eventId}:${remote.state.status}`, providerPaymentId: remote.providerPaymentId, paymentId: remote.paymentId };
        if (remote.state.status === 'succeeded') return [{ kind: 'succeeded', ...common, amountMinor: remote.state.amountMinor, currency: remote.state.currency }];
        if (remote.state.status === 'failed') return [{ kind: 'failed', ...common, reason: remote.state.reason }];
        return [];
      }
      if (event === 'refund.succeeded') {
        const refund = await confirmed<YooRefund>(`/refunds/${encodeURIComponent(id)}`);
        if (refund.status !== 'succeeded') return [];
        const payment = await confirmed<YooPayment>(`/payments/${encodeURIComponent(refund.payment_id)}`);
        const remote = remoteOf(payment);
        const kind = payment.metadata?.kind;
        // A renewal's charge given back takes back its period; a mandate's hold is released, never refunded.
        if (kind === 'charge') return [{ kind: 'charge_refunded', eventId, providerPaymentId: payment.id, refundedMinor: remote.refundedMinor }];
        if (kind === 'mandate') return [];
        return [{ kind: 'refunded', eventId, providerPaymentId: remote.providerPaymentId, paymentId: remote.paymentId, refundedMinor: remote.refundedMinor }];
      }
      // payment_method.active belongs to saving a method without a payment, which we do not use.
      return [];
    },

    mandates,
  };
}
