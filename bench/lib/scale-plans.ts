// The plans of the big seller's list queries (server/db/pages.ts) on the big database, and how
// long each runs at the first page, the middle one and the last: EXPLAIN ANALYZE of the very
// statement the routes run, three times each (the median kept).
import { sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Database } from '../../server/db/client';
import { pageStatement, type ListOf } from '../../server/db/pages';
import { assets, ledger, materials, tasks } from '../../server/db/schema';
import { tasksList } from '../../server/content/tasks';
import { assetsList } from '../../server/content/assets';
import { materialsList } from '../../server/materials/materials';
import { ledgerList } from '../../server/ledger/ledger';
import { ASSETS_PAGE_SIZE } from '../../contract/assets';
import { rowsOf } from './scale-seed';

/** Each list as a route asks for it, at the route's page size. */
const LISTS: { name: string; table: PgTable; list: (userId: string) => ListOf; pageSize: number }[] = [
  { name: 'GET /content/tasks', table: tasks, list: tasksList, pageSize: 10 },
  { name: 'GET /content/assets', table: assets, list: (userId) => assetsList(userId, undefined), pageSize: ASSETS_PAGE_SIZE },
  { name: 'GET /content/assets?material_category=PRODUCT', table: assets, list: (userId) => assetsList(userId, 'PRODUCT'), pageSize: ASSETS_PAGE_SIZE },
  { name: 'GET /content/assets?material_category=POSTER', table: assets, list: (userId) => assetsList(userId, 'POSTER'), pageSize: ASSETS_PAGE_SIZE },
  { name: 'GET /materials/list', table: materials, list: materialsList, pageSize: 10 },
  { name: 'GET /tokens/history', table: ledger, list: ledgerList, pageSize: 20 },
];

export interface ListPlan {
  name: string;
  /** The pages timed: the first, the middle and the last. */
  pages: number[];
  /** Their execution times, as EXPLAIN ANALYZE reports them (median of 3). */
  ms: number[];
  /** The plan at the last page. */
  plan: string;
}

async function explained(db: Database, statement: ReturnType<typeof pageStatement>): Promise<{ ms: number; plan: string }> {
  const lines = (await rowsOf<{ 'QUERY PLAN': string }>(db, sql`EXPLAIN (ANALYZE, BUFFERS) ${statement}`)).map((row) => row['QUERY PLAN']);
  const ms = Number(/Execution Time: ([\d.]+) ms/.exec(lines.at(-1) ?? '')?.[1] ?? NaN);
  return { ms, plan: lines.join('\n') };
}

/** Each list's timings and plan for `userId`'s lists. */
export async function listPlans(db: Database, userId: string): Promise<ListPlan[]> {
  const plans: ListPlan[] = [];
  for (const { name, table, list, pageSize } of LISTS) {
    const own = list(userId);
    const total = (await rowsOf<{ total: number }>(db, sql`SELECT "__total" AS total FROM (${pageStatement(table, own, 1, 1)}) AS page`))[0]?.total ?? 0;
    const last = Math.max(1, Math.ceil(total / pageSize));
    const pages = [1, Math.ceil(last / 2), last];
    const ms: number[] = [];
    let plan = '';
    for (const page of pages) {
      const runs: number[] = [];
      for (let i = 0; i < 3; i += 1) {
        const run = await explained(db, pageStatement(table, own, page, pageSize));
        runs.push(run.ms);
        plan = run.plan;
      }
      ms.push(runs.sort((a, b) => a - b)[1]!);
    }
    plans.push({ name, pages, ms, plan });
  }
  return plans;
}
