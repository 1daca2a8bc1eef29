// Disputes (chargebacks) and refunds of what a seller paid, as the ledger sees them: while a
// dispute is open, and once it is lost, the tokens the money bought are taken back (never below
// zero: what the balance no longer holds is recorded as unrecovered); a dispute won gives back
// what it took. Each dispute moves tokens at most once each way, whatever order its notifications
// arrive in: a win heard before the opening takes nothing, an opening heard after the end changes
// nothing. The caller holds the paid row (a payment or a subscription charge) in its transaction.
import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { paymentDisputes } from '../db/schema';
import type { Ledger } from '../ledger/ledger';
import type { ReversalEvent } from './provider';

/** What was paid, as a dispute or a refund needs it. */
export interface PaidTarget {
  kind: 'payment' | 'charge';
  id: string;
  userId: string;
  tokens: number;
  amountMinor: number;
  currency: string;
  /** What was refunded of it before: money (minor units) and the tokens taken back for it. */
  refunded: { minor: number; tokens: number };
  /** The ledger entry that credited it. */
  credit: { type: 'top_up' | 'subscription'; reference: string };
}

/** The tokens `minor` of a paid amount bought: all of them for the whole amount, in proportion for part. */
export function tokensFor(target: Pick<PaidTarget, 'tokens' | 'amountMinor'>, minor: number): number {
  if (target.amountMinor <= 0 || minor >= target.amountMinor) return target.tokens;
  return Math.floor((target.tokens * Math.max(0, minor)) / target.amountMinor);
}

/**
 * The tokens a dispute of `minor` takes: what the refunded money and the disputed money buy
 * together, less what the refunds already took — so a dispute of all that was left after a refund
 * takes all that was left, whatever the rounding of each part.
 */
export function disputedTokens(target: Pick<PaidTarget, 'tokens' | 'amountMinor' | 'refunded'>, minor: number): number {
  return Math.max(0, tokensFor(target, target.refunded.minor + Math.max(0, minor)) - target.refunded.tokens);
}

/** Applies a dispute's state to what it disputes; true when tokens or its status moved. */
export async function applyDispute(
  tx: Database,
  ledger: Ledger,
  provider: string,
  event: Extract<ReversalEvent, { kind: 'disputed' }>,
  target: PaidTarget,
): Promise<boolean> {
  const [known] = await tx
    .select()
    .from(paymentDisputes)
    .where(and(eq(paymentDisputes.provider, provider), eq(paymentDisputes.disputeId, event.disputeId)))
    .for('update');
  const takeReference = `dispute:${provider}:${event.disputeId}`;
  if (!known) {
    const [row] = await tx
      .insert(paymentDisputes)
      .values({
        provider,
        disputeId: event.disputeId,
        userId: target.userId,
        target: target.kind,
        targetId: target.id,
        status: event.status,
        amountMinor: event.amountMinor,
        currency: event.currency.toUpperCase(),
      })
      .returning();
    // Won before we heard it open: the money never left, nothing to take.
    if (event.status === 'won') return true;
    const { taken, unrecovered } = await ledger.takeBack(target.userId, { type: target.credit.type, reference: takeReference, reverses: target.credit }, disputedTokens(target, event.amountMinor), tx);
    await tx
      .update(paymentDisputes)
      .set({ takenTokens: taken, unrecoveredTokens: unrecovered })
      .where(and(eq(paymentDisputes.provider, provider), eq(paymentDisputes.disputeId, row!.disputeId)));
    return true;
  }
  if (known.status !== 'open' || event.status === 'open') return false;
  if (event.status === 'won' && known.takenTokens > 0) {
    await ledger.giveBack(
      target.userId,
      { type: target.credit.type, reference: `dispute-won:${provider}:${event.disputeId}`, reverses: { type: target.credit.type, reference: takeReference } },
      known.takenTokens,
      tx,
    );
  }
  await tx
    .update(paymentDisputes)
    .set({ status: event.status, updatedAt: sql`now()` })
    .where(and(eq(paymentDisputes.provider, provider), eq(paymentDisputes.disputeId, event.disputeId)));
  return true;
}
