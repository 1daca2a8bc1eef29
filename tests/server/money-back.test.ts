// Money that goes back to the seller takes its tokens back, end to end through our webhooks and
// each provider's local stand-in: Stripe (its official SDK against the suite's stand-in, events
// signed as Stripe signs them) disputes of a top-up and of a subscription invoice — opened, won,
// lost, replayed, in any order — and refunds of a subscription invoice, full and partial, out of
// order; YooKassa refunds of a renewal charge; the sandbox's charge refunds and disputes. A dispute
// takes back at most once and gives back at most what it took, never below zero (the rest
// recorded as unrecovered); a period's refund takes from that period's lot first. After every
// step the balance is the ledger's sum and the lots' remainders.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../support/test-app';
import { signedInSeller } from '../support/sellers';
import { customerOf } from '../support/customers';
import { expectBalanced } from '../support/wallet';
import { startFakeStripe, type StripeEvent } from '../support/fakes/stripe';
import { startFakeYooKassa } from '../support/fakes/yookassa';
import { ledger, paymentDisputes, payments, subscriptionCharges, subscriptions, tokenLots } from '../../server/db/schema';
import { stripeKeys, yookassaKeys } from '../support/fakes/keys';

type Seller = { token: string; id: string; app: TestApp };
type Notified = { event: string; object: object };

let live: TestApp;
let local: TestApp;
let stripe: Awaited<ReturnType<typeof startFakeStripe>>;
let yoo: Awaited<ReturnType<typeof startFakeYooKassa>>;

beforeAll(async () => {
  stripe = await startFakeStripe();
  yoo = await startFakeYooKassa();
  live = await createTestApp({
    PUBLIC_URL: 'http://shop.test',
    RUN_JOBS: 'false',
    ...stripeKeys(stripe),
    ...yookassaKeys(yoo),
  });
  // Without keys, the sandbox is both providers (it delivers each notification twice).
  local = await createTestApp({ PUBLIC_URL: 'http://shop.test', RUN_JOBS: 'false', SANDBOX_NOTIFY_DELAY_MS: '20' });
});
afterAll(async () => {
  await live?.close();
  await local?.close();
  await stripe?.close();
  await yoo?.close();
});

async function seller(t: TestApp, name: string): Promise<Seller> {
  return { ...(await signedInSeller(t, name)), app: t };
}
const api = (s: Seller, method: 'GET' | 'POST', url: string, payload?: object) =>
  s.app.app.inject({ method, url: `/api/v1${url}`, headers: { authorization: `Bearer ${s.token}` }, ...(payload ? { payload } : {}) });
const balance = async (s: Seller) => (await api(s, 'GET', '/tokens/balance')).json().data.total_tokens as number;
/** The balance, after checking it is the ledger's sum and the lots' remainders. */
async function balanced(s: Seller) {
  await expectBalanced(s.app, s);
  return balance(s);
}
/** Spends tokens as a task's charge does. */
async function spend(s: Seller, cost: number) {
  await s.app.app.database.db.execute(sql`WITH task AS (SELECT ${crypto.randomUUID()}::text AS id), ${s.app.app.ledger.chargeTaskCtes(s.id, cost)} SELECT 1`);
}
const disputeRow = async (t: TestApp, provider: string, disputeId: string) =>
  (await t.app.database.db.select().from(paymentDisputes).where(and(eq(paymentDisputes.provider, provider), eq(paymentDisputes.disputeId, disputeId))))[0];
const chargeOf = async (t: TestApp, providerPaymentId: string) =>
  (await t.app.database.db.select().from(subscriptionCharges).where(eq(subscriptionCharges.providerPaymentId, providerPaymentId)))[0]!;
/** What is left of the lot a ledger entry opened. */
const lotLeft = async (t: TestApp, reference: string) =>
  (await t.app.database.db.select({ remaining: tokenLots.remaining }).from(tokenLots).innerJoin(ledger, eq(ledger.id, tokenLots.entryId)).where(eq(ledger.reference, reference)))[0]!
    .remaining;

/** Delivers Stripe events signed as Stripe signs them, in the order given; how many changed something. */
async function deliver(...events: StripeEvent[]): Promise<number> {
  let changed = 0;
  for (const event of events) {
    const answer = await live.app.inject({ method: 'POST', url: '/api/v1/payment/webhooks/stripe', ...payloadOf(stripe.signed(event)) });
    expect(answer.statusCode, answer.body).toBe(200);
    changed += answer.json().data.changed as number;
  }
  return changed;
}
const payloadOf = (signed: { body: Buffer; headers: Record<string, string> }) => ({ payload: signed.body, headers: signed.headers });
const ofType = (events: readonly StripeEvent[], type: string) => {
  const found = events.filter((event) => event.type === type);
  expect(found).toHaveLength(1);
  return found[0]!;
};

/** A 300-token pack bought through a Stripe Checkout Session ($12.99); `heard: false` leaves its success unheard. */
async function stripeTopUp(s: Seller, heard = true) {
  const answer = await api(s, 'POST', '/tokens/topup', { token_amount: 300, currency: 'USD', pm_id: '', payment_provider: 'card' });
  expect(answer.statusCode, answer.body).toBe(200);
  const paymentId = answer.json().data.payment_id as string;
  const [row] = await live.app.database.db.select().from(payments).where(eq(payments.id, paymentId));
  const sessionId = row!.providerPaymentId!;
  const paid = stripe.pay(sessionId);
  if (heard) expect(await deliver(...paid)).toBe(1);
  return { paymentId, sessionId };
}

/** Pro by the month ($24.99, 600 tokens) through a Stripe Checkout Session, its events delivered: the first invoice. */
async function stripeSubscription(s: Seller) {
  const created = await api(s, 'POST', '/subscription/create', { plan_id: 2, interval: 'month' });
  expect(created.statusCode, created.body).toBe(200);
  const sessionId = created.json().data.session_id as string;
  await deliver(...stripe.completeSubscription(sessionId));
  const providerSubscriptionId = stripe.sessions.get(sessionId)!.subscription!;
  const invoiceId = stripe.subscriptions.get(providerSubscriptionId)!.latest_invoice!;
  expect(await chargeOf(live, invoiceId)).toMatchObject({ status: 'completed', tokens: 600 });
  return { providerSubscriptionId, invoiceId };
}

describe('a Stripe dispute of a top-up', () => {
  it('opened takes the pack’s tokens back as far as the balance holds, recording the rest; won gives back exactly that; each notification once', async () => {
    const s = await seller(live, 'agata');
    const start = await balanced(s);
    const { paymentId, sessionId } = await stripeTopUp(s);
    await spend(s, start + 200);
    expect(await balanced(s)).toBe(100);

    const { dispute, events } = stripe.openDispute(sessionId);
    const created = ofType(events, 'charge.dispute.created');
    const withdrawn = ofType(events, 'charge.dispute.funds_withdrawn');
    expect(await deliver(created)).toBe(1);
    expect(await balanced(s)).toBe(0);
    expect(await disputeRow(live, 'stripe', dispute.id)).toMatchObject({ target: 'payment', targetId: paymentId, status: 'open', takenTokens: 100, unrecoveredTokens: 200 });
    // The same notification again, the same dispute under other events, and evidence under review: nothing more.
    expect(await deliver(created, withdrawn, ...stripe.reviewDispute(dispute.id))).toBe(0);
    expect(await balanced(s)).toBe(0);

    const closed = stripe.closeDispute(dispute.id, 'won');
    expect(await deliver(ofType(closed, 'charge.dispute.closed'))).toBe(1);
    expect(await balanced(s)).toBe(100);
    expect(await deliver(...closed, ofType(closed, 'charge.dispute.closed'), created)).toBe(0);
    expect(await balanced(s)).toBe(100);
    expect(await disputeRow(live, 'stripe', dispute.id)).toMatchObject({ status: 'won', takenTokens: 100, unrecoveredTokens: 200 });
  });

  it('lost leaves the tokens taken', async () => {
    const s = await seller(live, 'bogdan');
    const start = await balanced(s);
    const { sessionId } = await stripeTopUp(s);
    const { dispute, events } = stripe.openDispute(sessionId);
    expect(await deliver(...events)).toBe(1);
    expect(await balanced(s)).toBe(start);
    const lost = stripe.closeDispute(dispute.id, 'lost');
    expect(await deliver(...lost, ...lost)).toBe(1);
    expect(await balanced(s)).toBe(start);
    expect(await disputeRow(live, 'stripe', dispute.id)).toMatchObject({ status: 'lost', takenTokens: 300, unrecoveredTokens: 0 });
  });

  it('in any order: won heard first takes nothing; closed before funds_withdrawn takes once; a late opening after a win takes nothing again', async () => {
    const s = await seller(live, 'cyril');
    const start = await balanced(s);

    const first = await stripeTopUp(s);
    const one = stripe.openDispute(first.sessionId);
    const oneClosed = stripe.closeDispute(one.dispute.id, 'won');
    expect(await deliver(...oneClosed.reverse(), ...one.events.reverse())).toBe(1);
    expect(await balanced(s)).toBe(start + 300);
    expect(await disputeRow(live, 'stripe', one.dispute.id)).toMatchObject({ status: 'won', takenTokens: 0 });

    const second = await stripeTopUp(s);
    const two = stripe.openDispute(second.sessionId);
    const twoLost = stripe.closeDispute(two.dispute.id, 'lost');
    expect(await deliver(...twoLost)).toBe(1);
    expect(await balanced(s)).toBe(start + 300);
    expect(await deliver(ofType(two.events, 'charge.dispute.funds_withdrawn'), ofType(two.events, 'charge.dispute.created'))).toBe(0);
    expect(await balanced(s)).toBe(start + 300);

    const third = await stripeTopUp(s);
    const three = stripe.openDispute(third.sessionId);
    const threeWon = stripe.closeDispute(three.dispute.id, 'won');
    expect(await deliver(ofType(three.events, 'charge.dispute.created'), ...threeWon)).toBe(2);
    expect(await balanced(s)).toBe(start + 600);
    expect(await deliver(ofType(three.events, 'charge.dispute.funds_withdrawn'))).toBe(0);
    expect(await balanced(s)).toBe(start + 600);
  });

  it('of a payment whose success was never heard: it was paid, credited and taken back in one', async () => {
    const s = await seller(live, 'darina');
    const start = await balanced(s);
    const { paymentId, sessionId } = await stripeTopUp(s, false);
    const { dispute, events } = stripe.openDispute(sessionId);
    expect(await deliver(...events)).toBe(1);
    expect((await live.app.database.db.select().from(payments).where(eq(payments.id, paymentId)))[0]).toMatchObject({ status: 'completed' });
    expect(await balanced(s)).toBe(start);
    expect(await deliver(...stripe.closeDispute(dispute.id, 'won'))).toBe(1);
    expect(await balanced(s)).toBe(start + 300);
  });

  it('of what a partial refund left: the refund and the dispute together take every token of the pack', async () => {
    const s = await seller(live, 'emma');
    const start = await balanced(s);
    const { sessionId } = await stripeTopUp(s);
    // $5.00 of $12.99 back buys 115 of the 300 tokens; the $7.99 disputed the other 185.
    expect(await deliver(...stripe.refund(sessionId, 500))).toBe(1);
    expect(await balanced(s)).toBe(start + 185);
    const { dispute, events } = stripe.openDispute(sessionId);
    expect(dispute.amount).toBe(799);
    expect(await deliver(...events)).toBe(1);
    expect(await balanced(s)).toBe(start);
    expect(await deliver(...stripe.closeDispute(dispute.id, 'won'))).toBe(1);
    expect(await balanced(s)).toBe(start + 185);
  });
});

describe('a Stripe dispute of a subscription invoice', () => {
  it('opened takes back the period’s tokens (never below zero); won gives back what it took; replays change nothing', async () => {
    const s = await seller(live, 'egor');
    const start = await balanced(s);
    const { invoiceId } = await stripeSubscription(s);
    expect(await balanced(s)).toBe(start + 600);
    await spend(s, start + 500);
    const { dispute, events } = stripe.openDispute(invoiceId);
    expect(await deliver(...events, ...events)).toBe(1);
    expect(await balanced(s)).toBe(0);
    const charge = await chargeOf(live, invoiceId);
    expect(await disputeRow(live, 'stripe', dispute.id)).toMatchObject({ target: 'charge', targetId: charge.id, status: 'open', takenTokens: 100, unrecoveredTokens: 500 });
    const won = stripe.closeDispute(dispute.id, 'won');
    expect(await deliver(...won, ...won, ...events)).toBe(1);
    expect(await balanced(s)).toBe(100);
  });

  it('lost stays taken; won heard before the opening takes nothing', async () => {
    const s = await seller(live, 'faina');
    const start = await balanced(s);
    const { invoiceId, providerSubscriptionId } = await stripeSubscription(s);
    const { dispute, events } = stripe.openDispute(invoiceId, { amountMinor: 1250 });
    const lost = stripe.closeDispute(dispute.id, 'lost');
    expect(await deliver(...lost, ...events, ...lost)).toBe(1);
    // Half the invoice disputed: half the period's tokens.
    expect(await balanced(s)).toBe(start + 600 - 300);
    expect(await disputeRow(live, 'stripe', dispute.id)).toMatchObject({ status: 'lost', takenTokens: 300 });

    await deliver(...stripe.renew(providerSubscriptionId));
    const renewal = stripe.subscriptions.get(providerSubscriptionId)!.latest_invoice!;
    expect(await balanced(s)).toBe(start + 900);
    const next = stripe.openDispute(renewal);
    expect(await deliver(...stripe.closeDispute(next.dispute.id, 'won'), ...next.events)).toBe(1);
    expect(await balanced(s)).toBe(start + 900);
  });
});

describe('money back on an invoice heard before the invoice was paid', () => {
  it('a refund credits the period and takes it back, once; the late invoice.paid changes nothing', async () => {
    const s = await seller(live, 'iskra');
    const start = await balanced(s);
    const { providerSubscriptionId } = await stripeSubscription(s);
    const renewed = stripe.renew(providerSubscriptionId);
    const renewal = stripe.subscriptions.get(providerSubscriptionId)!.latest_invoice!;
    const refund = ofType(stripe.refundInvoice(renewal), 'charge.refunded');
    // The refund first: the period it reverses is credited, then taken back (two changes), once.
    expect(await deliver(refund, refund)).toBe(2);
    expect(await balanced(s)).toBe(start + 600);
    expect(await chargeOf(live, renewal)).toMatchObject({ status: 'completed', tokens: 600, refundedTokens: 600 });
    // Every other event of the renewal, invoice.paid among them, arrives late and changes no tokens.
    await deliver(...renewed);
    expect(await balanced(s)).toBe(start + 600);
  });

  it('a dispute opened then lost takes back the period it was heard before, once', async () => {
    const s = await seller(live, 'ilona');
    const start = await balanced(s);
    const { providerSubscriptionId } = await stripeSubscription(s);
    const renewed = stripe.renew(providerSubscriptionId);
    const renewal = stripe.subscriptions.get(providerSubscriptionId)!.latest_invoice!;
    const { dispute, events } = stripe.openDispute(renewal);
    const lost = stripe.closeDispute(dispute.id, 'lost');
    await deliver(...lost, ...events);
    expect(await balanced(s)).toBe(start + 600);
    await deliver(...renewed, ...events, ...lost);
    expect(await balanced(s)).toBe(start + 600);
    expect(await disputeRow(live, 'stripe', dispute.id)).toMatchObject({ status: 'lost', takenTokens: 600 });
  });
});

describe('a Stripe refund of a subscription invoice', () => {
  it('takes back that period’s tokens from its own lot, partial then full; replays and an older total change nothing', async () => {
    const s = await seller(live, 'gleb');
    const start = await balanced(s);
    const { invoiceId: first, providerSubscriptionId } = await stripeSubscription(s);
    await deliver(...stripe.renew(providerSubscriptionId));
    const second = stripe.subscriptions.get(providerSubscriptionId)!.latest_invoice!;
    const [one, two] = [await chargeOf(live, first), await chargeOf(live, second)];
    expect(await balanced(s)).toBe(start + 1200);

    const partial = ofType(stripe.refundInvoice(second, 1000), 'charge.refunded');
    const rest = ofType(stripe.refundInvoice(second), 'charge.refunded');
    // The whole refund heard first, then the partial one's smaller total: 600 taken, once.
    expect(await deliver(rest, partial, rest)).toBe(1);
    expect(await balanced(s)).toBe(start + 600);
    // From the refunded period's own lot, though the first period's lapses sooner.
    expect(await lotLeft(live, `charge:${two.id}`)).toBe(0);
    expect(await lotLeft(live, `charge:${one.id}`)).toBe(600);
    expect(await chargeOf(live, second)).toMatchObject({ refundedMinor: 2499, refundedTokens: 600, unrecoveredTokens: 0 });

    // The first invoice, in parts: 1000 of 2499 buys 240 tokens, the rest 360.
    const some = ofType(stripe.refundInvoice(first, 1000), 'charge.refunded');
    expect(await deliver(some, some)).toBe(1);
    expect(await balanced(s)).toBe(start + 360);
    expect(await deliver(ofType(stripe.refundInvoice(first), 'charge.refunded'), some)).toBe(1);
    expect(await balanced(s)).toBe(start);
    expect(await chargeOf(live, first)).toMatchObject({ refundedMinor: 2499, refundedTokens: 600 });
  });
});

describe('a YooKassa refund of a renewal charge', () => {
  const postYoo = async (notified: Notified) => {
    const answer = await live.app.inject({ method: 'POST', url: '/api/v1/payment/webhooks/yookassa', ...yoo.notification(notified.event, notified.object) });
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.json().data.changed as number;
  };

  it('takes back that period’s tokens, partial then the rest, each refund once', async () => {
    const s = await seller(live, 'inna');
    const start = await balanced(s);
    expect((await api(s, 'POST', '/localpay/customers', customerOf('inna-shop', 'Inna'))).statusCode).toBe(200);
    const mandate = await api(s, 'POST', '/localpay/mandates', { reference: `inna-${crypto.randomUUID()}`, payment_method: 'card_ru', terminal_type: 'web' });
    expect(mandate.statusCode, mandate.body).toBe(200);
    const mandateId = mandate.json().data.id as string;
    const verification = [...yoo.payments.values()].find((payment) => payment.metadata.mandate_id === mandateId)!;
    expect(await postYoo(yoo.succeed(verification.id))).toBe(1);
    const subscribed = await api(s, 'POST', '/localpay/subscriptions', { plan_id: 1, mandate_id: mandateId, reference: `inna-sub-${crypto.randomUUID()}` });
    expect(subscribed.statusCode, subscribed.body).toBe(200);
    const { id: subscriptionId } = subscribed.json().data as { id: string };
    expect(await balanced(s)).toBe(start + 200);

    const [sub] = await live.app.database.db.select().from(subscriptions).where(eq(subscriptions.id, subscriptionId));
    await live.app.billing.subscriptions.run(new Date(sub!.currentPeriodEnd!.getTime() + 60_000));
    const renewal = (await live.app.database.db.select().from(subscriptionCharges).where(eq(subscriptionCharges.subscriptionId, subscriptionId))).find(
      (charge) => charge.periodStart.getTime() === sub!.currentPeriodEnd!.getTime(),
    )!;
    expect(renewal).toMatchObject({ status: 'completed', tokens: 200, amountMinor: 94_900 });
    // The first period lapsed as the renewal ran: what is left is the renewal's.
    expect(await balanced(s)).toBe(start + 200);

    const partial = yoo.refund(renewal.providerPaymentId!, 47_450);
    expect(await postYoo(partial)).toBe(1);
    expect(await postYoo(partial)).toBe(0);
    expect(await balanced(s)).toBe(start + 100);
    expect(await lotLeft(live, `charge:${renewal.id}`)).toBe(100);
    const rest = yoo.refund(renewal.providerPaymentId!);
    expect(await postYoo(rest)).toBe(1);
    expect(await postYoo(partial)).toBe(0);
    expect(await balanced(s)).toBe(start);
    expect(await chargeOf(live, renewal.providerPaymentId!)).toMatchObject({ refundedMinor: 94_900, refundedTokens: 200 });
  });
});

describe('the sandbox’s refunds and disputes', () => {
  const sandbox = () => local.app.billing.sandbox!;

  async function localSubscription(s: Seller) {
    expect((await api(s, 'POST', '/localpay/customers', customerOf(`${s.id}-shop`, 'Kira'))).statusCode).toBe(200);
    const created = await api(s, 'POST', '/localpay/mandates', { reference: `kira-${crypto.randomUUID()}`, payment_method: 'sberpay_ru', terminal_type: 'web' });
    expect(created.statusCode, created.body).toBe(200);
    const page = new URL(created.json().data.redirect_url as string).pathname;
    expect((await local.app.inject({ method: 'POST', url: `${page}/pay` })).statusCode).toBe(303);
    const answer = await api(s, 'POST', '/localpay/subscriptions', { plan_id: 1, mandate_id: created.json().data.id, reference: `kira-sub-${crypto.randomUUID()}` });
    expect(answer.statusCode, answer.body).toBe(200);
    await sandbox().idle();
    const [charge] = await local.app.database.db.select().from(subscriptionCharges).where(eq(subscriptionCharges.subscriptionId, answer.json().data.id as string));
    return charge!;
  }

  it('a refunded charge takes back its period’s tokens; a dispute of it takes the rest while open and gives it back when won', async () => {
    const s = await seller(local, 'kira');
    const start = await balanced(s);
    const charge = await localSubscription(s);
    expect(await balanced(s)).toBe(start + 200);
    // 100 ₽ of 949 ₽ back buys 21 of the 200 tokens.
    await sandbox().refund(charge.providerPaymentId!, 10_000);
    await sandbox().idle();
    expect(await balanced(s)).toBe(start + 179);
    expect(await sandbox().dispute(charge.providerPaymentId!, 'open')).toEqual({ disputeId: `dp_${charge.providerPaymentId}`, amountMinor: 84_900 });
    await sandbox().idle();
    // All the money is back with the seller: every token of the period goes, whatever each part rounds to.
    expect(await balanced(s)).toBe(start);
    expect(await disputeRow(local, 'sandbox', `dp_${charge.providerPaymentId}`)).toMatchObject({ target: 'charge', status: 'open', takenTokens: 179 });
    await sandbox().dispute(charge.providerPaymentId!, 'won');
    await sandbox().dispute(charge.providerPaymentId!, 'open');
    await sandbox().idle();
    expect(await balanced(s)).toBe(start + 179);
  });

  it('a disputed top-up is taken back while open and stays taken when lost', async () => {
    const s = await seller(local, 'lidia');
    const start = await balanced(s);
    const answer = await api(s, 'POST', '/tokens/topup', { token_amount: 100, currency: 'USD', pm_id: '', payment_provider: 'card' });
    const [row] = await local.app.database.db.select().from(payments).where(eq(payments.id, answer.json().data.payment_id as string));
    await sandbox().pay(row!.providerPaymentId!);
    await sandbox().idle();
    expect(await balanced(s)).toBe(start + 100);
    await sandbox().dispute(row!.providerPaymentId!, 'open');
    await sandbox().dispute(row!.providerPaymentId!, 'lost');
    await sandbox().idle();
    expect(await balanced(s)).toBe(start);
    expect(await disputeRow(local, 'sandbox', `dp_${row!.providerPaymentId}`)).toMatchObject({ target: 'payment', status: 'lost', takenTokens: 100 });
  });
});
