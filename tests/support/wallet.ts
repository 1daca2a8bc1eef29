// The seller's balance against the ledger: what the API answers, the ledger's sum and the token
// lots' remainders are one number, never below zero, whatever ran.
import { eq, sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { ledger, tokenLots } from '../../server/db/schema';
import type { TestApp } from './test-app';

export async function expectBalanced(t: TestApp, seller: { id: string; token: string }): Promise<void> {
  const db = t.app.database.db;
  const [entries] = await db.select({ sum: sql<string>`coalesce(sum(${ledger.amount}), 0)` }).from(ledger).where(eq(ledger.userId, seller.id));
  const [lots] = await db.select({ sum: sql<string>`coalesce(sum(${tokenLots.remaining}), 0)` }).from(tokenLots).where(eq(tokenLots.userId, seller.id));
  const answer = await t.app.inject({ method: 'GET', url: '/api/v1/tokens/balance', headers: { authorization: `Bearer ${seller.token}` } });
  const total = answer.json().data.total_tokens as number;
  expect(total).toBeGreaterThanOrEqual(0);
  expect(Number(entries!.sum)).toBe(total);
  expect(Number(lots!.sum)).toBe(total);
}
