// Subscriptions billed by Stripe, through the real adapter and its official SDK pointed at the
// suite's stand-in that speaks Stripe's API: a subscription-mode Checkout Session, its webhooks
// (checkout.session.completed, invoice.paid, invoice.payment_failed, customer.subscription.*)
// delivered once, twice, out of order and forged, renewals paid, declined and recovered, ending,
// cancelling at the period end, and upgrades that start a new period at once — all through our
// HTTP API, with the balance equal to the ledger's sum and the lots' remainders after each step.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../support/test-app';
import { signedInSeller } from '../support/sellers';
import { waitForSubject } from '../support/outbox';
import { expectBalanced as expectBalancedWallet } from '../support/wallet';
import { startFakeStripe, type StripeEvent } from '../support/fakes/stripe';
import { ledger, subscriptions } from '../../server/db/schema';
import { stripeProvider } from '../../server/billing/providers/stripe';
import { ProviderRefused } from '../../server/billing/provider';

type FakeStripe = Awaited<ReturnType<typeof startFakeStripe>>;
type Json = Record<string, unknown>;

let t: TestApp;
let stripe: FakeStripe;
const sellers: Record<string, { token: string; id: string }> = {};

beforeAll(async () => {
  stripe = await startFakeStripe();
  t = await createTestApp({
    PUBLIC_URL: 'http://shop.test',
    RUN_JOBS: 'false',
    STRIPE_SECRET_KEY: stripe.secretKey,
    STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
    STRIPE_API_BASE: stripe.origin,
  });
  for (const name of ['anna', 'boris', 'clara', 'dmitri', 'elena', 'fedor', 'galina', 'hanna', 'ivan']) sellers[name] = await signedInSeller(t, name);
});
afterAll(async () => {
  await t?.close();
  await stripe?.close();
});

const auth = (name: string) => ({ authorization: `Bearer ${sellers[name]!.token}` });
const api = (name: string, method: 'GET' | 'POST', url: string, payload?: object) =>
  t.app.inject({ method, url: `/api/v1${url}`, headers: auth(name), ...(payload ? { payload } : {}) });

const expectMail = (name: string, words: string) => waitForSubject(t.dataDir, `${name}@shop.example`, words);

async function wallet(name: string) {
  return (await api(name, 'GET', '/tokens/balance')).json().data as { total_tokens: number; expires_at: string | null; expiring_tokens: number };
}

const expectBalanced = (name: string) => expectBalancedWallet(t, sellers[name]!);

const credits = async (name: string) =>
  (
    await t.app.database.db
      .select()
      .from(ledger)
      .where(and(eq(ledger.userId, sellers[name]!.id), eq(ledger.type, 'subscription')))
      .orderBy(ledger.id)
  ).map((entry) => ({
    amount: entry.amount,
    expiresAt: entry.expiresAt?.toISOString() ?? null,
  }));

const row = async (id: string) => (await t.app.database.db.select().from(subscriptions).where(eq(subscriptions.id, id)))[0]!;

function notify(notification: { body: Buffer | string; headers: Record<string, string> }) {
  return t.app.inject({ method: 'POST', url: '/api/v1/payment/webhooks/stripe', payload: notification.body, headers: notification.headers });
}

/** Delivers events signed as Stripe signs them, in the order given; answers how many changed something. */
async function deliver(events: readonly StripeEvent[]): Promise<number> {
  let changed = 0;
  for (const event of events) {
    const answer = await notify(stripe.signed(event));
    expect(answer.statusCode, answer.body).toBe(200);
    changed += answer.json().data.changed as number;
  }
  return changed;
}

const ofType = (events: readonly StripeEvent[], type: string) => events.filter((event) => event.type === type);
/** The events the stand-in made since `mark` (those of our own API requests, such as an update). */
const since = (mark: number) => stripe.events.slice(mark);
const iso = (seconds: number) => new Date(seconds * 1000).toISOString();
const periodOf = (providerSubscriptionId: string) => {
  const item = stripe.subscriptions.get(providerSubscriptionId)!.items.data[0]!;
  return { start: item.current_period_start, end: item.current_period_end };
};

/** Starts a subscription checkout through our API: answers our ids and the Stripe session. */
async function startCheckout(name: string, planId: number, interval: 'month' | 'year' = 'month') {
  const created = await api(name, 'POST', '/subscription/create', { plan_id: planId, interval });
  expect(created.statusCode, created.body).toBe(200);
  const { redirect_url: redirectUrl, session_id: sessionId } = created.json().data as { redirect_url: string; session_id: string };
  const [pending] = await t.app.database.db.select().from(subscriptions).where(and(eq(subscriptions.userId, sellers[name]!.id), eq(subscriptions.providerCheckoutId, sessionId)));
  expect(pending).toMatchObject({ status: 'pending', provider: 'stripe', billing: 'provider' });
  return { redirectUrl, sessionId, subscriptionId: pending!.id };
}

/** A subscription paid on Stripe's page and its webhooks delivered once: active, with its Stripe id. */
async function subscribed(name: string, planId: number) {
  const started = await startCheckout(name, planId);
  const events = stripe.completeSubscription(started.sessionId);
  await deliver(events);
  const providerSubscriptionId = stripe.sessions.get(started.sessionId)!.subscription!;
  expect(await row(started.subscriptionId)).toMatchObject({ status: 'active', providerSubscriptionId });
  return { ...started, providerSubscriptionId, events };
}

describe('subscribing through a Stripe Checkout Session', () => {
  it('opens a subscription-mode session, and the paid invoice credits the plan’s tokens once, lapsing at the period end', async () => {
    const before = await wallet('anna');
    const { redirectUrl, sessionId, subscriptionId } = await startCheckout('anna', 2);
    expect(redirectUrl).toBe(`${stripe.origin}/c/pay/${sessionId}`);
    const session = stripe.sessions.get(sessionId)!;
    expect(session).toMatchObject({
      mode: 'subscription',
      status: 'open',
      amount_total: 2499,
      currency: 'usd',
      client_reference_id: subscriptionId,
      metadata: { subscription_id: subscriptionId, plan_id: '2' },
      customer_email: 'anna@shop.example',
      payment_intent: null,
    });
    // The return address names the session once, the way our success page reads it.
    expect(session.success_url).toBe('http://shop.test/subscription/success?session_id={CHECKOUT_SESSION_ID}');
    expect(session.cancel_url).toBe(`http://shop.test/subscription/cancel?subscription_id=${subscriptionId}`);
    const [sent] = stripe.requests.filter((request) => request.method === 'POST' && request.path === '/v1/checkout/sessions' && request.idempotencyKey === `subscription-checkout:${subscriptionId}`);
    expect(sent?.params).toMatchObject({
      line_items: [{ quantity: '1', price_data: { currency: 'usd', unit_amount: '2499', recurring: { interval: 'month' }, product_data: { name: 'SoleStudio: Про' } } }],
      subscription_data: { metadata: { subscription_id: subscriptionId, plan_id: '2' } },
    });

    expect((await api('anna', 'GET', `/subscription/checkout-session/${sessionId}`)).json().data.status).toBe('open');
    // Another seller's session is not theirs to read.
    expect((await api('boris', 'GET', `/subscription/checkout-session/${sessionId}`)).statusCode).toBe(404);

    const events = stripe.completeSubscription(sessionId);
    expect(events.map((event) => event.type)).toEqual(['customer.created', 'customer.subscription.created', 'invoice.finalized', 'invoice.paid', 'checkout.session.completed']);
    // Paid at Stripe, but no webhook yet: the page keeps waiting rather than showing a subscription without tokens.
    expect((await api('anna', 'GET', `/subscription/checkout-session/${sessionId}`)).json().data.status).toBe('open');
    expect(await deliver(events)).toBe(2);

    const providerSubscriptionId = stripe.sessions.get(sessionId)!.subscription!;
    const period = periodOf(providerSubscriptionId);
    const shown = (await api('anna', 'GET', `/subscription/checkout-session/${sessionId}`)).json().data;
    expect(shown).toMatchObject({ status: 'complete', subscription: { id: subscriptionId, status: 'active', provider: 'card', plan: { id: 2, tokens: 600 }, current_period_end: iso(period.end) } });
    expect(await row(subscriptionId)).toMatchObject({ providerSubscriptionId, planId: 2 });
    const after = await wallet('anna');
    expect(after.total_tokens).toBe(before.total_tokens + 600);
    expect(after).toMatchObject({ expires_at: iso(period.end), expiring_tokens: 600 });
    expect(await credits('anna')).toEqual([{ amount: 600, expiresAt: iso(period.end) }]);
    const history = (await api('anna', 'GET', '/tokens/history')).json().data as { type: string; amount: number; expires_at: string | null }[];
    expect(history.filter((entry) => entry.type === 'subscription')).toEqual([expect.objectContaining({ amount: 600, expires_at: iso(period.end) })]);

    // Stripe delivers at least once: the same events again credit nothing, and the answer says so.
    expect(await deliver(events)).toBe(0);
    expect((await wallet('anna')).total_tokens).toBe(before.total_tokens + 600);
    expect(await credits('anna')).toHaveLength(1);
    await expectBalanced('anna');

    // At the period's end its tokens lapse (Stripe renews separately, with a new invoice).
    await t.app.billing.subscriptions.run(new Date(period.end * 1000 + 1000));
    expect((await wallet('anna')).total_tokens).toBe(before.total_tokens);
    await expectBalanced('anna');
  });

  it('refuses a webhook signed with another secret: 400, and nothing changes', async () => {
    const before = await wallet('boris');
    const { sessionId, subscriptionId } = await startCheckout('boris', 1);
    const events = stripe.completeSubscription(sessionId);
    for (const event of events) {
      const forged = await notify(stripe.signed(event, { secret: 'whsec_not_ours' }));
      expect(forged.statusCode).toBe(400);
      expect(forged.json().error).toBe('NOTIFICATION_REJECTED');
    }
    // A signature too old to trust (a replay captured long ago) is refused the same way.
    const [paid] = ofType(events, 'invoice.paid');
    expect((await notify(stripe.signed(paid!, { timestamp: Math.floor(Date.now() / 1000) - 3600 }))).statusCode).toBe(400);
    expect(await row(subscriptionId)).toMatchObject({ status: 'pending', providerSubscriptionId: null });
    expect(await wallet('boris')).toEqual(before);
    expect(await credits('boris')).toEqual([]);
    // The genuine delivery then goes through.
    await deliver(events);
    expect((await row(subscriptionId)).status).toBe('active');
    expect((await wallet('boris')).total_tokens).toBe(before.total_tokens + 200);
    await expectBalanced('boris');
  });

  it('an expired session reads as expired, and the seller may start again', async () => {
    const { sessionId, subscriptionId } = await startCheckout('fedor', 3);
    stripe.expire(sessionId);
    // No webhook needed: the page asks Stripe.
    expect((await api('fedor', 'GET', `/subscription/checkout-session/${sessionId}`)).json().data.status).toBe('expired');
    expect((await row(subscriptionId)).status).toBe('failed');
    const again = await startCheckout('fedor', 3);
    expect(again.sessionId).not.toBe(sessionId);
  });
});

describe('what Stripe does after: renewals, failures, ending', () => {
  it('a paid renewal credits the new period once; a declined one goes past_due and recovers with the next paid invoice', async () => {
    const { subscriptionId, providerSubscriptionId } = await subscribed('clara', 1);
    const first = periodOf(providerSubscriptionId);
    const start = (await wallet('clara')).total_tokens;

    const renewed = stripe.renew(providerSubscriptionId);
    expect(renewed.map((event) => event.type)).toEqual(['customer.subscription.updated', 'invoice.finalized', 'invoice.paid']);
    // The subscription's new period and its paid invoice each change something; the finalized invoice does not.
    expect(await deliver(renewed)).toBe(2);
    expect(await deliver(renewed)).toBe(0);
    const second = periodOf(providerSubscriptionId);
    expect(second.start).toBe(first.end);
    expect(await row(subscriptionId)).toMatchObject({ status: 'active', currentPeriodEnd: new Date(second.end * 1000) });
    expect((await wallet('clara')).total_tokens).toBe(start + 200);
    expect(await credits('clara')).toEqual([
      { amount: 200, expiresAt: iso(first.end) },
      { amount: 200, expiresAt: iso(second.end) },
    ]);
    // The first period's tokens lapse at its end; the second's stay.
    await t.app.billing.subscriptions.run(new Date(first.end * 1000 + 1000));
    expect(await wallet('clara')).toMatchObject({ total_tokens: start, expires_at: iso(second.end), expiring_tokens: 200 });
    await expectBalanced('clara');

    // The card is declined at the next renewal: past_due, nothing credited.
    stripe.setCardDeclines(providerSubscriptionId, true);
    const declined = stripe.renew(providerSubscriptionId);
    expect(declined.map((event) => event.type)).toEqual(['customer.subscription.updated', 'invoice.finalized', 'invoice.payment_failed', 'customer.subscription.updated']);
    await deliver(declined);
    expect((await row(subscriptionId)).status).toBe('past_due');
    expect((await api('clara', 'GET', '/subscription/my')).json().data.status).toBe('past_due');
    expect(await credits('clara')).toHaveLength(2);
    // Only an active subscription moves up a plan.
    const refused = await api('clara', 'POST', '/subscription/update', { plan_id: 2 });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toBe('UPGRADE_NOT_ALLOWED');
    await expectBalanced('clara');

    // Stripe's retry succeeds with a working card: active, the owed period credited once.
    stripe.setCardDeclines(providerSubscriptionId, false);
    const recovered = stripe.retry(providerSubscriptionId);
    expect(recovered.map((event) => event.type)).toEqual(['invoice.paid', 'customer.subscription.updated']);
    await deliver(recovered);
    expect(await deliver(recovered)).toBe(0);
    const third = periodOf(providerSubscriptionId);
    expect(await row(subscriptionId)).toMatchObject({ status: 'active', attempts: 0, currentPeriodStart: new Date(third.start * 1000) });
    expect((await credits('clara')).map((credit) => credit.expiresAt)).toEqual([iso(first.end), iso(second.end), iso(third.end)]);
    await expectBalanced('clara');
  });

  it('an invoice without the subscription’s metadata is matched by asking Stripe; older API versions’ shapes are read too', async () => {
    const { subscriptionId, providerSubscriptionId } = await subscribed('galina', 1);
    const start = (await wallet('galina')).total_tokens;
    const renewed = stripe.renew(providerSubscriptionId, { snapshot: false });
    const [paid] = ofType(renewed, 'invoice.paid');
    expect((paid!.data.object as { parent: { subscription_details: { metadata: unknown } } }).parent.subscription_details.metadata).toBeNull();
    const asked = stripe.requests.length;
    expect(await deliver([paid!])).toBe(1);
    expect(stripe.requests.slice(asked)).toContainEqual(expect.objectContaining({ method: 'GET', path: `/v1/subscriptions/${providerSubscriptionId}` }));
    expect((await wallet('galina')).total_tokens).toBe(start + 200);
    await expectBalanced('galina');

    // An endpoint pinned to an older API version gets the older shapes: the invoice names its
    // subscription at the top, its lines carry no `parent`, the subscription has its own period.
    const next = stripe.renew(providerSubscriptionId);
    const [modernPaid] = ofType(next, 'invoice.paid');
    const invoice = structuredClone(modernPaid!.data.object) as Json & { parent: { subscription_details: { metadata: Json } }; lines: { data: Json[] } };
    const oldInvoice: Json = { ...invoice, subscription: providerSubscriptionId, subscription_details: { metadata: invoice.parent.subscription_details.metadata } };
    delete oldInvoice.parent;
    oldInvoice.lines = {
      ...invoice.lines,
      data: invoice.lines.data.map((line) => {
        const old: Json = { ...line, type: 'subscription', proration: false, subscription: providerSubscriptionId };
        delete old.parent;
        return old;
      }),
    };
    const [modernUpdated] = ofType(next, 'customer.subscription.updated');
    const subscription = structuredClone(modernUpdated!.data.object) as Json & { items: { data: Json[] } };
    const item = subscription.items.data[0]!;
    const oldSubscription: Json = { ...subscription, current_period_start: item.current_period_start, current_period_end: item.current_period_end, cancel_at_period_end: true, cancel_at: null };
    oldSubscription.items = { ...subscription.items, data: [{ ...item, current_period_start: undefined, current_period_end: undefined }] };
    const older = (made: StripeEvent, object: Json): StripeEvent => ({ ...made, api_version: '2024-06-20', data: { object } });
    await deliver([older(modernPaid!, oldInvoice), older(modernUpdated!, oldSubscription)]);
    const third = periodOf(providerSubscriptionId);
    expect((await credits('galina')).at(-1)).toEqual({ amount: 200, expiresAt: iso(third.end) });
    // The cancelling read from the old shape: at the period's end, from the subscription's own period.
    expect(await row(subscriptionId)).toMatchObject({ status: 'active', currentPeriodEnd: new Date(third.end * 1000), cancelAt: new Date(third.end * 1000) });
    await expectBalanced('galina');
  });

  it('an older customer.subscription.updated delivered after a newer one does not overwrite it', async () => {
    const { subscriptionId, providerSubscriptionId } = await subscribed('dmitri', 1);
    stripe.setCardDeclines(providerSubscriptionId, true);
    const declined = stripe.renew(providerSubscriptionId);
    const olderPastDue = ofType(declined, 'customer.subscription.updated').at(-1)!;
    expect((olderPastDue.data.object as { status: string }).status).toBe('past_due');
    // A day later Stripe's retry goes through: its events are created later.
    stripe.advance(24 * 60 * 60);
    stripe.setCardDeclines(providerSubscriptionId, false);
    const recovered = stripe.retry(providerSubscriptionId);
    const newerActive = ofType(recovered, 'customer.subscription.updated')[0]!;
    expect(newerActive.created).toBeGreaterThan(olderPastDue.created);

    // Delivered newest first: the late past_due state is older than what we hold, and is ignored.
    await deliver(recovered);
    expect(await row(subscriptionId)).toMatchObject({ status: 'active', providerStateAt: new Date(newerActive.created * 1000) });
    await deliver([olderPastDue]);
    expect(await row(subscriptionId)).toMatchObject({ status: 'active', providerStateAt: new Date(newerActive.created * 1000) });
    expect((await api('dmitri', 'GET', '/subscription/my')).json().data.status).toBe('active');
    await expectBalanced('dmitri');
  });

  it('a payment failure delivered after the same invoice was paid (out of order) changes nothing', async () => {
    const { subscriptionId, providerSubscriptionId } = await subscribed('ivan', 1);
    stripe.setCardDeclines(providerSubscriptionId, true);
    const declined = stripe.renew(providerSubscriptionId);
    const [failed] = ofType(declined, 'invoice.payment_failed');
    // A day later Stripe's retry pays that same invoice.
    stripe.advance(24 * 60 * 60);
    stripe.setCardDeclines(providerSubscriptionId, false);
    const recovered = stripe.retry(providerSubscriptionId);
    const [paid] = ofType(recovered, 'invoice.paid');
    expect((paid!.data.object as { id: string }).id).toBe((failed!.data.object as { id: string }).id);

    // The paid invoice arrives first: the renewed period is credited and the subscription is active.
    await deliver(recovered);
    const period = periodOf(providerSubscriptionId);
    expect(await row(subscriptionId)).toMatchObject({ status: 'active', attempts: 0, currentPeriodEnd: new Date(period.end * 1000) });
    const tokens = (await wallet('ivan')).total_tokens;
    expect(await credits('ivan')).toHaveLength(2);

    // Then the earlier failure of that invoice, alone and with the rest of its deliveries: still active.
    await deliver([failed!]);
    expect(await row(subscriptionId)).toMatchObject({ status: 'active', attempts: 0 });
    await deliver(declined);
    expect(await row(subscriptionId)).toMatchObject({ status: 'active', attempts: 0, currentPeriodEnd: new Date(period.end * 1000) });
    expect((await api('ivan', 'GET', '/subscription/my')).json().data).toMatchObject({ id: subscriptionId, status: 'active' });
    expect((await wallet('ivan')).total_tokens).toBe(tokens);
    expect(await credits('ivan')).toHaveLength(2);
    // Only an active subscription moves up a plan: it still may.
    expect((await api('ivan', 'POST', '/subscription/update', { plan_id: 2 })).statusCode).toBe(200);
    await expectBalanced('ivan');
  });

  it('cancels at the period end through Stripe, then customer.subscription.deleted ends it', async () => {
    const { subscriptionId, providerSubscriptionId } = await subscribed('hanna', 2);
    const period = periodOf(providerSubscriptionId);
    const tokens = (await wallet('hanna')).total_tokens;
    const mark = stripe.events.length;
    const cancelled = await api('hanna', 'POST', '/subscription/cancel');
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    // The date is Stripe's answer: the end of the period it bills.
    expect(cancelled.json().data).toMatchObject({ status: 'active', cancel_at: iso(period.end) });
    expect(stripe.subscriptions.get(providerSubscriptionId)).toMatchObject({ cancel_at_period_end: true, cancel_at: period.end, status: 'active' });
    expect(stripe.requests.at(-1)).toMatchObject({ method: 'POST', path: `/v1/subscriptions/${providerSubscriptionId}`, params: { cancel_at_period_end: 'true' }, idempotencyKey: `cancel:${providerSubscriptionId}` });
    // Stripe tells us the same by webhook; applied, it changes nothing we did not know.
    const updated = since(mark);
    expect(updated.map((event) => event.type)).toEqual(['customer.subscription.updated']);
    await deliver(updated);
    expect(await row(subscriptionId)).toMatchObject({ status: 'active', cancelAt: new Date(period.end * 1000) });
    // Upgrading a subscription that is ending is refused.
    expect((await api('hanna', 'POST', '/subscription/update', { plan_id: 3 })).json().error).toBe('UPGRADE_NOT_ALLOWED');

    // At the period end Stripe ends it.
    const ended = stripe.renew(providerSubscriptionId);
    expect(ended.map((event) => event.type)).toEqual(['customer.subscription.deleted']);
    await deliver(ended);
    await deliver(ended);
    expect(await row(subscriptionId)).toMatchObject({ status: 'canceled', cancelAt: new Date(period.end * 1000) });
    expect((await api('hanna', 'GET', '/subscription/my')).json().data).toMatchObject({ id: subscriptionId, status: 'canceled' });
    // Nothing was charged or credited for it; the tokens already credited stay until they lapse.
    expect((await wallet('hanna')).total_tokens).toBe(tokens);
    await expectBalanced('hanna');
  });
});

describe('upgrading a subscription Stripe bills', () => {
  it('moves Stripe’s item to the new plan with a new period invoiced now; its tokens credited once, the old ones keep their date', async () => {
    const { subscriptionId, providerSubscriptionId } = await subscribed('elena', 1);
    const oldPeriod = periodOf(providerSubscriptionId);
    const before = (await wallet('elena')).total_tokens;
    // A minute later (Stripe's clock): the new period visibly starts after the old one did.
    stripe.advance(60);
    const mark = stripe.events.length;
    const upgraded = await api('elena', 'POST', '/subscription/update', { plan_id: 3 });
    expect(upgraded.statusCode, upgraded.body).toBe(200);

    const remote = stripe.subscriptions.get(providerSubscriptionId)!;
    expect(remote.metadata).toEqual({ subscription_id: subscriptionId, plan_id: '3', user_id: sellers.elena!.id });
    expect(remote.items.data).toHaveLength(1);
    expect(remote.items.data[0]!.price).toMatchObject({ unit_amount: 6999, currency: 'usd', product: 'solestudio_plan_3', recurring: { interval: 'month' } });
    const update = stripe.requests.filter((request) => request.method === 'POST' && request.path === `/v1/subscriptions/${providerSubscriptionId}`).at(-1)!;
    expect(update.params).toMatchObject({ billing_cycle_anchor: { type: 'now' }, proration_behavior: 'none', metadata: { plan_id: '3' } });
    expect(update.idempotencyKey).toBe(`change-plan:${providerSubscriptionId}:3`);
    const newPeriod = periodOf(providerSubscriptionId);
    expect(newPeriod.start).toBeGreaterThan(oldPeriod.start);

    const events = since(mark);
    expect(events.map((event) => event.type)).toEqual(['customer.subscription.updated', 'invoice.paid']);
    expect((ofType(events, 'invoice.paid')[0]!.data.object as { billing_reason: string; amount_paid: number })).toMatchObject({ billing_reason: 'subscription_update', amount_paid: 6999 });
    await deliver(events);
    await deliver(events);
    expect(await row(subscriptionId)).toMatchObject({ status: 'active', planId: 3, currentPeriodEnd: new Date(newPeriod.end * 1000) });
    // The subscription's update came before the invoice, yet the mail says what the invoice paid for: the upgrade.
    await expectMail('elena', 'Тариф изменён на «Бизнес»');
    const after = await wallet('elena');
    expect(after.total_tokens).toBe(before + 2000);
    // The soonest lapse is still the old period's end, for its 200 tokens.
    expect(after).toMatchObject({ expires_at: iso(oldPeriod.end), expiring_tokens: 200 });
    expect(await credits('elena')).toEqual([
      { amount: 200, expiresAt: iso(oldPeriod.end) },
      { amount: 2000, expiresAt: iso(newPeriod.end) },
    ]);
    await expectBalanced('elena');

    // Up to the top plan a minute later, then no further. (Two invoices whose periods start in
    // the same second would share our charge's period key, and the second would not be credited.)
    stripe.advance(60);
    const mark4 = stripe.events.length;
    expect((await api('elena', 'POST', '/subscription/update', { plan_id: 4 })).statusCode).toBe(200);
    await deliver(since(mark4));
    expect((await wallet('elena')).total_tokens).toBe(before + 8000);
    const refused = await api('elena', 'POST', '/subscription/update', { plan_id: 4 });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toBe('UPGRADE_NOT_ALLOWED');
    expect((await credits('elena')).map((credit) => credit.amount)).toEqual([200, 2000, 6000]);
    await expectBalanced('elena');
  });

  it('the adapter reads Stripe’s refusals as refusals (an unknown subscription or session)', async () => {
    const provider = stripeProvider({ secretKey: stripe.secretKey, webhookSecret: stripe.webhookSecret, apiBase: stripe.origin });
    const unknown = provider.subscriptions!.cancelAtPeriodEnd('sub_missing');
    await expect(unknown).rejects.toBeInstanceOf(ProviderRefused);
    await expect(unknown).rejects.toMatchObject({ code: 'resource_missing', message: expect.stringContaining("No such subscription: 'sub_missing'") });
    await expect(provider.subscriptions!.retrieveSubscriptionCheckout('cs_test_missing')).rejects.toMatchObject({ code: 'resource_missing' });
  });
});
