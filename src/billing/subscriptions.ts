// The calls behind subscriptions (SPEC §7 Subscription and the local payment provider's customers,
// mandates and subscriptions), and the checkout kept in localStorage across the provider's page
// (SPEC §3: the mandate id, with the plan id, is kept in browser local storage during redirects).
import { z } from 'zod';
import {
  checkoutSessionSchema,
  customerResultSchema,
  mandateSchema,
  mySubscriptionSchema,
  planSchema,
  PLAN_INTERVALS,
  redirectSchema,
  subscriptionSchema,
  type Customer,
  type LocalMethod,
  type PlanInterval,
  type Subscription,
  type SubscriptionStatus,
} from '../../contract/billing';
import { okEnvelope } from '../../contract/envelope';
import { LOCAL_PROVIDER } from '../config/paths';
import { apiRequest } from '../lib/api-client';
import { keptJson } from '../lib/preferences';

const SUBSCRIPTION = '/api/v1/subscription';
const LOCAL = `/api/v1/${LOCAL_PROVIDER}`;

const plans = okEnvelope(z.array(planSchema));
const one = okEnvelope(subscriptionSchema);
const many = okEnvelope(z.array(subscriptionSchema));
const redirect = okEnvelope(redirectSchema);
const session = okEnvelope(checkoutSessionSchema);
const mandate = okEnvelope(mandateSchema);
const mandates = okEnvelope(z.array(mandateSchema));
const customer = okEnvelope(customerResultSchema);

export async function getPlans(signal?: AbortSignal) {
  return (await apiRequest(`${SUBSCRIPTION}/plans`, { schema: plans, signal })).data;
}

/**
 * The seller's subscription; null when they have none: the server answers that with a success
 * whose data is null (and whose error is SUBSCRIPTION_NOT_FOUND, SPEC §7).
 */
export async function getMySubscription(signal?: AbortSignal): Promise<Subscription | null> {
  return (await apiRequest(`${SUBSCRIPTION}/my`, { schema: mySubscriptionSchema, signal })).data;
}

/** Subscribes through the card provider: answers its checkout page. */
export async function createCardSubscription(planId: number, interval: PlanInterval) {
  return (await apiRequest(`${SUBSCRIPTION}/create`, { method: 'POST', body: { plan_id: planId, interval }, schema: redirect })).data;
}

export async function getCheckoutSession(id: string, signal?: AbortSignal) {
  return (await apiRequest(`${SUBSCRIPTION}/checkout-session/${encodeURIComponent(id)}`, { schema: session, signal })).data;
}

/** Cancels at the period's end, through the provider the subscription is billed by. */
export async function cancelSubscription(subscription: Subscription) {
  const path = subscription.provider === 'card' ? `${SUBSCRIPTION}/cancel` : `${LOCAL}/subscriptions/${subscription.id}/cancel`;
  return (await apiRequest(path, { method: 'POST', body: {}, schema: one })).data;
}

/**
 * Moves to a higher plan at once, through the provider the subscription is billed by. `key` names
 * this one upgrade (the same key for a retry of it), so the server charges it once.
 */
export async function upgradeSubscription(subscription: Subscription, planId: number, key: string) {
  const body = { plan_id: planId };
  const headers = { 'Idempotency-Key': key };
  if (subscription.provider === 'card') return (await apiRequest(`${SUBSCRIPTION}/update`, { method: 'POST', body, headers, schema: one })).data;
  return (await apiRequest(`${LOCAL}/subscriptions/${subscription.id}`, { method: 'PUT', body, headers, schema: one })).data;
}

export async function saveCustomer(payload: Customer) {
  return (await apiRequest(`${LOCAL}/customers`, { method: 'POST', body: payload, schema: customer })).data;
}

export async function listMandates(query: { payment_method?: string; mandate_status?: string; mandate_id?: string }, signal?: AbortSignal) {
  return (await apiRequest(`${LOCAL}/mandates`, { query, schema: mandates, signal })).data;
}

export async function createMandate(reference: string, method: LocalMethod) {
  return (await apiRequest(`${LOCAL}/mandates`, { method: 'POST', body: { reference, payment_method: method, terminal_type: 'web' }, schema: mandate })).data;
}

export async function listLocalSubscriptions(query: { id?: string; subscription_status?: SubscriptionStatus }, signal?: AbortSignal) {
  return (await apiRequest(`${LOCAL}/subscriptions`, { query, schema: many, signal })).data;
}

export async function subscribeWithMandate(request: { plan_id: number; mandate_id: string; reference: string; interval: PlanInterval }) {
  return (await apiRequest(`${LOCAL}/subscriptions`, { method: 'POST', body: request, schema: one })).data;
}

const checkoutSchema = z.object({
  mandate_id: z.uuid(),
  plan_id: z.number().int().positive(),
  interval: z.enum(PLAN_INTERVALS),
  /** Sent with the subscription request: a repeat (a reload, a second tab) answers the same subscription. */
  reference: z.string().min(1),
});
export type PendingCheckout = z.output<typeof checkoutSchema>;
const pendingCheckout = keptJson('pendingSubscription', checkoutSchema);

/** Keeps the mandate and plan being subscribed to, so the page the provider sends the seller back to can go on. */
export const rememberCheckout = (pending: PendingCheckout): void => pendingCheckout.keep(pending);
export const rememberedCheckout = (): PendingCheckout | null => pendingCheckout.read();
export const forgetCheckout = (): void => pendingCheckout.forget();
