// A local stand-in for YooKassa's API v3, speaking its protocol for what the local provider uses:
// HTTP Basic auth with the shop's id and secret key, an Idempotence-Key required on every POST
// (the same key and body answer the same object; the same key with another body is refused),
// validation errors naming the parameter, YooKassa's error objects, 202 "still processing" with
// retry_after, payments and refunds as its API returns them, and unsigned notifications. Tests
// drive what a payer and the shop's dashboard would do — pay, cancel, refund — and get what
// YooKassa would notify.
//
// Autopayments too: a payment with `save_payment_method: true` saves the method the payer confirms
// under the payment's id (`payment_method.saved`, `payment_method.id`); a payment naming it as
// `payment_method_id` needs no confirmation and is final at once — succeeded, or canceled with
// `insufficient_funds` when the method declines or `permission_revoked` once the payer withdrew
// it. Two-stage payments (`capture: false`) wait for capture after the payer confirms and are
// captured or cancelled through /payments/{id}/capture and /cancel. A withdrawn method reads as
// `saved: false` on the payment that saved it (YooKassa sends no notification for that).
//
// Lists too: GET /payments filtered by created_at (gte, gt, lte, lt), newest first, `limit`
// (1–100) per page and `next_cursor` to the next; every API request is recorded, so a test can
// tell that none was made.
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

interface Amount {
  value: string;
  currency: string;
}

/** A payment as YooKassa answers it; one made by a saved method has no confirmation. */
export interface YooKassaAutopayment {
  id: string;
  status: 'pending' | 'waiting_for_capture' | 'succeeded' | 'canceled';
  paid: boolean;
  amount: Amount;
  income_amount?: Amount;
  refunded_amount?: Amount;
  description?: string;
  recipient: { account_id: string; gateway_id: string };
  payment_method: { type: string; id: string; saved: boolean };
  created_at: string;
  captured_at?: string;
  /** Until when an authorised two-stage payment may be captured. */
  expires_at?: string;
  test: true;
  refundable: boolean;
  metadata: Record<string, string>;
  cancellation_details?: { party: string; reason: string };
}

/** A payment the payer confirms on YooKassa's page. */
export interface YooKassaPayment extends YooKassaAutopayment {
  confirmation: { type: 'redirect'; confirmation_url: string; return_url: string };
}

interface Refund {
  id: string;
  payment_id: string;
  status: 'succeeded';
  amount: Amount;
  created_at: string;
}

interface Notification {
  type: 'notification';
  event: string;
  object: object;
}

const METHOD_TYPES = new Set(['bank_card', 'yoo_money', 'sberbank', 'tinkoff_bank', 'sbp']);
/** YooKassa's ids: 36 characters, hex groups. */
const yooId = () => {
  const hex = crypto.randomBytes(16).toString('hex');
  return `${hex.slice(0, 8)}-000f-5000-${hex.slice(12, 16)}-${hex.slice(16, 28)}`;
};
/** A request as the stand-in received it. */
export interface YooKassaRequest {
  method: string;
  path: string;
  query: Record<string, string>;
}

const CREATED_FILTERS = ['created_at.gte', 'created_at.gt', 'created_at.lte', 'created_at.lt'] as const;
const toMinor = (amount: Amount) => Math.round(Number(amount.value) * 100);
const fromMinor = (minor: number) => (minor / 100).toFixed(2);

export async function startFakeYooKassa(options: { shopId?: string; secretKey?: string; notificationUrl?: string; port?: number } = {}) {
  const shopId = options.shopId ?? String(100_000 + crypto.randomInt(800_000));
  const secretKey = options.secretKey ?? `test_${crypto.randomBytes(18).toString('base64url')}`;
  /** Every payment, by id (what GET /payments/{id} reads). */
  const payments = new Map<string, YooKassaAutopayment>();
  /** The same objects, split by how they were made (a confirmed payment has a page; an autopayment none). */
  const confirmed = new Map<string, YooKassaPayment>();
  const autopayments = new Map<string, YooKassaAutopayment>();
  const refunds = new Map<string, Refund>();
  const requests: YooKassaRequest[] = [];
  const keys = new Map<string, { body: string; status: number; answer: string }>();
  const failures: { status: number; code: string; description: string }[] = [];
  const processing: number[] = [];
  let stalls = 0;
  const hanging = new Set<http.ServerResponse>();
  const deliveries: { event: string; status: number }[] = [];
  /** Every notification this YooKassa made, in order (what it would have POSTed). */
  const sent: Notification[] = [];
  /** Whether a payment asked to capture at once (YooKassa's default is two-stage). */
  const captures = new Map<string, boolean>();
  /** Saved methods by id: the payment that saved them, and what charging them does now. */
  const methods = new Map<string, { paymentId: string; type: string; authorised: boolean; refusal: 'insufficient_funds' | 'card_expired' | 'permission_revoked' | null }>();
  let origin = '';

  const send = (response: http.ServerResponse, status: number, body: unknown) => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  };
  const error = (response: http.ServerResponse, status: number, code: string, description: string, parameter?: string) =>
    send(response, status, { type: 'error', id: yooId(), code, description, ...(parameter ? { parameter } : {}) });

  const notification = (event: string, object: object) => ({
    body: Buffer.from(JSON.stringify({ type: 'notification', event, object } satisfies Notification)),
    headers: { 'content-type': 'application/json' },
  });
  const notify = (event: string, object: object): Notification => {
    if (options.notificationUrl) {
      const { body, headers } = notification(event, object);
      void fetch(options.notificationUrl, { method: 'POST', body, headers })
        .then((answer) => deliveries.push({ event, status: answer.status }))
        .catch(() => deliveries.push({ event, status: 0 }));
    }
    // A copy: the object as it was when notified, whatever happens to the payment later.
    const made: Notification = { type: 'notification', event, object: structuredClone(object) };
    sent.push(made);
    return made;
  };

  const validAmount = (amount: unknown): amount is Amount =>
    typeof amount === 'object' && amount !== null && typeof (amount as Amount).value === 'string' && /^\d+(\.\d{1,2})?$/.test((amount as Amount).value) &&
    Number((amount as Amount).value) > 0 && /^[A-Z]{3}$/.test(String((amount as Amount).currency));

  const createPayment = (body: Record<string, unknown>, response: http.ServerResponse) => {
    if (!validAmount(body.amount)) return error(response, 400, 'invalid_request', 'Invalid amount value', 'amount');
    if (body.capture !== undefined && typeof body.capture !== 'boolean') return error(response, 400, 'invalid_request', 'Invalid capture value', 'capture');
    if (body.save_payment_method !== undefined && typeof body.save_payment_method !== 'boolean') {
      return error(response, 400, 'invalid_request', 'Invalid save_payment_method value', 'save_payment_method');
    }
    if (typeof body.description === 'string' && body.description.length > 128) {
      return error(response, 400, 'invalid_request', 'Description is too long', 'description');
    }
    if (body.payment_method_id !== undefined) return autopayment(body, response);
    const confirmation = body.confirmation as { type?: string; return_url?: string } | undefined;
    if (confirmation?.type !== 'redirect' || !confirmation.return_url) {
      return error(response, 400, 'invalid_request', 'Confirmation type redirect requires return_url', 'confirmation.return_url');
    }
    const method = (body.payment_method_data as { type?: string } | undefined)?.type;
    if (method !== undefined && !METHOD_TYPES.has(method)) return error(response, 400, 'invalid_request', `Invalid payment_method_data.type: ${method}`, 'payment_method_data.type');
    const id = yooId();
    captures.set(id, body.capture === true);
    const saving = body.save_payment_method === true;
    const payment: YooKassaPayment = {
      id,
      status: 'pending',
      paid: false,
      amount: body.amount,
      description: body.description as string | undefined,
      recipient: { account_id: shopId, gateway_id: String(crypto.randomInt(1_000_000, 9_999_999)) },
      payment_method: { type: method ?? 'bank_card', id, saved: false },
      created_at: new Date().toISOString(),
      confirmation: { type: 'redirect', confirmation_url: `${origin}/checkout/payments/v2/contract?orderId=${id}`, return_url: confirmation.return_url },
      test: true,
      refundable: false,
      metadata: (body.metadata ?? {}) as Record<string, string>,
    };
    payments.set(id, payment);
    confirmed.set(id, payment);
    // The method is saved when the payer confirms; until then it is only what they will pay with.
    if (saving) methods.set(id, { paymentId: id, type: payment.payment_method.type, authorised: false, refusal: null });
    return send(response, 200, payment);
  };

  /** A payment by a saved method: no confirmation, final at once, and notified like any other. */
  const autopayment = (body: Record<string, unknown>, response: http.ServerResponse) => {
    const methodId = String(body.payment_method_id);
    const saved = methods.get(methodId);
    // A method the payer never confirmed is not saved: YooKassa refuses the request itself.
    if (!saved?.authorised) return error(response, 400, 'invalid_request', 'Payment method is not saved or does not exist', 'payment_method_id');
    const id = yooId();
    const capture = body.capture === true;
    captures.set(id, capture);
    const refusal = saved.refusal;
    const payment: YooKassaAutopayment = {
      id,
      status: refusal ? 'canceled' : capture ? 'succeeded' : 'waiting_for_capture',
      paid: !refusal,
      amount: body.amount as Amount,
      description: body.description as string | undefined,
      recipient: { account_id: shopId, gateway_id: String(crypto.randomInt(1_000_000, 9_999_999)) },
      payment_method: { type: saved.type, id: methodId, saved: refusal !== 'permission_revoked' },
      created_at: new Date().toISOString(),
      test: true,
      refundable: !refusal && capture,
      metadata: (body.metadata ?? {}) as Record<string, string>,
      ...(refusal ? { cancellation_details: { party: refusal === 'permission_revoked' ? 'yoo_money' : 'payment_network', reason: refusal } } : {}),
      ...(!refusal && capture ? { captured_at: new Date().toISOString() } : {}),
    };
    if (!refusal && capture) payment.income_amount = { value: fromMinor(Math.round(toMinor(payment.amount) * 0.965)), currency: payment.amount.currency };
    payments.set(id, payment);
    autopayments.set(id, payment);
    notify(refusal ? 'payment.canceled' : capture ? 'payment.succeeded' : 'payment.waiting_for_capture', payment);
    return send(response, 200, payment);
  };

  /** POST /payments/{id}/capture or /cancel: only a payment waiting for capture moves. */
  const settleTwoStage = (id: string, action: 'capture' | 'cancel', response: http.ServerResponse) => {
    const payment = payments.get(id);
    if (!payment) return error(response, 404, 'not_found', "Payment doesn't exist or access denied");
    if (payment.status !== 'waiting_for_capture') {
      return error(response, 400, 'invalid_request', `Payment has status ${payment.status}; only a payment waiting for capture can be ${action === 'capture' ? 'captured' : 'canceled'}`);
    }
    if (action === 'capture') control.capture(id);
    else control.cancel(id, 'canceled_by_merchant');
    return send(response, 200, payment);
  };

  const createRefund = (body: Record<string, unknown>, response: http.ServerResponse) => {
    const payment = payments.get(String(body.payment_id));
    if (!payment) return error(response, 400, 'invalid_request', 'Payment not found', 'payment_id');
    if (!validAmount(body.amount)) return error(response, 400, 'invalid_request', 'Invalid amount value', 'amount');
    if (!payment.refundable) return error(response, 400, 'invalid_request', `Payment ${payment.id} can't be refunded`, 'payment_id');
    const left = toMinor(payment.amount) - (payment.refunded_amount ? toMinor(payment.refunded_amount) : 0);
    if (toMinor(body.amount) > left) return error(response, 400, 'invalid_request', 'Refund amount exceeds the amount left to refund', 'amount');
    return send(response, 200, refund(payment, toMinor(body.amount)).object);
  };

  /** GET /payments: newest first, filtered by when they were made, a page at a time. */
  const listPayments = (url: URL, response: http.ServerResponse) => {
    const limit = Number(url.searchParams.get('limit') ?? 10);
    if (!Number.isInteger(limit) || limit < 1 || limit > 100) return error(response, 400, 'invalid_request', 'Invalid limit value: must be from 1 to 100', 'limit');
    const bounds: Partial<Record<(typeof CREATED_FILTERS)[number], number>> = {};
    for (const name of CREATED_FILTERS) {
      const given = url.searchParams.get(name);
      if (given === null) continue;
      const at = Date.parse(given);
      if (!/^\d{4}-\d{2}-\d{2}T/.test(given) || Number.isNaN(at)) return error(response, 400, 'invalid_request', `Invalid ${name} value: ISO 8601 expected`, name);
      bounds[name] = at;
    }
    const made = (payment: YooKassaAutopayment) => Date.parse(payment.created_at);
    const matching = [...payments.values()]
      .filter((payment) => {
        const at = made(payment);
        return (
          (bounds['created_at.gte'] === undefined || at >= bounds['created_at.gte']) &&
          (bounds['created_at.gt'] === undefined || at > bounds['created_at.gt']) &&
          (bounds['created_at.lte'] === undefined || at <= bounds['created_at.lte']) &&
          (bounds['created_at.lt'] === undefined || at < bounds['created_at.lt'])
        );
      })
      .reverse()
      .sort((a, b) => made(b) - made(a));
    // The cursor names the last payment of the page before; an unknown one is refused.
    const cursor = url.searchParams.get('cursor');
    let from = 0;
    if (cursor !== null) {
      const after = Buffer.from(cursor, 'base64url').toString('utf8');
      const index = matching.findIndex((payment) => payment.id === after);
      if (index < 0) return error(response, 400, 'invalid_request', 'Invalid cursor value', 'cursor');
      from = index + 1;
    }
    const items = matching.slice(from, from + limit);
    const more = from + limit < matching.length;
    return send(response, 200, { type: 'list', items, ...(more ? { next_cursor: Buffer.from(items.at(-1)!.id).toString('base64url') } : {}) });
  };

  const api = (request: http.IncomingMessage, raw: string, response: http.ServerResponse) => {
    const asked = new URL(request.url ?? '/', 'http://yookassa.local');
    requests.push({ method: request.method ?? 'GET', path: asked.pathname, query: Object.fromEntries(asked.searchParams) });
    const expected = `Basic ${Buffer.from(`${shopId}:${secretKey}`).toString('base64')}`;
    if (request.headers.authorization !== expected) {
      return error(response, 401, 'invalid_credentials', 'Authentication by given credentials failed');
    }
    const failure = failures.shift();
    if (failure) return error(response, failure.status, failure.code, failure.description);
    const wait = processing.shift();
    if (wait !== undefined) return send(response, 202, { type: 'processing', description: 'Request accepted, but not yet processed', retry_after: wait });
    const url = new URL(request.url ?? '/', 'http://yookassa.local');
    if (request.method === 'POST') {
      const key = request.headers['idempotence-key'];
      if (typeof key !== 'string' || key.length === 0 || key.length > 64) {
        return error(response, 400, 'invalid_request', 'Idempotence key header is missing or invalid', 'Idempotence-Key');
      }
      const before = keys.get(`${url.pathname} ${key}`);
      if (before && before.body !== raw) {
        return error(response, 400, 'invalid_request', 'Idempotence key duplicated with different request body', 'Idempotence-Key');
      }
      if (before) {
        response.writeHead(before.status, { 'content-type': 'application/json' });
        return response.end(before.answer);
      }
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(raw) as Record<string, unknown>;
      } catch {
        return error(response, 400, 'invalid_request', 'Request body is not valid JSON');
      }
      const end = response.end.bind(response);
      response.end = ((chunk: unknown) => {
        keys.set(`${url.pathname} ${key}`, { body: raw, status: response.statusCode, answer: String(chunk) });
        return end(chunk as string);
      }) as typeof response.end;
      if (url.pathname === '/v3/payments') return createPayment(body, response);
      if (url.pathname === '/v3/refunds') return createRefund(body, response);
      const step = /^\/v3\/payments\/([^/]+)\/(capture|cancel)$/.exec(url.pathname);
      if (step) return settleTwoStage(decodeURIComponent(step[1]!), step[2] as 'capture' | 'cancel', response);
    }
    if (request.method === 'GET' && url.pathname === '/v3/payments') return listPayments(url, response);
    const one = /^\/v3\/(payments|refunds)\/([^/]+)$/.exec(url.pathname);
    if (request.method === 'GET' && one) {
      const found = one[1] === 'payments' ? payments.get(decodeURIComponent(one[2]!)) : refunds.get(decodeURIComponent(one[2]!));
      if (!found) return error(response, 404, 'not_found', `${one[1] === 'payments' ? 'Payment' : 'Refund'} doesn't exist or access denied`);
      return send(response, 200, found);
    }
    return error(response, 404, 'not_found', 'Incorrect request path');
  };

  /** The confirmation page, for trying the whole journey by hand against this stand-in. */
  const page = (request: http.IncomingMessage, response: http.ServerResponse, id: string, action: string | null) => {
    const payment = confirmed.get(id);
    if (!payment) return send(response, 404, { error: 'not found' });
    if (request.method === 'POST' && payment.status === 'pending') {
      if (action === 'pay') control.succeed(id);
      else control.cancel(id, action === 'decline' ? 'insufficient_funds' : 'canceled_by_user');
      response.writeHead(303, { location: payment.confirmation.return_url });
      return response.end();
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    const form = (name: string, label: string) => `<form method="post" action="?orderId=${id}&action=${name}"><button>${label}</button></form>`;
    return response.end(`<!doctype html><meta charset="utf-8"><title>Тестовый платёж</title><h1>YooKassa test payment (local stand-in)</h1>
<p>${payment.amount.value} ${payment.amount.currency} — ${payment.status}</p>${form('pay', 'Pay')}${form('decline', 'Decline')}${form('cancel', 'Cancel')}`);
  };

  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://yookassa.local');
      if (url.pathname === '/checkout/payments/v2/contract') return page(request, response, url.searchParams.get('orderId') ?? '', url.searchParams.get('action'));
      if (stalls > 0) {
        stalls -= 1;
        hanging.add(response);
        return;
      }
      api(request, Buffer.concat(chunks).toString('utf8'), response);
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const paymentOf = (id: string) => {
    const payment = payments.get(id);
    if (!payment) throw new Error(`no payment ${id}`);
    return payment;
  };

  function refund(payment: YooKassaAutopayment, minor?: number) {
    const left = toMinor(payment.amount) - (payment.refunded_amount ? toMinor(payment.refunded_amount) : 0);
    const amount = Math.min(left, minor ?? left);
    const made: Refund = { id: yooId(), payment_id: payment.id, status: 'succeeded', amount: { value: fromMinor(amount), currency: payment.amount.currency }, created_at: new Date().toISOString() };
    refunds.set(made.id, made);
    const total = toMinor(payment.amount) - left + amount;
    payment.refunded_amount = { value: fromMinor(total), currency: payment.amount.currency };
    payment.refundable = total < toMinor(payment.amount);
    return notify('refund.succeeded', made);
  }

  const control = {
    /**
     * The payer confirms: with capture the payment succeeds at once; a two-stage one waits for
     * capture (its money held). A method asked to be saved is saved now.
     */
    succeed(id: string) {
      const payment = paymentOf(id);
      const saving = methods.get(id);
      if (saving) {
        saving.authorised = true;
        payment.payment_method.saved = true;
      }
      if (captures.get(id) === false) {
        Object.assign(payment, { status: 'waiting_for_capture', paid: true, expires_at: new Date(Date.now() + 7 * 24 * 60 * 60_000).toISOString() });
        return notify('payment.waiting_for_capture', payment);
      }
      return control.capture(id);
    },
    /** The money is taken: at once for a one-stage payment, on /capture for a two-stage one. */
    capture(id: string) {
      const payment = paymentOf(id);
      Object.assign(payment, { status: 'succeeded', paid: true, refundable: true, captured_at: new Date().toISOString() });
      delete payment.expires_at;
      payment.income_amount = { value: fromMinor(Math.round(toMinor(payment.amount) * 0.965)), currency: payment.amount.currency };
      return notify('payment.succeeded', payment);
    },
    /**
     * The payment is cancelled: by the payer, their bank (`insufficient_funds`…), time, or the shop
     * releasing a hold (`canceled_by_merchant`, which keeps a method it saved).
     */
    cancel(id: string, reason = 'canceled_by_user') {
      const payment = paymentOf(id);
      const party = reason === 'canceled_by_merchant' ? 'merchant' : reason.startsWith('expired') ? 'yoo_money' : reason === 'canceled_by_user' ? 'yoo_money' : 'payment_network';
      Object.assign(payment, { status: 'canceled', paid: false, cancellation_details: { party, reason } });
      delete payment.expires_at;
      // A method is only kept by a payment the payer authorised (releasing its hold keeps it).
      if (methods.get(id)?.authorised !== true) {
        payment.payment_method.saved = false;
        methods.delete(id);
      }
      return notify('payment.canceled', payment);
    },
    /** From now on, autopayments by this saved method are refused by the bank for `reason` (null: they pay again). */
    declineMethod(methodId: string, reason: 'insufficient_funds' | 'card_expired' | null = 'insufficient_funds') {
      const saved = methods.get(methodId);
      if (!saved?.authorised) throw new Error(`no saved method ${methodId}`);
      if (saved.refusal !== 'permission_revoked') saved.refusal = reason;
    },
    /** The payer withdraws the shop's permission (in their bank or wallet): autopayments are refused, for good. */
    revokeMethod(methodId: string) {
      const saved = methods.get(methodId);
      if (!saved?.authorised) throw new Error(`no saved method ${methodId}`);
      saved.refusal = 'permission_revoked';
      paymentOf(saved.paymentId).payment_method.saved = false;
    },
    /** A refund from the shop's dashboard: all that is left, or `amountMinor`. */
    refund(id: string, amountMinor?: number) {
      return refund(paymentOf(id), amountMinor);
    },
    /** Moves when a payment was made (as if it had been made then), for lists filtered by time. */
    setCreatedAt(id: string, at: Date) {
      paymentOf(id).created_at = at.toISOString();
    },
  };

  return {
    origin,
    apiUrl: `${origin}/v3`,
    shopId,
    secretKey,
    /** Payments made with a confirmation page (top-ups, mandates), by id. */
    payments: confirmed as ReadonlyMap<string, YooKassaPayment>,
    /** Payments made by a saved method (renewals), by id. */
    autopayments: autopayments as ReadonlyMap<string, YooKassaAutopayment>,
    deliveries,
    /** Every API request received, in order (the confirmation page's are not API requests). */
    requests: requests as readonly YooKassaRequest[],
    /** Every notification made so far, oldest first (the last about a payment: `lastNotification`). */
    sent: sent as readonly Notification[],
    lastNotification(paymentId: string): Notification | undefined {
      return sent.findLast((made) => (made.object as { id?: string }).id === paymentId);
    },
    ...control,
    /** A notification as YooKassa POSTs it: JSON, unsigned. */
    notification,
    /** The next `count` API requests answer this error. */
    failNext(count: number, failure: { status: number; code: string; description: string }) {
      for (let i = 0; i < count; i += 1) failures.push(failure);
    },
    /** The next `count` API requests answer 202 with this retry_after (ms). */
    processingNext(count: number, retryAfterMs: number) {
      for (let i = 0; i < count; i += 1) processing.push(retryAfterMs);
    },
    /** The next `count` API requests never answer (until close). */
    stallNext(count: number) {
      stalls += count;
    },
    close(): Promise<void> {
      for (const response of hanging) response.destroy();
      return new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
    },
  };
}
