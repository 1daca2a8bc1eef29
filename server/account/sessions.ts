// Server-side sessions and the bearer tokens that name them. A token is an HS256 JWT carrying
// the session id; it is good only while its session row is neither revoked nor expired, so
// signing out, changing or resetting a password ends sessions at once.
import { and, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import { SignJWT, jwtVerify } from 'jose';
import type { Database } from '../db/client';
import { sessions, users } from '../db/schema';

/** Without remember-me a session lasts a working day; with it, a month. */
export const SESSION_LIFETIME_MS = {
  short: 12 * 60 * 60 * 1000,
  long: 30 * 24 * 60 * 60 * 1000,
} as const;

const ISSUER = 'solestudio';

export type UserRow = typeof users.$inferSelect;
export type SessionRow = typeof sessions.$inferSelect;

export interface IssuedToken {
  access_token: string;
  token_type: 'bearer';
  expires_at: string;
  remember_me: boolean;
}

function lifetime(rememberMe: boolean) {
  return rememberMe ? SESSION_LIFETIME_MS.long : SESSION_LIFETIME_MS.short;
}

export async function signToken(key: Uint8Array, session: SessionRow): Promise<IssuedToken> {
  const token = await new SignJWT({ sid: session.id })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(ISSUER)
    .setSubject(session.userId)
    .setIssuedAt()
    .setExpirationTime(Math.floor(session.expiresAt.getTime() / 1000))
    .sign(key);
  return {
    access_token: token,
    token_type: 'bearer',
    expires_at: session.expiresAt.toISOString(),
    remember_me: session.rememberMe,
  };
}

export async function createSession(
  db: Database,
  userId: string,
  rememberMe: boolean,
  userAgent: string | undefined,
): Promise<SessionRow> {
  const [session] = await db
    .insert(sessions)
    .values({
      userId,
      rememberMe,
      expiresAt: new Date(Date.now() + lifetime(rememberMe)),
      userAgent: userAgent?.slice(0, 300),
    })
    .returning();
  if (!session) throw new Error('session was not created');
  return session;
}

/** The live session and user a token names, or null for a forged, expired or revoked token. */
export async function authenticate(
  db: Database,
  key: Uint8Array,
  token: string,
): Promise<{ user: UserRow; session: SessionRow } | null> {
  let claims;
  try {
    ({ payload: claims } = await jwtVerify(token, key, { algorithms: ['HS256'], issuer: ISSUER }));
  } catch {
    return null;
  }
  if (typeof claims.sid !== 'string' || typeof claims.sub !== 'string') return null;
  if (!/^[0-9a-f-]{36}$/i.test(claims.sid) || !/^[0-9a-f-]{36}$/i.test(claims.sub)) return null;
  const [row] = await db
    .select({ user: users, session: sessions })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(
      and(
        eq(sessions.id, claims.sid),
        eq(sessions.userId, claims.sub),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, new Date()),
      ),
    );
  return row ?? null;
}

/** Extends a session by its full lifetime from now (the app does this when it starts). */
export async function extendSession(db: Database, session: SessionRow): Promise<SessionRow> {
  const [updated] = await db
    .update(sessions)
    .set({ expiresAt: new Date(Date.now() + lifetime(session.rememberMe)), lastUsedAt: new Date() })
    .where(and(eq(sessions.id, session.id), isNull(sessions.revokedAt)))
    .returning();
  return updated ?? session;
}

export async function revokeSession(db: Database, sessionId: string): Promise<void> {
  await db
    .update(sessions)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
}

/** Ends every session of a user, or every one but `except`. */
export async function revokeUserSessions(db: Database, userId: string, except?: string): Promise<void> {
  await db
    .update(sessions)
    .set({ revokedAt: sql`now()` })
    .where(
      and(eq(sessions.userId, userId), isNull(sessions.revokedAt), except ? ne(sessions.id, except) : undefined),
    );
}
