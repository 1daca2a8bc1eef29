// Subscriptions (DESIGN §4 Billing): one model, billed two ways. A mandate provider (the sandbox,
// YooKassa) saves a payment method the seller authorises, and our job charges it at each period's
// end, retrying over a week (past_due → unpaid → canceled). A provider that bills subscriptions
// itself (Stripe) renews on its own and we follow its notifications. Either way a paid period is a
// charge, credited once with tokens that lapse at the period's end; every step is a row with a
// named status, and the time is a parameter, so tests move through periods without waiting.
// The parts live in ./subscriptions/, one job each; this module puts them together.
import { and, desc, eq, notInArray } from 'drizzle-orm';
import { subscriptions } from '../db/schema';
import type { Plan, SubscriptionStatus } from '../../contract/billing';
import type { Locale } from '../../contract/locales';
import { planOf } from './prices';
import { createContext, type SubscriptionRow, type SubscriptionsOptions } from './subscriptions/context';
import { createPeriods } from './subscriptions/periods';
import { createMandates } from './subscriptions/mandates';
import { createCheckout } from './subscriptions/checkout';
import { createChanges } from './subscriptions/changes';
import { createProviderEvents } from './subscriptions/provider-events';
import { createRenewals } from './subscriptions/renewals';

export { periodEnd, type ChargeRow, type MandateRow, type SubscriptionMail, type SubscriptionMailKind, type SubscriptionRow } from './subscriptions/context';
export { RETRY_AFTER_MS } from './subscriptions/periods';

export type Subscriptions = ReturnType<typeof createSubscriptions>;

export function createSubscriptions(options: SubscriptionsOptions) {
  const ctx = createContext(options);
  const periods = createPeriods(ctx);
  const mandates = createMandates(ctx, periods);
  const checkout = createCheckout(ctx, periods, mandates);
  const changes = createChanges(ctx, periods);
  const events = createProviderEvents(ctx, periods, mandates);
  const renewals = createRenewals(ctx, periods, mandates);
  const { db, prices } = ctx;

  return {
    /** Every plan at both intervals, in the seller's language (SPEC §3 Plan). */
    plans(locale: Locale): Plan[] {
      return (['month', 'year'] as const).flatMap((interval) => prices.plans.map((entry) => planOf(entry, interval, locale)));
    },

    planOf(row: SubscriptionRow, locale: Locale): Plan {
      const entry = ctx.entryOf(row.planId);
      if (!entry) return { id: row.planId, name: `#${row.planId}`, price: 1, interval: ctx.intervalOf(row), description: '', features: '[]', tokens: 1 };
      return planOf(entry, ctx.intervalOf(row), locale);
    },

    /** The seller's subscription: the live one, else the latest that ended; undefined when none. */
    async mine(userId: string): Promise<SubscriptionRow | undefined> {
      const live = await ctx.liveOf(userId);
      if (live) return live;
      const [latest] = await db
        .select()
        .from(subscriptions)
        .where(and(eq(subscriptions.userId, userId), notInArray(subscriptions.status, ['pending', 'failed'])))
        .orderBy(desc(subscriptions.createdAt))
        .limit(1);
      return latest;
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

    saveCustomer: checkout.saveCustomer,
    mandatesOf: mandates.mandatesOf,
    mandateOf: mandates.mandateOf,
    createMandate: checkout.createMandate,
    subscribeWithMandate: checkout.subscribeWithMandate,
    createWithCard: checkout.createWithCard,
    checkoutSession: checkout.checkoutSession,
    cancel: changes.cancel,
    upgrade: changes.upgrade,
    apply: events.apply,
    run: renewals.run,
    reconcile: renewals.reconcile,
  };
}
