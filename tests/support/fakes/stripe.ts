// A local stand-in for Stripe's API, speaking its protocol for what the card provider uses, so the
// official SDK is pointed at it unchanged: Bearer secret-key auth, form-encoded bodies with
// bracketed keys, Idempotency-Key replays and conflicts, Stripe's error shapes and Request-Id,
// Checkout Sessions (create, retrieve with expand, list by PaymentIntent), and events signed the
// way Stripe signs webhooks (t=…,v1=HMAC-SHA256). Tests drive what a customer and the dashboard
// would do — pay, settle an asynchronous payment, let a session expire, refund — and get the events.
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

type Json = Record<string, unknown>;

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
  payment_intent: string;
  customer_email: string | null;
  locale: string | null;
  created: number;
  expires_at: number;
  livemode: false;
}

interface Intent {
  id: string;
  object: 'payment_intent';
  status: 'requires_payment_method' | 'processing' | 'succeeded' | 'canceled';
  amount: number;
  currency: string;
  metadata: Record<string, string>;
  latest_charge: string | null;
  livemode: false;
}

interface Charge {
  id: string;
  object: 'charge';
  amount: number;
  amount_refunded: number;
  refunded: boolean;
  currency: string;
  payment_intent: string;
  livemode: false;
}

export interface StripeEvent {
  id: string;
  object: 'event';
  api_version: string;
  created: number;
  type: string;
  data: { object: Json };
  livemode: false;
  pending_webhooks: number;
  request: { id: string | null; idempotency_key: string | null };
}

interface Failure {
  status: number;
  type: string;
  code?: string;
  message: string;
}

const API_VERSION = '2025-10-29.clover';
const now = () => Math.floor(Date.now() / 1000);
const randomId = (prefix: string) => `${prefix}${crypto.randomBytes(12).toString('base64url').replace(/[-_]/g, 'x')}`;

/** `a[b][0][c]=1` → { a: { b: [{ c: '1' }] } }, as Stripe reads form bodies. */
function parseForm(body: string): Json {
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

export async function startFakeStripe(options: { secretKey?: string; webhookSecret?: string; webhookUrl?: string; port?: number } = {}) {
  const secretKey = options.secretKey ?? `sk_test_${crypto.randomBytes(12).toString('hex')}`;
  const webhookSecret = options.webhookSecret ?? `whsec_${crypto.randomBytes(16).toString('hex')}`;
  const sessions = new Map<string, StripeSession>();
  const intents = new Map<string, Intent>();
  const charges = new Map<string, Charge>();
  const idempotent = new Map<string, { params: string; status: number; body: string }>();
  const failures: Failure[] = [];
  let stalls = 0;
  const deliveries: { type: string; status: number }[] = [];
  const hanging = new Set<http.ServerResponse>();
  let origin = '';

  const send = (response: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    response.writeHead(status, { 'content-type': 'application/json', 'request-id': randomId('req_'), 'stripe-version': API_VERSION, ...headers });
    response.end(typeof body === 'string' ? body : JSON.stringify(body));
  };
  const error = (response: http.ServerResponse, status: number, failure: Omit<Failure, 'status'> & { param?: string }) =>
    send(response, status, { error: { ...failure, request_log_url: `https://dashboard.stripe.com/test/logs/${randomId('req_')}` } });

  const expanded = (session: StripeSession, expand: string[]): Json => {
    if (!expand.some((path) => path.startsWith('payment_intent'))) return { ...session };
    const intent = intents.get(session.payment_intent)!;
    const charge = intent.latest_charge && expand.includes('payment_intent.latest_charge') ? charges.get(intent.latest_charge) : null;
    return { ...session, payment_intent: { ...intent, latest_charge: charge ?? intent.latest_charge } };
  };

  const event = (type: string, object: Json): StripeEvent => {
    const made: StripeEvent = {
      id: randomId('evt_'),
      object: 'event',
      api_version: API_VERSION,
      created: now(),
      type,
      data: { object },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
    };
    if (options.webhookUrl) void deliver(made);
    return made;
  };

  /** The event as Stripe POSTs it: its JSON and a Stripe-Signature over `${t}.${payload}`. */
  const signed = (made: StripeEvent, signing: { secret?: string; timestamp?: number } = {}) => {
    const payload = JSON.stringify(made, null, 2);
    const timestamp = signing.timestamp ?? now();
    const signature = crypto.createHmac('sha256', signing.secret ?? webhookSecret).update(`${timestamp}.${payload}`).digest('hex');
    return { body: Buffer.from(payload), headers: { 'stripe-signature': `t=${timestamp},v1=${signature}`, 'content-type': 'application/json; charset=utf-8' } };
  };

  const deliver = async (made: StripeEvent) => {
    const { body, headers } = signed(made);
    try {
      const answer = await fetch(options.webhookUrl!, { method: 'POST', body, headers });
      deliveries.push({ type: made.type, status: answer.status });
    } catch {
      deliveries.push({ type: made.type, status: 0 });
    }
  };

  const createSession = (params: Json, response: http.ServerResponse) => {
    const items = params.line_items as Json[] | undefined;
    const item = items?.[0] as { quantity?: string; price_data?: { currency?: string; unit_amount?: string; product_data?: { name?: string } } } | undefined;
    if (!params.mode) return error(response, 400, { type: 'invalid_request_error', code: 'parameter_missing', param: 'mode', message: 'Missing required param: mode.' });
    if (!params.success_url && params.ui_mode !== 'embedded') {
      return error(response, 400, { type: 'invalid_request_error', code: 'parameter_missing', param: 'success_url', message: 'Missing required param: success_url.' });
    }
    if (!item?.price_data?.currency || !item.price_data.unit_amount) {
      return error(response, 400, { type: 'invalid_request_error', code: 'parameter_missing', param: 'line_items', message: 'Missing required param: line_items[0][price_data].' });
    }
    const amount = Number(item.price_data.unit_amount) * Number(item.quantity ?? 1);
    if (!Number.isInteger(amount) || amount < 50) {
      return error(response, 400, { type: 'invalid_request_error', code: 'amount_too_small', param: 'line_items[0][price_data][unit_amount]', message: 'The Checkout Session\'s total amount due must add up to at least $0.50 usd' });
    }
    const intentMetadata = ((params.payment_intent_data as Json | undefined)?.metadata ?? {}) as Record<string, string>;
    const intent: Intent = { id: randomId('pi_'), object: 'payment_intent', status: 'requires_payment_method', amount, currency: item.price_data.currency, metadata: intentMetadata, latest_charge: null, livemode: false };
    intents.set(intent.id, intent);
    const id = `cs_test_${crypto.randomBytes(24).toString('base64url').replace(/[-_]/g, 'a')}`;
    const session: StripeSession = {
      id,
      object: 'checkout.session',
      mode: String(params.mode),
      status: 'open',
      payment_status: 'unpaid',
      amount_total: amount,
      currency: item.price_data.currency,
      client_reference_id: (params.client_reference_id as string | undefined) ?? null,
      metadata: (params.metadata ?? {}) as Record<string, string>,
      success_url: String(params.success_url),
      cancel_url: String(params.cancel_url ?? ''),
      url: `${origin}/c/pay/${id}`,
      payment_intent: intent.id,
      customer_email: (params.customer_email as string | undefined) ?? null,
      locale: (params.locale as string | undefined) ?? null,
      created: now(),
      expires_at: now() + 24 * 60 * 60,
      livemode: false,
    };
    sessions.set(id, session);
    return send(response, 200, session);
  };

  const api = (request: http.IncomingMessage, body: string, response: http.ServerResponse) => {
    if (request.headers.authorization !== `Bearer ${secretKey}`) {
      const given = String(request.headers.authorization ?? '').replace(/^Bearer /, '');
      return error(response, 401, { type: 'invalid_request_error', message: `Invalid API Key provided: ${given.slice(0, 8)}${'*'.repeat(Math.max(0, given.length - 12))}${given.slice(-4)}` });
    }
    const failure = failures.shift();
    if (failure) return error(response, failure.status, { type: failure.type, code: failure.code, message: failure.message });
    const url = new URL(request.url ?? '/', 'http://stripe.local');
    const query = parseForm(url.search.slice(1));
    const expand = ((query.expand as string[] | undefined) ?? []).map(String);
    const key = request.headers['idempotency-key'];
    if (request.method === 'POST' && url.pathname === '/v1/checkout/sessions') {
      if (typeof key === 'string') {
        const before = idempotent.get(key);
        if (before && before.params !== body) {
          return error(response, 400, {
            type: 'idempotency_error',
            message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
          });
        }
        if (before) {
          response.writeHead(before.status, { 'content-type': 'application/json', 'request-id': randomId('req_'), 'idempotent-replayed': 'true' });
          return response.end(before.body);
        }
        const recorder = response.end.bind(response);
        response.end = ((chunk: unknown) => {
          idempotent.set(key, { params: body, status: response.statusCode, body: String(chunk) });
          return recorder(chunk as string);
        }) as typeof response.end;
      }
      return createSession(parseForm(body), response);
    }
    if (request.method === 'GET' && url.pathname === '/v1/checkout/sessions') {
      const intent = query.payment_intent as string | undefined;
      const limit = Number(query.limit ?? 10);
      const data = [...sessions.values()].filter((session) => !intent || session.payment_intent === intent).slice(0, limit);
      return send(response, 200, { object: 'list', data, has_more: false, url: '/v1/checkout/sessions' });
    }
    const one = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(url.pathname);
    if (request.method === 'GET' && one) {
      const session = sessions.get(decodeURIComponent(one[1]!));
      if (!session) {
        return error(response, 404, { type: 'invalid_request_error', code: 'resource_missing', param: 'session', message: `No such checkout.session: '${one[1]}'` });
      }
      return send(response, 200, expanded(session, expand));
    }
    return error(response, 404, { type: 'invalid_request_error', message: `Unrecognized request URL (${request.method}: ${url.pathname}).` });
  };

  /** A hosted page, for trying the whole journey by hand against this stand-in. */
  const hosted = (request: http.IncomingMessage, response: http.ServerResponse, id: string, action: string | undefined) => {
    const session = sessions.get(id);
    if (!session) return send(response, 404, 'No such session', { 'content-type': 'text/plain' });
    if (request.method === 'POST' && action === 'pay' && session.status === 'open') {
      control.pay(id);
      response.writeHead(303, { location: session.success_url.replace('{CHECKOUT_SESSION_ID}', id) });
      return response.end();
    }
    if (request.method === 'POST' && action === 'cancel') {
      response.writeHead(303, { location: session.cancel_url });
      return response.end();
    }
    const declined = request.method === 'POST' && action === 'decline';
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    return response.end(`<!doctype html><meta charset="utf-8"><title>Test checkout</title><h1>Stripe test checkout (local stand-in)</h1>
<p>${(session.amount_total / 100).toFixed(2)} ${session.currency.toUpperCase()} — ${session.status}</p>${declined ? '<p role="alert">Your card was declined.</p>' : ''}
<form method="post" action="/c/pay/${id}/pay"><button>Pay</button></form><form method="post" action="/c/pay/${id}/decline"><button>Decline</button></form>
<form method="post" action="/c/pay/${id}/cancel"><button>Cancel</button></form>`);
  };

  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const page = /^\/c\/pay\/([^/]+)(?:\/(\w+))?$/.exec(request.url ?? '');
      if (page) return hosted(request, response, page[1]!, page[2]);
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

  const sessionOf = (id: string) => {
    const session = sessions.get(id);
    if (!session) throw new Error(`no session ${id}`);
    return session;
  };
  const charge = (intent: Intent) => {
    const made: Charge = { id: randomId('ch_'), object: 'charge', amount: intent.amount, amount_refunded: 0, refunded: false, currency: intent.currency, payment_intent: intent.id, livemode: false };
    charges.set(made.id, made);
    intent.latest_charge = made.id;
  };

  const control = {
    /** The customer pays: the session completes, paid at once or (asynchronous methods) later. */
    pay(id: string, how: { async?: boolean } = {}): StripeEvent[] {
      const session = sessionOf(id);
      const intent = intents.get(session.payment_intent)!;
      session.status = 'complete';
      session.url = null;
      if (how.async) {
        intent.status = 'processing';
      } else {
        intent.status = 'succeeded';
        session.payment_status = 'paid';
        charge(intent);
      }
      return [event('checkout.session.completed', { ...session })];
    },
    /** An asynchronous payment settles. */
    settleAsync(id: string, succeeded: boolean): StripeEvent[] {
      const session = sessionOf(id);
      const intent = intents.get(session.payment_intent)!;
      if (succeeded) {
        intent.status = 'succeeded';
        session.payment_status = 'paid';
        charge(intent);
        return [event('checkout.session.async_payment_succeeded', { ...session })];
      }
      intent.status = 'requires_payment_method';
      return [event('checkout.session.async_payment_failed', { ...session })];
    },
    /** The session's time runs out unpaid. */
    expire(id: string): StripeEvent[] {
      const session = sessionOf(id);
      session.status = 'expired';
      session.url = null;
      intents.get(session.payment_intent)!.status = 'canceled';
      return [event('checkout.session.expired', { ...session })];
    },
    /** A refund from the dashboard: all of what is left, or `amountMinor`. */
    refund(id: string, amountMinor?: number): StripeEvent[] {
      const intent = intents.get(sessionOf(id).payment_intent)!;
      const paid = intent.latest_charge ? charges.get(intent.latest_charge) : undefined;
      if (!paid) throw new Error(`session ${id} has no charge to refund`);
      paid.amount_refunded = Math.min(paid.amount, paid.amount_refunded + (amountMinor ?? paid.amount - paid.amount_refunded));
      paid.refunded = paid.amount_refunded === paid.amount;
      return [event('charge.refunded', { ...paid })];
    },
  };

  return {
    origin,
    secretKey,
    webhookSecret,
    sessions: sessions as ReadonlyMap<string, StripeSession>,
    deliveries,
    ...control,
    signed,
    /** The next `count` API requests answer this error. */
    failNext(count: number, failure: Failure) {
      for (let i = 0; i < count; i += 1) failures.push(failure);
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
