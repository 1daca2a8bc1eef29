// The database schema (Drizzle). Migrations in ./migrations are generated from this file with
// `npm run db:generate` and applied at start-up, on PGlite and on PostgreSQL alike.
import { bigint, integer, pgTable, text } from 'drizzle-orm/pg-core';

/**
 * Request counters of the rate limiter. Kept in the database so every API node behind a load
 * balancer counts against the same window.
 */
export const rateLimitHits = pgTable('rate_limit_hits', {
  key: text('key').primaryKey(),
  count: integer('count').notNull(),
  /** Unix time in milliseconds when the current window began. */
  windowStartMs: bigint('window_start_ms', { mode: 'number' }).notNull(),
});
