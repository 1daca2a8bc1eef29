// What pages a seller's long lists (tasks, results, photos, the ledger) without counting or
// skipping their rows: how many each list holds on each day. Kept apart from schema.ts, whose
// tables it counts; drizzle.config.ts reads both. The triggers that keep the counts, and the
// function that counts a seller the first time, are in migration 0015 (SQL drizzle-kit does not
// write); server/db/pages.ts reads them.
import { boolean, integer, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { users } from './schema';

/**
 * How many rows of one of a seller's lists were made on one day (UTC; days since 1970-01-01) —
 * `tasks`, `materials`, `ledger`, or `assets:<section>` for a section of material history. A page
 * number is turned into the day the page starts on and how far into that day; the list's total is
 * their sum. Moved by the statement that inserts or deletes the rows (triggers), for the sellers
 * counted_sellers says are counted.
 */
export const listCounts = pgTable(
  'list_counts',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    list: text('list').notNull(),
    day: integer('day').notNull(),
    n: integer('n').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.list, t.day] })],
);

/**
 * Every seller, and whether their list counts are kept yet. A seller made before the counts
 * existed is counted once, in a transaction of its own that holds this row (count_seller_lists);
 * a new seller is counted from the start.
 */
export const countedSellers = pgTable('counted_sellers', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  counted: boolean('counted').notNull().default(false),
});
