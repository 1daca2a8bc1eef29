// Password hashing: argon2id at OWASP's minimum cost or above (19 MiB, 2 passes, 1 lane).
import { hash, verify } from '@node-rs/argon2';

/** Argon2id in @node-rs/argon2's Algorithm enum (a const enum, so written as its value). */
const ARGON2ID = 2;

export const HASH_OPTIONS = {
  algorithm: ARGON2ID,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
} as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, HASH_OPTIONS);
}

// Checked when no account matches, so an unknown name takes as long as a wrong password.
let dummyHash: Promise<string> | undefined;

/** True when `password` matches `stored`; with no stored hash it spends the same time and fails. */
export async function verifyPassword(stored: string | undefined, password: string): Promise<boolean> {
  if (!stored) {
    dummyHash ??= hashPassword('not-a-password-1!');
    await verify(await dummyHash, password).catch(() => false);
    return false;
  }
  return verify(stored, password).catch(() => false);
}
