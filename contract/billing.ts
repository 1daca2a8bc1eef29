// Buying tokens (SPEC §3 Wallet, Token tier, Consumption entry; §7 Tokens, Local payment
// provider; §9 countries and payment methods): what the page sends and what it is answered, the
// same on both sides. The price a seller sees before paying is computed here, by both.
import { z } from 'zod';
import { okEnvelope } from './envelope';
import { rule } from './rules';
import { text } from './text';

/** Payment methods (SPEC §9), in the order the top-up form offers them. */
export const PAYMENT_METHODS = ['card_ru', 'card_intl', 'yoomoney_ru', 'sberpay_ru', 'tbank_ru'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

/**
 * The provider a top-up goes through, as the page names it: the card provider (international
 * cards) or the local provider (path segment `localpay`, whichever company is behind it).
 */
export const CLIENT_PROVIDERS = ['card', 'localpay'] as const;
export type ClientProvider = (typeof CLIENT_PROVIDERS)[number];

/** Which provider takes a method: only international cards go to the card provider. */
export function providerOfMethod(method: PaymentMethod): ClientProvider {
  return method === 'card_intl' ? 'card' : 'localpay';
}

/** Countries offered first in the top-up form (SPEC §9), default RU. */
export const FIRST_COUNTRIES = ['RU', 'KZ', 'UA', 'BY', 'LT'] as const;
export const DEFAULT_COUNTRY = 'RU';

export const PAYMENT_STATUSES = ['pending', 'completed', 'failed'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/** The currencies money is taken in: the price list is in USD; the local provider charges roubles. */
export const CHARGE_CURRENCIES = ['USD', 'RUB'] as const;
export type ChargeCurrency = (typeof CHARGE_CURRENCIES)[number];

/** SPEC's token tiers: credits (as a string key) → price in USD. */
export const tiersSchema = z.record(z.string().regex(/^\d+$/), z.number().positive());
export type Tiers = z.infer<typeof tiersSchema>;

/** How each payment method charges: its provider, its currency and how many of it one US dollar is. */
export const paymentMethodSchema = z.object({
  id: z.enum(PAYMENT_METHODS),
  provider: z.enum(CLIENT_PROVIDERS),
  currency: z.enum(CHARGE_CURRENCIES),
  per_usd: z.number().positive(),
});
export type PaymentMethodInfo = z.infer<typeof paymentMethodSchema>;

/** A price in `currency`'s minor units (cents, kopecks): what the seller sees and what is charged. */
export function chargeMinor(usd: number, perUsd: number, currency: ChargeCurrency): number {
  const cents = Math.round(usd * 100);
  // Roubles are charged in whole roubles, so the page's price and the provider's match exactly.
  return currency === 'USD' ? cents : Math.round((cents * perUsd) / 100) * 100;
}

/** POST /api/v1/tokens/topup (SPEC §7). */
export const topUpRequestSchema = z.object({
  token_amount: z.number().int().positive(),
  currency: z.literal('USD'),
  /** The payment method; empty for the card provider (card_intl is its only method). */
  pm_id: z.union([z.enum(PAYMENT_METHODS), z.literal('')]),
  payment_provider: z.enum(CLIENT_PROVIDERS),
  /** The seller's country (ISO 3166 alpha-2), from the form. */
  country: z.string().regex(/^[A-Z]{2}$/).optional(),
});
export type TopUpRequest = z.infer<typeof topUpRequestSchema>;

export const topUpResultSchema = z.object({
  payment_id: z.uuid(),
  redirect_url: z.string(),
});
export type TopUpResult = z.infer<typeof topUpResultSchema>;

/**
 * GET /api/v1/payment/mode: which provider serves each of the page's provider names (null: none
 * on this server, so nothing can be bought through it), whether the sandbox stands in (no money
 * moves), and whether every page should say so (the sandbox at an address sellers reach).
 */
export const paymentModeSchema = z.object({
  sandbox: z.boolean(),
  warning: z.boolean(),
  providers: z.object({ card: z.enum(['sandbox', 'stripe', 'yookassa']).nullable(), localpay: z.enum(['sandbox', 'stripe', 'yookassa']).nullable() }),
});
export type PaymentMode = z.output<typeof paymentModeSchema>;

/** GET /api/v1/payment/{provider}/status/{id}. */
export const paymentSchema = z.object({
  id: z.uuid(),
  status: z.enum(PAYMENT_STATUSES),
  token_amount: z.number().int(),
  amount: z.number().int().describe('What was charged, in minor units of currency'),
  currency: z.enum(CHARGE_CURRENCIES),
  method: z.enum(PAYMENT_METHODS),
  failure_reason: z.enum(['declined', 'canceled', 'expired']).nullable(),
  created_at: z.string(),
});
export type Payment = z.infer<typeof paymentSchema>;

/** Ledger entry types: SPEC's five, and `expiry` for a period's tokens that lapsed unspent. */
export const LEDGER_TYPES = ['top_up', 'subscription', 'sign_up_bonus', 'content_generation', 'refund', 'expiry'] as const;
export type LedgerType = (typeof LEDGER_TYPES)[number];

/** One consumption-history entry (SPEC §3): a ledger entry, newest first. */
export const consumptionEntrySchema = z.object({
  id: z.string(),
  type: z.enum(LEDGER_TYPES),
  created_at: z.string(),
  amount: z.number().int().nullable(),
  /** When the tokens this entry credited lapse (a subscription period's end); null when they never do. */
  expires_at: z.string().nullable().optional(),
});
export type ConsumptionEntry = z.infer<typeof consumptionEntrySchema>;

/** On the seller's event stream: the balance changed outside a task (a top-up landed, a refund took tokens back). */
export const walletEventSchema = z.object({
  type: z.literal('wallet_updated'),
  total_tokens: z.number().int(),
});
export type WalletEvent = z.infer<typeof walletEventSchema>;

// Subscriptions (SPEC §2 plans, checkout, upgrade, management; §3 Plan, Subscription, Mandate,
// Customer payload, Subscription form; §4 statuses; §7 Subscription and the local provider).

export const PLAN_INTERVALS = ['month', 'year'] as const;
export type PlanInterval = (typeof PLAN_INTERVALS)[number];
/** The top plan: nothing to upgrade to (SPEC §9). */
export const TOP_PLAN_ID = 4;

export const SUBSCRIPTION_STATUSES = ['pending', 'failed', 'revoked', 'active', 'canceled', 'past_due', 'unpaid'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];
/** The statuses the management page labels (SPEC §4). */
export const LABELLED_SUBSCRIPTION_STATUSES = ['active', 'canceled', 'past_due', 'unpaid'] as const;
export const MANDATE_STATUSES = ['pending', 'active', 'failed', 'revoked'] as const;
export type MandateStatus = (typeof MANDATE_STATUSES)[number];

/** The methods the local provider takes, for a mandate (every method but international cards). */
export const LOCAL_METHODS = PAYMENT_METHODS.filter((method) => providerOfMethod(method) === 'localpay');
export type LocalMethod = Exclude<PaymentMethod, 'card_intl'>;

/** Id types and marketing channels of the Subscription form (SPEC §9). */
export const ID_TYPES = ['national_id', 'passport', 'driving_license', 'business_license', 'tax_id'] as const;
export const MARKETING_CHANNELS = ['friend', 'promoter', 'offline', 'online', 'solestudio', 'other'] as const;

/** A plan at one interval (SPEC §3 Plan): features are a JSON-encoded list of strings, as SPEC has it. */
export const planSchema = z.object({
  id: z.number().int().positive(),
  name: z.string(),
  price: z.number().positive().describe('US dollars per interval'),
  interval: z.enum(PLAN_INTERVALS),
  description: z.string(),
  features: z.string().describe('A JSON-encoded list of strings'),
  tokens: z.number().int().positive().describe('Tokens credited for each paid period; they lapse at its end'),
});
export type Plan = z.infer<typeof planSchema>;

/** The features of a plan as a list (an unreadable value reads as none). */
export function planFeatures(plan: Pick<Plan, 'features'>): string[] {
  try {
    const parsed: unknown = JSON.parse(plan.features);
    return Array.isArray(parsed) ? parsed.filter((item): item is string => typeof item === 'string') : [];
  } catch {
    return [];
  }
}

/** A subscription still in force (billing, or retrying a payment): the seller has a plan. */
export function isLiveSubscription(subscription: Pick<Subscription, 'status'> | null | undefined): subscription is Subscription {
  return subscription?.status === 'active' || subscription?.status === 'past_due' || subscription?.status === 'unpaid';
}

/** Upgrade is allowed only while active, not cancelled, and below the top plan (SPEC §4). */
export function canUpgrade(subscription: Pick<Subscription, 'status' | 'cancel_at' | 'plan'>): boolean {
  return subscription.status === 'active' && !subscription.cancel_at && subscription.plan.id !== TOP_PLAN_ID;
}

export const subscriptionSchema = z.object({
  id: z.uuid(),
  status: z.enum(SUBSCRIPTION_STATUSES),
  cancel_at: z.string().nullable(),
  provider: z.enum(CLIENT_PROVIDERS),
  current_period_end: z.string().nullable(),
  plan: planSchema,
  mandate_id: z.uuid().nullable(),
  created_at: z.string(),
});
export type Subscription = z.infer<typeof subscriptionSchema>;

/**
 * GET /api/v1/subscription/my: the seller's subscription or, for a seller with no plan, a success
 * with no data. Having no plan is a normal state, asked about on every page load, so it is not a
 * failure; its `error` still names SUBSCRIPTION_NOT_FOUND, which SPEC §7's client tolerates.
 */
export const mySubscriptionSchema = z.union([
  okEnvelope(subscriptionSchema),
  z.object({ code: z.literal(200), error: z.literal('SUBSCRIPTION_NOT_FOUND'), message: z.string(), data: z.null() }),
]);

/** POST /api/v1/subscription/create (the card provider) and /update (either). */
export const subscriptionCreateSchema = z.object({
  plan_id: z.number().int().positive(),
  interval: z.enum(PLAN_INTERVALS).default('month'),
});
export const subscriptionUpdateSchema = z.object({ plan_id: z.number().int().positive() });
export const redirectSchema = z.object({ redirect_url: z.string(), session_id: z.string() });

/** GET /api/v1/subscription/checkout-session/{id}: the card provider's checkout as we know it. */
export const checkoutSessionSchema = z.object({
  id: z.string(),
  status: z.enum(['open', 'complete', 'expired']),
  subscription: subscriptionSchema.nullable(),
});
export type CheckoutSession = z.infer<typeof checkoutSessionSchema>;

/** SPEC §3 Customer payload (POST /api/v1/localpay/customers). */
export const customerSchema = z.object({
  reference: text().min(1).max(100),
  first_name: text().max(100).optional(),
  last_name: text().max(100).optional(),
  company: text().max(200).optional(),
  description: text().max(500).optional(),
  birth_date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/).optional(),
  email: z.email().max(254).optional(),
  phone: text().max(32).optional(),
  country: z.string().regex(/^[A-Z]{2}$/),
  address: text().min(1).max(300),
  billing_address: z.object({
    country: z.string().regex(/^[A-Z]{2}$/),
    state: text().min(1).max(100),
    city: text().min(1).max(100),
    line1: text().min(1).max(300),
  }),
  channel: z.enum(MARKETING_CHANNELS).optional(),
  id_type: z.enum(ID_TYPES).optional(),
  id_number: text().min(1).max(64).optional(),
});
export type Customer = z.infer<typeof customerSchema>;
export const customerResultSchema = z.object({ id: z.string(), reference: z.string() });

export const mandateRequestSchema = z.object({
  reference: text().min(1).max(100),
  payment_method: z.enum(LOCAL_METHODS as unknown as [LocalMethod, ...LocalMethod[]]),
  terminal_type: z.literal('web'),
});
export const mandateQuerySchema = z.object({
  payment_method: z.enum(PAYMENT_METHODS).optional(),
  mandate_status: z.enum(MANDATE_STATUSES).optional(),
  mandate_id: z.uuid().optional(),
});
/** SPEC §3 Mandate: the provider's saved payment method the seller authorised for renewals. */
export const mandateSchema = z.object({
  id: z.uuid(),
  status: z.enum(MANDATE_STATUSES),
  payment_method: z.enum(PAYMENT_METHODS),
  redirect_url: z.string().nullable(),
  created_at: z.string(),
});
export type Mandate = z.infer<typeof mandateSchema>;

export const localSubscriptionRequestSchema = z.object({
  plan_id: z.number().int().positive(),
  mandate_id: z.uuid(),
  reference: text().min(1).max(100),
  interval: z.enum(PLAN_INTERVALS).default('month'),
});
export const subscriptionQuerySchema = z.object({
  id: z.uuid().optional(),
  subscription_status: z.enum(SUBSCRIPTION_STATUSES).optional(),
});


const requiredText = (max: number) => text(rule('required')).trim().min(1, rule('required')).max(max, rule('too_long', { count: max }));

/**
 * The local provider's checkout form (SPEC §5: country, state, city, address and payment method
 * required; the Subscription form's id type, id number and marketing channel given when the seller
 * wishes). The country is the name as the seller's language writes it; the page finds its code.
 */
export const localCheckoutFormSchema = z.object({
  country: requiredText(100),
  state: requiredText(100),
  city: requiredText(100),
  address: requiredText(300),
  method: z.enum(PAYMENT_METHODS, rule('required')),
  id_type: z.union([z.literal(''), z.enum(ID_TYPES)]),
  id_number: text().trim().max(64, rule('too_long', { count: 64 })),
  channel: z.union([z.literal(''), z.enum(MARKETING_CHANNELS)]),
});
export type LocalCheckoutForm = z.output<typeof localCheckoutFormSchema>;
