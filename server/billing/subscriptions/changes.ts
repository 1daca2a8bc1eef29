// Changing a live subscription (SPEC §4): cancelling at the period's end, and upgrading to a
// higher plan at once. An upgrade is charged once however it is asked: one at a time per
// subscription on any number of nodes (a lease), a second while one is in flight refused with
// UPGRADE_IN_PROGRESS, and a repeat under the seller's Idempotency-Key answers the first's result.
import { and, eq } from 'drizzle-orm';
import { subscriptionCharges, subscriptions } from '../../db/schema';
import { HttpError } from '../../lib/errors';
import { TOP_PLAN_ID } from '../../../contract/billing';
import { planOf } from '../prices';
import { withLease } from '../locks';
import type { Context, SubscriptionRow } from './context';
import type { Periods } from './periods';

/** An upgrade's lease: a provider's slowest answer; a second upgrade is refused at once, not queued. */
const UPGRADE_LEASE = { ttlMs: 90_000, waitMs: 0, busy: { status: 409, code: 'UPGRADE_IN_PROGRESS' } } as const;

export function createChanges(ctx: Context, periods: Periods) {
  const { db, prices } = ctx;

  return {
    /** Cancels at the current period's end (SPEC §4): cancel_at set, tokens kept until they lapse. */
    async cancel(userId: string, id?: string): Promise<SubscriptionRow> {
      const sub = id ? await ctx.ownSubscription(userId, id) : await ctx.liveOf(userId);
      if (!sub || !['active', 'past_due'].includes(sub.status)) throw new HttpError(404, 'SUBSCRIPTION_NOT_FOUND', 'SUBSCRIPTION_NOT_FOUND');
      if (sub.cancelAt) return sub;
      let cancelAt = sub.currentPeriodEnd ?? ctx.now();
      const billing = ctx.providerNamed(sub.provider)?.subscriptions;
      if (sub.billing === 'provider' && billing && sub.providerSubscriptionId) {
        try {
          cancelAt = await billing.cancelAtPeriodEnd(sub.providerSubscriptionId);
        } catch (error) {
          return ctx.refusedByProvider(error);
        }
      }
      const [row] = await db.update(subscriptions).set({ cancelAt, updatedAt: ctx.now() }).where(eq(subscriptions.id, sub.id)).returning();
      return row!;
    },

    /**
     * Moves an active subscription to a higher plan at once (SPEC §4): a new period starts now with
     * the new plan's tokens; the old period's tokens keep their date. `requestKey` is the seller's
     * Idempotency-Key: the same key answers the same upgrade, charged once.
     */
    async upgrade(userId: string, planId: number, options: { id?: string; requestKey: string }): Promise<SubscriptionRow> {
      const found = options.id ? await ctx.ownSubscription(userId, options.id) : await ctx.liveOf(userId);
      if (!found) throw new HttpError(404, 'SUBSCRIPTION_NOT_FOUND', 'SUBSCRIPTION_NOT_FOUND');
      return withLease(db, `upgrade:${found.id}`, UPGRADE_LEASE, async () => {
        const sub = (await ctx.findSubscription(found.id))!;
        // The same request again: its charge answers, whatever the subscription became since.
        const [earlier] = await db
          .select()
          .from(subscriptionCharges)
          .where(and(eq(subscriptionCharges.subscriptionId, sub.id), eq(subscriptionCharges.requestKey, options.requestKey)));
        if (earlier) {
          if (earlier.status === 'failed') throw new HttpError(402, 'PAYMENT_DECLINED', 'PAYMENT_DECLINED');
          if (earlier.status === 'completed' || earlier.planId === planId) return sub;
        }
        if (sub.status !== 'active' || sub.cancelAt || sub.planId === TOP_PLAN_ID) throw new HttpError(409, 'UPGRADE_NOT_ALLOWED', 'UPGRADE_NOT_ALLOWED');
        if (planId === sub.planId) throw new HttpError(409, 'ALREADY_SUBSCRIBED', 'ALREADY_SUBSCRIBED');
        const current = ctx.entryOf(sub.planId);
        const target = ctx.planEntry(planId);
        const order = prices.plans.map((plan) => plan.id);
        if (current && order.indexOf(target.id) < order.indexOf(current.id)) throw new HttpError(400, 'PLAN_NOT_HIGHER', 'PLAN_NOT_HIGHER');
        const interval = ctx.intervalOf(sub);
        if (sub.billing === 'provider') {
          const billing = ctx.providerNamed(sub.provider)?.subscriptions;
          if (!billing || !sub.providerSubscriptionId) throw new HttpError(409, 'UPGRADE_NOT_ALLOWED', 'UPGRADE_NOT_ALLOWED');
          try {
            await billing.changePlan(sub.providerSubscriptionId, {
              planId: target.id,
              planName: planOf(target, interval, 'en').name,
              interval,
              amountMinor: ctx.priceMinor(target, interval, 'card'),
              currency: 'USD',
            });
          } catch (error) {
            return ctx.refusedByProvider(error);
          }
          return sub;
        }
        const at = ctx.now();
        const charge = await periods.chargeMandate(sub, { start: at, planId: target.id, interval, requestKey: options.requestKey }, 'upgrade', at);
        if (charge.status === 'failed') throw new HttpError(402, 'PAYMENT_DECLINED', 'PAYMENT_DECLINED');
        return (await ctx.findSubscription(sub.id))!;
      });
    },
  };
}
