// Buying tokens (SPEC §3 Wallet, Token tier, Consumption entry; §7 Tokens, Local payment
// provider; §9 countries and payment methods): what the page sends and what it is answered, the
// same on both sides. The price a seller sees before paying is computed here, by both.
import { z } from 'zod';

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

export const LEDGER_TYPES = ['top_up', 'subscription', 'sign_up_bonus', 'content_generation', 'refund'] as const;
export type LedgerType = (typeof LEDGER_TYPES)[number];

/** One consumption-history entry (SPEC §3): a ledger entry, newest first. */
export const consumptionEntrySchema = z.object({
  id: z.string(),
  type: z.enum(LEDGER_TYPES),
  created_at: z.string(),
  amount: z.number().int().nullable(),
});
export type ConsumptionEntry = z.infer<typeof consumptionEntrySchema>;

/** On the seller's event stream: the balance changed outside a task (a top-up landed, a refund took tokens back). */
export const walletEventSchema = z.object({
  type: z.literal('wallet_updated'),
  total_tokens: z.number().int(),
});
export type WalletEvent = z.infer<typeof walletEventSchema>;
