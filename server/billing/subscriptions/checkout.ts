// Starting a subscription (SPEC §4 checkout): through the card provider's own checkout (Stripe),
// through a card mandate (the sandbox), or through a mandate of the local provider charged at
// once. One seller starts one checkout at a time, on any number of nodes (a lease per seller), and
// a new checkout first closes the seller's unfinished one at the provider, so a page left open in
// another tab can no longer be paid; one that cannot be closed (paid, or its charge still
// pending) keeps the new one from opening.
import { and, eq } from 'drizzle-orm';
import { customers, mandates, subscriptionCharges, subscriptions } from '../../db/schema';
import { HttpError } from '../../lib/errors';
import type { ClientProvider, Customer, LocalMethod, PlanInterval } from '../../../contract/billing';
import type { Locale } from '../../../contract/locales';
import { planOf } from '../prices';
import { withLease } from '../locks';
import { isUniqueViolation, type Context, type SubscriptionRow } from './context';
import type { Periods } from './periods';
import type { Mandates } from './mandates';

/** A checkout's lease: long enough for a provider's slowest answer, waited for about as long as a double tap. */
const CHECKOUT_LEASE = { ttlMs: 90_000, waitMs: 15_000, busy: { status: 409, code: 'CHECKOUT_IN_PROGRESS' } } as const;

export function createCheckout(ctx: Context, periods: Periods, mandateParts: Mandates) {
  const { db, log } = ctx;

  /**
   * Whether a pending first charge is still in the air, after asking the provider once more the
   * way reconciliation does: its answer lost, it is sent again under its own key (the provider
   * answers the payment it made, never a second one) rather than declared failed while the
   * provider may still be making it.
   */
  const chargeStillPending = async (sub: SubscriptionRow, at: Date): Promise<boolean> => {
    const [charge] = await db
      .select()
      .from(subscriptionCharges)
      .where(and(eq(subscriptionCharges.subscriptionId, sub.id), eq(subscriptionCharges.status, 'pending')));
    if (!charge) return false;
    if (!ctx.mandateBilling(sub.client as ClientProvider)) return true;
    return (await periods.askAbout(charge, sub, at)).status === 'pending';
  };

  /** Closes each unfinished checkout of the seller at its provider, or refuses the new one when one cannot be closed. */
  const closeUnfinished = async (userId: string, at: Date) => {
    const unfinished = await db.select().from(subscriptions).where(and(eq(subscriptions.userId, userId), eq(subscriptions.status, 'pending')));
    for (const sub of unfinished) {
      let closed = true;
      try {
        const provider = ctx.providerNamed(sub.provider);
        if (sub.billing === 'provider') {
          if (provider?.subscriptions && sub.providerCheckoutId) closed = (await provider.subscriptions.closeCheckout(sub.providerCheckoutId)) === 'expired';
        } else if (sub.mandateId && sub.providerCheckoutId === sub.mandateId) {
          // A card checkout through a mandate: its page is the mandate's.
          const [mandate] = await db.select().from(mandates).where(eq(mandates.id, sub.mandateId));
          if (mandate) closed = await mandateParts.closeMandate(mandate, at);
        } else closed = !(await chargeStillPending(sub, at));
      } catch (error) {
        return ctx.refusedByProvider(error);
      }
      const [current] = await db.select().from(subscriptions).where(eq(subscriptions.id, sub.id));
      if (current?.status !== 'pending') continue; // settled meanwhile (paid, or its charge refused)
      if (!closed) throw new HttpError(409, 'CHECKOUT_IN_PROGRESS', 'CHECKOUT_IN_PROGRESS');
      await db.update(subscriptions).set({ status: 'failed', endedAt: at, updatedAt: at }).where(and(eq(subscriptions.id, sub.id), eq(subscriptions.status, 'pending')));
      log.info({ subscriptionId: sub.id }, 'an unfinished checkout was closed for a newer one');
    }
  };

  const refuseIfSubscribed = async (userId: string) => {
    const live = await ctx.liveOf(userId);
    if (live && live.status !== 'unpaid') throw new HttpError(409, 'ALREADY_SUBSCRIBED', 'ALREADY_SUBSCRIBED');
  };

  /**
   * Opens a checkout for the seller under their lease: the same request made while this one
   * waited for the lease answered as it was, the unfinished one closed, a live plan refused, an
   * unpaid one ended in favour of the new, then `open` makes the new one.
   */
  const startCheckout = <T>(userId: string, open: () => Promise<T>, repeated?: () => Promise<T | undefined>): Promise<T> =>
    withLease(db, `checkout:${userId}`, CHECKOUT_LEASE, async () => {
      const earlier = await repeated?.();
      if (earlier) return earlier;
      const at = ctx.now();
      await closeUnfinished(userId, at);
      await refuseIfSubscribed(userId);
      await db
        .update(subscriptions)
        .set({ status: 'canceled', endedAt: at, renewAt: null, updatedAt: at })
        .where(and(eq(subscriptions.userId, userId), eq(subscriptions.status, 'unpaid')));
      return open();
    });

  const insertSubscription = async (values: typeof subscriptions.$inferInsert): Promise<SubscriptionRow> => {
    try {
      const [row] = await db.insert(subscriptions).values(values).returning();
      return row!;
    } catch (error) {
      if (isUniqueViolation(error)) throw new HttpError(409, 'ALREADY_SUBSCRIBED', 'ALREADY_SUBSCRIBED');
      throw error;
    }
  };

  return {
    /** Keeps the billing details the seller gave (SPEC §3 Customer payload), the latest per seller. */
    async saveCustomer(userId: string, customer: Customer): Promise<{ id: string; reference: string }> {
      const at = ctx.now();
      await db
        .insert(customers)
        .values({ userId, reference: customer.reference, payload: customer })
        .onConflictDoUpdate({ target: customers.userId, set: { reference: customer.reference, payload: customer, updatedAt: at } });
      return { id: userId, reference: customer.reference };
    },

    /** Starts authorising a payment method with the local provider; answers where to send the seller. */
    createMandate(userId: string, input: { reference: string; payment_method: LocalMethod }, context: { locale: string; email?: string }) {
      return mandateParts.createMandateRow(
        userId,
        {
          client: 'localpay',
          method: input.payment_method,
          reference: input.reference,
          description: 'SoleStudio: automatic payments for a subscription',
          returnUrl: (id) => `${ctx.publicUrl}/subscription/result?mandate_id=${id}`,
          cancelUrl: (id) => `${ctx.publicUrl}/subscription/cancel?mandate_id=${id}`,
        },
        context,
      );
    },

    /**
     * Subscribes through an active mandate of the local provider, charging it for the first period
     * at once. A repeat with the same reference answers the same subscription.
     */
    async subscribeWithMandate(userId: string, input: { plan_id: number; mandate_id: string; reference: string; interval: PlanInterval }): Promise<SubscriptionRow> {
      const again = async () => (await db.select().from(subscriptions).where(and(eq(subscriptions.userId, userId), eq(subscriptions.reference, input.reference))))[0];
      const before = await again();
      if (before) return before;
      ctx.planEntry(input.plan_id);
      const [mandate] = await db.select().from(mandates).where(and(eq(mandates.id, input.mandate_id), eq(mandates.userId, userId)));
      if (!mandate) throw new HttpError(404, 'MANDATE_NOT_FOUND', 'MANDATE_NOT_FOUND');
      ctx.providerFor(mandate.client as ClientProvider);
      const current = await mandateParts.fresh(mandate);
      if (current.status !== 'active') throw new HttpError(409, 'MANDATE_NOT_ACTIVE', 'MANDATE_NOT_ACTIVE', { status: current.status });
      const sub = await startCheckout(
        userId,
        async () => {
          const row = await insertSubscription({
            userId,
            provider: current.provider,
            client: current.client,
            billing: 'mandate',
            mandateId: current.id,
            reference: input.reference,
            planId: input.plan_id,
            interval: input.interval,
          });
          const at = ctx.now();
          await periods.chargeMandate(row, { start: at, planId: row.planId, interval: input.interval }, 'first', at);
          return row;
        },
        again,
      );
      return (await ctx.findSubscription(sub.id))!;
    },

    /**
     * Starts a subscription through the card provider: its own checkout where it bills
     * subscriptions (Stripe), otherwise a mandate for the card whose authorisation starts it.
     */
    async createWithCard(userId: string, input: { plan_id: number; interval: PlanInterval }, context: { locale: Locale; email?: string }) {
      const entry = ctx.planEntry(input.plan_id);
      const provider = ctx.providerFor('card');
      return startCheckout(userId, async () => {
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
              amountMinor: ctx.priceMinor(entry, input.interval, 'card'),
              currency: 'USD',
              successUrl: `${ctx.publicUrl}/subscription/success?session_id={CHECKOUT_SESSION_ID}`,
              cancelUrl: `${ctx.publicUrl}/subscription/cancel?subscription_id=${sub.id}`,
              locale: context.locale,
              email: context.email,
            });
            const [kept] = await db
              .update(subscriptions)
              .set({ providerCheckoutId: checkout.providerPaymentId })
              .where(and(eq(subscriptions.id, sub.id), eq(subscriptions.status, 'pending')))
              .returning({ id: subscriptions.id });
            if (!kept) {
              // The provider answered so late that this checkout's lease ran out and a newer one
              // closed it meanwhile: its page is closed too before anyone can pay on it.
              await db.update(subscriptions).set({ providerCheckoutId: checkout.providerPaymentId }).where(eq(subscriptions.id, sub.id));
              await provider.subscriptions.closeCheckout(checkout.providerPaymentId);
              log.warn({ subscriptionId: sub.id }, 'a checkout closed by a newer one while its page was being made: the page is closed');
              throw new HttpError(409, 'CHECKOUT_IN_PROGRESS', 'CHECKOUT_IN_PROGRESS');
            }
            return { redirectUrl: checkout.redirectUrl, sessionId: checkout.providerPaymentId };
          } catch (error) {
            await db.update(subscriptions).set({ status: 'failed', endedAt: ctx.now() }).where(eq(subscriptions.id, sub.id));
            return ctx.refusedByProvider(error);
          }
        }
        const plan = planOf(entry, input.interval, context.locale);
        const mandate = await mandateParts.createMandateRow(
          userId,
          {
            client: 'card',
            method: 'card_intl',
            reference,
            description: `SoleStudio: ${plan.name}, $${plan.price} / ${input.interval}`,
            returnUrl: (id) => `${ctx.publicUrl}/subscription/success?session_id=${id}`,
            cancelUrl: (id) => `${ctx.publicUrl}/subscription/cancel?session_id=${id}`,
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
      });
    },

    /** The card provider's checkout as we know it (the success page reads it). */
    async checkoutSession(userId: string, sessionId: string): Promise<{ status: 'open' | 'complete' | 'expired'; subscription: SubscriptionRow | null }> {
      const [sub] = await db
        .select()
        .from(subscriptions)
        .where(and(eq(subscriptions.userId, userId), eq(subscriptions.client, 'card'), eq(subscriptions.providerCheckoutId, sessionId)));
      if (!sub) throw new HttpError(404, 'NOT_FOUND', 'NOT_FOUND');
      let row = sub;
      const card = ctx.providers.card;
      if (row.status === 'pending' && row.mandateId) {
        const [mandate] = await db.select().from(mandates).where(eq(mandates.id, row.mandateId));
        if (mandate) await mandateParts.fresh(mandate);
        row = (await ctx.findSubscription(row.id)) ?? row;
      } else if (row.status === 'pending' && card?.subscriptions && row.provider === card.name) {
        try {
          const remote = await card.subscriptions.retrieveSubscriptionCheckout(sessionId);
          if (remote.status === 'expired') {
            await db.update(subscriptions).set({ status: 'failed', endedAt: ctx.now() }).where(and(eq(subscriptions.id, row.id), eq(subscriptions.status, 'pending')));
            row = (await ctx.findSubscription(row.id)) ?? row;
          }
          if (remote.status !== 'complete' || row.status === 'pending') return { status: remote.status === 'complete' ? 'open' : remote.status, subscription: row };
        } catch (error) {
          log.warn({ err: error, sessionId }, 'asking the card provider about a checkout failed');
        }
      }
      const status = row.status === 'pending' ? 'open' : row.status === 'failed' ? 'expired' : 'complete';
      return { status, subscription: row };
    },
  };
}
