// The token ledger (DESIGN §4): entries are only ever added, and the wallet row changes in the
// same transaction as each entry, so the balance always equals the sum of the ledger. A task's
// charge is written the same way, in the statement that creates the task (content/tasks.ts).
import { eq, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { ledger, wallets, type LedgerType } from '../db/schema';

/**
 * Adds a credit once per (type, reference). Returns false when that entry already exists,
 * so a replayed request never credits twice. Call it inside a transaction.
 */
export async function credit(
  tx: Database,
  entry: { userId: string; type: LedgerType; amount: number; reference: string },
): Promise<boolean> {
  if (entry.amount <= 0) return false;
  const inserted = await tx
    .insert(ledger)
    .values(entry)
    .onConflictDoNothing({ target: [ledger.type, ledger.reference] })
    .returning({ id: ledger.id });
  if (inserted.length === 0) return false;
  await tx
    .insert(wallets)
    .values({ userId: entry.userId, totalTokens: entry.amount })
    .onConflictDoUpdate({
      target: wallets.userId,
      set: { totalTokens: sql`${wallets.totalTokens} + ${entry.amount}`, updatedAt: sql`now()` },
    });
  return true;
}

export async function balanceOf(db: Database, userId: string): Promise<number> {
  const [row] = await db.select({ total: wallets.totalTokens }).from(wallets).where(eq(wallets.userId, userId));
  return row?.total ?? 0;
}
