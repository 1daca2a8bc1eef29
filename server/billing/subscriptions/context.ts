// What every part of subscriptions shares (DESIGN §4 Billing): the options they are made with, the
// price list read for a plan and a provider, the rows they move, the subscription a seller has,
// and the events recorded once per provider. The parts are split by their job: checkout (starting
// one), periods (a period's charge and its tokens), mandates, changes (upgrade, cancel), provider
// events (what the card provider tells us) and renewals (the jobs).
import { and, desc, eq, inArray } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { type mandates, subscriptionCharges, subscriptionEvents, subscriptions } from '../../db/schema';
import { HttpError } from '../../lib/errors';
import { chargeMinor, type ClientProvider, type PlanInterval, type SubscriptionStatus } from '../../../contract/billing';
import type { Locale } from '../../../contract/locales';
import { planOf, type PlanEntry } from '../prices';
import type { PaymentsOptions } from '../payments';
import { ProviderRefused, ProviderUnavailable, providerNamed, type PaymentProvider } from '../provider';

export type SubscriptionRow = typeof subscriptions.$inferSelect;
export type MandateRow = typeof mandates.$inferSelect;
export type ChargeRow = typeof subscriptionCharges.$inferSelect;
/** What a charge pays for: the first period, a renewal, or an upgrade that starts a new period now. */
export type ChargeKind = 'first' | 'renewal' | 'upgrade';

/** What the seller is told by mail, at each step of a subscription's life. */
export type SubscriptionMailKind = 'activated' | 'renewed' | 'payment_failed' | 'unpaid' | 'canceled' | 'revoked' | 'upgraded' | 'refunded';
export interface SubscriptionMail {
  kind: SubscriptionMailKind;
  planName: (locale: Locale) => string;
  /** The period's end, the next attempt or the end of the plan, as the kind needs. */
  date: Date | null;
}

/** What subscriptions are made with: what payments are, and a way to tell the seller by mail. */
export interface SubscriptionsOptions extends PaymentsOptions {
  /** Tells the seller by mail (sent later; a failure to send loses nothing). */
  mail(userId: string, mail: SubscriptionMail): void;
}

/** The statuses of a subscription that has (or owes) a period. */
export const LIVE: SubscriptionStatus[] = ['active', 'past_due', 'unpaid'];
/** How long after its creation a pending mandate or charge is first asked about, then between asks (growing). */
export const FIRST_CHECK_MS = 2 * 60_000;
export const LONGEST_CHECK_MS = 6 * 60 * 60_000;
/** The status routes ask a provider about one pending mandate at most this often. */
export const STATUS_ASK_MS = 5_000;

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

export const isUniqueViolation = (error: unknown): boolean => {
  for (let cause: unknown = error; cause && typeof cause === 'object'; cause = (cause as { cause?: unknown }).cause) {
    if ((cause as { code?: string }).code === '23505') return true;
  }
  return false;
};

export type Context = ReturnType<typeof createContext>;

export function createContext(options: SubscriptionsOptions) {
  const { db, prices, providers, log } = options;
  const now = options.now ?? (() => new Date());

  const entryOf = (planId: number): PlanEntry | undefined => prices.plans.find((plan) => plan.id === planId);
  const currencyOf = (client: ClientProvider) => (client === 'card' ? ('USD' as const) : ('RUB' as const));

  return {
    ...options,
    now,
    providerNamed: (name: string): PaymentProvider | undefined => providerNamed(providers, name),
    /** The provider behind a page's provider name; refused as unavailable when this server has none for it. */
    providerFor(client: ClientProvider): PaymentProvider {
      const provider = providers[client];
      if (!provider) throw new HttpError(503, 'PAYMENT_UNAVAILABLE', 'PAYMENT_METHOD_ABSENT');
      return provider;
    },
    entryOf,
    planEntry(planId: number): PlanEntry {
      const entry = entryOf(planId);
      if (!entry) throw new HttpError(400, 'UNKNOWN_PLAN', 'UNKNOWN_PLAN');
      return entry;
    },
    currencyOf,
    priceMinor(entry: PlanEntry, interval: PlanInterval, client: ClientProvider) {
      const currency = currencyOf(client);
      return chargeMinor(interval === 'month' ? entry.usd_month : entry.usd_year, currency === 'USD' ? 1 : prices.rub_per_usd, currency);
    },
    tokensOf: (entry: PlanEntry, interval: PlanInterval) => (interval === 'month' ? entry.tokens_month : entry.tokens_year),
    intervalOf: (row: SubscriptionRow): PlanInterval => (row.interval === 'year' ? 'year' : 'month'),
    nameOf: (planId: number) => (locale: Locale) => {
      const entry = entryOf(planId);
      return entry ? planOf(entry, 'month', locale).name : `#${planId}`;
    },
    mandateBilling: (client: ClientProvider) => providers[client]?.mandates,

    /** A provider's failure as the seller's answer: try again later, or it refused. */
    refusedByProvider(error: unknown): never {
      if (error instanceof ProviderUnavailable) {
        log.warn({ err: error }, 'the payment provider is unavailable');
        throw new HttpError(503, 'PAYMENT_UNAVAILABLE', 'PAYMENT_UNAVAILABLE');
      }
      if (error instanceof ProviderRefused) {
        log.error({ err: error }, 'the payment provider refused a request');
        throw new HttpError(502, 'PAYMENT_REFUSED', 'PAYMENT_REFUSED');
      }
      throw error;
    },

    findSubscription: async (id: string, tx: Database = db) => (await tx.select().from(subscriptions).where(eq(subscriptions.id, id)))[0],
    findCharge: async (id: string, tx: Database = db) => (await tx.select().from(subscriptionCharges).where(eq(subscriptionCharges.id, id)))[0],

    /** The seller's live subscription (active, past due or unpaid), the newest. */
    async liveOf(userId: string, tx: Database = db): Promise<SubscriptionRow | undefined> {
      const [row] = await tx
        .select()
        .from(subscriptions)
        .where(and(eq(subscriptions.userId, userId), inArray(subscriptions.status, LIVE)))
        .orderBy(desc(subscriptions.createdAt))
        .limit(1);
      return row;
    },

    /** A subscription by id for its seller; another seller's is not found. */
    async ownSubscription(userId: string, id: string): Promise<SubscriptionRow> {
      const [row] = await db.select().from(subscriptions).where(and(eq(subscriptions.id, id), eq(subscriptions.userId, userId)));
      if (!row) throw new HttpError(404, 'SUBSCRIPTION_NOT_FOUND', 'SUBSCRIPTION_NOT_FOUND');
      return row;
    },

    /** Records a provider's event once; false when it was already recorded. */
    recordEvent: async (tx: Database, provider: string, eventId: string, kind: string) =>
      (await tx.insert(subscriptionEvents).values({ provider, eventId, kind }).onConflictDoNothing().returning()).length > 0,
  };
}
