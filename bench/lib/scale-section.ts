// `npm run bench -- scale` (issue 34, a million results), on one database: a database of its own
// seeded at SEED_LEVEL (scale-seed.ts), the newer migrations applied to it (on PostgreSQL while
// other connections write to the big tables), its sellers counted, the list queries' plans and
// their times at the first, middle and last page (scale-plans.ts), the server's start on it, the
// lists and the balance of the seller with 5,000 tasks and 50,000 results from 50 clients
// (scale-load.ts), and the nightly sweeps (scale-ops.ts). The database is dropped afterwards.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { openPglite, openPostgres, type DatabaseHandle } from '../../server/db/client';
import { countSellers, listCountsOff } from '../../server/db/pages';
import { hashPassword } from '../../server/account/passwords';
import { migrationsUpTo } from '../../tests/support/migrations-folder';
import { BIG_SELLER, rowsOf, SCALE, SEED_LEVEL, seedScale } from './scale-seed';
import { listPlans } from './scale-plans';
import { routeUnderLoad, SCALE_ROUTES } from './scale-load';
import { sweepFigures, whileWriting, type Writes } from './scale-ops';
import { signedInToken } from './auth';
import { startServer } from './server';

interface Row {
  measure: string;
  value: string;
  target: string;
  ok: boolean | null;
}

export const P99_TARGET_MS = 20;
const START_TARGET_MS = 2000;
/** A write waiting longer than this while a migration runs is a table held for writes. */
const WRITE_WAIT_TARGET_MS = 200;
/** The retention sweep runs every hour, reconciliation (with the lapses) every minute. */
const SWEEP_TARGET_MS = { retention: 60_000, lapses: 5_000, reconciliation: 5_000 };

const ms = (value: number) => `${Math.round(value)} ms`;
const writesLine = (w: Writes) => `longest write ${w.longestMs.toFixed(0)} ms, p99 ${w.p99Ms.toFixed(0)} ms, of ${w.count.toLocaleString('en')}`;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** A PostgreSQL database of its own beside `benchUrl`'s, made empty. */
async function emptyPostgres(benchUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const url = new URL(benchUrl);
  const name = `${url.pathname.slice(1) || 'postgres'}_scale`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: benchUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await admin(`CREATE DATABASE "${name}"`);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`) };
}

const userIdOf = async (db: DatabaseHandle['db'], username: string) =>
  (await rowsOf<{ id: string }>(db, sql`SELECT id FROM users WHERE username = ${username}`))[0]!.id;

export interface ScaleFigures {
  rows: Row[];
  /** Each list query's plan at its last page, to print after the table. */
  plans: string[];
}

/**
 * `small` is the bench's own data directory (and `benchUrl` its own database): the server is
 * started on it between the starts on the big one, so the start-up figure has its like beside it,
 * taken in the same minutes on the same shared cores.
 */
export async function scaleFigures(name: 'PGlite' | 'PostgreSQL', benchUrl: string | undefined, small: string): Promise<ScaleFigures> {
  const rows: Row[] = [];
  const plans: string[] = [];
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'solestudio-bench-scale-'));
  const postgres = benchUrl ? await emptyPostgres(benchUrl) : null;
  const open = (folder?: string) => (postgres ? openPostgres(postgres.url, folder) : openPglite(path.join(dataDir, 'pg'), folder));
  const env: Record<string, string> = { RATE_LIMIT_DISABLED: 'true', RUN_JOBS: 'false', ...(postgres ? { DATABASE_URL: postgres.url } : {}) };
  const seedLevel = migrationsUpTo(SEED_LEVEL);
  try {
    console.log(`Seeding ${SCALE.sellers.toLocaleString('en')} sellers, ${SCALE.tasks.toLocaleString('en')} tasks and their results on ${name}…`);
    const seeded = await open(seedLevel);
    const seed = await seedScale(seeded.db, await hashPassword(BIG_SELLER.password), (line) => console.log(line));
    // PostgreSQL's autovacuum would do this soon after such a load; PGlite runs no autovacuum.
    if (postgres) await seeded.db.execute(sql`VACUUM ANALYZE`);
    const writer = await userIdOf(seeded.db, `scale${SCALE.sellers}`);
    await seeded.close();
    const seededRows = Object.values(seed.rows).reduce((sum, n) => sum + n, 0);
    rows.push({
      measure: `seeding ${SCALE.sellers.toLocaleString('en')} sellers, ${SCALE.tasks.toLocaleString('en')} tasks, ${(SCALE.tasks * 10).toLocaleString('en')} results (generate_series), ${name}`,
      value: `${seed.seconds.toFixed(1)} s for ${seededRows.toLocaleString('en')} rows (${(seed.rows.assets ?? 0).toLocaleString('en')} results, ${(seed.rows.materials ?? 0).toLocaleString('en')} photos, ${(seed.rows.ledger ?? 0).toLocaleString('en')} ledger entries)`,
      target: '',
      ok: null,
    });

    console.log(`Migrating the big database past ${SEED_LEVEL} and counting its sellers on ${name}…`);
    let handle: DatabaseHandle;
    if (postgres) {
      const migrated = await whileWriting(postgres.url, writer, async () => {
        const started = performance.now();
        const opened = await open();
        return { opened, ms: performance.now() - started };
      });
      handle = migrated.result.opened;
      rows.push({
        measure: `newer migrations on the big database, writes to its big tables meanwhile, ${name}`,
        value: `${ms(migrated.result.ms)}; ${writesLine(migrated.writes)}`,
        target: `writes wait ≤ ${WRITE_WAIT_TARGET_MS} ms`,
        ok: migrated.writes.longestMs <= WRITE_WAIT_TARGET_MS,
      });
      const counted = await whileWriting(postgres.url, writer, async () => {
        const started = performance.now();
        return { sellers: await countSellers(handle.db), ms: performance.now() - started };
      });
      rows.push({
        measure: `counting the sellers' lists after it (in the background, a seller at a time), ${name}`,
        value: `${(counted.result.ms / 1000).toFixed(1)} s for ${counted.result.sellers.toLocaleString('en')} sellers; ${writesLine(counted.writes)}`,
        target: `writes wait ≤ ${WRITE_WAIT_TARGET_MS} ms`,
        ok: counted.writes.longestMs <= WRITE_WAIT_TARGET_MS,
      });
    } else {
      // One process owns the embedded database: the migration runs at start-up, before it serves.
      const started = performance.now();
      handle = await open();
      const migratedMs = performance.now() - started;
      const counting = performance.now();
      const sellers = await countSellers(handle.db);
      rows.push({
        measure: `opening the big database with the newer migrations (once, at the first start), ${name}`,
        value: `${ms(migratedMs)}; then counting ${sellers.toLocaleString('en')} sellers' lists in the background: ${((performance.now() - counting) / 1000).toFixed(1)} s`,
        target: `≤ ${START_TARGET_MS} ms`,
        ok: migratedMs <= START_TARGET_MS,
      });
    }
    const off = await listCountsOff(handle.db);
    rows.push({ measure: `list counts by day against the rows, ${name}`, value: `${off} off`, target: '0', ok: off === 0 });

    console.log(`Explaining the list queries on ${name}…`);
    const big = await userIdOf(handle.db, BIG_SELLER.username);
    for (const list of await listPlans(handle.db, big)) {
      const [first, , last] = list.ms as [number, number, number];
      rows.push({
        measure: `${list.name}, pages ${list.pages.join(' / ')}: query time (EXPLAIN ANALYZE), ${name}`,
        value: list.ms.map((t) => `${t.toFixed(2)} ms`).join(' / '),
        target: 'last ≤ 2 × first + 1 ms',
        ok: last <= 2 * first + 1,
      });
      plans.push(`${list.name}, page ${list.pages.at(-1)}, ${name}:\n${list.plan}`);
    }
    await handle.close();

    console.log(`Starting the server on the big database (${name}) five times, and on a small one between…`);
    const starts: number[] = [];
    const smallStarts: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      const server = await startServer(dataDir, env);
      starts.push(server.startMs);
      await server.stop();
      const control = await startServer(small, { RUN_JOBS: 'false', ...(benchUrl ? { DATABASE_URL: benchUrl } : {}) });
      smallStarts.push(control.startMs);
      await control.stop();
    }
    rows.push({
      measure: `server start on the big database (median of 5), ${name}`,
      value: `${ms(median(starts))} (max ${ms(Math.max(...starts))}); on the bench's small database meanwhile ${ms(median(smallStarts))}`,
      target: `≤ ${START_TARGET_MS} ms`,
      ok: median(starts) <= START_TARGET_MS,
    });

    const server = await startServer(dataDir, env);
    try {
      const token = await signedInToken(server.url, BIG_SELLER);
      for (const route of SCALE_ROUTES) {
        console.log(`  ${route} from 50 clients…`);
        const load = await routeUnderLoad(server.url, token, route);
        const pages = load.totalPages > 1 ? `, pages ${load.pages[0]}…${load.pages.at(-1)} of ${load.totalPages}` : '';
        rows.push({
          measure: `GET ${route.replace('/api/v1', '')}, 50 clients${pages}, ${name}: p99`,
          value: `${load.p99} ms (p50 ${load.p50} ms, ${load.requestsPerSecond.toFixed(0)} req/s, ${load.failures} failed of ${load.total})`,
          target: `≤ ${P99_TARGET_MS} ms`,
          ok: load.p99 <= P99_TARGET_MS && load.failures === 0,
        });
      }
    } finally {
      await server.stop();
    }

    console.log(`Running the nightly sweeps on ${name}…`);
    const sweeps = await sweepFigures(dataDir, postgres?.url);
    const sweepRow = (measure: string, figure: { ms: number; stallMs: number }, what: string, target: number) =>
      rows.push({
        measure: `${measure}, ${name}`,
        value: `${(figure.ms / 1000).toFixed(2)} s, ${what}; the event loop waited at most ${ms(figure.stallMs)}`,
        target: `≤ ${target / 1000} s`,
        ok: figure.ms <= target,
      });
    sweepRow('retention sweep of unused photos, first run', sweeps.retention, `${sweeps.retention.deleted.toLocaleString('en')} deleted`, SWEEP_TARGET_MS.retention);
    sweepRow('retention sweep again, nothing left to delete', sweeps.retentionAgain, `${sweeps.retentionAgain.deleted} deleted`, SWEEP_TARGET_MS.retention);
    sweepRow('subscription run: renewals due and lapses', sweeps.lapses, `${sweeps.lapses.lapsed.toLocaleString('en')} tokens lapsed`, SWEEP_TARGET_MS.lapses);
    sweepRow('reconciliation of pending payments', sweeps.reconciliation, `${sweeps.reconciliation.asked} asked of ${SCALE.pendingPayments}`, SWEEP_TARGET_MS.reconciliation);
  } finally {
    fs.rmSync(seedLevel, { recursive: true, force: true });
    fs.rmSync(dataDir, { recursive: true, force: true });
    await postgres?.drop();
  }
  return { rows, plans };
}
