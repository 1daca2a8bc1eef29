// Password reset codes: 6 digits from the CSPRNG, kept only as a keyed hash, valid for 10
// minutes, void after 5 wrong tries or once used, and replaced by the next one requested.
import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { passwordResetCodes } from '../db/schema';
import { keyedHash, randomCode, sameHash } from './secrets';

export const CODE_LIFETIME_MS = 10 * 60 * 1000;
export const CODE_MAX_ATTEMPTS = 5;

/** Voids the user's earlier codes and stores a new one; returns the code to mail. */
export async function issueResetCode(db: Database, key: Uint8Array, userId: string): Promise<string> {
  const code = randomCode();
  const id = crypto.randomUUID();
  await db.transaction(async (tx) => {
    await tx
      .update(passwordResetCodes)
      .set({ voidedAt: sql`now()` })
      .where(and(eq(passwordResetCodes.userId, userId), isNull(passwordResetCodes.voidedAt)));
    await tx.insert(passwordResetCodes).values({
      id,
      userId,
      codeHash: keyedHash(key, `${id}:${code}`),
      expiresAt: new Date(Date.now() + CODE_LIFETIME_MS),
    });
  });
  return code;
}

/**
 * Checks a code against the user's live one, counting a wrong try. With `consume` a right code
 * is used up. Returns true only for a right, live code.
 */
export async function checkResetCode(
  db: Database,
  key: Uint8Array,
  userId: string | undefined,
  code: string,
  { consume }: { consume: boolean },
): Promise<boolean> {
  if (!userId) {
    keyedHash(key, `unknown:${code}`); // the same work as for a known address
    return false;
  }
  return db.transaction(async (tx) => {
    const [live] = await tx
      .select()
      .from(passwordResetCodes)
      .where(
        and(
          eq(passwordResetCodes.userId, userId),
          isNull(passwordResetCodes.voidedAt),
          gt(passwordResetCodes.expiresAt, new Date()),
        ),
      )
      .orderBy(desc(passwordResetCodes.createdAt))
      .limit(1)
      .for('update');
    if (!live) return false;
    if (!sameHash(live.codeHash, keyedHash(key, `${live.id}:${code}`))) {
      const attempts = live.attempts + 1;
      await tx
        .update(passwordResetCodes)
        .set({ attempts, ...(attempts >= CODE_MAX_ATTEMPTS ? { voidedAt: sql`now()` } : {}) })
        .where(eq(passwordResetCodes.id, live.id));
      return false;
    }
    if (consume) {
      await tx.update(passwordResetCodes).set({ voidedAt: sql`now()` }).where(eq(passwordResetCodes.id, live.id));
    }
    return true;
  });
}
