// Mandates (DESIGN §4 Billing): a payment method the seller authorises on the provider's page, so
// renewals charge it without them. A mandate only moves forward — pending → active or failed,
// active → revoked — and what depends on it moves with it: a card checkout waiting for its
// authorisation is charged, a withdrawn one stops the subscriptions it paid for.
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import { mandates, subscriptions } from '../../db/schema';
import { HttpError } from '../../lib/errors';
import type { ClientProvider, LocalMethod } from '../../../contract/billing';
import type { RemoteMandate } from '../provider';
import { FIRST_CHECK_MS, LIVE, STATUS_ASK_MS, type Context, type MandateRow } from './context';
import type { Periods } from './periods';

export type Mandates = ReturnType<typeof createMandates>;

export function createMandates(ctx: Context, periods: Periods) {
  const { db, log } = ctx;
  const lastAsked = new Map<string, number>();

  /** The seller withdrew a mandate: the subscriptions it paid for stop renewing and say so. */
  const mandateRevoked = async (mandate: MandateRow, at: Date) => {
    const stopped = await db
      .update(subscriptions)
      .set({ status: 'revoked', renewAt: null, cancelAt: sql`coalesce(${subscriptions.cancelAt}, ${subscriptions.currentPeriodEnd})`, updatedAt: at })
      .where(and(eq(subscriptions.mandateId, mandate.id), inArray(subscriptions.status, LIVE)))
      .returning();
    for (const sub of stopped) ctx.mail(sub.userId, { kind: 'revoked', planName: ctx.nameOf(sub.planId), date: sub.currentPeriodEnd });
  };

  /** A mandate as the provider now has it: its status saved, and what depends on it moved on. */
  const applyMandate = async (reported: RemoteMandate, at: Date): Promise<boolean> => {
    const [mandate] = await db
      .select()
      .from(mandates)
      .where(reported.mandateId ? eq(mandates.id, reported.mandateId) : eq(mandates.providerMandateId, reported.providerMandateId));
    if (!mandate || (mandate.providerMandateId && mandate.providerMandateId !== reported.providerMandateId)) return false;
    // Authorised and withdrawn before we ever heard of it: it never served, so it failed.
    const remote: RemoteMandate = mandate.status === 'pending' && reported.status === 'revoked' ? { ...reported, status: 'failed', reason: reported.reason ?? 'canceled' } : reported;
    if (remote.status === mandate.status || remote.status === 'pending') return false;
    const allowed = (mandate.status === 'pending' && remote.status !== 'revoked') || (mandate.status === 'active' && remote.status === 'revoked');
    if (!allowed) return false;
    const [updated] = await db
      .update(mandates)
      .set({ status: remote.status, providerMethodId: remote.providerMethodId ?? mandate.providerMethodId, failureReason: remote.reason ?? null, updatedAt: at })
      .where(and(eq(mandates.id, mandate.id), eq(mandates.status, mandate.status)))
      .returning();
    if (!updated) return false;
    if (updated.status === 'revoked') await mandateRevoked(updated, at);
    // A card checkout made through a mandate (the sandbox) goes on by itself once authorised; one
    // a newer checkout replaced stays closed, and its mandate is simply saved.
    const [waiting] = await db
      .select()
      .from(subscriptions)
      .where(and(eq(subscriptions.mandateId, updated.id), eq(subscriptions.status, 'pending')));
    if (waiting) {
      if (updated.status === 'active') await periods.chargeMandate(waiting, { start: at, planId: waiting.planId, interval: ctx.intervalOf(waiting) }, 'first', at);
      else await db.update(subscriptions).set({ status: 'failed', endedAt: at, updatedAt: at }).where(and(eq(subscriptions.id, waiting.id), eq(subscriptions.status, 'pending')));
    }
    return true;
  };

  const askMandate = async (mandate: MandateRow, at: Date): Promise<MandateRow> => {
    const billing = ctx.mandateBilling(mandate.client as ClientProvider);
    if (!billing || !mandate.providerMandateId || ctx.providerNamed(mandate.provider)?.mandates !== billing) return mandate;
    await applyMandate(await billing.retrieveMandate(mandate.providerMandateId), at);
    return (await db.select().from(mandates).where(eq(mandates.id, mandate.id)))[0] ?? mandate;
  };

  /** Asks the provider about a pending mandate at most every few seconds (a seller back from its page). */
  const fresh = async (mandate: MandateRow): Promise<MandateRow> => {
    if (mandate.status !== 'pending') return mandate;
    const at = ctx.now().getTime();
    if (at - (lastAsked.get(mandate.id) ?? 0) < STATUS_ASK_MS) return mandate;
    lastAsked.set(mandate.id, at);
    if (lastAsked.size > 10_000) lastAsked.clear();
    try {
      return await askMandate(mandate, ctx.now());
    } catch (error) {
      log.warn({ err: error, mandateId: mandate.id }, 'asking the provider about a mandate failed');
      return mandate;
    }
  };

  /**
   * Closes a pending mandate's checkout at the provider (a newer checkout replaces it); answers
   * whether it is closed — false when the seller authorised it meanwhile.
   */
  const closeMandate = async (mandate: MandateRow, at: Date): Promise<boolean> => {
    if (mandate.status !== 'pending') return mandate.status !== 'active';
    const billing = ctx.mandateBilling(mandate.client as ClientProvider);
    if (billing && mandate.providerMandateId && ctx.providerNamed(mandate.provider)?.mandates === billing) {
      const remote = await billing.closeMandate(mandate.providerMandateId);
      await applyMandate(remote, at);
      if (remote.status === 'active' || remote.status === 'pending') return false;
      return true;
    }
    return true;
  };

  /** Starts authorising a payment method: our row first (its id keys the provider's request), then the provider's page. */
  const createMandateRow = async (
    userId: string,
    input: { client: ClientProvider; method: MandateRow['method']; reference: string; description: string; returnUrl: (id: string) => string; cancelUrl: (id: string) => string },
    context: { locale: string; email?: string },
  ): Promise<MandateRow> => {
    const provider = ctx.providerFor(input.client);
    const billing = provider.mandates;
    if (!billing) throw new HttpError(400, 'METHOD_UNAVAILABLE', 'METHOD_UNAVAILABLE');
    const [existing] = await db.select().from(mandates).where(and(eq(mandates.userId, userId), eq(mandates.reference, input.reference)));
    if (existing) return existing;
    const [mandate] = await db
      .insert(mandates)
      .values({ userId, provider: provider.name, client: input.client, method: input.method, reference: input.reference, checkAt: new Date(ctx.now().getTime() + FIRST_CHECK_MS) })
      .onConflictDoNothing()
      .returning();
    if (!mandate) return (await db.select().from(mandates).where(and(eq(mandates.userId, userId), eq(mandates.reference, input.reference))))[0]!;
    try {
      const checkout = await billing.createMandate({
        mandateId: mandate.id,
        userId,
        method: input.method as LocalMethod,
        holdMinor: 0,
        currency: ctx.currencyOf(input.client),
        description: input.description,
        returnUrl: input.returnUrl(mandate.id),
        cancelUrl: input.cancelUrl(mandate.id),
        locale: context.locale,
        email: context.email,
      });
      const [updated] = await db.update(mandates).set({ providerMandateId: checkout.providerPaymentId, redirectUrl: checkout.redirectUrl }).where(eq(mandates.id, mandate.id)).returning();
      return updated!;
    } catch (error) {
      await db.update(mandates).set({ status: 'failed', failureReason: 'canceled' }).where(eq(mandates.id, mandate.id));
      return ctx.refusedByProvider(error);
    }
  };

  return {
    applyMandate,
    mandateRevoked,
    askMandate,
    fresh,
    closeMandate,
    createMandateRow,

    /** The seller's mandates through the local provider, filtered as asked; pending ones asked about. */
    async mandatesOf(userId: string, query: { payment_method?: string; mandate_status?: string; mandate_id?: string }): Promise<MandateRow[]> {
      const rows = await db
        .select()
        .from(mandates)
        .where(
          and(
            eq(mandates.userId, userId),
            eq(mandates.client, 'localpay'),
            query.payment_method ? eq(mandates.method, query.payment_method) : undefined,
            query.mandate_id ? eq(mandates.id, query.mandate_id) : undefined,
          ),
        )
        .orderBy(desc(mandates.createdAt))
        .limit(20);
      const current = await Promise.all(rows.map(fresh));
      return query.mandate_status ? current.filter((row) => row.status === query.mandate_status) : current;
    },

    /** A mandate for its seller (another seller's is not found). */
    async mandateOf(userId: string, id: string): Promise<MandateRow> {
      const [row] = await db.select().from(mandates).where(and(eq(mandates.id, id), eq(mandates.userId, userId)));
      if (!row) throw new HttpError(404, 'MANDATE_NOT_FOUND', 'MANDATE_NOT_FOUND');
      return fresh(row);
    },
  };
}
