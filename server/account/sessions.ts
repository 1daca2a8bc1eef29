// Server-side sessions and the bearer tokens that name them. A token is an HS256 JWT carrying
// the session id; it is good only while its session row is neither revoked nor expired, so
// signing out, changing or resetting a password ends sessions at once.
import crypto from 'node:crypto';
import { and, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { contentVersions, sessions, users } from '../db/schema';
import { prepared } from '../db/prepared';
import { signJwt, verifyJwt } from './jwt';

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

/**
 * A keyed fingerprint of the seller's password hash, carried in the token: once the password
 * changes it no longer matches, which tells a session ended by a password change from one that
 * was signed out. Keyed, it says nothing about the password or its hash.
 */
function passwordStamp(key: Uint8Array, passwordHash: string): string {
  return crypto.createHmac('sha256', key).update(`password:${passwordHash}`).digest('base64url').slice(0, 16);
}

export function signToken(key: Uint8Array, session: SessionRow, user: Pick<UserRow, 'passwordHash'>): IssuedToken {
  const token = signJwt(key, {
    sub: session.userId,
    sid: session.id,
    iss: ISSUER,
    iat: Math.floor(Date.now() / 1000),
    exp: Math.floor(session.expiresAt.getTime() / 1000),
    pwd: passwordStamp(key, user.passwordHash),
  });
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
  const insert = prepared(db, 'create_session', (d) =>
    d
      .insert(sessions)
      .values({
        userId: sql.placeholder('userId'),
        rememberMe: sql.placeholder('rememberMe'),
        expiresAt: sql.placeholder('expiresAt'),
        userAgent: sql.placeholder('userAgent'),
      })
      .returning()
      .prepare('create_session'),
  );
  const [session] = await insert.execute({
    userId,
    rememberMe,
    expiresAt: new Date(Date.now() + lifetime(rememberMe)),
    userAgent: userAgent?.slice(0, 300) ?? null,
  });
  if (!session) throw new Error('session was not created');
  return session;
}

/** A token's claims when it is ours, unaltered and unexpired, naming a session and a seller. */
export function tokenClaims(key: Uint8Array, token: string) {
  const claims = verifyJwt(key, token, ISSUER);
  if (!claims || !/^[0-9a-f-]{36}$/i.test(claims.sid) || !/^[0-9a-f-]{36}$/i.test(claims.sub)) return null;
  return claims;
}

/** The live session and user a token names, or null for a forged, expired or revoked token. */
export async function authenticate(
  db: Database,
  key: Uint8Array,
  token: string,
): Promise<{ user: UserRow; session: SessionRow; contentVersion: number } | null> {
  const claims = tokenClaims(key, token);
  if (!claims) return null;
  // The seller's content version comes along (list answers check it), in the same round trip.
  const query = prepared(db, 'live_session', (d) =>
    d
      .select({ user: users, session: sessions, contentVersion: sql<number>`coalesce(${contentVersions.version}, 0)::int8`.mapWith(Number) })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .leftJoin(contentVersions, eq(contentVersions.userId, sessions.userId))
      .where(
        and(
          eq(sessions.id, sql.placeholder('sid')),
          eq(sessions.userId, sql.placeholder('sub')),
          isNull(sessions.revokedAt),
          gt(sessions.expiresAt, sql.placeholder('now')),
        ),
      )
      .prepare('live_session'),
  );
  const [row] = await query.execute({ sid: claims.sid, sub: claims.sub, now: new Date() });
  return row ?? null;
}

/**
 * Why a token that `authenticate` refused is refused: SESSION_REVOKED when its session was ended
 * because the seller's password changed after the token was issued, UNAUTHORIZED for anything
 * else (forged, expired, signed out). Only a token this server signed gets the first answer.
 */
export async function refusal(db: Database, key: Uint8Array, token: string): Promise<'SESSION_REVOKED' | 'UNAUTHORIZED'> {
  const claims = tokenClaims(key, token);
  if (!claims?.pwd) return 'UNAUTHORIZED';
  const [row] = await db
    .select({ revokedAt: sessions.revokedAt, passwordHash: users.passwordHash })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.id, claims.sid), eq(sessions.userId, claims.sub)));
  return row?.revokedAt && passwordStamp(key, row.passwordHash) !== claims.pwd ? 'SESSION_REVOKED' : 'UNAUTHORIZED';
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
