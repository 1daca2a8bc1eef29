// What providers tell us about subscriptions, applied once per event in any order: mandates
// authorised or withdrawn, charges of saved methods settled, the card provider's checkouts,
// invoices and subscription states, and money going back (refunds and disputes of a period).
// A payment for a checkout we had closed is never lost: it starts that subscription when the
// seller has no other plan, or is refunded at the provider and recorded. No state our own code
// made answers a notification with an error.
import { and, desc, eq, or, sql } from 'drizzle-orm';
import { mandates, subscriptionCharges, subscriptionEvents, subscriptions } from '../../db/schema';
import type { Database } from '../../db/client';
import { applyDispute, tokensFor, type PaidTarget } from '../disputes';
import { periodTokens } from '../prices';
import type { MandateEvent, ProviderName, ProviderSubscriptionEvent, ReversalEvent } from '../provider';
import { isUniqueViolation, type ChargeRow, type Context, type SubscriptionMail, type SubscriptionRow } from './context';
import type { Periods } from './periods';
import type { Mandates } from './mandates';

type PeriodPaid = Extract<ProviderSubscriptionEvent, { kind: 'period_paid' }>;
type Outcome = { sub: SubscriptionRow; mail: Omit<SubscriptionMail, 'planName'> | null; wallet: boolean } | null;

const chargeTarget = (charge: ChargeRow): PaidTarget => ({
  kind: 'charge',
  id: charge.id,
  userId: charge.userId,
  tokens: charge.tokens,
  amountMinor: charge.amountMinor,
  currency: charge.currency,
  refunded: { minor: charge.refundedMinor, tokens: charge.refundedTokens },
  credit: { type: 'subscription', reference: `charge:${charge.id}` },
});

export function createProviderEvents(ctx: Context, periods: Periods, mandateParts: Mandates) {
  const { db, ledger, log } = ctx;

  /** Whether a closed (failed) subscription can start with the period paid for it: the seller has no other plan or open checkout. */
  const canRevive = async (tx: Database, sub: SubscriptionRow): Promise<boolean> => {
    const [other] = await tx
      .select({ id: subscriptions.id })
      .from(subscriptions)
      .where(and(eq(subscriptions.userId, sub.userId), sql`${subscriptions.id} <> ${sub.id}`, sql`${subscriptions.status} IN ('pending', 'active', 'past_due')`))
      .limit(1);
    return !other;
  };

  /** A period the card provider billed: credited once per invoice, for what the plan says the amount paid buys. */
  const periodPaid = async (tx: Database, locked: SubscriptionRow, event: PeriodPaid, at: Date, link: object): Promise<Outcome | 'refund' | 'replayed'> => {
    // This invoice is already settled (paid, or refunded as a closed checkout's): nothing moves
    // again, as for a replay (a refund or dispute names the invoice it reverses as paid first).
    const [settled] = await tx.select({ id: subscriptionCharges.id }).from(subscriptionCharges).where(eq(subscriptionCharges.providerPaymentId, event.invoiceId));
    if (settled) return 'replayed';
    if (locked.status === 'failed' && !(await canRevive(tx, locked))) {
      // The refund is recorded with its event, in one transaction, once the provider has given
      // the money back: until then the event is not taken as applied, so a retry refunds again
      // (the provider refunds an invoice once) rather than being skipped as a replay.
      await tx.delete(subscriptionEvents).where(and(eq(subscriptionEvents.provider, locked.provider), eq(subscriptionEvents.eventId, event.eventId)));
      return 'refund';
    }
    const entry = ctx.entryOf(event.planId ?? locked.planId) ?? ctx.planEntry(locked.planId);
    const interval = ctx.intervalOf(locked);
    const tokens = periodTokens(entry, interval, { amountMinor: event.amountMinor, currency: event.currency }, ctx.prices);
    if (tokens < ctx.tokensOf(entry, interval)) {
      log.warn({ invoiceId: event.invoiceId, amountMinor: event.amountMinor, currency: event.currency, tokens }, 'an invoice paid less than the plan: credited what the amount buys');
    }
    const [charge] = await tx
      .insert(subscriptionCharges)
      .values({
        subscriptionId: locked.id,
        userId: locked.userId,
        planId: entry.id,
        interval,
        periodStart: event.periodStart,
        periodEnd: event.periodEnd,
        tokens,
        amountMinor: event.amountMinor,
        currency: event.currency.toUpperCase(),
        status: 'completed',
        providerPaymentId: event.invoiceId,
        source: 'invoice',
        settledAt: at,
      })
      .onConflictDoNothing()
      .returning();
    if (!charge) return null;
    // Periods that end in the same second (an upgrade in the second a renewal began) are told
    // apart by their plan: a subscription only moves up, so the higher plan is the later one.
    const rank = (planId: number) => ctx.prices.plans.findIndex((plan) => plan.id === planId);
    const end = locked.currentPeriodEnd?.getTime();
    const newer = end === undefined || event.periodEnd.getTime() > end || (event.periodEnd.getTime() === end && rank(entry.id) >= rank(locked.planId));
    await tx
      .update(subscriptions)
      .set({
        ...link,
        status: locked.status === 'canceled' ? 'canceled' : 'active',
        ...(locked.status === 'failed' ? { endedAt: null } : {}),
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
    return { sub: { ...locked, planId: entry.id }, mail: { kind, date: event.periodEnd }, wallet: true };
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
    const run = (refundInstead: boolean) =>
      db.transaction(async (tx): Promise<Outcome | 'replayed' | 'refund'> => {
        if (!(await ctx.recordEvent(tx, providerName, event.eventId, event.kind))) return 'replayed';
        const [locked] = await tx.select().from(subscriptions).where(eq(subscriptions.id, sub.id)).for('update');
        if (!locked) return null;
        const link = byProvider && !locked.providerSubscriptionId ? { providerSubscriptionId: byProvider } : {};
        switch (event.kind) {
          case 'checkout_completed':
            await tx.update(subscriptions).set({ ...link, updatedAt: at }).where(eq(subscriptions.id, locked.id));
            return null;
          case 'period_paid':
            if (refundInstead) return 'refund';
            return periodPaid(tx, locked, event, at, link);
          case 'period_failed': {
            if (locked.status !== 'active') return null;
            // Deliveries come in any order: a failure of an invoice already paid changes nothing.
            const [paid] = await tx
              .select({ id: subscriptionCharges.id })
              .from(subscriptionCharges)
              .where(and(eq(subscriptionCharges.providerPaymentId, event.invoiceId), eq(subscriptionCharges.status, 'completed')));
            if (paid) return null;
            await tx.update(subscriptions).set({ ...link, status: 'past_due', attempts: locked.attempts + 1, updatedAt: at }).where(eq(subscriptions.id, locked.id));
            return { sub: locked, mail: { kind: 'payment_failed', date: null }, wallet: false };
          }
          case 'subscription_changed': {
            // An older state never overwrites a newer one; an ended subscription stays ended; a
            // checkout we closed starts only through a period paid for it.
            if (locked.providerStateAt && event.at < locked.providerStateAt) return null;
            if (locked.status === 'canceled' && event.status !== 'canceled') return null;
            if (locked.status === 'failed') {
              await tx.update(subscriptions).set({ ...link, providerStateAt: event.at, updatedAt: at }).where(eq(subscriptions.id, locked.id));
              return null;
            }
            const status = event.status === 'pending' && locked.status !== 'pending' ? locked.status : event.status;
            await tx
              .update(subscriptions)
              .set({
                ...link,
                status,
                cancelAt: event.cancelAt,
                providerStateAt: event.at,
                ...(event.planId && ctx.entryOf(event.planId) ? { planId: event.planId } : {}),
                ...(event.periodEnd && (!locked.currentPeriodEnd || event.periodEnd >= locked.currentPeriodEnd)
                  ? { currentPeriodStart: event.periodStart, currentPeriodEnd: event.periodEnd }
                  : {}),
                ...(status === 'canceled' ? { endedAt: at } : {}),
                updatedAt: at,
              })
              .where(eq(subscriptions.id, locked.id));
            if (status === 'canceled' && locked.status !== 'canceled') return { sub: locked, mail: { kind: 'canceled', date: at }, wallet: false };
            return null;
          }
        }
      });
    let changed: Outcome | 'replayed' | 'refund';
    try {
      changed = await run(false);
    } catch (error) {
      // Another of the seller's subscriptions is live after all (a race with its checkout): this
      // period's money goes back rather than failing the notification for ever.
      if (!isUniqueViolation(error) || event.kind !== 'period_paid') throw error;
      changed = 'refund';
    }
    if (changed === 'refund' && event.kind === 'period_paid') return refundClosedPeriod(providerName, sub, event, at);
    if (changed === 'replayed' || changed === 'refund') return false;
    if (!changed) return true;
    if (changed.wallet) ctx.walletChanged(changed.sub.userId);
    if (changed.mail) ctx.mail(changed.sub.userId, { ...changed.mail, planName: ctx.nameOf(changed.sub.planId) });
    return true;
  };

  /**
   * The seller paid a checkout we had closed while another plan of theirs is live: the provider
   * gives the money back and ends that subscription, and the invoice is recorded as refunded with
   * the event — once, however often the provider repeats it.
   */
  const refundClosedPeriod = async (providerName: ProviderName, sub: SubscriptionRow, event: PeriodPaid, at: Date): Promise<boolean> => {
    const billing = ctx.providerNamed(providerName)?.subscriptions;
    if (!billing) throw new Error(`${providerName} bills no subscriptions: cannot refund invoice ${event.invoiceId}`);
    await billing.refundPeriod(event.providerSubscriptionId, event.invoiceId);
    return db.transaction(async (tx) => {
      if (!(await ctx.recordEvent(tx, providerName, event.eventId, event.kind))) return false;
      await tx
        .insert(subscriptionCharges)
        .values({
          subscriptionId: sub.id,
          userId: sub.userId,
          planId: event.planId ?? sub.planId,
          interval: sub.interval,
          periodStart: event.periodStart,
          periodEnd: event.periodEnd,
          tokens: 0,
          amountMinor: event.amountMinor,
          currency: event.currency.toUpperCase(),
          status: 'failed',
          failureReason: 'refunded',
          providerPaymentId: event.invoiceId,
          source: 'invoice',
          refundedMinor: event.amountMinor,
          settledAt: at,
        })
        .onConflictDoNothing();
      await tx
        .update(subscriptions)
        .set({ providerSubscriptionId: sub.providerSubscriptionId ?? event.providerSubscriptionId, status: 'failed', updatedAt: at })
        .where(eq(subscriptions.id, sub.id));
      log.warn({ subscriptionId: sub.id, invoiceId: event.invoiceId }, 'a closed checkout was paid while another plan is live: refunded');
      ctx.mail(sub.userId, { kind: 'refunded', planName: ctx.nameOf(sub.planId), date: at });
      return true;
    });
  };

  /** Money back on a subscription charge: a refund takes back that period's tokens, a dispute as it goes. */
  const applyReversal = async (providerName: ProviderName, event: ReversalEvent, at: Date): Promise<boolean> => {
    const [found] = await db.select().from(subscriptionCharges).where(eq(subscriptionCharges.providerPaymentId, event.providerPaymentId));
    if (!found) {
      log.warn({ provider: providerName, event: event.kind }, 'a refund or dispute names no subscription charge of ours: ignored');
      return false;
    }
    // Money came back from a charge we had not heard was paid: it was paid.
    if (found.status === 'pending') {
      const sub = await ctx.findSubscription(found.subscriptionId);
      if (sub) await periods.completeCharge(found, at, periods.kindOf(found, sub), null);
    }
    const changed = await db.transaction(async (tx) => {
      if (!(await ctx.recordEvent(tx, providerName, event.eventId, event.kind))) return false;
      const [charge] = await tx.select().from(subscriptionCharges).where(eq(subscriptionCharges.id, found.id)).for('update');
      if (!charge || charge.status !== 'completed' || charge.tokens === 0) return false;
      if (event.kind === 'disputed') return applyDispute(tx, ledger, providerName, event, chargeTarget(charge));
      const refundedMinor = Math.min(event.refundedMinor, charge.amountMinor);
      if (refundedMinor <= charge.refundedMinor) return false;
      const target = tokensFor(chargeTarget(charge), refundedMinor);
      const { unrecovered } = await ledger.takeBack(
        charge.userId,
        { type: 'subscription', reference: `refund:charge:${charge.id}:${target}`, reverses: { type: 'subscription', reference: `charge:${charge.id}` } },
        target - charge.refundedTokens,
        tx,
      );
      if (unrecovered > 0) log.warn({ chargeId: charge.id, unrecovered }, 'a refund could not take back every token: the balance had been spent');
      await tx
        .update(subscriptionCharges)
        .set({ refundedMinor, refundedTokens: target, unrecoveredTokens: sql`${subscriptionCharges.unrecoveredTokens} + ${unrecovered}` })
        .where(eq(subscriptionCharges.id, charge.id));
      return true;
    });
    if (changed) ctx.walletChanged(found.userId);
    return changed;
  };

  return {
    applyReversal,

    /** Applies a verified notification about a mandate, a renewal, a provider-billed subscription or money back on a period. */
    async apply(providerName: ProviderName, event: MandateEvent | ProviderSubscriptionEvent | ReversalEvent): Promise<boolean> {
      const at = ctx.now();
      switch (event.kind) {
        case 'mandate':
          if (!(await ctx.recordEvent(db, providerName, event.eventId, event.kind))) return false;
          return mandateParts.applyMandate(event.mandate, at);
        case 'method_revoked': {
          if (!(await ctx.recordEvent(db, providerName, event.eventId, event.kind))) return false;
          const revoked = await db
            .update(mandates)
            .set({ status: 'revoked', updatedAt: at })
            .where(and(eq(mandates.provider, providerName), eq(mandates.providerMethodId, event.providerMethodId), eq(mandates.status, 'active')))
            .returning();
          for (const mandate of revoked) await mandateParts.mandateRevoked(mandate, at);
          return revoked.length > 0;
        }
        case 'charge': {
          if (!(await ctx.recordEvent(db, providerName, event.eventId, event.kind))) return false;
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
          const sub = await ctx.findSubscription(charge.subscriptionId);
          if (!sub) return false;
          if (!charge.providerPaymentId) await db.update(subscriptionCharges).set({ providerPaymentId: event.charge.providerPaymentId }).where(eq(subscriptionCharges.id, charge.id));
          await periods.settleCharge(charge, event.charge, at, periods.kindOf(charge, sub));
          return true;
        }
        case 'charge_refunded':
        case 'disputed':
          return applyReversal(providerName, event, at);
        default:
          return applyProviderEvent(providerName, event, at);
      }
    },
  };
}

