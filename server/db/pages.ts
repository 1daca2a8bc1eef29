// A page of one of a seller's long lists (tasks, results, photos, ledger entries), newest first
// (created_at, then id), with the list's total, in one statement: whatever the page number, it
// reads the seller's counts by day (list_counts, schema-lists.ts), finds the days the page starts
// and ends on and how far into the first, and reads only those days' rows from the list's index
// on (user_id, …, created_at). No OFFSET over the rows before the page, no count(*) over the
// seller's rows. A seller whose counts are not kept yet (made before migration 0015, until
// countSellers reaches them) is answered by a second statement that counts the days from the
// rows: the same answer, only slower.
import { getTableColumns, sql, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { setImmediate as yieldToRequests } from 'node:timers/promises';
import type { Database } from './client';

export interface ListOf {
  userId: string;
  /** The list_counts lists whose rows the page shows (a section of material history, or all of them). */
  lists: readonly string[];
  /** What else a row must be besides the seller's (its section); every row of `lists` and only those. */
  rows?: SQL;
}

/**
 * The statement that answers `page` (1-based) of `pageSize` rows, each row with the list's total
 * (`__total`) and whether the seller's counts are kept (`__counted`; when they are not, it answers
 * nothing and `counting` is the statement to ask instead: the same page, the days counted from the
 * rows).
 */
export function pageStatement(table: PgTable, list: ListOf, page: number, pageSize: number, counting = false): SQL {
  const offset = (page - 1) * pageSize;
  const own = sql`user_id = ${list.userId}${list.rows ? sql` AND ${list.rows}` : sql``}`;
  const lists = sql`ARRAY[${sql.join(
    list.lists.map((name) => sql`${name}`),
    sql`, `,
  )}]::text[]`;
  const kept = sql`coalesce((SELECT counted FROM counted_sellers WHERE user_id = ${list.userId}), false)`;
  const days = counting
    ? sql`SELECT list_day(created_at) AS day, count(*)::integer AS n FROM ${table} WHERE ${own} GROUP BY 1`
    : sql`SELECT day, sum(n)::integer AS n FROM list_counts WHERE user_id = ${list.userId} AND list = ANY(${lists}) AND (SELECT counted FROM kept) GROUP BY day`;
  // A SELECT around the WITH: the embedded database's client counts statements that may write
  // (server/db/pglite-prepared.ts), and one beginning with WITH might.
  return sql`SELECT * FROM (
    WITH kept AS (
      SELECT ${counting ? sql`true` : kept} AS counted
    ), days AS (
      ${days}
    ), running AS (
      SELECT day, n, sum(n) OVER (ORDER BY day DESC) AS through FROM days WHERE n <> 0
    ), bounds AS (
      SELECT (SELECT coalesce(sum(n), 0) FROM days)::integer AS total, first.day AS first_day, first.through - first.n AS before,
        coalesce((SELECT day FROM running WHERE through >= ${offset + pageSize} ORDER BY day DESC LIMIT 1), (SELECT min(day) FROM running)) AS last_day
      FROM (SELECT 1) AS one
      LEFT JOIN LATERAL (SELECT day, n, through FROM running WHERE through > ${offset} ORDER BY day DESC LIMIT 1) AS first ON true
    )
    SELECT bounds.total AS "__total", (SELECT counted FROM kept) AS "__counted", page.* FROM bounds
    LEFT JOIN LATERAL (
      SELECT * FROM ${table}
      WHERE ${own}
        AND created_at >= to_timestamp(bounds.last_day::double precision * 86400)
        AND created_at < to_timestamp((bounds.first_day + 1)::double precision * 86400)
      ORDER BY created_at DESC, id DESC
      OFFSET ${offset} - bounds.before LIMIT ${pageSize}
    ) AS page ON true
  ) AS list_page`;
}

/** One page of the seller's list and how many rows the list holds, read in one statement. */
export async function pageOf<T extends PgTable>(
  db: Database,
  table: T,
  list: ListOf,
  page: number,
  pageSize: number,
): Promise<{ rows: T['$inferSelect'][]; total: number }> {
  const read = async (counting: boolean) =>
    ((await db.execute(pageStatement(table, list, page, pageSize, counting))) as unknown as { rows: Record<string, unknown>[] }).rows;
  let raw = await read(false);
  // A seller made before the counts were kept, not counted yet (see countSellers).
  if (raw[0]?.__counted === false) raw = await read(true);
  const columns = Object.entries(getTableColumns(table));
  // The rows as Drizzle's own selects give them (dates, bigints and JSON as the schema says).
  const rows = raw
    .filter((row) => row.id !== null)
    .map((row) => Object.fromEntries(columns.map(([key, column]) => [key, row[column.name] === null ? null : column.mapFromDriverValue(row[column.name])])));
  return { rows: rows as T['$inferSelect'][], total: Number(raw[0]?.__total ?? 0) };
}

/**
 * Counts the sellers made before list counts were kept, one seller a transaction (its own
 * statement), letting requests in between; a seller being counted elsewhere is tried again after
 * the others. Answers how many it counted.
 */
export async function countSellers(db: Database, signal?: AbortSignal): Promise<number> {
  let counted = 0;
  while (!signal?.aborted) {
    const result = await db.execute(sql`SELECT user_id FROM counted_sellers WHERE NOT counted ORDER BY user_id LIMIT 200`);
    const sellers = (result as unknown as { rows: { user_id: string }[] }).rows;
    if (sellers.length === 0) return counted;
    let progress = false;
    for (const { user_id: seller } of sellers) {
      if (signal?.aborted) break;
      const done = await db.execute(sql`SELECT count_seller_lists(${seller}) AS done`);
      if ((done as unknown as { rows: { done: boolean }[] }).rows[0]?.done) {
        counted += 1;
        progress = true;
      }
      // The embedded database answers without giving the event loop a turn: let requests in between.
      await yieldToRequests();
    }
    // Only sellers held by a count elsewhere (or a change) are left: give them a moment.
    if (!progress) await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return counted;
}

/**
 * How many of the counted sellers' counts (seller, list, day) differ from their rows: 0 when every
 * kept count is exact. It reads every row of the counted tables: a check for tests, benches and an
 * operator, not for a request.
 */
export async function listCountsOff(db: Database): Promise<number> {
  const result = await db.execute(sql`
    WITH actual AS (
      SELECT user_id, 'tasks' AS list, list_day(created_at) AS day, count(*)::integer AS n FROM tasks GROUP BY 1, 2, 3
      UNION ALL SELECT user_id, 'materials', list_day(created_at), count(*)::integer FROM materials GROUP BY 1, 2, 3
      UNION ALL SELECT user_id, 'ledger', list_day(created_at), count(*)::integer FROM ledger GROUP BY 1, 2, 3
      UNION ALL SELECT user_id, 'assets:' || section, list_day(created_at), count(*)::integer FROM assets GROUP BY 1, 2, 3
    ), kept AS (
      SELECT user_id, list, day, n FROM list_counts WHERE n <> 0
    )
    SELECT count(*)::integer AS off FROM actual FULL JOIN kept USING (user_id, list, day)
    WHERE user_id IN (SELECT user_id FROM counted_sellers WHERE counted) AND actual.n IS DISTINCT FROM kept.n`);
  return (result as unknown as { rows: { off: number }[] }).rows[0]!.off;
}
