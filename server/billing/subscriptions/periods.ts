// A period paid for (DESIGN §4 Billing): charging a saved method once per period, and settling
// what the provider answers — the charge completed, the subscription moved on to the period it
// paid for and its tokens credited to lapse at the period's end, in one statement; or the charge
// refused and the subscription retrying later or ending, as its step says.
import { and, eq, isNull, sql } from 'drizzle-orm';
import { subscriptionCharges, subscriptions, mandates } from '../../db/schema';
import { ProviderRefused, type RemoteCharge } from '../provider';
import { planOf } from '../prices';
import type { PlanInterval } from '../../../contract/billing';
import type { ClientProvider } from '../../../contract/billing';
import { periodEnd, type ChargeKind, type ChargeRow, type Context, type MandateRow, type SubscriptionRow } from './context';

/** After a refused renewal, the next attempts: a day later, then two more (past_due), then four (unpaid). */
export const RETRY_AFTER_MS = [1, 2, 4].map((days) => days * 24 * 60 * 60_000);
/**
 * How long a charge whose answer was lost may be sent again under its key: within the shortest
 * window a provider keeps an idempotency key (YooKassa's 24 hours), with an hour to spare.
 */
export const CHARGE_RESEND_MS = 23 * 60 * 60_000;

export type Periods = ReturnType<typeof createPeriods>;

export function createPeriods(ctx: Context) {
  const { db, ledger, log } = ctx;

  /**
   * A period paid: the charge completed (with the provider's id of the payment), the subscription
   * moved on to the period (and plan) it paid for unless it already has a later one (an upgrade
   * always moves it), and its tokens credited to lapse at the period's end — in one statement, so
   * once per charge and one round trip however many renewals run.
   */
  const completeCharge = async (charge: ChargeRow, at: Date, kind: ChargeKind, providerPaymentId: string | null): Promise<boolean> => {
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
    ctx.walletChanged(charge.userId);
    ctx.mail(charge.userId, { kind: kind === 'first' ? 'activated' : kind === 'upgrade' ? 'upgraded' : 'renewed', planName: ctx.nameOf(charge.planId), date: charge.periodEnd });
    return true;
  };

  /** A charge the provider refused (or never made): the subscription retries later, or ends, as its step says. */
  const failCharge = async (charge: ChargeRow, at: Date, kind: ChargeKind, revoked: boolean): Promise<void> => {
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
        await tx.update(subscriptions).set({ status: 'failed', endedAt: at, renewAt: null, updatedAt: at }).where(and(eq(subscriptions.id, sub.id), eq(subscriptions.status, 'pending')));
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
    if (ended) ctx.mail(charge.userId, { ...ended.mail, planName: ctx.nameOf(ended.sub.planId) });
  };

  /** Settles a pending charge by what the provider says of it (pending stays pending). */
  const settleCharge = async (charge: ChargeRow, remote: RemoteCharge, at: Date, kind: ChargeKind) => {
    if (remote.state.status === 'succeeded') {
      if (remote.state.amountMinor !== charge.amountMinor || remote.state.currency.toUpperCase() !== charge.currency) {
        log.error({ chargeId: charge.id, remote }, 'a subscription charge was paid with another amount: not credited');
        return;
      }
      await completeCharge(charge, at, kind, remote.providerPaymentId);
    } else if (remote.state.status === 'failed') await failCharge(charge, at, kind, remote.revoked);
  };

  const kindOf = (charge: ChargeRow, sub: SubscriptionRow): ChargeKind => {
    if (!sub.currentPeriodStart) return 'first';
    return charge.planId !== sub.planId && charge.periodStart > sub.currentPeriodStart ? 'upgrade' : 'renewal';
  };

  /**
   * Charges a mandate for one period of a subscription, once per period (and once per seller's
   * request key, for an upgrade): a repeat finds the charge already made and only settles it.
   * Answers the charge as it stands.
   */
  const chargeMandate = async (
    sub: SubscriptionRow,
    period: { start: Date; planId: number; interval: PlanInterval; requestKey?: string },
    kind: ChargeKind,
    at: Date,
    /** The subscription's mandate when the caller has read it already (the renewal job reads a batch's at once). */
    known?: MandateRow,
  ): Promise<ChargeRow> => {
    const entry = ctx.planEntry(period.planId);
    const client = sub.client as ClientProvider;
    const billing = ctx.mandateBilling(client);
    const [mandate] = known ? [known] : sub.mandateId ? await db.select().from(mandates).where(eq(mandates.id, sub.mandateId)) : [];
    if (!billing || !mandate?.providerMethodId) throw new Error(`subscription ${sub.id} has no mandate to charge`);
    const currency = ctx.currencyOf(client);
    const values = {
      subscriptionId: sub.id,
      userId: sub.userId,
      planId: entry.id,
      interval: period.interval,
      periodStart: period.start,
      periodEnd: periodEnd(period.start, period.interval),
      tokens: ctx.tokensOf(entry, period.interval),
      amountMinor: ctx.priceMinor(entry, period.interval, client),
      currency,
      requestKey: period.requestKey ?? null,
      // Made at the jobs' moment, not the database's: a run at that same moment on another node
      // then sees a charge still being made, never one whose answer was lost long ago.
      createdAt: at,
    };
    const [inserted] = await db.insert(subscriptionCharges).values(values).onConflictDoNothing().returning();
    const charge =
      inserted ??
      (
        await db
          .select()
          .from(subscriptionCharges)
          .where(
            and(
              eq(subscriptionCharges.subscriptionId, sub.id),
              period.requestKey
                ? eq(subscriptionCharges.requestKey, period.requestKey)
                : and(eq(subscriptionCharges.periodStart, period.start), eq(subscriptionCharges.source, 'mandate'), sql`${subscriptionCharges.status} <> 'failed'`),
            ),
          )
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
        return (await ctx.findCharge(charge.id))!;
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
    return (await ctx.findCharge(charge.id))!;
  };

  /**
   * Asks the provider about a pending charge: read by its provider id; without one (its answer was
   * lost) sent again under the same key while the provider still keeps that key, so it cannot
   * charge twice; after that found by reading the provider, or declined when it was never made.
   * Answers the charge as it stands.
   */
  const askAbout = async (charge: ChargeRow, sub: SubscriptionRow, at: Date): Promise<ChargeRow> => {
    const billing = ctx.mandateBilling(sub.client as ClientProvider);
    if (!billing) return charge;
    const kind = kindOf(charge, sub);
    if (charge.providerPaymentId) {
      await settleCharge(charge, await billing.retrieveCharge(charge.providerPaymentId), at, kind);
    } else if (at.getTime() - charge.createdAt.getTime() < CHARGE_RESEND_MS) {
      return chargeMandate(sub, { start: charge.periodStart, planId: charge.planId, interval: charge.interval as PlanInterval, requestKey: charge.requestKey ?? undefined }, kind, at);
    } else {
      const found = await billing.findCharge(charge.id, charge.createdAt);
      if (!found) {
        log.warn({ chargeId: charge.id }, 'a charge whose answer was lost was never made by the provider: it is declined');
        await failCharge(charge, at, kind, false);
      } else {
        await db.update(subscriptionCharges).set({ providerPaymentId: found.providerPaymentId }).where(and(eq(subscriptionCharges.id, charge.id), isNull(subscriptionCharges.providerPaymentId)));
        await settleCharge({ ...charge, providerPaymentId: found.providerPaymentId }, found, at, kind);
      }
    }
    return (await ctx.findCharge(charge.id)) ?? charge;
  };

  return { completeCharge, failCharge, settleCharge, chargeMandate, kindOf, askAbout };
}
