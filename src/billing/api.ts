// The calls behind buying tokens and the consumption history (SPEC §7 Tokens, Local payment
// provider: payment status), and the payment kept in localStorage across the provider's page
// (SPEC §3: the payment id is kept in browser local storage during redirects).
import { z } from 'zod';
import {
  CLIENT_PROVIDERS,
  consumptionEntrySchema,
  FIRST_COUNTRIES,
  PAYMENT_METHODS,
  paymentMethodSchema,
  paymentSchema,
  tiersSchema,
  topUpResultSchema,
  type ClientProvider,
  type TopUpRequest,
} from '../../contract/billing';
import { okEnvelope, pagedEnvelope } from '../../contract/envelope';
import { isLocale, type Locale } from '../../contract/locales';
import { apiRequest, fetchStaticJson } from '../lib/api-client';
import { keptJson } from '../lib/preferences';

const TOKENS = '/api/v1/tokens';
export const HISTORY_PAGE_SIZE = 20;

const tiers = okEnvelope(tiersSchema);
const methods = okEnvelope(z.array(paymentMethodSchema));
const started = okEnvelope(topUpResultSchema);
const payment = okEnvelope(paymentSchema);
export const historyPage = pagedEnvelope(consumptionEntrySchema);
export type HistoryPage = z.output<typeof historyPage>;

export async function getTiers(signal?: AbortSignal) {
  return (await apiRequest(`${TOKENS}/tiers`, { schema: tiers, signal })).data;
}

/** The payment methods in SPEC §9's order (the first is the default choice). */
export async function getMethods(signal?: AbortSignal) {
  const list = (await apiRequest(`${TOKENS}/methods`, { schema: methods, signal })).data;
  return [...list].sort((a, b) => PAYMENT_METHODS.indexOf(a.id) - PAYMENT_METHODS.indexOf(b.id));
}

export async function startTopUp(request: TopUpRequest) {
  return (await apiRequest(`${TOKENS}/topup`, { method: 'POST', body: request, schema: started })).data;
}

export async function getPayment(provider: ClientProvider, id: string, signal?: AbortSignal) {
  return (await apiRequest(`/api/v1/payment/${provider}/status/${encodeURIComponent(id)}`, { schema: payment, signal })).data;
}

export function listConsumption(page: number, signal?: AbortSignal): Promise<HistoryPage> {
  return apiRequest(`${TOKENS}/history`, { schema: historyPage, query: { page, page_size: HISTORY_PAGE_SIZE }, signal });
}

const countriesSchema = z.array(z.object({ name: z.string(), code: z.string().regex(/^[A-Z]{2}$/) }));
export type Country = z.output<typeof countriesSchema>[number];

/**
 * The static country list in a language (zh, en, ru; any other falls back to ru): SPEC §9's
 * countries first, in their order, then the rest as the language sorts them.
 */
export async function getCountries(language: string): Promise<Country[]> {
  const locale: Locale = isLocale(language) ? language : 'ru';
  const countries = await fetchStaticJson(`/countries/${locale}.json`, countriesSchema);
  const first = FIRST_COUNTRIES.map((code) => countries.find((country) => country.code === code)).filter((c): c is Country => Boolean(c));
  return [...first, ...countries.filter((country) => !(FIRST_COUNTRIES as readonly string[]).includes(country.code))];
}

const pendingSchema = z.object({ id: z.uuid(), provider: z.enum(CLIENT_PROVIDERS) });
export type PendingPayment = z.output<typeof pendingSchema>;
const pendingPayment = keptJson('pendingPayment', pendingSchema);

/** Keeps the payment being paid, so the page the provider sends the seller back to can find it. */
export const rememberPayment = (pending: PendingPayment): void => pendingPayment.keep(pending);
export const rememberedPayment = (): PendingPayment | null => pendingPayment.read();
export const forgetPayment = (): void => pendingPayment.forget();
