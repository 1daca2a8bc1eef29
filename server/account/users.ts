// Reading and writing seller accounts. E-mail addresses are compared lower-cased, usernames
// ignoring case.
import { eq, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { users } from '../db/schema';
import { prepared } from '../db/prepared';
import type { UserRow } from './sessions';

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

export async function findUserByEmail(db: Database, email: string): Promise<UserRow | undefined> {
  const query = prepared(db, 'user_by_email', (d) =>
    d.select().from(users).where(eq(users.email, sql.placeholder('email'))).prepare('user_by_email'),
  );
  const [row] = await query.execute({ email: normaliseEmail(email) });
  return row;
}

/** By e-mail when the identifier holds "@", otherwise by username. */
export async function findUserByIdentifier(db: Database, identifier: string): Promise<UserRow | undefined> {
  if (identifier.includes('@')) return findUserByEmail(db, identifier);
  const query = prepared(db, 'user_by_username', (d) =>
    d
      .select()
      .from(users)
      .where(sql`lower(${users.username}) = ${sql.placeholder('username')}`)
      .prepare('user_by_username'),
  );
  const [row] = await query.execute({ username: identifier.trim().toLowerCase() });
  return row;
}

export async function usernameTaken(db: Database, username: string): Promise<boolean> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.username}) = ${username.toLowerCase()}`);
  return row !== undefined;
}

export async function setPasswordHash(db: Database, userId: string, passwordHash: string): Promise<void> {
  await db.update(users).set({ passwordHash }).where(eq(users.id, userId));
}

/** The account as the API shows it. */
export function publicUser(user: UserRow) {
  return {
    id: user.id,
    username: user.username,
    email: user.email,
    email_verified: user.emailVerifiedAt !== null,
    created_at: user.createdAt.toISOString(),
  };
}
