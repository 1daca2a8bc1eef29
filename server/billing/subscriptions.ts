// Subscriptions (DESIGN §4 Billing): one model, billed two ways. A mandate provider (the sandbox,
// YooKassa) saves a payment method the seller authorises, and our job charges it at each period's
// end, retrying over a week (past_due → unpaid → canceled). A provider that bills subscriptions
// itself (Stripe) renews on its own and we follow its notifications. Either way a paid period is a
// charge, credited once with tokens that lapse at the period's end; every step is a row with a
// named status, and the time is a parameter, so tests move through periods without waiting.
import { setImmediate as yieldToRequests } from 'node:timers/promises';
import { and, desc, eq, inArray, isNull, lte, notInArray, or, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/client';
import { customers, mandates, subscriptionCharges, subscriptionEvents, subscriptions } from '../db/schema';
import { HttpError } from '../lib/errors';
import type { Ledger } from '../ledger/ledger';
import {
  TOP_PLAN_ID,
  chargeMinor,
  type ClientProvider,
  type Customer,
  type LocalMethod,
  type Plan,
  type PlanInterval,
  type SubscriptionStatus,
} from '../../contract/billing';
import type { Locale } from '../../contract/locales';
import { planOf, type PlanEntry, type PriceList } from './prices';
import {
  ProviderRefused,
  ProviderUnavailable,
  type MandateEvent,
  type PaymentProvider,
  type ProviderName,
  type ProviderSubscriptionEvent,
  type RemoteCharge,
  type RemoteMandate,
} from './provider';

export type SubscriptionRow = typeof subscriptions.$inferSelect;
export type MandateRow = typeof mandates.$inferSelect;
export type ChargeRow = typeof subscriptionCharges.$inferSelect;

/** What the seller is told by mail, at each step of a subscription's life. */
export type SubscriptionMailKind = 'activated' | 'renewed' | 'payment_failed' | 'unpaid' | 'canceled' | 'revoked' | 'upgraded';
export interface SubscriptionMail {
  kind: SubscriptionMailKind;
  planName: (locale: Locale) => string;
  /** The period's end, the next attempt or the end of the plan, as the kind needs. */
  date: Date | null;
}

/** After a refused renewal, the next attempts: a day later, then two more (past_due), then four (unpaid). */
export const RETRY_AFTER_MS = [1, 2, 4].map((days) => days * 24 * 60 * 60_000);
/** A renewal claimed by a node that died is tried again after this long. */
const RENEW_LEASE_MS = 10 * 60_000;
/** How long after its creation a pending mandate or charge is first asked about, then between asks (growing). */
const FIRST_CHECK_MS = 2 * 60_000;
const LONGEST_CHECK_MS = 6 * 60 * 60_000;
/** A mandate nobody authorised within a day is given up. */
const MANDATE_GIVE_UP_MS = 24 * 60 * 60_000;
const STATUS_ASK_MS = 5_000;
/** Subscriptions renewed per batch of the job. */
const RENEW_BATCH = 200;

const LIVE: SubscriptionStatus[] = ['active', 'past_due', 'unpaid'];

export interface SubscriptionsOptions {
  db: Database;
  ledger: Ledger;
  log: FastifyBaseLogger;
  prices: PriceList;
  providers: Record<ClientProvider, PaymentProvider>;
  publicUrl: string;
  walletChanged(userId: string): void;
  /** Tells the seller by mail (sent later; a failure to send loses nothing). */
  mail(userId: string, mail: SubscriptionMail): void;
  now?: () => Date;
}

export type Subscriptions = ReturnType<typeof createSubscriptions>;

/** The end of a period of `interval` starting at `start` (the same day of the next month or year, clamped). */
export function periodEnd(start: Date, interval: PlanInterval): Date {
  const end = new Date(start);
  const day = end.getUTCDate();
  end.setUTCDate(1);
  if (interval === 'month') end.setUTCMonth(end.getUTCMonth() + 1);
  else end.setUTCFullYear(end.getUTCFullYear() + 1);
  const last = new Date(Date.UTC(end.getUTCFullYear(), end.getUTCMonth() + 1, 0)).getUTCDate();
  end.setUTCDate(Math.min(day, last));
  return end;
}

const isUniqueViolation = (error: unknown): boolean => {
  for (let cause: unknown = error; cause && typeof cause === 'object'; cause = (cause as { cause?: unknown }).cause) {
    if ((cause as { code?: string }).code === '23505') return true;
  }
  return false;
};

export function createSubscriptions(options: SubscriptionsOptions) {
  const { db, ledger, log, prices, providers } = options;
  const now = options.now ?? (() => new Date());
  const lastAsked = new Map<string, number>();

  const providerNamed = (name: string): PaymentProvider | undefined => Object.values(providers).find((provider) => provider.name === name);
  const entryOf = (planId: number): PlanEntry | undefined => prices.plans.find((plan) => plan.id === planId);
  const planEntry = (planId: number): PlanEntry => {
    const entry = entryOf(planId);
    if (!entry) throw new HttpError(400, 'UNKNOWN_PLAN', 'UNKNOWN_PLAN');
    return entry;
  };
  const currencyOf = (client: ClientProvider) => (client === 'card' ? 'USD' : 'RUB');
  const priceMinor = (entry: PlanEntry, interval: PlanInterval, client: ClientProvider) => {
    const currency = currencyOf(client);
    return chargeMinor(interval === 'month' ? entry.usd_month : entry.usd_year, currency === 'USD' ? 1 : prices.rub_per_usd, currency);
  };
  const tokensOf = (entry: PlanEntry, interval: PlanInterval) => (interval === 'month' ? entry.tokens_month : entry.tokens_year);
  const intervalOf = (row: SubscriptionRow): PlanInterval => (row.interval === 'year' ? 'year' : 'month');
  const nameOf = (planId: number) => (locale: Locale) => {
    const entry = entryOf(planId);
    return entry ? planOf(entry, 'month', locale).name : `#${planId}`;
  };
  const mandateBilling = (client: ClientProvider) => providers[client].mandates;

  const refusedByProvider = (error: unknown): never => {
    if (error instanceof ProviderUnavailable) {
      log.warn({ err: error }, 'the payment provider is unavailable');
      throw new HttpError(503, 'PAYMENT_UNAVAILABLE', 'PAYMENT_UNAVAILABLE');
    }
    if (error instanceof ProviderRefused) {
      log.error({ err: error }, 'the payment provider refused a request');
      throw new HttpError(502, 'PAYMENT_REFUSED', 'PAYMENT_REFUSED');
    }
    throw error;
  };

  const findSubscription = async (id: string, tx: Database = db) => (await tx.select().from(subscriptions).where(eq(subscriptions.id, id)))[0];
  const liveOf = async (userId: string, tx: Database = db) =>
    (
      await tx
        .select()
        .from(subscriptions)
        .where(and(eq(subscriptions.userId, userId), inArray(subscriptions.status, ['pending', ...LIVE])))
        .orderBy(desc(subscriptions.createdAt))
    ).find((row) => row.status !== 'pending');

  /** Records a provider's event once; false when it was already recorded. */
  const recordEvent = async (tx: Database, provider: string, eventId: string, kind: string) =>
    (await tx.insert(subscriptionEvents).values({ provider, eventId, kind }).onConflictDoNothing().returning()).length > 0;

  /**
   * A period paid: the charge completed (with the provider's id of the payment), the subscription
   * moved on to the period (and plan) it paid for unless it already has a later one (an upgrade
   * always moves it), and its tokens credited to lapse at the period's end — in one statement, so
   * once per charge and one round trip however many renewals run.
   */
  const completeCharge = async (charge: ChargeRow, at: Date, kind: 'first' | 'renewal' | 'upgrade', providerPaymentId: string | null): Promise<boolean> => {
    const stamp = at.toISOString();
    const newer = sql.raw(`(s.current_period_end IS NULL OR paid.period_end >= s.current_period_end OR ${kind === 'upgrade' ? 'true' : 'false'})`);
    const result = await db.execute(sql`
      WITH paid AS (
        UPDATE subscription_charges
        SET status = 'completed', settled_at = ${stamp}::timestamptz, failure_reason = NULL,
            provider_payment_id = coalesce(${providerPaymentId}, provider_payment_id)
        WHERE id = ${charge.id} AND status = 'pending'
        RETURNING id, subscription_id, user_id, plan_id, interval, period_start, period_end, tokens
      ), moved AS (
        UPDATE subscriptions s SET
          status = CASE WHEN s.cancel_at IS NOT NULL AND s.cancel_at <= ${stamp}::timestamptz THEN s.status ELSE 'active' END,
          plan_id = CASE WHEN ${newer} THEN paid.plan_id ELSE s.plan_id END,
          interval = CASE WHEN ${newer} THEN paid.interval ELSE s.interval END,
          current_period_start = CASE WHEN ${newer} THEN paid.period_start ELSE s.current_period_start END,
          current_period_end = CASE WHEN ${newer} THEN paid.period_end ELSE s.current_period_end END,
          renew_at = CASE WHEN ${newer} THEN paid.period_end ELSE s.renew_at END,
          attempts = 0,
          updated_at = ${stamp}::timestamptz
        FROM paid WHERE s.id = paid.subscription_id
        RETURNING s.id
      ), ${ledger.creditPeriodCtes()}
      SELECT paid.id FROM paid`);
    if ((result as unknown as { rows: unknown[] }).rows.length === 0) return false;
    options.walletChanged(charge.userId);
    options.mail(charge.userId, { kind: kind === 'first' ? 'activated' : kind === 'upgrade' ? 'upgraded' : 'renewed', planName: nameOf(charge.planId), date: charge.periodEnd });
    return true;
  };

  /** A charge the provider refused: the subscription retries later, or ends, as its step says. */
  const failCharge = async (charge: ChargeRow, at: Date, kind: 'first' | 'renewal' | 'upgrade', revoked: boolean): Promise<void> => {
    const ended = await db.transaction(async (tx) => {
      const [failed] = await tx
        .update(subscriptionCharges)
        .set({ status: 'failed', settledAt: at, failureReason: revoked ? 'revoked' : 'declined' })
        .where(and(eq(subscriptionCharges.id, charge.id), eq(subscriptionCharges.status, 'pending')))
        .returning();
      if (!failed) return null;
      const [sub] = await tx.select().from(subscriptions).where(eq(subscriptions.id, charge.subscriptionId)).for('update');
      if (!sub) return null;
      if (kind === 'upgrade') return null;
      if (kind === 'first') {
        await tx.update(subscriptions).set({ status: 'failed', endedAt: at, renewAt: null, updatedAt: at }).where(eq(subscriptions.id, sub.id));
        return null;
      }
      if (revoked) {
        await tx.update(subscriptions).set({ status: 'revoked', endedAt: at, renewAt: null, updatedAt: at }).where(eq(subscriptions.id, sub.id));
        return { sub, mail: { kind: 'revoked', date: sub.currentPeriodEnd } as const };
      }
      const attempts = sub.attempts + 1;
      if (sub.status === 'unpaid' || attempts > RETRY_AFTER_MS.length) {
        await tx.update(subscriptions).set({ status: 'canceled', attempts, endedAt: at, renewAt: null, updatedAt: at }).where(eq(subscriptions.id, sub.id));
        return { sub, mail: { kind: 'canceled', date: at } as const };
      }
      const next = new Date(at.getTime() + RETRY_AFTER_MS[attempts - 1]!);
      const status = attempts === RETRY_AFTER_MS.length ? 'unpaid' : 'past_due';
      await tx.update(subscriptions).set({ status, attempts, renewAt: next, updatedAt: at }).where(eq(subscriptions.id, sub.id));
      return { sub, mail: { kind: status === 'unpaid' ? 'unpaid' : 'payment_failed', date: next } as const };
    });
    if (ended) options.mail(charge.userId, { ...ended.mail, planName: nameOf(ended.sub.planId) });
  };

  const settleCharge = async (charge: ChargeRow, remote: RemoteCharge, at: Date, kind: 'first' | 'renewal' | 'upgrade') => {
    if (remote.state.status === 'succeeded') {
      if (remote.state.amountMinor !== charge.amountMinor || remote.state.currency.toUpperCase() !== charge.currency) {
        log.error({ chargeId: charge.id, remote }, 'a subscription charge was paid with another amount: not credited');
        return;
      }
      await completeCharge(charge, at, kind, remote.providerPaymentId);
    } else if (remote.state.status === 'failed') await failCharge(charge, at, kind, remote.revoked);
  };

  /**
   * Charges a mandate for one period of a subscription, once per period: a repeat finds the
   * charge already made and only settles it. Answers the charge as it stands.
   */
  const chargeMandate = async (
    sub: SubscriptionRow,
    period: { start: Date; planId: number; interval: PlanInterval },
    kind: 'first' | 'renewal' | 'upgrade',
    at: Date,
    /** The subscription's mandate when the caller has read it already (the renewal job reads a batch's at once). */
    known?: MandateRow,
  ): Promise<ChargeRow> => {
    const entry = planEntry(period.planId);
    const client = sub.client as ClientProvider;
    const billing = mandateBilling(client);
    const [mandate] = known ? [known] : sub.mandateId ? await db.select().from(mandates).where(eq(mandates.id, sub.mandateId)) : [];
    if (!billing || !mandate?.providerMethodId) throw new Error(`subscription ${sub.id} has no mandate to charge`);
    const currency = currencyOf(client);
    const values = {
      subscriptionId: sub.id,
      userId: sub.userId,
      planId: entry.id,
      interval: period.interval,
      periodStart: period.start,
      periodEnd: periodEnd(period.start, period.interval),
      tokens: tokensOf(entry, period.interval),
      amountMinor: priceMinor(entry, period.interval, client),
      currency,
    };
    const [inserted] = await db.insert(subscriptionCharges).values(values).onConflictDoNothing().returning();
    const charge =
      inserted ??
      (
        await db
          .select()
          .from(subscriptionCharges)
          .where(and(eq(subscriptionCharges.subscriptionId, sub.id), eq(subscriptionCharges.periodStart, period.start), sql`${subscriptionCharges.status} <> 'failed'`))
      )[0];
    if (!charge) throw new Error(`the charge of subscription ${sub.id} was not stored`);
    if (charge.status !== 'pending') return charge;
    let remote: RemoteCharge;
    try {
      remote = await billing.charge({
        chargeId: charge.id,
        providerMethodId: mandate.providerMethodId,
        amountMinor: charge.amountMinor,
        currency,
        description: `SoleStudio: ${planOf(entry, period.interval, 'en').name}, ${period.interval === 'month' ? 'monthly' : 'yearly'}`,
      });
    } catch (error) {
      if (error instanceof ProviderRefused) {
        // The provider refused the request itself (the method is no longer saved, say): asking
        // again under the same key would only repeat the refusal, so the charge is declined.
        log.warn({ err: error, chargeId: charge.id }, 'the provider refused a charge of a mandate');
        await failCharge(charge, at, kind, false);
        return (await db.select().from(subscriptionCharges).where(eq(subscriptionCharges.id, charge.id)))[0]!;
      }
      // Unknown whether it went through: the charge stays pending and is asked about later.
      log.warn({ err: error, chargeId: charge.id }, 'charging a mandate failed; the charge is asked about later');
      return charge;
    }
    const paid = remote.state.status === 'succeeded' && remote.state.amountMinor === charge.amountMinor && remote.state.currency.toUpperCase() === charge.currency;
    // The usual answer, paid in full, completes the charge in the same statement that keeps the provider's id.
    if (paid && (await completeCharge(charge, at, kind, remote.providerPaymentId))) {
      return { ...charge, status: 'completed', settledAt: at, failureReason: null, providerPaymentId: remote.providerPaymentId };
    }
    await db.update(subscriptionCharges).set({ providerPaymentId: remote.providerPaymentId }).where(eq(subscriptionCharges.id, charge.id));
    await settleCharge({ ...charge, providerPaymentId: remote.providerPaymentId }, remote, at, kind);
    return (await db.select().from(subscriptionCharges).where(eq(subscriptionCharges.id, charge.id)))[0]!;
  };

  const kindOf = (charge: ChargeRow, sub: SubscriptionRow): 'first' | 'renewal' | 'upgrade' => {
    if (!sub.currentPeriodStart) return 'first';
    return charge.planId !== sub.planId && charge.periodStart > sub.currentPeriodStart ? 'upgrade' : 'renewal';
  };

  /** A mandate as the provider now has it: its status saved, and what depends on it moved on. */
  const applyMandate = async (reported: RemoteMandate, at: Date): Promise<boolean> => {
    const [mandate] = await db
      .select()
      .from(mandates)
      .where(reported.mandateId ? eq(mandates.id, reported.mandateId) : eq(mandates.providerMandateId, reported.providerMandateId));
    if (!mandate || (mandate.providerMandateId && mandate.providerMandateId !== reported.providerMandateId)) return false;
    // Authorised and withdrawn before we ever heard of it: it never served, so it failed.
    const remote: RemoteMandate = mandate.status === 'pending' && reported.status === 'revoked' ? { ...reported, status: 'failed', reason: reported.reason ?? 'canceled' } : reported;
    if (remote.status === mandate.status || remote.status === 'pending') return false;
    // A mandate only moves forward: pending → active or failed; active → revoked.
    const allowed = (mandate.status === 'pending' && remote.status !== 'revoked') || (mandate.status === 'active' && remote.status === 'revoked');
    if (!allowed) return false;
    const [updated] = await db
      .update(mandates)
      .set({ status: remote.status, providerMethodId: remote.providerMethodId ?? mandate.providerMethodId, failureReason: remote.reason ?? null, updatedAt: at })
      .where(and(eq(mandates.id, mandate.id), eq(mandates.status, mandate.status)))
      .returning();
    if (!updated) return false;
    if (updated.status === 'revoked') await mandateRevoked(updated, at);
    // A card checkout made through a mandate (the sandbox) goes on by itself once authorised.
    const [waiting] = await db
      .select()
      .from(subscriptions)
      .where(and(eq(subscriptions.mandateId, updated.id), eq(subscriptions.status, 'pending')));
    if (waiting) {
      if (updated.status === 'active') await chargeMandate(waiting, { start: at, planId: waiting.planId, interval: intervalOf(waiting) }, 'first', at);
      else await db.update(subscriptions).set({ status: 'failed', endedAt: at, updatedAt: at }).where(eq(subscriptions.id, waiting.id));
    }
    return true;
  };

  /** The seller withdrew a mandate: the subscriptions it paid for stop renewing and say so. */
  const mandateRevoked = async (mandate: MandateRow, at: Date) => {
    const stopped = await db
      .update(subscriptions)
      .set({ status: 'revoked', renewAt: null, cancelAt: sql`coalesce(${subscriptions.cancelAt}, ${subscriptions.currentPeriodEnd})`, updatedAt: at })
      .where(and(eq(subscriptions.mandateId, mandate.id), inArray(subscriptions.status, LIVE)))
      .returning();
    for (const sub of stopped) options.mail(sub.userId, { kind: 'revoked', planName: nameOf(sub.planId), date: sub.currentPeriodEnd });
  };

  const askMandate = async (mandate: MandateRow, at: Date): Promise<MandateRow> => {
    const billing = mandateBilling(mandate.client as ClientProvider);
    if (!billing || !mandate.providerMandateId || providerNamed(mandate.provider)?.mandates !== billing) return mandate;
    await applyMandate(await billing.retrieveMandate(mandate.providerMandateId), at);
    return (await db.select().from(mandates).where(eq(mandates.id, mandate.id)))[0] ?? mandate;
  };

  /** Asks the provider about a pending mandate at most every few seconds (a seller back from its page). */
  const fresh = async (mandate: MandateRow): Promise<MandateRow> => {
    if (mandate.status !== 'pending') return mandate;
    const at = now().getTime();
    if (at - (lastAsked.get(mandate.id) ?? 0) < STATUS_ASK_MS) return mandate;
    lastAsked.set(mandate.id, at);
    if (lastAsked.size > 10_000) lastAsked.clear();
    try {
      return await askMandate(mandate, now());
    } catch (error) {
      log.warn({ err: error, mandateId: mandate.id }, 'asking the provider about a mandate failed');
      return mandate;
    }
  };

  /** A subscription the card provider bills, moved on by what it says (once per event, in any order). */
  const applyProviderEvent = async (providerName: ProviderName, event: ProviderSubscriptionEvent, at: Date): Promise<boolean> => {
    const byProvider = 'providerSubscriptionId' in event ? event.providerSubscriptionId : null;
    const [sub] = await db
      .select()
      .from(subscriptions)
      .where(
        and(
          eq(subscriptions.provider, providerName),
          or(
            event.subscriptionId ? eq(subscriptions.id, event.subscriptionId) : sql`false`,
            byProvider ? eq(subscriptions.providerSubscriptionId, byProvider) : sql`false`,
            event.kind === 'checkout_completed' ? eq(subscriptions.providerCheckoutId, event.checkoutId) : sql`false`,
          ),
        ),
      );
    if (!sub) {
      log.warn({ provider: providerName, event: event.kind }, 'a subscription notification names no subscription of ours: ignored');
      return false;
    }
    const changed = await db.transaction(async (tx) => {
      if (!(await recordEvent(tx, providerName, event.eventId, event.kind))) return 'replayed' as const;
      const [locked] = await tx.select().from(subscriptions).where(eq(subscriptions.id, sub.id)).for('update');
      if (!locked) return null;
      const link = byProvider && !locked.providerSubscriptionId ? { providerSubscriptionId: byProvider } : {};
      switch (event.kind) {
        case 'checkout_completed':
          await tx.update(subscriptions).set({ ...link, updatedAt: at }).where(eq(subscriptions.id, locked.id));
          return null;
        case 'period_paid': {
          const entry = entryOf(event.planId ?? locked.planId) ?? planEntry(locked.planId);
          const interval = intervalOf(locked);
          const [charge] = await tx
            .insert(subscriptionCharges)
            .values({
              subscriptionId: locked.id,
              userId: locked.userId,
              planId: entry.id,
              interval,
              periodStart: event.periodStart,
              periodEnd: event.periodEnd,
              tokens: tokensOf(entry, interval),
              amountMinor: event.amountMinor,
              currency: event.currency.toUpperCase(),
              status: 'completed',
              providerPaymentId: event.invoiceId,
              settledAt: at,
            })
            .onConflictDoNothing()
            .returning();
          if (!charge) return null;
          const newer = !locked.currentPeriodEnd || event.periodEnd >= locked.currentPeriodEnd;
          await tx
            .update(subscriptions)
            .set({
              ...link,
              status: locked.status === 'canceled' ? 'canceled' : 'active',
              attempts: 0,
              ...(newer ? { planId: entry.id, currentPeriodStart: event.periodStart, currentPeriodEnd: event.periodEnd } : {}),
              updatedAt: at,
            })
            .where(eq(subscriptions.id, locked.id));
          await ledger.creditPeriod(locked.userId, charge.id, charge.tokens, charge.periodEnd, tx);
          // What the mail says comes from the periods paid before, not from the subscription's row,
          // which a subscription update delivered earlier may already have moved on.
          const [previous] = await tx
            .select({ planId: subscriptionCharges.planId })
            .from(subscriptionCharges)
            .where(and(eq(subscriptionCharges.subscriptionId, locked.id), eq(subscriptionCharges.status, 'completed'), sql`${subscriptionCharges.id} <> ${charge.id}`))
            .orderBy(desc(subscriptionCharges.periodStart))
            .limit(1);
          const kind = !previous ? 'activated' : previous.planId !== entry.id ? 'upgraded' : 'renewed';
          // The mail names the plan this period paid for.
          return { sub: { ...locked, planId: entry.id }, mail: { kind, date: event.periodEnd } as const, wallet: true };
        }
        case 'period_failed': {
          if (locked.status !== 'active') return null;
          // Deliveries come in any order: a failure of an invoice already paid changes nothing.
          const [paid] = await tx
            .select({ id: subscriptionCharges.id })
            .from(subscriptionCharges)
            .where(and(eq(subscriptionCharges.providerPaymentId, event.invoiceId), eq(subscriptionCharges.status, 'completed')));
          if (paid) return null;
          await tx.update(subscriptions).set({ ...link, status: 'past_due', attempts: locked.attempts + 1, updatedAt: at }).where(eq(subscriptions.id, locked.id));
          return { sub: locked, mail: { kind: 'payment_failed', date: null } as const, wallet: false };
        }
        case 'subscription_changed': {
          // An older state never overwrites a newer one; an ended subscription stays ended.
          if (locked.providerStateAt && event.at < locked.providerStateAt) return null;
          if (locked.status === 'canceled' && event.status !== 'canceled') return null;
          const status = event.status === 'pending' && locked.status !== 'pending' ? locked.status : event.status;
          await tx
            .update(subscriptions)
            .set({
              ...link,
              status,
              cancelAt: event.cancelAt,
              providerStateAt: event.at,
              ...(event.planId && entryOf(event.planId) ? { planId: event.planId } : {}),
              ...(event.periodEnd && (!locked.currentPeriodEnd || event.periodEnd >= locked.currentPeriodEnd)
                ? { currentPeriodStart: event.periodStart, currentPeriodEnd: event.periodEnd }
                : {}),
              ...(status === 'canceled' ? { endedAt: at } : {}),
              updatedAt: at,
            })
            .where(eq(subscriptions.id, locked.id));
          if (status === 'canceled' && locked.status !== 'canceled') return { sub: locked, mail: { kind: 'canceled', date: at } as const, wallet: false };
          return null;
        }
      }
    });
    if (changed === 'replayed') return false;
    if (!changed) return true;
    if (changed.wallet) options.walletChanged(changed.sub.userId);
    options.mail(changed.sub.userId, { ...changed.mail, planName: nameOf(changed.sub.planId) });
    return true;
  };

  /** A subscription by id for its seller; another seller's is not found. */
  const ownSubscription = async (userId: string, id: string): Promise<SubscriptionRow> => {
    const [row] = await db.select().from(subscriptions).where(and(eq(subscriptions.id, id), eq(subscriptions.userId, userId)));
    if (!row) throw new HttpError(404, 'SUBSCRIPTION_NOT_FOUND', 'SUBSCRIPTION_NOT_FOUND');
    return row;
  };

  /** Starts a subscription row, refusing a second live one; an unpaid one ends in favour of the new. */
  const insertSubscription = async (values: typeof subscriptions.$inferInsert): Promise<SubscriptionRow> => {
    const at = now();
    await db
      .update(subscriptions)
      .set({ status: 'canceled', endedAt: at, renewAt: null, updatedAt: at })
      .where(and(eq(subscriptions.userId, values.userId), eq(subscriptions.status, 'unpaid')));
    // A checkout the seller left unfinished gives way to a new one.
    await db
      .update(subscriptions)
      .set({ status: 'failed', endedAt: at, updatedAt: at })
      .where(and(eq(subscriptions.userId, values.userId), eq(subscriptions.status, 'pending')));
    try {
      const [row] = await db.insert(subscriptions).values(values).returning();
      return row!;
    } catch (error) {
      if (isUniqueViolation(error)) throw new HttpError(409, 'ALREADY_SUBSCRIBED', 'ALREADY_SUBSCRIBED');
      throw error;
    }
  };

  const refuseIfSubscribed = async (userId: string) => {
    const live = await liveOf(userId);
    if (live && live.status !== 'unpaid') throw new HttpError(409, 'ALREADY_SUBSCRIBED', 'ALREADY_SUBSCRIBED');
  };

  const createMandateRow = async (
    userId: string,
    input: { client: ClientProvider; method: MandateRow['method']; reference: string; description: string; returnUrl: (id: string) => string; cancelUrl: (id: string) => string },
    context: { locale: string; email?: string },
  ): Promise<MandateRow> => {
    const provider = providers[input.client];
    const billing = provider.mandates;
    if (!billing) throw new HttpError(400, 'METHOD_UNAVAILABLE', 'METHOD_UNAVAILABLE');
    const [existing] = await db.select().from(mandates).where(and(eq(mandates.userId, userId), eq(mandates.reference, input.reference)));
    if (existing) return existing;
    const [mandate] = await db
      .insert(mandates)
      .values({
        userId,
        provider: provider.name,
        client: input.client,
        method: input.method,
        reference: input.reference,
        checkAt: new Date(now().getTime() + FIRST_CHECK_MS),
      })
      .onConflictDoNothing()
      .returning();
    if (!mandate) return (await db.select().from(mandates).where(and(eq(mandates.userId, userId), eq(mandates.reference, input.reference))))[0]!;
    try {
      const checkout = await billing.createMandate({
        mandateId: mandate.id,
        userId,
        method: input.method as LocalMethod,
        holdMinor: 0,
        currency: currencyOf(input.client),
        description: input.description,
        returnUrl: input.returnUrl(mandate.id),
        cancelUrl: input.cancelUrl(mandate.id),
        locale: context.locale,
        email: context.email,
      });
      const [updated] = await db
        .update(mandates)
        .set({ providerMandateId: checkout.providerPaymentId, redirectUrl: checkout.redirectUrl })
        .where(eq(mandates.id, mandate.id))
        .returning();
      return updated!;
    } catch (error) {
      await db.update(mandates).set({ status: 'failed', failureReason: 'canceled' }).where(eq(mandates.id, mandate.id));
      return refusedByProvider(error);
    }
  };

  /** Ends every subscription whose cancellation date has come (mandate-billed ones; the provider ends its own). */
  const endCancelled = async (at: Date) => {
    const ended = await db
      .update(subscriptions)
      .set({ status: sql`CASE WHEN ${subscriptions.status} = 'revoked' THEN 'revoked' ELSE 'canceled' END`, endedAt: at, renewAt: null, updatedAt: at })
      .where(and(eq(subscriptions.billing, 'mandate'), inArray(subscriptions.status, LIVE), lte(subscriptions.cancelAt, at)))
      .returning();
    for (const sub of ended) options.mail(sub.userId, { kind: 'canceled', planName: nameOf(sub.planId), date: sub.cancelAt });
    return ended.length;
  };

  /** Renews one claimed subscription: charges its next period (or retries the one it owes). */
  const renewOne = async (sub: SubscriptionRow, at: Date, mandate: MandateRow | undefined) => {
    if (!sub.currentPeriodEnd) return;
    // The charge's period is the one the subscription owes, whenever it is finally paid.
    await chargeMandate(sub, { start: sub.currentPeriodEnd, planId: sub.planId, interval: intervalOf(sub) }, 'renewal', at, mandate);
  };

  return {
    /** Every plan at both intervals, in the seller's language (SPEC §3 Plan). */
    plans(locale: Locale): Plan[] {
      return (['month', 'year'] as const).flatMap((interval) => prices.plans.map((entry) => planOf(entry, interval, locale)));
    },

    planOf(row: SubscriptionRow, locale: Locale): Plan {
      const entry = entryOf(row.planId);
      if (!entry) return { id: row.planId, name: `#${row.planId}`, price: 1, interval: intervalOf(row), description: '', features: '[]', tokens: 1 };
      return planOf(entry, intervalOf(row), locale);
    },

    /** The seller's subscription: the live one, else the latest that ended; undefined when none. */
    async mine(userId: string): Promise<SubscriptionRow | undefined> {
      const live = await liveOf(userId);
      if (live) return live;
      const [latest] = await db
        .select()
        .from(subscriptions)
        .where(and(eq(subscriptions.userId, userId), notInArray(subscriptions.status, ['pending', 'failed'])))
        .orderBy(desc(subscriptions.createdAt))
        .limit(1);
      return latest;
    },

    /** Keeps the billing details the seller gave (SPEC §3 Customer payload), the latest per seller. */
    async saveCustomer(userId: string, customer: Customer): Promise<{ id: string; reference: string }> {
      const at = now();
      await db
        .insert(customers)
        .values({ userId, reference: customer.reference, payload: customer })
        .onConflictDoUpdate({ target: customers.userId, set: { reference: customer.reference, payload: customer, updatedAt: at } });
      return { id: userId, reference: customer.reference };
    },

    /** The seller's mandates through the local provider, filtered as asked; pending ones asked about. */
    async mandatesOf(userId: string, query: { payment_method?: string; mandate_status?: string; mandate_id?: string }): Promise<MandateRow[]> {
      const rows = await db
        .select()
        .from(mandates)
        .where(
          and(
            eq(mandates.userId, userId),
            eq(mandates.client, 'localpay'),
            query.payment_method ? eq(mandates.method, query.payment_method) : undefined,
            query.mandate_id ? eq(mandates.id, query.mandate_id) : undefined,
          ),
        )
        .orderBy(desc(mandates.createdAt))
        .limit(20);
      const current = await Promise.all(rows.map(fresh));
      return query.mandate_status ? current.filter((row) => row.status === query.mandate_status) : current;
    },

    /** Starts authorising a payment method with the local provider; answers where to send the seller. */
    createMandate(userId: string, input: { reference: string; payment_method: LocalMethod }, context: { locale: string; email?: string }) {
      return createMandateRow(
        userId,
        {
          client: 'localpay',
          method: input.payment_method,
          reference: input.reference,
          description: 'SoleStudio: automatic payments for a subscription',
          returnUrl: (id) => `${options.publicUrl}/subscription/result?mandate_id=${id}`,
          cancelUrl: (id) => `${options.publicUrl}/subscription/cancel?mandate_id=${id}`,
        },
        context,
      );
    },

    /**
     * Subscribes through an active mandate of the local provider, charging it for the first period
     * at once. A repeat with the same reference answers the same subscription.
     */
    async subscribeWithMandate(userId: string, input: { plan_id: number; mandate_id: string; reference: string; interval: PlanInterval }): Promise<SubscriptionRow> {
      const [again] = await db.select().from(subscriptions).where(and(eq(subscriptions.userId, userId), eq(subscriptions.reference, input.reference)));
      if (again) return again;
      planEntry(input.plan_id);
      const [mandate] = await db.select().from(mandates).where(and(eq(mandates.id, input.mandate_id), eq(mandates.userId, userId)));
      if (!mandate) throw new HttpError(404, 'MANDATE_NOT_FOUND', 'MANDATE_NOT_FOUND');
      const current = await fresh(mandate);
      if (current.status !== 'active') throw new HttpError(409, 'MANDATE_NOT_ACTIVE', 'MANDATE_NOT_ACTIVE', { status: current.status });
      await refuseIfSubscribed(userId);
      const sub = await insertSubscription({
        userId,
        provider: current.provider,
        client: current.client,
        billing: 'mandate',
        mandateId: current.id,
        reference: input.reference,
        planId: input.plan_id,
        interval: input.interval,
      });
      const at = now();
      await chargeMandate(sub, { start: at, planId: sub.planId, interval: input.interval }, 'first', at);
      return (await findSubscription(sub.id))!;
    },

    /**
     * Starts a subscription through the card provider: its own checkout where it bills
     * subscriptions (Stripe), otherwise a mandate for the card whose authorisation starts it.
     */
    async createWithCard(userId: string, input: { plan_id: number; interval: PlanInterval }, context: { locale: Locale; email?: string }) {
      const entry = planEntry(input.plan_id);
      await refuseIfSubscribed(userId);
      const provider = providers.card;
      const reference = `card:${crypto.randomUUID()}`;
      if (provider.subscriptions) {
        const sub = await insertSubscription({ userId, provider: provider.name, client: 'card', billing: 'provider', reference, planId: entry.id, interval: input.interval });
        try {
          const checkout = await provider.subscriptions.createSubscriptionCheckout({
            subscriptionId: sub.id,
            userId,
            planId: entry.id,
            planName: planOf(entry, input.interval, context.locale).name,
            interval: input.interval,
            amountMinor: priceMinor(entry, input.interval, 'card'),
            currency: 'USD',
            successUrl: `${options.publicUrl}/subscription/success?session_id={CHECKOUT_SESSION_ID}`,
            cancelUrl: `${options.publicUrl}/subscription/cancel?subscription_id=${sub.id}`,
            locale: context.locale,
            email: context.email,
          });
          await db.update(subscriptions).set({ providerCheckoutId: checkout.providerPaymentId }).where(eq(subscriptions.id, sub.id));
          return { redirectUrl: checkout.redirectUrl, sessionId: checkout.providerPaymentId };
        } catch (error) {
          await db.update(subscriptions).set({ status: 'failed', endedAt: now() }).where(eq(subscriptions.id, sub.id));
          return refusedByProvider(error);
        }
      }
      const plan = planOf(entry, input.interval, context.locale);
      const mandate = await createMandateRow(
        userId,
        {
          client: 'card',
          method: 'card_intl',
          reference,
          description: `SoleStudio: ${plan.name}, $${plan.price} / ${input.interval}`,
          returnUrl: (id) => `${options.publicUrl}/subscription/success?session_id=${id}`,
          cancelUrl: (id) => `${options.publicUrl}/subscription/cancel?session_id=${id}`,
        },
        context,
      );
      await insertSubscription({
        userId,
        provider: mandate.provider,
        client: 'card',
        billing: 'mandate',
        mandateId: mandate.id,
        providerCheckoutId: mandate.id,
        reference,
        planId: entry.id,
        interval: input.interval,
      });
      return { redirectUrl: mandate.redirectUrl ?? '', sessionId: mandate.id };
    },

    /** The card provider's checkout as we know it (the success page reads it). */
    async checkoutSession(userId: string, sessionId: string): Promise<{ status: 'open' | 'complete' | 'expired'; subscription: SubscriptionRow | null }> {
      const [sub] = await db
        .select()
        .from(subscriptions)
        .where(and(eq(subscriptions.userId, userId), eq(subscriptions.client, 'card'), eq(subscriptions.providerCheckoutId, sessionId)));
      if (!sub) throw new HttpError(404, 'NOT_FOUND', 'NOT_FOUND');
      let row = sub;
      if (row.status === 'pending' && row.mandateId) {
        const [mandate] = await db.select().from(mandates).where(eq(mandates.id, row.mandateId));
        if (mandate) await fresh(mandate);
        row = (await findSubscription(row.id)) ?? row;
      } else if (row.status === 'pending' && providers.card.subscriptions && row.provider === providers.card.name) {
        try {
          const remote = await providers.card.subscriptions.retrieveSubscriptionCheckout(sessionId);
          if (remote.status === 'expired') {
            await db.update(subscriptions).set({ status: 'failed', endedAt: now() }).where(and(eq(subscriptions.id, row.id), eq(subscriptions.status, 'pending')));
            row = (await findSubscription(row.id)) ?? row;
          }
          if (remote.status !== 'complete' || row.status === 'pending') return { status: remote.status === 'complete' ? 'open' : remote.status, subscription: row };
        } catch (error) {
          log.warn({ err: error, sessionId }, 'asking the card provider about a checkout failed');
        }
      }
      const status = row.status === 'pending' ? 'open' : row.status === 'failed' ? 'expired' : 'complete';
      return { status, subscription: row };
    },

    /** The seller's subscriptions through the local provider, filtered as asked. */
    async listLocal(userId: string, query: { id?: string; subscription_status?: string }): Promise<SubscriptionRow[]> {
      return db
        .select()
        .from(subscriptions)
        .where(
          and(
            eq(subscriptions.userId, userId),
            eq(subscriptions.client, 'localpay'),
            query.id ? eq(subscriptions.id, query.id) : undefined,
            query.subscription_status ? eq(subscriptions.status, query.subscription_status as SubscriptionStatus) : undefined,
          ),
        )
        .orderBy(desc(subscriptions.createdAt))
        .limit(20);
    },

    /** Cancels at the current period's end (SPEC §4): cancel_at set, tokens kept until they lapse. */
    async cancel(userId: string, id?: string): Promise<SubscriptionRow> {
      const sub = id ? await ownSubscription(userId, id) : await liveOf(userId);
      if (!sub || !['active', 'past_due'].includes(sub.status)) throw new HttpError(404, 'SUBSCRIPTION_NOT_FOUND', 'SUBSCRIPTION_NOT_FOUND');
      if (sub.cancelAt) return sub;
      let cancelAt = sub.currentPeriodEnd ?? now();
      const billing = providerNamed(sub.provider)?.subscriptions;
      if (sub.billing === 'provider' && billing && sub.providerSubscriptionId) {
        try {
          cancelAt = await billing.cancelAtPeriodEnd(sub.providerSubscriptionId);
        } catch (error) {
          return refusedByProvider(error);
        }
      }
      const [row] = await db.update(subscriptions).set({ cancelAt, updatedAt: now() }).where(eq(subscriptions.id, sub.id)).returning();
      return row!;
    },

    /**
     * Moves an active subscription to a higher plan at once (SPEC §4): a new period starts now with
     * the new plan's tokens; the old period's tokens keep their date.
     */
    async upgrade(userId: string, planId: number, id?: string): Promise<SubscriptionRow> {
      const sub = id ? await ownSubscription(userId, id) : await liveOf(userId);
      if (!sub) throw new HttpError(404, 'SUBSCRIPTION_NOT_FOUND', 'SUBSCRIPTION_NOT_FOUND');
      if (sub.status !== 'active' || sub.cancelAt || sub.planId === TOP_PLAN_ID) throw new HttpError(409, 'UPGRADE_NOT_ALLOWED', 'UPGRADE_NOT_ALLOWED');
      if (planId === sub.planId) throw new HttpError(409, 'ALREADY_SUBSCRIBED', 'ALREADY_SUBSCRIBED');
      const current = entryOf(sub.planId);
      const target = planEntry(planId);
      const order = prices.plans.map((plan) => plan.id);
      if (current && order.indexOf(target.id) < order.indexOf(current.id)) throw new HttpError(400, 'PLAN_NOT_HIGHER', 'PLAN_NOT_HIGHER');
      const interval = intervalOf(sub);
      if (sub.billing === 'provider') {
        const billing = providerNamed(sub.provider)?.subscriptions;
        if (!billing || !sub.providerSubscriptionId) throw new HttpError(409, 'UPGRADE_NOT_ALLOWED', 'UPGRADE_NOT_ALLOWED');
        try {
          await billing.changePlan(sub.providerSubscriptionId, {
            planId: target.id,
            planName: planOf(target, interval, 'en').name,
            interval,
            amountMinor: priceMinor(target, interval, 'card'),
            currency: 'USD',
          });
        } catch (error) {
          return refusedByProvider(error);
        }
        return sub;
      }
      const at = now();
      const charge = await chargeMandate(sub, { start: at, planId: target.id, interval }, 'upgrade', at);
      if (charge.status === 'failed') throw new HttpError(402, 'PAYMENT_DECLINED', 'PAYMENT_DECLINED');
      return (await findSubscription(sub.id))!;
    },

    /** Applies a verified notification about a mandate, a renewal or a provider-billed subscription. */
    async apply(providerName: ProviderName, event: MandateEvent | ProviderSubscriptionEvent): Promise<boolean> {
      const at = now();
      switch (event.kind) {
        case 'mandate':
          if (!(await recordEvent(db, providerName, event.eventId, event.kind))) return false;
          return applyMandate(event.mandate, at);
        case 'method_revoked': {
          if (!(await recordEvent(db, providerName, event.eventId, event.kind))) return false;
          const revoked = await db
            .update(mandates)
            .set({ status: 'revoked', updatedAt: at })
            .where(and(eq(mandates.provider, providerName), eq(mandates.providerMethodId, event.providerMethodId), eq(mandates.status, 'active')))
            .returning();
          for (const mandate of revoked) await mandateRevoked(mandate, at);
          return revoked.length > 0;
        }
        case 'charge': {
          if (!(await recordEvent(db, providerName, event.eventId, event.kind))) return false;
          const [charge] = await db
            .select()
            .from(subscriptionCharges)
            .where(
              or(
                event.charge.chargeId ? eq(subscriptionCharges.id, event.charge.chargeId) : sql`false`,
                eq(subscriptionCharges.providerPaymentId, event.charge.providerPaymentId),
              ),
            );
          if (!charge || charge.status !== 'pending') return false;
          const sub = await findSubscription(charge.subscriptionId);
          if (!sub) return false;
          await settleCharge(charge, event.charge, at, kindOf(charge, sub));
          return true;
        }
        default:
          return applyProviderEvent(providerName, event, at);
      }
    },

    /**
     * The subscription jobs, as if the time were `at`: ends what was cancelled, renews what is due
     * (each period charged once, on any number of nodes at once), asks about pending mandates and
     * charges, and lapses period tokens whose time has come. Answers how many renewals were tried.
     */
    async run(at: Date = now()): Promise<{ renewed: number; ended: number; lapsed: number }> {
      const ended = await endCancelled(at);
      let renewed = 0;
      for (;;) {
        const due = await db
          .update(subscriptions)
          .set({ renewAt: new Date(at.getTime() + RENEW_LEASE_MS) })
          .where(
            sql`${subscriptions.id} IN (${db
              .select({ id: subscriptions.id })
              .from(subscriptions)
              .where(and(eq(subscriptions.billing, 'mandate'), inArray(subscriptions.status, LIVE), lte(subscriptions.renewAt, at), isNull(subscriptions.cancelAt)))
              .limit(RENEW_BATCH)
              .for('update', { skipLocked: true })})`,
          )
          .returning();
        const ids = due.flatMap((sub) => (sub.mandateId ? [sub.mandateId] : []));
        const batch = new Map(ids.length > 0 ? (await db.select().from(mandates).where(inArray(mandates.id, ids))).map((row) => [row.id, row]) : []);
        for (const sub of due) {
          try {
            await renewOne(sub, at, sub.mandateId ? batch.get(sub.mandateId) : undefined);
          } catch (error) {
            log.error({ err: error, subscriptionId: sub.id }, 'renewing a subscription failed; it is tried again later');
          }
          // The embedded database answers without giving the event loop a turn: let requests in between.
          await yieldToRequests();
        }
        renewed += due.length;
        if (due.length < RENEW_BATCH) break;
      }
      await this.reconcile(at);
      let lapsed = 0;
      for (;;) {
        const users = await ledger.lapsingBy(at, 500);
        for (const userId of users) {
          const tokens = await ledger.expireFor(userId, at);
          if (tokens > 0) options.walletChanged(userId);
          lapsed += tokens;
          await yieldToRequests();
        }
        if (users.length < 500) break;
      }
      return { renewed, ended, lapsed };
    },

    /** Asks the providers about mandates and charges left pending (a notification that never came). */
    async reconcile(at: Date = now()): Promise<number> {
      const due = await db
        .update(mandates)
        .set({
          checks: sql`${mandates.checks} + 1`,
          checkAt: sql`${at.toISOString()}::timestamptz + least(${LONGEST_CHECK_MS}, ${FIRST_CHECK_MS} * power(2, ${mandates.checks})) * interval '1 millisecond'`,
        })
        .where(
          sql`${mandates.id} IN (${db
            .select({ id: mandates.id })
            .from(mandates)
            .where(and(eq(mandates.status, 'pending'), lte(mandates.checkAt, at)))
            .limit(100)
            .for('update', { skipLocked: true })})`,
        )
        .returning();
      for (const mandate of due) {
        try {
          const current = await askMandate(mandate, at);
          if (current.status === 'pending' && at.getTime() - current.createdAt.getTime() > MANDATE_GIVE_UP_MS) {
            await applyMandate({ providerMandateId: current.providerMandateId ?? '', mandateId: current.id, status: 'failed', providerMethodId: null, reason: 'expired' }, at);
          }
        } catch (error) {
          log.warn({ err: error, mandateId: mandate.id }, 'reconciling a mandate failed; it is asked about again later');
        }
        await yieldToRequests();
      }
      const charges = await db
        .select()
        .from(subscriptionCharges)
        .where(and(eq(subscriptionCharges.status, 'pending'), lte(subscriptionCharges.createdAt, new Date(at.getTime() - FIRST_CHECK_MS))))
        .limit(100);
      for (const charge of charges) {
        try {
          const sub = await findSubscription(charge.subscriptionId);
          const billing = sub ? mandateBilling(sub.client as ClientProvider) : undefined;
          if (!sub || !billing) continue;
          if (!charge.providerPaymentId) {
            // The provider never answered the charge: ask again under the same key (it cannot charge twice).
            await chargeMandate(sub, { start: charge.periodStart, planId: charge.planId, interval: charge.interval as PlanInterval }, kindOf(charge, sub), at);
          } else await settleCharge(charge, await billing.retrieveCharge(charge.providerPaymentId), at, kindOf(charge, sub));
        } catch (error) {
          log.warn({ err: error, chargeId: charge.id }, 'reconciling a subscription charge failed; it is asked about again later');
        }
        await yieldToRequests();
      }
      return due.length + charges.length;
    },

    /** A mandate for its seller (another seller's is not found). */
    async mandateOf(userId: string, id: string): Promise<MandateRow> {
      const [row] = await db.select().from(mandates).where(and(eq(mandates.id, id), eq(mandates.userId, userId)));
      if (!row) throw new HttpError(404, 'MANDATE_NOT_FOUND', 'MANDATE_NOT_FOUND');
      return fresh(row);
    },
  };
}
