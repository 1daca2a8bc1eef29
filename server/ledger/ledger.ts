// The token ledger (DESIGN §4): every movement of tokens goes through this module, one function
// per movement. Entries are only ever added, one per (type, reference), and the wallet row changes
// in the same transaction as each entry, so the balance always equals the sum of the ledger and a
// replayed request, notification or job never moves tokens twice. Each function runs in the
// caller's transaction when given one (`tx`), otherwise on its own.
import { and, eq, gt, isNotNull, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../db/client';
import { pageOf, type ListOf } from '../db/pages';
import { ledger, tokenLots, wallets } from '../db/schema';
import type { LedgerType } from '../../contract/billing';

export type LedgerEntry = typeof ledger.$inferSelect;

/** The seller's ledger entries, as the consumption history pages them (server/db/pages.ts). */
export const ledgerList = (userId: string): ListOf => ({ userId, lists: ['ledger'] });

interface Movement {
  userId: string;
  type: LedgerType;
  /** Positive for a credit, negative for a charge. */
  amount: number;
  reference: string;
  /** When a credit's tokens lapse; never when absent. */
  expiresAt?: Date;
  /** The entry this one undoes, by its type and reference (see `ledger.reverses_id`). */
  reverses?: { type: LedgerType; reference: string };
}

/** The id of the entry of `type` and `reference`, as a subquery. */
const entryIdOf = (reverses: Movement['reverses']): SQL | null =>
  reverses ? sql`(SELECT id FROM ledger WHERE type = ${reverses.type} AND reference = ${reverses.reference})` : null;

/**
 * Adds one entry and moves the wallet by it; false when that entry already exists. The wallet
 * moves by the entry as stored: a give-back is lowered by what had lapsed meanwhile. The wallet
 * row is held first, as every other movement holds it (a charge, a take-back, a lapse): what the
 * entry's triggers then hold (the lots, the seller's counts by day and content version) is
 * always taken after it, so two movements of one seller never wait on each other in a circle.
 */
async function move(tx: Database, entry: Movement): Promise<boolean> {
  if (entry.amount === 0) return false;
  await tx.select({ userId: wallets.userId }).from(wallets).where(eq(wallets.userId, entry.userId)).for('update');
  const { reverses, ...values } = entry;
  const reversesId = entryIdOf(reverses);
  const inserted = await tx
    .insert(ledger)
    .values({ ...values, ...(reversesId ? { reversesId } : {}) })
    .onConflictDoNothing({ target: [ledger.type, ledger.reference] })
    .returning({ id: ledger.id, amount: ledger.amount });
  if (inserted.length === 0) return false;
  const moved = reverses ? sql`(SELECT amount FROM ledger WHERE id = ${inserted[0]!.id})` : sql`${entry.amount}`;
  await tx
    .insert(wallets)
    .values({ userId: entry.userId, totalTokens: moved })
    .onConflictDoUpdate({
      target: wallets.userId,
      set: { totalTokens: sql`${wallets.totalTokens} + ${moved}`, updatedAt: sql`now()` },
    });
  return true;
}

/** What a take-back of tokens did: taken from the wallet, and what the balance could not cover. */
export interface TakeBack {
  taken: number;
  unrecovered: number;
}

export type Ledger = ReturnType<typeof createLedger>;

export function createLedger(db: Database) {
  const inTransaction = <T>(tx: Database | undefined, work: (tx: Database) => Promise<T>): Promise<T> =>
    tx ? work(tx) : db.transaction(work);

  return {
    /** The bonus for confirming the e-mail address, once per seller. */
    creditSignUpBonus(userId: string, amount: number, tx?: Database): Promise<boolean> {
      if (amount <= 0) return Promise.resolve(false);
      return inTransaction(tx, (t) => move(t, { userId, type: 'sign_up_bonus', amount, reference: userId }));
    },

    /**
     * Gives back what a failed output of a task cost, once per output, into the lots the task's
     * charge spent: tokens that were to lapse still lapse when they would have.
     */
    refundOutput(userId: string, output: { id: string; cost: number; taskId: string }, tx?: Database): Promise<boolean> {
      if (output.cost <= 0) return Promise.resolve(false);
      return inTransaction(tx, (t) =>
        move(t, { userId, type: 'refund', amount: output.cost, reference: `output:${output.id}`, reverses: { type: 'content_generation', reference: output.taskId } }),
      );
    },

    /** Credits a paid token pack, once per payment whatever confirms it (a notification, a reconciliation). */
    creditTopUp(userId: string, paymentId: string, tokens: number, tx?: Database): Promise<boolean> {
      if (tokens <= 0) return Promise.resolve(false);
      return inTransaction(tx, (t) => move(t, { userId, type: 'top_up', amount: tokens, reference: `payment:${paymentId}` }));
    },

    /**
     * Credits a paid subscription period, once per charge: its tokens lapse at the period's end
     * (DESIGN §4 Tokens), so a charge spends them before tokens that never lapse.
     */
    creditPeriod(userId: string, chargeId: string, tokens: number, expiresAt: Date, tx?: Database): Promise<boolean> {
      if (tokens <= 0) return Promise.resolve(false);
      return inTransaction(tx, (t) => move(t, { userId, type: 'subscription', amount: tokens, reference: `charge:${chargeId}`, expiresAt }));
    },

    /**
     * Lapses what is left of one seller's lots whose time has come by `at`, each with an `expiry`
     * entry (once per lot), in one transaction that holds the wallet first as every charge does —
     * so a charge at the same moment either spends those tokens before they lapse or finds them
     * gone, never both. Returns the tokens that lapsed.
     */
    expireFor(userId: string, at: Date, tx?: Database): Promise<number> {
      return inTransaction(tx, async (t) => {
        await t.select({ userId: wallets.userId }).from(wallets).where(eq(wallets.userId, userId)).for('update');
        const result = await t.execute(sql`
          WITH lapsed AS (
            SELECT id, remaining FROM token_lots
            WHERE user_id = ${userId} AND expires_at <= ${at.toISOString()}::timestamptz AND remaining > 0
            FOR UPDATE
          ), emptied AS (
            UPDATE token_lots SET remaining = 0, lapsed_at = ${at.toISOString()}::timestamptz FROM lapsed WHERE token_lots.id = lapsed.id
          ), entry AS (
            INSERT INTO ledger (user_id, type, amount, reference, created_at)
            SELECT ${userId}, 'expiry', -lapsed.remaining, 'lot:' || lapsed.id, ${at.toISOString()}::timestamptz FROM lapsed
            ON CONFLICT (type, reference) DO NOTHING
            RETURNING amount
          ), total AS (SELECT coalesce(sum(amount), 0)::int AS lapsed FROM entry)
          UPDATE wallets SET total_tokens = total_tokens + total.lapsed, updated_at = now()
          FROM total WHERE user_id = ${userId} AND total.lapsed <> 0
          RETURNING -total.lapsed AS lapsed`);
        return Number((result as unknown as { rows: { lapsed: number }[] }).rows[0]?.lapsed ?? 0);
      });
    },

    /** Sellers with tokens due to lapse by `at` (at most `limit`): what the expiry job works through. */
    async lapsingBy(at: Date, limit: number): Promise<string[]> {
      const rows = await db
        .selectDistinct({ userId: tokenLots.userId })
        .from(tokenLots)
        .where(and(gt(tokenLots.remaining, 0), isNotNull(tokenLots.expiresAt), sql`${tokenLots.expiresAt} <= ${at.toISOString()}::timestamptz`))
        .limit(limit);
      return rows.map((row) => row.userId);
    },

    /**
     * Takes back tokens of money that went back to the seller (a refund, a dispute), once per
     * `reference`: as many as the balance holds, never going below zero, from the lot of the
     * credit it undoes (`reverses`) first; the rest is reported as unrecovered. The entry is of
     * the credit's type (`top_up` for a pack, `subscription` for a period).
     */
    takeBack(
      userId: string,
      entry: { type: 'top_up' | 'subscription'; reference: string; reverses: { type: LedgerType; reference: string } },
      tokens: number,
      tx?: Database,
    ): Promise<TakeBack> {
      return inTransaction(tx, async (t) => {
        if (tokens <= 0) return { taken: 0, unrecovered: 0 };
        const [wallet] = await t.select({ total: wallets.totalTokens }).from(wallets).where(eq(wallets.userId, userId)).for('update');
        const taken = Math.min(tokens, Math.max(0, wallet?.total ?? 0));
        const reversesId = entryIdOf(entry.reverses);
        // The entry is written even when nothing could be taken, so the take-back is recorded once.
        const [written] = await t
          .insert(ledger)
          .values({ userId, type: entry.type, amount: -taken, reference: entry.reference, ...(reversesId ? { reversesId } : {}) })
          .onConflictDoNothing({ target: [ledger.type, ledger.reference] })
          .returning({ id: ledger.id });
        if (!written) return { taken: 0, unrecovered: 0 };
        if (taken > 0) {
          await t
            .update(wallets)
            .set({ totalTokens: sql`${wallets.totalTokens} - ${taken}`, updatedAt: sql`now()` })
            .where(eq(wallets.userId, userId));
        }
        return { taken, unrecovered: tokens - taken };
      });
    },

    /**
     * Gives back what a take-back took (a dispute the seller's bank lost), once per `reference`,
     * into the lots it was taken from. Answers the tokens given back.
     */
    async giveBack(userId: string, entry: { type: 'top_up' | 'subscription'; reference: string; reverses: { type: LedgerType; reference: string } }, tokens: number, tx?: Database): Promise<number> {
      if (tokens <= 0) return 0;
      return inTransaction(tx, async (t) => {
        const moved = await move(t, { userId, type: entry.type, amount: tokens, reference: entry.reference, reverses: entry.reverses });
        if (!moved) return 0;
        const [row] = await t.select({ amount: ledger.amount }).from(ledger).where(and(eq(ledger.type, entry.type), eq(ledger.reference, entry.reference)));
        return row?.amount ?? 0;
      });
    },

    /**
     * The parts of one SQL statement that charge a task (DESIGN §4 Generation): the wallet moved
     * and the entry written only when the CTE named `task` inserted a row. The statement that
     * creates the task includes them, so submission stays one round trip; the wallet's check
     * constraint refuses a charge that would take the balance below zero.
     */
    chargeTaskCtes(userId: string, cost: number): SQL {
      return sql`wallet AS (
        UPDATE wallets SET total_tokens = total_tokens - ${cost}, updated_at = now()
        WHERE user_id = ${userId} AND EXISTS (SELECT 1 FROM task)
        RETURNING total_tokens
      ), entry AS (
        INSERT INTO ledger (user_id, type, amount, reference)
        SELECT ${userId}, 'content_generation', ${-cost}, task.id::text FROM task WHERE ${cost} > 0
      )`;
    },

    /**
     * The parts of one SQL statement that credit a paid top-up: the entry written, once per
     * payment, for each row of the CTE named `paid` (`id`, `user_id`, `tokens`), and the wallet
     * moved by it. The statement that completes a payment includes them, so a webhook's credit is
     * one round trip.
     */
    creditTopUpCtes(): SQL {
      return sql`entry AS (
        INSERT INTO ledger (user_id, type, amount, reference)
        SELECT paid.user_id, 'top_up', paid.tokens, 'payment:' || paid.id FROM paid WHERE paid.tokens > 0
        ON CONFLICT (type, reference) DO NOTHING
        RETURNING user_id, amount
      ), wallet AS (
        INSERT INTO wallets (user_id, total_tokens) SELECT user_id, amount FROM entry
        ON CONFLICT (user_id) DO UPDATE SET total_tokens = wallets.total_tokens + excluded.total_tokens, updated_at = now()
        RETURNING user_id
      )`;
    },

    /**
     * The parts of one SQL statement that credit a paid subscription period: the entry written,
     * once per charge, for each row of the CTE named `paid` (`id`, `user_id`, `tokens`,
     * `period_end`), lapsing at the period's end, and the wallet moved by it (the ledger's trigger
     * keeps the lot). The statement that completes a charge includes them, so a renewal's credit
     * is one round trip.
     */
    creditPeriodCtes(): SQL {
      return sql`entry AS (
        INSERT INTO ledger (user_id, type, amount, reference, expires_at)
        SELECT paid.user_id, 'subscription', paid.tokens, 'charge:' || paid.id, paid.period_end FROM paid WHERE paid.tokens > 0
        ON CONFLICT (type, reference) DO NOTHING
        RETURNING user_id, amount
      ), wallet AS (
        INSERT INTO wallets (user_id, total_tokens) SELECT user_id, amount FROM entry
        ON CONFLICT (user_id) DO UPDATE SET total_tokens = wallets.total_tokens + excluded.total_tokens, updated_at = now()
        RETURNING user_id
      )`;
    },

    /** The seller's balance: the wallet the ledger adds up to. */
    async balanceOf(userId: string, tx?: Database): Promise<number> {
      const [row] = await (tx ?? db).select({ total: wallets.totalTokens }).from(wallets).where(eq(wallets.userId, userId));
      return row?.total ?? 0;
    },

    /**
     * The balance with the soonest moment some of it lapses, and how much lapses then: one
     * statement, so the three agree (and GET /tokens/balance is one round trip).
     */
    async walletOf(userId: string): Promise<{ total: number; expiresAt: Date | null; expiring: number }> {
      const result = await db.execute(sql`
        SELECT coalesce((SELECT total_tokens FROM wallets WHERE user_id = ${userId}), 0) AS total, soonest.at AS "expiresAt",
          coalesce((SELECT sum(remaining) FROM token_lots WHERE user_id = ${userId} AND remaining > 0 AND expires_at = soonest.at), 0)::integer AS expiring
        FROM (SELECT min(expires_at) AS at FROM token_lots WHERE user_id = ${userId} AND remaining > 0 AND expires_at IS NOT NULL) AS soonest`);
      const row = (result as unknown as { rows: { total: number; expiresAt: string | null; expiring: number }[] }).rows[0]!;
      return { total: row.total, expiresAt: row.expiresAt === null ? null : new Date(row.expiresAt), expiring: row.expiring };
    },

    /** One page of the seller's entries, newest first, with how many there are. */
    async entriesOf(userId: string, page: { page: number; pageSize: number }, tx?: Database): Promise<{ entries: LedgerEntry[]; total: number }> {
      const { rows, total } = await pageOf(tx ?? db, ledger, ledgerList(userId), page.page, page.pageSize);
      return { entries: rows, total };
    },
  };
}
