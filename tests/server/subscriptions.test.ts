// Subscriptions through the embedded sandbox (the default provider for both the card and the local
// provider): plans, the local provider's customers, mandates and subscriptions, the card
// provider's checkout, renewals that succeed, fail, recover and give up, cancelling at the
// period's end, upgrades, revoked mandates, notifications replayed and forged, period tokens that
// lapse, and a charge racing a renewal and an expiry — time moved by the jobs' `at`, never waited.
// Periods are checked against the calendar: the clock stopped on days whose next month or year is
// shorter (31 January, 31 December, 29 February), and the dates they end on written out.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../support/test-app';
import { signIn, signedInSeller } from '../support/sellers';
import { expectBalanced as expectBalancedWallet } from '../support/wallet';
import { waitForSubject } from '../support/outbox';
import { customerOf } from '../support/customers';
import { stopClockAt } from '../support/clock';
import { postToSandboxWebhook, signedSandboxNotification, withForgedSignature } from '../support/sandbox';
import { ledger, mandates, subscriptionCharges, subscriptions, tokenLots } from '../../server/db/schema';

let t: TestApp;
const sellers: Record<string, { token: string; id: string }> = {};
const DAY = 24 * 60 * 60_000;

beforeAll(async () => {
  t = await createTestApp({ SANDBOX_NOTIFY_DELAY_MS: '30', PUBLIC_URL: 'http://shop.test' });
  const names = ['sonya', 'timur', 'ulrich', 'vera', 'wanda', 'xenia', 'yakov', 'zoltan', 'arkady', 'bogdana', 'stella', 'heidi', 'carla', 'dora', 'emil', 'fanny', 'gustav'];
  for (const name of names) {
    sellers[name] = await signedInSeller(t, name);
  }
});
afterAll(async () => {
  await t?.close();
});

const auth = (name: string) => ({ authorization: `Bearer ${sellers[name]!.token}` });
const api = (name: string, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: auth(name), ...(payload ? { payload } : {}) });

async function wallet(name: string) {
  return (await api(name, 'GET', '/api/v1/tokens/balance')).json().data as { total_tokens: number; expires_at: string | null; expiring_tokens: number };
}

const expectBalanced = (name: string) => expectBalancedWallet(t, sellers[name]!);

/** A new session at the clock's time, for a seller whose first one a moved clock left behind. */
async function signInNow(name: string) {
  sellers[name]!.token = await signIn(t, name);
}

const customer = customerOf('shop-1', 'Sonya');

/** The local checkout as the page walks it: customer, a mandate authorised on the sandbox's page, then the subscription. */
async function authoriseMandate(name: string, method = 'sberpay_ru') {
  expect((await api(name, 'POST', '/api/v1/localpay/customers', { ...customer, reference: `${name}-shop` })).statusCode).toBe(200);
  const created = await api(name, 'POST', '/api/v1/localpay/mandates', { reference: `${name}-${method}-${crypto.randomUUID()}`, payment_method: method, terminal_type: 'web' });
  expect(created.statusCode, created.body).toBe(200);
  const mandate = created.json().data as { id: string; status: string; redirect_url: string };
  expect(mandate.status).toBe('pending');
  const page = new URL(mandate.redirect_url).pathname;
  const shown = await t.app.inject({ method: 'GET', url: page });
  expect(shown.body).toContain('автоплатеж');
  const authorised = await t.app.inject({ method: 'POST', url: `${page}/pay` });
  expect(authorised.statusCode).toBe(303);
  expect(authorised.headers.location).toBe(`http://shop.test/subscription/result?mandate_id=${mandate.id}`);
  return mandate.id;
}

async function subscribeLocal(name: string, planId = 1, interval = 'month') {
  const mandateId = await authoriseMandate(name);
  const answer = await api(name, 'POST', '/api/v1/localpay/subscriptions', { plan_id: planId, mandate_id: mandateId, reference: `${name}-sub-${crypto.randomUUID()}`, interval });
  expect(answer.statusCode, answer.body).toBe(200);
  return { mandateId, subscription: answer.json().data as { id: string; status: string; current_period_end: string; plan: { id: number; tokens: number } } };
}

const row = async (id: string) => (await t.app.database.db.select().from(subscriptions).where(eq(subscriptions.id, id)))[0]!;
const chargesOf = (id: string) => t.app.database.db.select().from(subscriptionCharges).where(eq(subscriptionCharges.subscriptionId, id));
const methodOf = async (mandateId: string) => (await t.app.database.db.select().from(mandates).where(eq(mandates.id, mandateId)))[0]!.providerMethodId!;
const expectMail = (name: string, words: string) => waitForSubject(t.dataDir, `${name}@shop.example`, words);

describe('plans', () => {
  it('lists four plans at each interval with their tokens and features as a JSON list', async () => {
    const answer = await t.app.inject({ method: 'GET', url: '/api/v1/subscription/plans', headers: { 'accept-language': 'en' } });
    expect(answer.statusCode).toBe(200);
    const plans = answer.json().data as { id: number; interval: string; price: number; tokens: number; features: string; name: string }[];
    expect(plans).toHaveLength(8);
    expect(plans.filter((plan) => plan.interval === 'month').map((plan) => plan.id)).toEqual([1, 2, 3, 4]);
    const pro = plans.find((plan) => plan.id === 2 && plan.interval === 'month')!;
    expect(pro).toMatchObject({ name: 'Pro', price: 24.99, tokens: 600 });
    expect(JSON.parse(pro.features)).toContain('600 tokens a month');
    expect(plans.find((plan) => plan.id === 2 && plan.interval === 'year')).toMatchObject({ price: 249.9, tokens: 7200 });
  });

  it('answers a seller with none a success with no subscription, still named SUBSCRIPTION_NOT_FOUND', async () => {
    // Having no plan is normal and asked about on every page: not a failure in the browser's console.
    const answer = await api('zoltan', 'GET', '/api/v1/subscription/my');
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({ code: 200, error: 'SUBSCRIPTION_NOT_FOUND', message: 'Подписка не найдена.', data: null });
  });
});

describe('the local provider', () => {
  it('subscribes through an authorised mandate: active, tokens credited to lapse at the period end, once', async () => {
    const before = (await wallet('sonya')).total_tokens;
    const { mandateId, subscription } = await subscribeLocal('sonya', 1);
    expect(subscription).toMatchObject({ status: 'active', plan: { id: 1, tokens: 200 } });
    const mine = (await api('sonya', 'GET', '/api/v1/subscription/my')).json().data;
    expect(mine).toMatchObject({ id: subscription.id, status: 'active', provider: 'localpay', cancel_at: null, mandate_id: mandateId });
    const after = await wallet('sonya');
    expect(after.total_tokens).toBe(before + 200);
    expect(after.expires_at).toBe(subscription.current_period_end);
    expect(after.expiring_tokens).toBe(200);
    // The mandate is listed as active for its method; the subscription by status.
    const listed = (await api('sonya', 'GET', '/api/v1/localpay/mandates?payment_method=sberpay_ru&mandate_status=active')).json().data;
    expect(listed.map((m: { id: string }) => m.id)).toContain(mandateId);
    const active = (await api('sonya', 'GET', '/api/v1/localpay/subscriptions?subscription_status=active')).json().data;
    expect(active.map((s: { id: string }) => s.id)).toEqual([subscription.id]);
    // A second subscription is refused; the mandate's notifications (twice) change nothing more.
    const again = await api('sonya', 'POST', '/api/v1/localpay/subscriptions', { plan_id: 1, mandate_id: mandateId, reference: 'another' });
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe('ALREADY_SUBSCRIBED');
    await t.app.billing.sandbox!.idle();
    expect(await chargesOf(subscription.id)).toHaveLength(1);
    expect((await wallet('sonya')).total_tokens).toBe(before + 200);
    await expectBalanced('sonya');
    await expectMail('sonya', 'оформлена');
  });

  it('refuses a mandate that is not authorised yet, and another seller’s ids answer 404', async () => {
    const created = await api('timur', 'POST', '/api/v1/localpay/mandates', { reference: 'timur-pending', payment_method: 'card_ru', terminal_type: 'web' });
    const pending = created.json().data.id as string;
    const refused = await api('timur', 'POST', '/api/v1/localpay/subscriptions', { plan_id: 1, mandate_id: pending, reference: 'timur-1' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toBe('MANDATE_NOT_ACTIVE');
    // Stella's mandate and subscription are not Timur's (her own, so the test stands alone in any order).
    const stellas = await subscribeLocal('stella', 1);
    const theirs = { id: stellas.subscription.id, mandate_id: stellas.mandateId };
    expect((await api('timur', 'POST', '/api/v1/localpay/subscriptions', { plan_id: 1, mandate_id: theirs.mandate_id, reference: 'steal' })).statusCode).toBe(404);
    expect((await api('timur', 'PUT', `/api/v1/localpay/subscriptions/${theirs.id}`, { plan_id: 2 })).statusCode).toBe(404);
    expect((await api('timur', 'POST', `/api/v1/localpay/subscriptions/${theirs.id}/cancel`)).statusCode).toBe(404);
    expect((await api('timur', 'GET', `/api/v1/localpay/mandates?mandate_id=${theirs.mandate_id}`)).json().data).toEqual([]);
    expect((await api('timur', 'GET', `/api/v1/localpay/subscriptions?id=${theirs.id}`)).json().data).toEqual([]);
    // A mandate the seller declines on the page ends failed.
    const page = new URL(created.json().data.redirect_url).pathname;
    await t.app.inject({ method: 'POST', url: `${page}/decline` });
    await t.app.billing.sandbox!.idle();
    const [failed] = (await api('timur', 'GET', `/api/v1/localpay/mandates?mandate_id=${pending}`)).json().data;
    expect(failed.status).toBe('failed');
  });

  it('renews 31 December’s month on 31 January into one ending 29 February (a leap year), once however many jobs run at once; the old tokens lapse', async () => {
    stopClockAt('2027-12-31T10:00:00.000Z');
    await signInNow('ulrich');
    const { subscription } = await subscribeLocal('ulrich', 1);
    expect(subscription.current_period_end).toBe('2028-01-31T10:00:00.000Z');
    const spendable = (await wallet('ulrich')).total_tokens;
    const at = stopClockAt('2028-01-31T10:01:00.000Z');
    await signInNow('ulrich');
    await Promise.all([t.app.billing.subscriptions.run(at), t.app.billing.subscriptions.run(at), t.app.billing.subscriptions.run(at)]);
    const renewed = await row(subscription.id);
    expect(renewed.status).toBe('active');
    expect(renewed.currentPeriodStart!.toISOString()).toBe('2028-01-31T10:00:00.000Z');
    expect(renewed.currentPeriodEnd!.toISOString()).toBe('2028-02-29T10:00:00.000Z');
    expect((await api('ulrich', 'GET', '/api/v1/subscription/my')).json().data).toMatchObject({ status: 'active', current_period_end: '2028-02-29T10:00:00.000Z' });
    const charges = (await chargesOf(subscription.id)).map((charge) => [charge.status, charge.periodStart.toISOString(), charge.periodEnd.toISOString()]);
    expect(charges.sort()).toEqual([
      ['completed', '2027-12-31T10:00:00.000Z', '2028-01-31T10:00:00.000Z'],
      ['completed', '2028-01-31T10:00:00.000Z', '2028-02-29T10:00:00.000Z'],
    ]);
    // 200 old tokens lapsed, 200 new ones credited: the balance is what it was.
    const after = await wallet('ulrich');
    expect(after).toEqual({ total_tokens: spendable, expires_at: '2028-02-29T10:00:00.000Z', expiring_tokens: 200 });
    const lapsed = await t.app.database.db.select().from(ledger).where(and(eq(ledger.userId, sellers.ulrich!.id), eq(ledger.type, 'expiry')));
    expect(lapsed.map((entry) => entry.amount)).toEqual([-200]);
    await expectBalanced('ulrich');
    const history = (await api('ulrich', 'GET', '/api/v1/tokens/history')).json().data as { type: string; amount: number; expires_at: string | null }[];
    const moves = history.filter((entry) => entry.type !== 'sign_up_bonus').map(({ type, amount, expires_at }) => ({ type, amount, expires_at }));
    expect(moves).toHaveLength(3);
    expect(moves).toEqual(
      expect.arrayContaining([
        { type: 'subscription', amount: 200, expires_at: '2028-01-31T10:00:00.000Z' },
        { type: 'subscription', amount: 200, expires_at: '2028-02-29T10:00:00.000Z' },
        { type: 'expiry', amount: -200, expires_at: null },
      ]),
    );
  });

  it('a refused renewal goes past_due, retries, and recovers when the method pays again', async () => {
    const { mandateId, subscription } = await subscribeLocal('vera', 2);
    const method = await methodOf(mandateId);
    await t.app.billing.sandbox!.setMethodDeclines(method, true);
    const end = new Date(subscription.current_period_end);
    await t.app.billing.subscriptions.run(new Date(end.getTime() + 1000));
    let current = await row(subscription.id);
    expect(current.status).toBe('past_due');
    expect(current.renewAt!.getTime()).toBe(end.getTime() + 1000 + DAY);
    expect((await api('vera', 'GET', '/api/v1/subscription/my')).json().data.status).toBe('past_due');
    // Before the retry is due nothing is charged again.
    await t.app.billing.subscriptions.run(new Date(end.getTime() + DAY / 2));
    expect(await chargesOf(subscription.id)).toHaveLength(2);
    await t.app.billing.sandbox!.setMethodDeclines(method, false);
    await t.app.billing.subscriptions.run(new Date(end.getTime() + DAY + 2000));
    current = await row(subscription.id);
    expect(current.status).toBe('active');
    expect(current.attempts).toBe(0);
    // The recovered period is the one owed: it starts at the old end.
    expect(current.currentPeriodStart!.toISOString()).toBe(end.toISOString());
    const charges = await chargesOf(subscription.id);
    expect(charges.map((charge) => charge.status).sort()).toEqual(['completed', 'completed', 'failed']);
    await expectBalanced('vera');
    await expectMail('vera', 'Не удалось продлить');
    await expectMail('vera', 'продлена');
  });

  it('refused renewals go past_due, then unpaid, then canceled, with a mail at each step', async () => {
    const { mandateId, subscription } = await subscribeLocal('wanda', 1);
    await t.app.billing.sandbox!.setMethodDeclines(await methodOf(mandateId), true);
    const end = new Date(subscription.current_period_end).getTime();
    const statuses: string[] = [];
    for (const at of [end + 1000, end + DAY + 2000, end + 3 * DAY + 3000, end + 7 * DAY + 4000]) {
      await t.app.billing.subscriptions.run(new Date(at));
      statuses.push((await row(subscription.id)).status);
    }
    expect(statuses).toEqual(['past_due', 'past_due', 'unpaid', 'canceled']);
    const charges = await chargesOf(subscription.id);
    expect(charges.filter((charge) => charge.status === 'failed')).toHaveLength(4);
    expect(charges.filter((charge) => charge.status === 'completed')).toHaveLength(1);
    // Nothing renews a canceled subscription; its period's tokens lapsed at the end.
    await t.app.billing.subscriptions.run(new Date(end + 40 * DAY));
    expect(await chargesOf(subscription.id)).toHaveLength(5);
    expect((await wallet('wanda')).expires_at).toBeNull();
    await expectBalanced('wanda');
    for (const words of ['Не удалось продлить', 'не оплачена', 'закончилась']) await expectMail('wanda', words);
    expect((await api('wanda', 'GET', '/api/v1/subscription/my')).json().data.status).toBe('canceled');
  });

  it('cancels at the period end: cancel_at set, no renewal, then canceled and its tokens lapse', async () => {
    const { subscription } = await subscribeLocal('xenia', 1);
    const cancelled = await api('xenia', 'POST', `/api/v1/localpay/subscriptions/${subscription.id}/cancel`);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json().data).toMatchObject({ status: 'active', cancel_at: subscription.current_period_end });
    // Upgrading a subscription that is ending is refused.
    const upgrade = await api('xenia', 'POST', '/api/v1/subscription/update', { plan_id: 2 });
    expect(upgrade.statusCode).toBe(409);
    expect(upgrade.json().error).toBe('UPGRADE_NOT_ALLOWED');
    const before = (await wallet('xenia')).total_tokens;
    await t.app.billing.subscriptions.run(new Date(new Date(subscription.current_period_end).getTime() + 1000));
    expect((await row(subscription.id)).status).toBe('canceled');
    expect(await chargesOf(subscription.id)).toHaveLength(1);
    expect((await wallet('xenia')).total_tokens).toBe(before - 200);
    await expectBalanced('xenia');
    // Once ended, a new subscription may start.
    const again = await subscribeLocal('xenia', 1);
    expect(again.subscription.status).toBe('active');
  });

  it('upgrades mid-period: the new period starts now with its tokens; the old tokens keep their date; plan 4 stops there', async () => {
    const { subscription } = await subscribeLocal('yakov', 1);
    const oldEnd = subscription.current_period_end;
    const before = (await wallet('yakov')).total_tokens;
    const upgraded = await api('yakov', 'PUT', `/api/v1/localpay/subscriptions/${subscription.id}`, { plan_id: 3 });
    expect(upgraded.statusCode, upgraded.body).toBe(200);
    expect(upgraded.json().data).toMatchObject({ status: 'active', plan: { id: 3 } });
    const after = await wallet('yakov');
    expect(after.total_tokens).toBe(before + 2000);
    // The soonest lapse is still the old period's end, for its 200 tokens.
    expect(after.expires_at).toBe(oldEnd);
    expect(after.expiring_tokens).toBe(200);
    // A lower plan is refused; the same plan is refused.
    expect((await api('yakov', 'POST', '/api/v1/subscription/update', { plan_id: 2 })).json().error).toBe('PLAN_NOT_HIGHER');
    expect((await api('yakov', 'POST', '/api/v1/subscription/update', { plan_id: 3 })).json().error).toBe('ALREADY_SUBSCRIBED');
    const top = await api('yakov', 'POST', '/api/v1/subscription/update', { plan_id: 4 });
    expect(top.statusCode).toBe(200);
    const refused = await api('yakov', 'POST', '/api/v1/subscription/update', { plan_id: 4 });
    expect(refused.json().error).toBe('UPGRADE_NOT_ALLOWED');
    // Each upgrade credited once; at the old end only the old tokens lapse.
    const credits = await t.app.database.db.select().from(ledger).where(and(eq(ledger.userId, sellers.yakov!.id), eq(ledger.type, 'subscription')));
    expect(credits.map((entry) => entry.amount).sort((a, b) => a - b)).toEqual([200, 2000, 6000]);
    // The new periods began after the old one did, so they end after it too.
    await t.app.billing.subscriptions.run(new Date(oldEnd));
    expect((await wallet('yakov')).total_tokens).toBe(before + 7800);
    await expectBalanced('yakov');
  });

  it('a revoked mandate stops renewals and says so', async () => {
    const { mandateId, subscription } = await subscribeLocal('arkady', 1);
    expect(await t.app.billing.sandbox!.revokeMethod(await methodOf(mandateId))).toBe(true);
    await t.app.billing.sandbox!.idle();
    const revoked = await row(subscription.id);
    expect(revoked.status).toBe('revoked');
    expect(revoked.cancelAt!.toISOString()).toBe(subscription.current_period_end);
    const [mandate] = (await api('arkady', 'GET', `/api/v1/localpay/mandates?mandate_id=${mandateId}`)).json().data;
    expect(mandate.status).toBe('revoked');
    await t.app.billing.subscriptions.run(new Date(new Date(subscription.current_period_end).getTime() + 1000));
    expect(await chargesOf(subscription.id)).toHaveLength(1);
    await expectMail('arkady', 'отключены');
  });

  it('refuses forged notifications and applies a replayed one once', async () => {
    const { mandateId, subscription } = await subscribeLocal('heidi', 1);
    await t.app.billing.sandbox!.idle();
    const methodId = await methodOf(mandateId);
    const checkout = (await t.app.billing.sandbox!.find((await t.app.database.db.select().from(mandates).where(eq(mandates.id, mandateId)))[0]!.providerMandateId!))!;
    // The seller withdrew the method in their bank: the sandbox's notification says which method.
    const event = {
      id: `evt_sbx_${crypto.randomUUID().replaceAll('-', '')}`,
      type: 'method.revoked',
      created: Math.floor(Date.now() / 1000),
      data: { checkout_id: checkout.id, payment_id: checkout.paymentId, amount_minor: checkout.amountMinor, currency: checkout.currency, method_id: methodId },
    };
    const genuine = signedSandboxNotification(t, event);
    const forgeries = {
      'a changed signature': withForgedSignature(genuine),
      'another method in a signed body': { ...genuine, body: genuine.body.replace(methodId, `${methodId.slice(0, -1)}x`) },
      'a signature an hour old': signedSandboxNotification(t, event, Math.floor(Date.now() / 1000) - 3600),
      'no signature': { body: genuine.body, headers: { 'content-type': 'application/json' } },
    };
    for (const [what, forged] of Object.entries(forgeries)) {
      const answer = await postToSandboxWebhook(t, forged);
      expect(answer.statusCode, what).toBe(400);
      expect(answer.json().error, what).toBe('NOTIFICATION_REJECTED');
    }
    const standing = async () => ({
      mandate: (await api('heidi', 'GET', `/api/v1/localpay/mandates?mandate_id=${mandateId}`)).json().data[0].status as string,
      subscription: (await api('heidi', 'GET', '/api/v1/subscription/my')).json().data as { status: string; cancel_at: string | null },
    });
    expect(await standing()).toMatchObject({ mandate: 'active', subscription: { status: 'active', cancel_at: null } });

    // The genuine notification revokes the mandate and stops the subscription at its period's end.
    const applied = await postToSandboxWebhook(t, genuine);
    expect(applied.statusCode, applied.body).toBe(200);
    expect(applied.json().data.changed).toBe(1);
    const revoked = { mandate: 'revoked', subscription: { status: 'revoked', cancel_at: subscription.current_period_end } };
    expect(await standing()).toMatchObject(revoked);
    // Delivered again (providers repeat themselves): accepted, and nothing more changes.
    const replayed = await postToSandboxWebhook(t, genuine);
    expect(replayed.statusCode, replayed.body).toBe(200);
    expect(replayed.json().data.changed).toBe(0);
    expect(await standing()).toMatchObject(revoked);
    expect(await chargesOf(subscription.id)).toHaveLength(1);
    await expectBalanced('heidi');
  });
});

describe('the card provider (the sandbox when no card provider is configured)', () => {
  it('subscribes through its page: open until paid, then complete and active with the plan’s tokens', async () => {
    const before = (await wallet('timur')).total_tokens;
    const created = await api('timur', 'POST', '/api/v1/subscription/create', { plan_id: 2, interval: 'year' });
    expect(created.statusCode, created.body).toBe(200);
    const { redirect_url, session_id } = created.json().data as { redirect_url: string; session_id: string };
    expect((await api('timur', 'GET', `/api/v1/subscription/checkout-session/${session_id}`)).json().data.status).toBe('open');
    expect((await api('sonya', 'GET', `/api/v1/subscription/checkout-session/${session_id}`)).statusCode).toBe(404);
    const page = new URL(redirect_url).pathname;
    const shown = await t.app.inject({ method: 'GET', url: page });
    expect(shown.body).toContain('name="number"');
    const paid = await t.app.inject({
      method: 'POST',
      url: `${page}/pay`,
      payload: new URLSearchParams({ number: '4242 4242 4242 4242', expiry: '12/34', cvc: '123', holder: 'T' }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(paid.headers.location).toBe(`http://shop.test/subscription/success?session_id=${session_id}`);
    await t.app.billing.sandbox!.idle();
    const session = (await api('timur', 'GET', `/api/v1/subscription/checkout-session/${session_id}`)).json().data;
    expect(session).toMatchObject({ status: 'complete', subscription: { status: 'active', provider: 'card', plan: { id: 2, interval: 'year', tokens: 7200 } } });
    expect((await wallet('timur')).total_tokens).toBe(before + 7200);
    const end = new Date(session.subscription.current_period_end);
    expect(end.getTime() - new Date(session.subscription.created_at).getTime()).toBeGreaterThan(360 * DAY);
    // Cancel through the subscription API: at the period end.
    const cancelled = await api('timur', 'POST', '/api/v1/subscription/cancel');
    expect(cancelled.json().data.cancel_at).toBe(session.subscription.current_period_end);
    await expectBalanced('timur');
  });
});

describe('periods by the calendar (the clock stopped on the day)', () => {
  const starts = [
    { what: 'a month from 31 January ends on 28 February', seller: 'carla', interval: 'month', tokens: 200, start: '2027-01-31T10:00:00.000Z', end: '2027-02-28T10:00:00.000Z' },
    { what: 'a month from 31 January of a leap year ends on 29 February', seller: 'dora', interval: 'month', tokens: 200, start: '2028-01-31T10:00:00.000Z', end: '2028-02-29T10:00:00.000Z' },
    { what: 'a year over a 29 February ends on the same day a year on (366 days)', seller: 'emil', interval: 'year', tokens: 2400, start: '2027-03-01T00:00:00.000Z', end: '2028-03-01T00:00:00.000Z' },
  ];
  for (const { what, seller, interval, tokens, start, end } of starts) {
    it(what, async () => {
      stopClockAt(start);
      await signInNow(seller);
      const { subscription } = await subscribeLocal(seller, 1, interval);
      expect(subscription.current_period_end).toBe(end);
      const charges = (await chargesOf(subscription.id)).map((charge) => [charge.periodStart.toISOString(), charge.periodEnd.toISOString(), charge.tokens]);
      expect(charges).toEqual([[start, end, tokens]]);
      expect(await wallet(seller)).toMatchObject({ expires_at: end, expiring_tokens: tokens });
    });
  }

  it('an upgrade on 15 February starts a month of its own then; the tokens of the month from 31 January still lapse on 28 February', async () => {
    stopClockAt('2027-01-31T10:00:00.000Z');
    await signInNow('fanny');
    const { subscription } = await subscribeLocal('fanny', 1);
    const before = (await wallet('fanny')).total_tokens;
    stopClockAt('2027-02-15T08:30:00.000Z');
    await signInNow('fanny');
    const upgraded = await api('fanny', 'PUT', `/api/v1/localpay/subscriptions/${subscription.id}`, { plan_id: 2 });
    expect(upgraded.statusCode, upgraded.body).toBe(200);
    expect(upgraded.json().data).toMatchObject({ plan: { id: 2 }, current_period_end: '2027-03-15T08:30:00.000Z' });
    expect((await row(subscription.id)).currentPeriodStart!.toISOString()).toBe('2027-02-15T08:30:00.000Z');
    const charges = (await chargesOf(subscription.id)).map((charge) => [charge.planId, charge.periodStart.toISOString(), charge.periodEnd.toISOString()]);
    expect(charges.sort()).toEqual([
      [1, '2027-01-31T10:00:00.000Z', '2027-02-28T10:00:00.000Z'],
      [2, '2027-02-15T08:30:00.000Z', '2027-03-15T08:30:00.000Z'],
    ]);
    expect(await wallet('fanny')).toEqual({ total_tokens: before + 600, expires_at: '2027-02-28T10:00:00.000Z', expiring_tokens: 200 });
    await expectBalanced('fanny');
  });

  it('a year bought through the card provider’s page on 29 February ends on 28 February', async () => {
    stopClockAt('2028-02-29T10:00:00.000Z');
    await signInNow('gustav');
    const created = await api('gustav', 'POST', '/api/v1/subscription/create', { plan_id: 2, interval: 'year' });
    expect(created.statusCode, created.body).toBe(200);
    const { redirect_url, session_id } = created.json().data as { redirect_url: string; session_id: string };
    const paid = await t.app.inject({
      method: 'POST',
      url: `${new URL(redirect_url).pathname}/pay`,
      payload: new URLSearchParams({ number: '4242 4242 4242 4242', expiry: '12/34', cvc: '123', holder: 'G' }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(paid.statusCode).toBe(303);
    const session = (await api('gustav', 'GET', `/api/v1/subscription/checkout-session/${session_id}`)).json().data;
    expect(session).toMatchObject({ status: 'complete', subscription: { status: 'active', plan: { id: 2, interval: 'year' }, current_period_end: '2029-02-28T10:00:00.000Z' } });
    expect(await wallet('gustav')).toMatchObject({ expires_at: '2029-02-28T10:00:00.000Z', expiring_tokens: 7200 });
  });
});

describe('the ledger under a charge racing a renewal and an expiry', () => {
  it('renews once, lapses only the old period’s tokens, records each charge that went through once, and keeps balance = ledger sum = lots', async () => {
    const { subscription } = await subscribeLocal('bogdana', 1);
    const userId = sellers.bogdana!.id;
    const db = t.app.database.db;
    const start = (await wallet('bogdana')).total_tokens;
    /** Charges a task of `cost` as task submission does; answers whether it went through. */
    const charge = async (cost: number): Promise<boolean> => {
      try {
        const result = await db.execute(sql`WITH task AS (SELECT gen_random_uuid() AS id WHERE EXISTS (SELECT 1 FROM wallets WHERE user_id = ${userId} AND total_tokens >= ${cost})),
          ${t.app.ledger.chargeTaskCtes(userId, cost)} SELECT count(*)::int AS charged FROM task`);
        return (result as unknown as { rows: { charged: number }[] }).rows[0]!.charged === 1;
      } catch (error) {
        // Two charges that both saw enough: the wallet's check refuses the one that would go below zero.
        if (!String((error as { cause?: unknown }).cause ?? error).includes('wallets_total_tokens_nonnegative') && !String(error).includes('wallets_total_tokens_nonnegative')) throw error;
        return false;
      }
    };
    const costs = Array.from({ length: 12 }, (_, index) => 7 + index);
    const at = new Date(new Date(subscription.current_period_end).getTime() + 1000);
    const [, charged] = await Promise.all([
      t.app.billing.subscriptions.run(at),
      Promise.all(costs.map(async (cost) => ((await charge(cost)) ? [cost] : []))).then((results) => results.flat()),
      t.app.billing.subscriptions.run(at),
    ]);
    // The first charge to run finds the sign-up bonus at least, which never lapses.
    expect(charged.length).toBeGreaterThan(0);
    // Renewed once: the period that ended was paid and the one owed from its end, each credited once.
    const charges = await chargesOf(subscription.id);
    expect(charges.map((entry) => entry.status)).toEqual(['completed', 'completed']);
    expect(charges.map((entry) => entry.periodStart.toISOString())).toContain(subscription.current_period_end);
    expect((await row(subscription.id)).currentPeriodStart!.toISOString()).toBe(subscription.current_period_end);
    const entries = await db.select().from(ledger).where(eq(ledger.userId, userId));
    const ofType = (type: string) => entries.filter((entry) => entry.type === type);
    expect(ofType('subscription').map((entry) => entry.amount)).toEqual([200, 200]);
    // Every charge that went through is in the ledger once, and no other.
    const sorted = (amounts: number[]) => [...amounts].sort((a, b) => a - b);
    expect(sorted(ofType('content_generation').map((entry) => entry.amount))).toEqual(sorted(charged.map((cost) => -cost)));
    // The old period's lot is empty: what the charges did not spend lapsed, once. The new one lapsed nothing.
    const lots = await db.select().from(tokenLots).where(eq(tokenLots.userId, userId));
    const old = lots.find((lot) => lot.expiresAt?.toISOString() === subscription.current_period_end)!;
    expect(old).toMatchObject({ amount: 200, remaining: 0 });
    expect(lots.filter((lot) => lot.expiresAt && lot.expiresAt > at).map((lot) => lot.amount)).toEqual([200]);
    expect(ofType('expiry').map((entry) => entry.reference)).toEqual([`lot:${old.id}`]);
    const lapsed = -ofType('expiry')[0]!.amount;
    expect(lapsed).toBeLessThanOrEqual(200);
    const spent = charged.reduce((sum, cost) => sum + cost, 0);
    expect((await wallet('bogdana')).total_tokens).toBe(start + 200 - lapsed - spent);
    expect(lots.every((lot) => lot.remaining >= 0 && lot.remaining <= lot.amount)).toBe(true);
    await expectBalanced('bogdana');
  });
});
