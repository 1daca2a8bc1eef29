// A local stand-in for Stripe's API, speaking its protocol for what the card provider uses, so the
// official SDK is pointed at it unchanged: Bearer secret-key auth, form-encoded bodies with
// bracketed keys, Idempotency-Key replays and conflicts, Stripe's error shapes and Request-Id,
// Checkout Sessions in payment and subscription mode (create, retrieve with expand, list by
// PaymentIntent, expire), Subscriptions (retrieve, update: items, metadata, billing_cycle_anchor,
// proration_behavior, cancel_at_period_end; cancel now), Products, Invoices, and events signed the
// way Stripe signs webhooks (t=…,v1=HMAC-SHA256); refunds, disputes, charges and Invoice Payments
// live in stripe-money.ts, the objects' shapes in stripe-objects.ts. Tests drive what a customer,
// a card, its issuer and Stripe's billing engine would do — pay, settle an asynchronous payment,
// let a session expire, refund, dispute and decide it, renew a subscription at its period's end
// (paid or declined), retry its invoice, end it — and get the events to deliver as they like
// (once, twice, out of order, forged).
//
// Objects have the shapes of the API version it answers with (clover): a subscription's period
// is on its item, an invoice names its subscription and that subscription's metadata snapshot
// under `parent.subscription_details`, and each invoice line its period and subscription item.
// Its clock is Stripe's own (like a test clock): renewing moves it to the period's end, so the
// events of later states are created later.
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  API_VERSION,
  INTERVALS,
  addInterval,
  clone,
  invalid,
  metadataAt,
  missing,
  noSuch,
  now,
  objectAt,
  parseForm,
  randomId,
  textAt,
  type Answer,
  type Customer,
  type Failure,
  type Intent,
  type Interval,
  type Json,
  type Product,
  type StripeEvent,
  type StripeInvoice,
  type StripePrice,
  type StripeRequest,
  type StripeSession,
  type StripeSubscription,
} from './stripe-objects';
import { stripeMoney } from './stripe-money';

export type { StripeEvent, StripeInvoice, StripePrice, StripeRequest, StripeSession, StripeSubscription, StripeSubscriptionItem } from './stripe-objects';

export async function startFakeStripe(options: { secretKey?: string; webhookSecret?: string; webhookUrl?: string; port?: number } = {}) {
  const secretKey = options.secretKey ?? `sk_test_${crypto.randomBytes(12).toString('hex')}`;
  const webhookSecret = options.webhookSecret ?? `whsec_${crypto.randomBytes(16).toString('hex')}`;
  const sessions = new Map<string, StripeSession>();
  /** What a subscription-mode session will subscribe to: its price and the subscription's metadata. */
  const sessionPlans = new Map<string, { currency: string; unitAmount: number; productName: string; interval: Interval; metadata: Record<string, string> }>();
  const intents = new Map<string, Intent>();
  const products = new Map<string, Product>();
  const customers = new Map<string, Customer>();
  const subscriptions = new Map<string, StripeSubscription>();
  const invoices = new Map<string, StripeInvoice>();
  /** Subscriptions whose card is declined from now on (renewals, retries and upgrades fail). */
  const declining = new Set<string>();
  const idempotent = new Map<string, { path: string; params: string; status: number; body: string }>();
  const failures: Failure[] = [];
  const events: StripeEvent[] = [];
  const requests: StripeRequest[] = [];
  let stalls = 0;
  const deliveries: { type: string; status: number }[] = [];
  const hanging = new Set<http.ServerResponse>();
  let origin = '';
  /** Stripe's clock, ahead of ours once a renewal moved it to a period's end (seconds). */
  let ahead = 0;
  const time = () => now() + ahead;

  const send = (response: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    response.writeHead(status, { 'content-type': 'application/json', 'request-id': randomId('req_'), 'stripe-version': API_VERSION, ...headers });
    response.end(typeof body === 'string' ? body : JSON.stringify(body));
  };
  const errorBody = (failure: Omit<Failure, 'status'> & { param?: string }) => ({ error: { ...failure, request_log_url: `https://dashboard.stripe.com/test/logs/${randomId('req_')}` } });

  const expanded = (session: StripeSession, expand: string[]): Json => {
    if (!session.payment_intent || !expand.some((path) => path.startsWith('payment_intent'))) return { ...session };
    const intent = intents.get(session.payment_intent)!;
    const charge = expand.includes('payment_intent.latest_charge') ? money.chargeOfIntent(intent) : null;
    return { ...session, payment_intent: { ...intent, latest_charge: charge ?? intent.latest_charge } };
  };

  // Webhooks go out one after another, in the order the events were made.
  let delivering = Promise.resolve();
  const event = (type: string, object: object, previous?: Json, request: { id: string | null; idempotency_key: string | null } = { id: null, idempotency_key: null }): StripeEvent => {
    const made: StripeEvent = {
      id: randomId('evt_'),
      object: 'event',
      api_version: API_VERSION,
      created: time(),
      type,
      // A snapshot: later changes to the object do not rewrite what this event said.
      data: { object: clone(object) as Json, ...(previous ? { previous_attributes: previous } : {}) },
      livemode: false,
      pending_webhooks: 1,
      request,
    };
    events.push(made);
    if (options.webhookUrl) delivering = delivering.then(() => deliver(made));
    return made;
  };
  const money = stripeMoney({ sessions, intents, invoices, event, time });

  /** The event as Stripe POSTs it: its JSON and a Stripe-Signature over `${t}.${payload}`. */
  const signed = (made: StripeEvent, signing: { secret?: string; timestamp?: number } = {}) => {
    const payload = JSON.stringify(made, null, 2);
    // The signature's time is the real one (the receiver checks it against its own clock).
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

  const createSession = (params: Json): Answer => {
    const items = params.line_items as Json[] | undefined;
    const item = objectAt(items?.[0]);
    const priceData = objectAt(item?.price_data);
    const recurring = objectAt(priceData?.recurring);
    const mode = textAt(params.mode);
    if (!mode) return missing('mode');
    if (mode !== 'payment' && mode !== 'subscription') return invalid('mode', `Invalid mode: must be one of payment, setup, or subscription`);
    if (!params.success_url && params.ui_mode !== 'embedded') return missing('success_url');
    if (!textAt(priceData?.currency) || !textAt(priceData?.unit_amount)) return missing('line_items[0][price_data]');
    if (mode === 'subscription' && !recurring) {
      return invalid('line_items', 'You must provide at least one recurring price in `subscription` mode when using prices.', 'parameter_invalid_empty');
    }
    if (mode === 'payment' && recurring) {
      return invalid('line_items', 'You specified `payment` mode but passed a recurring price. Either switch to `subscription` mode or use only one-time prices.');
    }
    if (mode === 'subscription' && params.payment_intent_data !== undefined) {
      return invalid('payment_intent_data', 'You can not pass `payment_intent_data` in `subscription` mode.', 'parameter_unknown');
    }
    const interval = textAt(recurring?.interval);
    if (recurring && (!interval || !INTERVALS.includes(interval))) {
      return invalid('line_items[0][price_data][recurring][interval]', `Invalid line_items[0][price_data][recurring][interval]: must be one of day, week, month, or year`);
    }
    const productName = textAt(objectAt(priceData?.product_data)?.name);
    if (!productName && !textAt(priceData?.product)) return missing('line_items[0][price_data][product_data][name]');
    const amount = Number(priceData?.unit_amount) * Number(item?.quantity ?? 1);
    if (!Number.isInteger(amount) || amount < 50) {
      return invalid('line_items[0][price_data][unit_amount]', "The Checkout Session's total amount due must add up to at least $0.50 usd", 'amount_too_small');
    }
    const currency = textAt(priceData?.currency)!;
    let intentId: string | null = null;
    if (mode === 'payment') {
      intentId = money.newIntent(amount, currency, metadataAt(objectAt(params.payment_intent_data)?.metadata)).id;
    }
    const id = `cs_test_${crypto.randomBytes(24).toString('base64url').replace(/[-_]/g, 'a')}`;
    const session: StripeSession = {
      id,
      object: 'checkout.session',
      mode,
      status: 'open',
      payment_status: 'unpaid',
      amount_total: amount,
      currency,
      client_reference_id: textAt(params.client_reference_id) ?? null,
      metadata: metadataAt(params.metadata),
      success_url: String(params.success_url),
      cancel_url: String(params.cancel_url ?? ''),
      url: `${origin}/c/pay/${id}`,
      payment_intent: intentId,
      subscription: null,
      customer: null,
      customer_email: textAt(params.customer_email) ?? null,
      locale: textAt(params.locale) ?? null,
      created: time(),
      expires_at: time() + 24 * 60 * 60,
      livemode: false,
    };
    sessions.set(id, session);
    if (mode === 'subscription') {
      sessionPlans.set(id, {
        currency,
        unitAmount: amount,
        productName: productName ?? products.get(textAt(priceData?.product) ?? '')?.name ?? 'Subscription',
        interval: interval as Interval,
        metadata: metadataAt(objectAt(params.subscription_data)?.metadata),
      });
    }
    return { status: 200, body: session };
  };

  const createProduct = (params: Json): Answer => {
    const name = textAt(params.name);
    if (!name) return missing('name');
    const id = textAt(params.id) ?? randomId('prod_');
    if (products.has(id)) return { status: 400, error: { type: 'invalid_request_error', code: 'resource_already_exists', param: 'id', message: 'Product already exists.' } };
    const product: Product = { id, object: 'product', active: true, name, metadata: metadataAt(params.metadata), created: time(), livemode: false };
    products.set(id, product);
    return { status: 200, body: product };
  };

  const newPrice = (currency: string, unitAmount: number, product: string, interval: Interval): StripePrice => ({
    id: randomId('price_'),
    object: 'price',
    active: true,
    currency,
    unit_amount: unitAmount,
    product,
    recurring: { interval, interval_count: 1, usage_type: 'licensed' },
    type: 'recurring',
    livemode: false,
  });

  const itemOf = (subscription: StripeSubscription) => subscription.items.data[0]!;

  /**
   * The invoice for the subscription's current period, and its payment by the card on file:
   * paid, or left open with the attempt counted (Smart Retries try again later).
   */
  const invoice = (subscription: StripeSubscription, reason: StripeInvoice['billing_reason'], options: { snapshot?: boolean; previous?: { start: number; end: number } } = {}) => {
    const item = itemOf(subscription);
    const amount = item.price.unit_amount;
    const id = randomId('in_');
    const created = time();
    const made: StripeInvoice = {
      id,
      object: 'invoice',
      status: 'open',
      billing_reason: reason,
      amount_due: amount,
      amount_paid: 0,
      amount_remaining: amount,
      attempt_count: 0,
      attempted: false,
      next_payment_attempt: null,
      collection_method: 'charge_automatically',
      currency: item.price.currency,
      customer: subscription.customer,
      created,
      // For a subscription's invoice these name the period usage was collected over: the one before.
      period_start: options.previous?.start ?? item.current_period_start,
      period_end: options.previous?.end ?? item.current_period_start,
      subtotal: amount,
      total: amount,
      metadata: {},
      parent: {
        type: 'subscription_details',
        quote_details: null,
        // Invoices made before mid-2023 carry no snapshot of the subscription's metadata.
        subscription_details: { metadata: options.snapshot === false ? null : { ...subscription.metadata }, subscription: subscription.id },
      },
      lines: {
        object: 'list',
        data: [
          {
            id: randomId('il_'),
            object: 'line_item',
            amount,
            currency: item.price.currency,
            description: `1 × ${products.get(item.price.product)?.name ?? 'Subscription'} (at $${(amount / 100).toFixed(2)} / ${item.price.recurring?.interval ?? 'month'})`,
            discountable: true,
            discounts: [],
            invoice: id,
            livemode: false,
            metadata: {},
            parent: {
              type: 'subscription_item_details',
              invoice_item_details: null,
              subscription_item_details: { invoice_item: null, proration: false, proration_details: { credited_items: null }, subscription: subscription.id, subscription_item: item.id },
            },
            period: { start: item.current_period_start, end: item.current_period_end },
            pricing: { type: 'price_details', price_details: { price: item.price.id, product: item.price.product }, unit_amount_decimal: String(amount) },
            quantity: 1,
          },
        ],
        has_more: false,
        total_count: 1,
        url: `/v1/invoices/${id}/lines`,
      },
      status_transitions: { finalized_at: created, paid_at: null },
      livemode: false,
    };
    invoices.set(id, made);
    money.invoiceOpened(made);
    subscription.latest_invoice = id;
    return made;
  };

  /** The card on file pays the invoice (or is declined): the invoice and subscription move on. */
  const attempt = (subscription: StripeSubscription, made: StripeInvoice): StripeEvent[] => {
    made.attempted = true;
    made.attempt_count += 1;
    const before = subscription.status;
    const changed: StripeEvent[] = [];
    if (declining.has(subscription.id)) {
      made.next_payment_attempt = time() + 3 * 24 * 60 * 60;
      changed.push(event('invoice.payment_failed', made));
      if (before === 'active') {
        subscription.status = 'past_due';
        changed.push(event('customer.subscription.updated', subscription, { status: before }));
      }
      return changed;
    }
    made.status = 'paid';
    made.amount_paid = made.amount_due;
    made.amount_remaining = 0;
    made.next_payment_attempt = null;
    made.status_transitions.paid_at = time();
    money.invoicePaid(made);
    changed.push(event('invoice.paid', made));
    if (before !== 'active') {
      subscription.status = 'active';
      changed.push(event('customer.subscription.updated', subscription, { status: before }));
    }
    return changed;
  };

  /** POST /v1/subscriptions/:id — what the card provider changes: plan, metadata, cancelling. */
  const updateSubscription = (subscription: StripeSubscription, params: Json, request: { id: string; idempotency_key: string | null }): Answer => {
    const allowedWhenCanceled = ['metadata', 'cancellation_details', 'expand'];
    if (subscription.status === 'canceled' && Object.keys(params).some((key) => !allowedWhenCanceled.includes(key))) {
      return { status: 400, error: { type: 'invalid_request_error', message: 'A canceled subscription can only update its cancellation_details and metadata.' } };
    }
    const known = ['items', 'metadata', 'billing_cycle_anchor', 'proration_behavior', 'cancel_at_period_end', 'cancel_at', 'payment_behavior', 'expand', 'cancellation_details'];
    const unknown = Object.keys(params).find((key) => !known.includes(key));
    if (unknown) return invalid(unknown, `Received unknown parameter: ${unknown}`, 'parameter_unknown');
    const proration = textAt(params.proration_behavior);
    if (proration && !['create_prorations', 'none', 'always_invoice'].includes(proration)) {
      return invalid('proration_behavior', 'Invalid proration_behavior: must be one of create_prorations, none, or always_invoice');
    }
    // The anchor is an object ({type}) from the endive version on; a plain string before it.
    const anchorParam = params.billing_cycle_anchor;
    const anchor = textAt(anchorParam) ?? textAt(objectAt(anchorParam)?.type);
    if (anchorParam !== undefined && anchor !== 'now' && anchor !== 'unchanged') {
      return invalid('billing_cycle_anchor', 'Invalid billing_cycle_anchor: must be one of now or unchanged');
    }
    const item = itemOf(subscription);
    let newPriceOf: StripePrice | null = null;
    if (params.items !== undefined) {
      const given = params.items as unknown[];
      const change = objectAt(Array.isArray(given) ? given[0] : undefined);
      if (!change) return invalid('items', 'Invalid array', 'parameter_invalid_empty');
      const itemId = textAt(change.id);
      if (!itemId) return missing('items[0][id]');
      if (itemId !== item.id) return noSuch('subscription item', itemId, 'items[0][id]');
      const priceData = objectAt(change.price_data);
      if (!priceData) return missing('items[0][price_data]');
      if (priceData.product_data !== undefined) return invalid('items[0][price_data][product_data]', 'Received unknown parameter: items[0][price_data][product_data]', 'parameter_unknown');
      const product = textAt(priceData.product);
      if (!product) return missing('items[0][price_data][product]');
      if (!products.has(product)) return { status: 400, error: { type: 'invalid_request_error', code: 'resource_missing', param: 'items[0][price_data][product]', message: `No such product: '${product}'` } };
      const currency = textAt(priceData.currency);
      if (!currency) return missing('items[0][price_data][currency]');
      const recurring = objectAt(priceData.recurring);
      if (!recurring) return missing('items[0][price_data][recurring]');
      const interval = textAt(recurring.interval);
      if (!interval || !INTERVALS.includes(interval)) return invalid('items[0][price_data][recurring][interval]', 'Invalid items[0][price_data][recurring][interval]: must be one of day, week, month, or year');
      const unitAmount = Number(priceData.unit_amount);
      if (!Number.isInteger(unitAmount) || unitAmount < 0) return invalid('items[0][price_data][unit_amount]', 'Invalid integer: items[0][price_data][unit_amount]', 'parameter_invalid_integer');
      if (currency !== subscription.currency) {
        return invalid('items[0][price_data][currency]', `The price specified uses currency \`${currency}\`, but this subscription is in \`${subscription.currency}\`.`);
      }
      newPriceOf = newPrice(currency, unitAmount, product, interval as Interval);
    }
    const previous: Json = {};
    if (params.metadata !== undefined) {
      previous.metadata = { ...subscription.metadata };
      // Metadata merges: the keys given change, an empty value removes its key, the rest stay.
      for (const [key, value] of Object.entries(metadataAt(params.metadata))) {
        if (value === '') delete subscription.metadata[key];
        else subscription.metadata[key] = value;
      }
    }
    if (params.cancel_at_period_end !== undefined) {
      const cancel = params.cancel_at_period_end === 'true';
      previous.cancel_at_period_end = subscription.cancel_at_period_end;
      previous.cancel_at = subscription.cancel_at;
      subscription.cancel_at_period_end = cancel;
      subscription.cancel_at = cancel ? item.current_period_end : null;
      subscription.canceled_at = cancel ? time() : null;
    }
    if (newPriceOf) {
      previous.items = clone(subscription.items);
      item.price = newPriceOf;
    }
    let made: StripeInvoice | null = null;
    if (anchor === 'now') {
      // A new period starts now; with proration_behavior=none nothing of the old one is credited.
      const previousPeriod = { start: item.current_period_start, end: item.current_period_end };
      previous.items ??= clone(subscription.items);
      subscription.billing_cycle_anchor = time();
      item.current_period_start = time();
      item.current_period_end = addInterval(time(), item.price.recurring?.interval ?? 'month');
      if (subscription.cancel_at_period_end) subscription.cancel_at = item.current_period_end;
      made = invoice(subscription, 'subscription_update', { previous: previousPeriod });
    }
    if (Object.keys(previous).length > 0) event('customer.subscription.updated', subscription, previous, request);
    // Invoiced and charged at once, as Stripe does when the cycle restarts (payment_behavior allow_incomplete).
    if (made) attempt(subscription, made);
    return { status: 200, body: subscription };
  };

  /** The subscription ends now (cancelled by a request or from the dashboard, or at the period end it was set to end at). */
  const endNow = (subscription: StripeSubscription, request?: { id: string; idempotency_key: string | null }) => {
    const before = subscription.status;
    subscription.status = 'canceled';
    subscription.ended_at = time();
    subscription.canceled_at ??= time();
    return [event('customer.subscription.deleted', subscription, { status: before }, request)];
  };

  const route = (method: string, path: string, params: Json, query: Json, request: { id: string; idempotency_key: string | null }): Answer => {
    const handled = money.route(method, path, params, query, request);
    if (handled) return handled;
    const expand = ((query.expand as string[] | undefined) ?? []).map(String);
    if (method === 'POST' && path === '/v1/checkout/sessions') return createSession(params);
    if (method === 'GET' && path === '/v1/checkout/sessions') {
      const intent = textAt(query.payment_intent);
      const limit = Number(query.limit ?? 10);
      const data = [...sessions.values()].filter((session) => !intent || session.payment_intent === intent).slice(0, limit);
      return { status: 200, body: { object: 'list', data, has_more: false, url: '/v1/checkout/sessions' } };
    }
    const session = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(path);
    if (method === 'GET' && session) {
      const found = sessions.get(decodeURIComponent(session[1]!));
      return found ? { status: 200, body: expanded(found, expand) } : noSuch('checkout.session', session[1]!, 'session');
    }
    const subscription = /^\/v1\/subscriptions\/([^/]+)$/.exec(path);
    if (subscription) {
      const found = subscriptions.get(decodeURIComponent(subscription[1]!));
      if (!found) return noSuch('subscription', subscription[1]!);
      if (method === 'GET') return { status: 200, body: found };
      if (method === 'POST') return updateSubscription(found, params, request);
      // Cancelling now: one already ended is, to this endpoint, no longer there.
      if (method === 'DELETE') {
        if (found.status === 'canceled') return noSuch('subscription', found.id);
        endNow(found, request);
        return { status: 200, body: found };
      }
    }
    if (method === 'POST' && path === '/v1/products') return createProduct(params);
    const product = /^\/v1\/products\/([^/]+)$/.exec(path);
    if (method === 'GET' && product) {
      const found = products.get(decodeURIComponent(product[1]!));
      return found ? { status: 200, body: found } : noSuch('product', product[1]!);
    }
    const invoiceMatch = /^\/v1\/invoices\/([^/]+)$/.exec(path);
    if (method === 'GET' && invoiceMatch) {
      const found = invoices.get(decodeURIComponent(invoiceMatch[1]!));
      return found ? { status: 200, body: found } : noSuch('invoice', invoiceMatch[1]!);
    }
    return { status: 404, error: { type: 'invalid_request_error', message: `Unrecognized request URL (${method}: ${path}).` } };
  };

  const api = (request: http.IncomingMessage, body: string, response: http.ServerResponse) => {
    if (request.headers.authorization !== `Bearer ${secretKey}`) {
      const given = String(request.headers.authorization ?? '').replace(/^Bearer /, '');
      return send(response, 401, errorBody({ type: 'invalid_request_error', message: `Invalid API Key provided: ${given.slice(0, 8)}${'*'.repeat(Math.max(0, given.length - 12))}${given.slice(-4)}` }));
    }
    const failure = failures.shift();
    if (failure) return send(response, failure.status, errorBody({ type: failure.type, code: failure.code, message: failure.message }));
    const url = new URL(request.url ?? '/', 'http://stripe.local');
    const method = request.method ?? 'GET';
    const query = parseForm(url.search.slice(1));
    const params = method === 'POST' ? parseForm(body) : query;
    const header = request.headers['idempotency-key'];
    const key = typeof header === 'string' ? header : null;
    requests.push({ method, path: url.pathname, params, idempotencyKey: key });
    if (method === 'POST' && key) {
      const before = idempotent.get(key);
      if (before && (before.params !== body || before.path !== url.pathname)) {
        return send(
          response,
          400,
          errorBody({
            type: 'idempotency_error',
            message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
          }),
        );
      }
      if (before) return send(response, before.status, before.body, { 'idempotent-replayed': 'true' });
    }
    const answer = route(method, url.pathname, params, query, { id: randomId('req_'), idempotency_key: key });
    const text = JSON.stringify('error' in answer ? errorBody(answer.error) : answer.body);
    // A request that ran is saved under its key (a retry answers the same); one refused before running is not.
    if (method === 'POST' && key && answer.status < 400) idempotent.set(key, { path: url.pathname, params: body, status: answer.status, body: text });
    return send(response, answer.status, text);
  };

  /** A hosted page, for trying the whole journey by hand against this stand-in. */
  const hosted = (request: http.IncomingMessage, response: http.ServerResponse, id: string, action: string | undefined) => {
    const session = sessions.get(id);
    if (!session) return send(response, 404, 'No such session', { 'content-type': 'text/plain' });
    if (request.method === 'POST' && action === 'pay' && session.status === 'open') {
      if (session.mode === 'subscription') control.completeSubscription(id);
      else control.pay(id);
      response.writeHead(303, { location: session.success_url.replace('{CHECKOUT_SESSION_ID}', id) });
      return response.end();
    }
    if (request.method === 'POST' && action === 'cancel') {
      response.writeHead(303, { location: session.cancel_url });
      return response.end();
    }
    const declined = request.method === 'POST' && action === 'decline';
    const every = session.mode === 'subscription' ? ` every ${sessionPlans.get(id)?.interval ?? 'month'}` : '';
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    return response.end(`<!doctype html><meta charset="utf-8"><title>Test checkout</title><h1>Stripe test checkout (local stand-in)</h1>
<p>${(session.amount_total / 100).toFixed(2)} ${session.currency.toUpperCase()}${every} — ${session.status}</p>${declined ? '<p role="alert">Your card was declined.</p>' : ''}
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
  const intentOf = (session: StripeSession) => {
    const intent = session.payment_intent ? intents.get(session.payment_intent) : undefined;
    if (!intent) throw new Error(`session ${session.id} is not a payment`);
    return intent;
  };
  const subscriptionOf = (id: string) => {
    const subscription = subscriptions.get(id);
    if (!subscription) throw new Error(`no subscription ${id}`);
    return subscription;
  };

  const control = {
    /** The customer pays: the session completes, paid at once or (asynchronous methods) later. */
    pay(id: string, how: { async?: boolean } = {}): StripeEvent[] {
      const session = sessionOf(id);
      const intent = intentOf(session);
      session.status = 'complete';
      session.url = null;
      if (how.async) {
        intent.status = 'processing';
      } else {
        session.payment_status = 'paid';
        money.chargeIntent(intent);
      }
      return [event('checkout.session.completed', { ...session })];
    },
    /** An asynchronous payment settles. */
    settleAsync(id: string, succeeded: boolean): StripeEvent[] {
      const session = sessionOf(id);
      const intent = intentOf(session);
      if (succeeded) {
        session.payment_status = 'paid';
        money.chargeIntent(intent);
        return [event('checkout.session.async_payment_succeeded', { ...session })];
      }
      intent.status = 'requires_payment_method';
      return [event('checkout.session.async_payment_failed', { ...session })];
    },
    /** The session's time runs out unpaid. */
    expire(id: string): StripeEvent[] {
      return money.expire(sessionOf(id)).events;
    },

    /**
     * The customer pays a subscription-mode session: a customer, the subscription (its metadata
     * from subscription_data), its first invoice paid, and the session complete — with the events
     * Stripe sends for them, in the order it makes them.
     */
    completeSubscription(id: string): StripeEvent[] {
      const session = sessionOf(id);
      const plan = sessionPlans.get(id);
      if (!plan || session.status !== 'open') throw new Error(`session ${id} is not an open subscription checkout`);
      const made: StripeEvent[] = [];
      const customer: Customer = { id: randomId('cus_'), object: 'customer', email: session.customer_email, created: time(), metadata: {}, livemode: false };
      customers.set(customer.id, customer);
      made.push(event('customer.created', customer));
      const product: Product = { id: randomId('prod_'), object: 'product', active: true, name: plan.productName, metadata: {}, created: time(), livemode: false };
      products.set(product.id, product);
      const subscriptionId = randomId('sub_');
      const start = time();
      const subscription: StripeSubscription = {
        id: subscriptionId,
        object: 'subscription',
        status: 'active',
        customer: customer.id,
        currency: plan.currency,
        metadata: { ...plan.metadata },
        items: {
          object: 'list',
          data: [
            {
              id: randomId('si_'),
              object: 'subscription_item',
              created: start,
              current_period_start: start,
              current_period_end: addInterval(start, plan.interval),
              metadata: {},
              price: newPrice(plan.currency, plan.unitAmount, product.id, plan.interval),
              quantity: 1,
              subscription: subscriptionId,
            },
          ],
          has_more: false,
          total_count: 1,
          url: `/v1/subscription_items?subscription=${subscriptionId}`,
        },
        cancel_at: null,
        cancel_at_period_end: false,
        canceled_at: null,
        ended_at: null,
        billing_cycle_anchor: start,
        collection_method: 'charge_automatically',
        created: start,
        start_date: start,
        latest_invoice: null,
        livemode: false,
      };
      subscriptions.set(subscription.id, subscription);
      const first = invoice(subscription, 'subscription_create');
      first.status = 'paid';
      first.attempted = true;
      first.attempt_count = 1;
      first.amount_paid = first.amount_due;
      first.amount_remaining = 0;
      first.status_transitions.paid_at = time();
      money.invoicePaid(first);
      made.push(event('customer.subscription.created', subscription));
      made.push(event('invoice.finalized', first));
      made.push(event('invoice.paid', first));
      session.status = 'complete';
      session.payment_status = 'paid';
      session.url = null;
      session.subscription = subscription.id;
      session.customer = customer.id;
      made.push(event('checkout.session.completed', { ...session }));
      return made;
    },

    /** From now on the subscription's card is declined (true) or pays again (false). */
    setCardDeclines(subscriptionId: string, declines: boolean) {
      subscriptionOf(subscriptionId);
      if (declines) declining.add(subscriptionId);
      else declining.delete(subscriptionId);
    },

    /**
     * Stripe's clock reaches the subscription's period end: a subscription set to cancel ends;
     * otherwise the next period starts and its invoice is paid or declined. `snapshot: false`
     * makes an invoice without the subscription's metadata (as invoices before mid-2023 were).
     */
    renew(subscriptionId: string, how: { snapshot?: boolean } = {}): StripeEvent[] {
      const subscription = subscriptionOf(subscriptionId);
      if (subscription.status === 'canceled') throw new Error(`subscription ${subscriptionId} has ended`);
      const item = itemOf(subscription);
      ahead = Math.max(ahead, item.current_period_end - now());
      if (subscription.cancel_at_period_end) return control.end(subscriptionId);
      const previous = { start: item.current_period_start, end: item.current_period_end };
      const before = clone(subscription.items);
      item.current_period_start = previous.end;
      item.current_period_end = addInterval(previous.end, item.price.recurring?.interval ?? 'month');
      const made = [event('customer.subscription.updated', subscription, { items: before })];
      const next = invoice(subscription, 'subscription_cycle', { previous, snapshot: how.snapshot });
      made.push(event('invoice.finalized', next));
      return [...made, ...attempt(subscription, next)];
    },

    /** Stripe retries the subscription's latest open invoice with the card on file. */
    retry(subscriptionId: string): StripeEvent[] {
      const subscription = subscriptionOf(subscriptionId);
      const open = subscription.latest_invoice ? invoices.get(subscription.latest_invoice) : undefined;
      if (!open || open.status !== 'open') throw new Error(`subscription ${subscriptionId} has no open invoice`);
      ahead = Math.max(ahead, (open.next_payment_attempt ?? time()) - now());
      return attempt(subscription, open);
    },

    /** The subscription ends now (cancelled from the dashboard, or at the period end it was set to end at). */
    end(subscriptionId: string): StripeEvent[] {
      return endNow(subscriptionOf(subscriptionId));
    },

    /** Moves Stripe's clock on by `seconds` (events made afterwards are created later). */
    advance(seconds: number) {
      ahead += seconds;
    },
  };

  return {
    origin,
    secretKey,
    webhookSecret,
    sessions: sessions as ReadonlyMap<string, StripeSession>,
    subscriptions: subscriptions as ReadonlyMap<string, StripeSubscription>,
    invoices: invoices as ReadonlyMap<string, StripeInvoice>,
    /** The money behind payments and invoices: charges, refunds, disputes, invoice payments. */
    charges: money.charges,
    refunds: money.refunds,
    disputes: money.disputes,
    invoicePayments: money.invoicePayments,
    /** Every event made, in order (those of API requests too, e.g. customer.subscription.updated on cancelling). */
    events: events as readonly StripeEvent[],
    /** Every API request received, in order. */
    requests: requests as readonly StripeRequest[],
    deliveries,
    ...control,
    ...money.control,
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
