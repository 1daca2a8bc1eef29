// E-mail verification links: a random token (only its hash is stored), single use, 24 hours.
// Using one confirms the address and credits the sign-up bonus, once per seller.
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { emailVerifications, users } from '../db/schema';
import type { Ledger } from '../ledger/ledger';
import { randomToken, sha256 } from './secrets';
import type { UserRow } from './sessions';

export const VERIFICATION_LIFETIME_MS = 24 * 60 * 60 * 1000;

export async function issueVerificationToken(db: Database, userId: string): Promise<string> {
  const token = randomToken();
  await db.insert(emailVerifications).values({
    tokenHash: sha256(token),
    userId,
    expiresAt: new Date(Date.now() + VERIFICATION_LIFETIME_MS),
  });
  return token;
}

/** Uses a token: null when it is unknown, used or expired; otherwise the seller and the bonus credited. */
export async function useVerificationToken(
  db: Database,
  ledger: Ledger,
  token: string,
  bonusTokens: number,
): Promise<{ user: UserRow; bonus: number } | null> {
  return db.transaction(async (tx) => {
    // The row update is the single winner when the same link is opened twice at once.
    const [used] = await tx
      .update(emailVerifications)
      .set({ usedAt: sql`now()` })
      .where(
        and(
          eq(emailVerifications.tokenHash, sha256(token)),
          isNull(emailVerifications.usedAt),
          gt(emailVerifications.expiresAt, new Date()),
        ),
      )
      .returning({ userId: emailVerifications.userId });
    if (!used) return null;
    await tx
      .update(users)
      .set({ emailVerifiedAt: sql`now()` })
      .where(and(eq(users.id, used.userId), isNull(users.emailVerifiedAt)));
    const credited = await ledger.creditSignUpBonus(used.userId, bonusTokens, tx);
    const [user] = await tx.select().from(users).where(eq(users.id, used.userId));
    if (!user) return null;
    return { user, bonus: credited ? bonusTokens : 0 };
  });
}
