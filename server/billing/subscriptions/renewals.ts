// The subscription jobs (DESIGN §4 Billing), as if the time were `at`: ending what was cancelled,
// renewing what is due (each period charged once, on any number of nodes at once), asking the
// providers about mandates and charges left pending, and lapsing period tokens whose time has
// come. A charge whose answer was lost is asked again under the same idempotency key only while
// the provider still keeps that key; after that it is found by reading the provider, never sent
// again, so a late re-send can never become a second real charge.
import { setImmediate as yieldToRequests } from 'node:timers/promises';
import { and, eq, inArray, isNull, lte, sql } from 'drizzle-orm';
import { mandates, subscriptionCharges, subscriptions } from '../../db/schema';
import { FIRST_CHECK_MS, LIVE, LONGEST_CHECK_MS, type ChargeRow, type Context, type MandateRow, type SubscriptionRow } from './context';
import type { Periods } from './periods';
import type { Mandates } from './mandates';

/** A renewal claimed by a node that died is tried again after this long. */
const RENEW_LEASE_MS = 10 * 60_000;
/** A mandate nobody authorised within a day is given up. */
const MANDATE_GIVE_UP_MS = 24 * 60 * 60_000;
export { CHARGE_RESEND_MS } from './periods';
/** Subscriptions renewed per batch of the job. */
const RENEW_BATCH = 200;

export function createRenewals(ctx: Context, periods: Periods, mandateParts: Mandates) {
  const { db, ledger, log } = ctx;

  /** Ends every subscription whose cancellation date has come (mandate-billed ones; the provider ends its own). */
  const endCancelled = async (at: Date) => {
    const ended = await db
      .update(subscriptions)
      .set({ status: sql`CASE WHEN ${subscriptions.status} = 'revoked' THEN 'revoked' ELSE 'canceled' END`, endedAt: at, renewAt: null, updatedAt: at })
      .where(and(eq(subscriptions.billing, 'mandate'), inArray(subscriptions.status, LIVE), lte(subscriptions.cancelAt, at)))
      .returning();
    for (const sub of ended) ctx.mail(sub.userId, { kind: 'canceled', planName: ctx.nameOf(sub.planId), date: sub.cancelAt });
    return ended.length;
  };

  /** Renews one claimed subscription: charges its next period (or retries the one it owes). */
  const renewOne = async (sub: SubscriptionRow, at: Date, mandate: MandateRow | undefined) => {
    if (!sub.currentPeriodEnd) return;
    // The charge's period is the one the subscription owes, whenever it is finally paid.
    await periods.chargeMandate(sub, { start: sub.currentPeriodEnd, planId: sub.planId, interval: ctx.intervalOf(sub) }, 'renewal', at, mandate);
  };

  /** A pending charge asked about (see periods.askAbout: re-sent only while its key holds, found by reading the provider after). */
  const reconcileCharge = async (charge: ChargeRow, at: Date) => {
    const sub = await ctx.findSubscription(charge.subscriptionId);
    if (sub) await periods.askAbout(charge, sub, at);
  };

  /** Asks the providers about mandates and charges left pending (a notification that never came). */
  const reconcile = async (at: Date = ctx.now()): Promise<number> => {
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
        const current = await mandateParts.askMandate(mandate, at);
        if (current.status === 'pending' && at.getTime() - current.createdAt.getTime() > MANDATE_GIVE_UP_MS) {
          await mandateParts.applyMandate({ providerMandateId: current.providerMandateId ?? '', mandateId: current.id, status: 'failed', providerMethodId: null, reason: 'expired' }, at);
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
        await reconcileCharge(charge, at);
      } catch (error) {
        log.warn({ err: error, chargeId: charge.id }, 'reconciling a subscription charge failed; it is asked about again later');
      }
      await yieldToRequests();
    }
    return due.length + charges.length;
  };

  return {
    reconcile,

    /**
     * The subscription jobs, as if the time were `at`. Answers how many renewals were tried, how
     * many subscriptions ended and how many tokens lapsed.
     */
    async run(at: Date = ctx.now()): Promise<{ renewed: number; ended: number; lapsed: number }> {
      const ended = await endCancelled(at);
      let renewed = 0;
      for (;;) {
        const claimed = await db
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
        const ids = claimed.flatMap((sub) => (sub.mandateId ? [sub.mandateId] : []));
        const batch = new Map(ids.length > 0 ? (await db.select().from(mandates).where(inArray(mandates.id, ids))).map((row) => [row.id, row]) : []);
        for (const sub of claimed) {
          try {
            await renewOne(sub, at, sub.mandateId ? batch.get(sub.mandateId) : undefined);
          } catch (error) {
            log.error({ err: error, subscriptionId: sub.id }, 'renewing a subscription failed; it is tried again later');
          }
          // The embedded database answers without giving the event loop a turn: let requests in between.
          await yieldToRequests();
        }
        renewed += claimed.length;
        if (claimed.length < RENEW_BATCH) break;
      }
      await reconcile(at);
      let lapsed = 0;
      for (;;) {
        const users = await ledger.lapsingBy(at, 500);
        for (const userId of users) {
          const tokens = await ledger.expireFor(userId, at);
          if (tokens > 0) ctx.walletChanged(userId);
          lapsed += tokens;
          await yieldToRequests();
        }
        if (users.length < 500) break;
      }
      return { renewed, ended, lapsed };
    },
  };
}
