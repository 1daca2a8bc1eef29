// Renewing subscriptions at scale: 10,000 mandate subscriptions due at the same moment, renewed
// by the subscription job's own run(at) on PGlite through the embedded sandbox, while a seller's
// GET /tokens/balance is asked 100 times a second. Checked afterwards: one completed charge per
// subscription and period (on our books and on the sandbox's), and every wallet equal to its
// ledger and its lots.
//
// Unlike the other benches the server runs in this process: run(at) is a function of the app,
// not a route, and PGlite lets one process at a time open its directory. The clients run in a
// child process of their own, so they take neither the server's event loop nor its core.
import { spawn, type ChildProcess } from 'node:child_process';
import { sql, type SQL } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app';
import { loadConfig } from '../../server/config/env';
import { openDatabase, type Database } from '../../server/db/client';
import { signedInToken, verifiedSeller, type SignInLoad } from './auth';
import { freePort } from './server';
import { customerOf } from '../../tests/support/customers';

export const RENEWALS = 10_000;

const rowsOf = async <T>(db: Database, query: SQL): Promise<T[]> => ((await db.execute(query)) as unknown as { rows: T[] }).rows;

interface InProcessServer {
  app: FastifyInstance;
  url: string;
  stop(): Promise<void>;
}

/** The real app on `dataDir`'s PGlite, listening on loopback, built as server/server.ts builds it. */
async function serveInProcess(dataDir: string, env: Record<string, string>): Promise<InProcessServer> {
  const port = await freePort();
  // DATABASE_URL emptied: the target is about the embedded database whatever the shell says.
  const config = loadConfig({ ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', DATABASE_URL: '', ...env });
  const database = await openDatabase(config);
  const app = await buildApp({ config, database });
  await app.listen({ host: config.host, port: config.port });
  return { app, url: `http://127.0.0.1:${port}`, stop: () => app.close() };
}

/** The local checkout as a seller walks it: billing details, a mandate authorised on the sandbox's page, the subscription. */
async function subscribedThroughHttp(url: string, token: string): Promise<string> {
  const api = async <T>(route: string, body: object): Promise<T> => {
    const answer = await fetch(`${url}/api/v1${route}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'accept-language': 'en' },
      body: JSON.stringify(body),
    });
    if (!answer.ok) throw new Error(`POST ${route} failed: ${answer.status} ${await answer.text()}`);
    return ((await answer.json()) as { data: T }).data;
  };
  await api('/localpay/customers', customerOf('bench-renewals-shop', 'Renata'));
  const mandate = await api<{ id: string; redirect_url: string }>('/localpay/mandates', { reference: 'bench-renewals-mandate', payment_method: 'sberpay_ru', terminal_type: 'web' });
  const authorised = await fetch(`${url}${new URL(mandate.redirect_url).pathname}/pay`, { method: 'POST', redirect: 'manual' });
  if (authorised.status !== 303) throw new Error(`authorising the mandate on the sandbox's page failed: ${authorised.status}`);
  const subscription = await api<{ id: string; status: string }>('/localpay/subscriptions', { plan_id: 1, mandate_id: mandate.id, reference: 'bench-renewals-sub', interval: 'month' });
  if (subscription.status !== 'active') throw new Error(`the subscription is ${subscription.status}, not active`);
  return subscription.id;
}

/**
 * Copies, `copies` times, every row of `table` that `where` picks (`r` is the row), column by
 * column as the database lists them today: the ids in `ids` are replaced throughout each row
 * (in either spelling, with or without dashes, wherever they occur: keys, references, the
 * sandbox's `sbx_…` ids) by ids of the copy's own, and `override` is laid over the result.
 * Identity columns are left to the database.
 */
async function cloneRows(db: Database, table: string, where: SQL, ids: readonly string[], copies: number, override: SQL = sql`'{}'::jsonb`): Promise<number> {
  const columns = await rowsOf<{ column_name: string }>(
    db,
    sql`SELECT column_name FROM information_schema.columns
        WHERE table_schema = current_schema() AND table_name = ${table} AND is_identity = 'NO' AND is_generated = 'NEVER'
        ORDER BY ordinal_position`,
  );
  if (columns.length === 0) throw new Error(`no table ${table}`);
  const list = sql.join(
    columns.map((column) => sql.identifier(column.column_name)),
    sql`, `,
  );
  // A copy's id is md5(original id, copy number): its hex is the dashless spelling of the same uuid.
  let text: SQL = sql`to_jsonb(r)::text`;
  for (const id of ids) {
    const hex = id.replaceAll('-', '');
    text = sql`replace(replace(${text}, ${id}, md5(${id} || ':' || g)::uuid::text), ${hex}, md5(${id} || ':' || g))`;
  }
  const inserted = await rowsOf<{ count: number }>(
    db,
    sql`WITH copied AS (
          INSERT INTO ${sql.identifier(table)} (${list})
          SELECT ${list} FROM (
            SELECT (jsonb_populate_record(NULL::${sql.identifier(table)}, (${text})::jsonb || ${override})).*
            FROM ${sql.identifier(table)} AS r, generate_series(1, ${copies}) AS g
            WHERE ${where}
          ) AS copy
          RETURNING 1
        ) SELECT count(*)::int AS count FROM copied`,
  );
  return inserted[0]?.count ?? 0;
}

/**
 * `copies` more sellers subscribed exactly as the one whose subscription is `subscriptionId`:
 * the seller, their wallet and billing details, the mandate, the subscription, its first charge
 * and that charge's ledger entries (the ledger's trigger opens the token lots, as it did for the
 * original), and the sandbox's books for them — the mandate's checkout, the saved method and the
 * first charge — so renewals charge a method the sandbox knows.
 */
async function cloneSubscribers(db: Database, subscriptionId: string, copies: number): Promise<void> {
  const [original] = await rowsOf<{ user_id: string; mandate_id: string; charge_id: string; method_id: string }>(
    db,
    sql`SELECT s.user_id, s.mandate_id, c.id AS charge_id, m.provider_method_id AS method_id
        FROM subscriptions s JOIN mandates m ON m.id = s.mandate_id JOIN subscription_charges c ON c.subscription_id = s.id
        WHERE s.id = ${subscriptionId}`,
  );
  if (!original) throw new Error('the subscription made through HTTP has no mandate or charge');
  const ids = [original.user_id, original.mandate_id, subscriptionId, original.charge_id];
  const mine = sql`r.user_id = ${original.user_id}`;
  const copied: Record<string, number> = {
    users: await cloneRows(
      db,
      'users',
      sql`r.id = ${original.user_id}`,
      ids,
      copies,
      sql`jsonb_build_object('username', r.username || '-' || g, 'email', 'copy' || g || '.' || r.email)`,
    ),
  };
  for (const table of ['wallets', 'customers', 'mandates', 'subscriptions', 'subscription_charges', 'ledger']) {
    copied[table] = await cloneRows(db, table, mine, ids, copies);
  }
  copied.sandbox_checkouts = await cloneRows(db, 'sandbox_checkouts', sql`r.payment_id IN (${original.mandate_id}, ${original.charge_id})`, ids, copies);
  copied.sandbox_methods = await cloneRows(db, 'sandbox_methods', sql`r.id = ${original.method_id}`, ids, copies);
  // Each table must have been copied whole: a row the original lacks means the flow changed.
  const short = Object.entries(copied).filter(([, count]) => count < copies);
  if (short.length > 0) throw new Error(`copying the subscriber missed rows: ${short.map(([table, count]) => `${table} ${count}`).join(', ')}`);
}

// The clients, in a child process: sellers opening their balance at a steady `rate` a second,
// each request sent on time whether or not earlier ones were answered (an open loop, as sellers
// do not wait for each other) — a load well below what the API can serve, so the figure is the
// latency a seller sees while the job runs, not a queue of clients. A 5 s warm-up, then a measured
// load from each 'measure' to the next 'stop' (requests still in flight counted when answered).
const CLIENTS = `
const [url, token, rate] = process.argv.slice(1);
const headers = { authorization: 'Bearer ' + token };
let latencies = [];
let failures = 0;
const inFlight = new Set();
const one = async () => {
  const started = performance.now();
  try {
    const answer = await fetch(url, { headers });
    await answer.arrayBuffer();
    if (answer.ok) latencies.push(performance.now() - started);
    else failures += 1;
  } catch {
    failures += 1;
  }
};
let timer = null;
const load = () => {
  const started = performance.now();
  let sent = 0;
  timer = setInterval(() => {
    for (const due = Math.floor(((performance.now() - started) * Number(rate)) / 1000); sent < due; sent += 1) {
      const request = one().finally(() => inFlight.delete(request));
      inFlight.add(request);
    }
  }, 1);
  return started;
};
const stop = async () => {
  clearInterval(timer);
  while (inFlight.size > 0) await Promise.all(inFlight);
};
load();
await new Promise((resolve) => setTimeout(resolve, 5000));
await stop();
let measuring = 0;
process.on('message', async (message) => {
  if (message === 'measure') {
    latencies = [];
    failures = 0;
    measuring = load();
  } else if (message === 'stop') {
    await stop();
    const seconds = (performance.now() - measuring) / 1000;
    const sorted = latencies.sort((a, b) => a - b);
    const at = (q) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0);
    process.send({ p50: at(0.5), p99: at(0.99), max: Math.round(sorted.at(-1) ?? 0), requestsPerSecond: sorted.length / seconds, failures, total: sorted.length + failures });
  } else if (message === 'exit') process.disconnect();
});
process.send('ready');
`;

type ClientLoad = SignInLoad & { max: number };

class Clients {
  private constructor(private readonly child: ChildProcess) {}

  static async start(url: string, token: string, rate: number): Promise<Clients> {
    const child = spawn(process.execPath, ['--input-type=module', '--eval', CLIENTS, url, token, String(rate)], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    await new Promise<void>((resolve, reject) => {
      child.once('message', () => resolve());
      child.once('exit', (code) => reject(new Error(`the clients exited (${code}) before they were ready`)));
    });
    return new Clients(child);
  }

  /** Figures for the load from now until `during` settles. */
  async measure(during: Promise<unknown>): Promise<ClientLoad> {
    this.child.send('measure');
    try {
      await during;
    } finally {
      this.child.send('stop');
    }
    return new Promise((resolve) => this.child.once('message', (figures) => resolve(figures as ClientLoad)));
  }

  close(): void {
    this.child.send('exit');
  }
}

export interface RenewalRun {
  renewals: number;
  seconds: number;
  /** What run(at) answered. */
  renewed: number;
  lapsed: number;
  idle: ClientLoad;
  during: ClientLoad;
  /** Balance requests a second, sent on time whatever the answers. */
  rate: number;
  /** Charges for the period after the first: completed, all, and the subscriptions they are for. */
  completed: number;
  charges: number;
  subscriptionsCharged: number;
  /** Subscription periods charged more than once (anywhere, any period). */
  duplicates: number;
  /** The sandbox's own charges for the new period, and the subscriptions they are for. */
  sandboxCharges: number;
  sandboxSubscriptions: number;
  /** Subscriptions that moved on to the new period, active. */
  movedOn: number;
  /** Wallets that differ from their ledger's sum or their lots' remainders, of how many. */
  walletsOff: number;
  wallets: number;
}

/**
 * `RENEWALS` subscriptions due at the same moment, renewed by run(at) while one seller's balance
 * is asked `rate` times a second. The server must have been started once on `dataDir` already
 * (or be fresh: it migrates); it runs the API and nothing else (RUN_JOBS=false), so the job run
 * measured is the only one.
 */
export async function renewalsUnderLoad(dataDir: string, rate = 100): Promise<RenewalRun> {
  const server = await serveInProcess(dataDir, { RATE_LIMIT_DISABLED: 'true', RUN_JOBS: 'false' });
  try {
    const { app, url } = server;
    const db = app.database.db;
    const seller = await verifiedSeller(url, dataDir, `benchrenew${Date.now().toString(36)}`);
    const token = await signedInToken(url, seller);
    const subscriptionId = await subscribedThroughHttp(url, token);
    // The mandate's notifications (late, and twice) land before the rows are read.
    await app.billing.sandbox?.idle();
    await cloneSubscribers(db, subscriptionId, RENEWALS - 1);
    const [due] = await rowsOf<{ renew_at: string; count: number; distinct_moments: number }>(
      db,
      sql`SELECT to_json(max(renew_at)) #>> '{}' AS renew_at, count(*)::int AS count, count(DISTINCT renew_at)::int AS distinct_moments
          FROM subscriptions WHERE billing = 'mandate' AND status = 'active' AND renew_at IS NOT NULL`,
    );
    if (!due || due.count !== RENEWALS || due.distinct_moments !== 1) throw new Error(`expected ${RENEWALS} subscriptions due at one moment: ${JSON.stringify(due)}`);
    const periodEnd = new Date(due.renew_at);
    // A second after the period's end, as the job would run then.
    const at = new Date(periodEnd.getTime() + 1000);

    const clients = await Clients.start(`${url}/api/v1/tokens/balance`, token, rate);
    let seconds = 0;
    let result = { renewed: 0, ended: 0, lapsed: 0 };
    let idle: ClientLoad;
    let during: ClientLoad;
    try {
      idle = await clients.measure(new Promise((resolve) => setTimeout(resolve, 5000)));
      during = await clients.measure(
        (async () => {
          const started = performance.now();
          result = await app.billing.subscriptions.run(at);
          seconds = (performance.now() - started) / 1000;
        })(),
      );
    } finally {
      clients.close();
    }

    const periodStart = sql`${periodEnd.toISOString()}::timestamptz`;
    const [charges] = await rowsOf<{ completed: number; all: number; subscriptions: number }>(
      db,
      sql`SELECT count(*) FILTER (WHERE status = 'completed')::int AS completed, count(*)::int AS all, count(DISTINCT subscription_id)::int AS subscriptions
          FROM subscription_charges WHERE period_start = ${periodStart}`,
    );
    const [duplicates] = await rowsOf<{ count: number }>(
      db,
      sql`SELECT count(*)::int AS count FROM (
            SELECT 1 FROM subscription_charges WHERE status <> 'failed' GROUP BY subscription_id, period_start HAVING count(*) > 1
          ) AS twice`,
    );
    const [sandbox] = await rowsOf<{ charges: number; subscriptions: number }>(
      db,
      sql`SELECT count(*)::int AS charges, count(DISTINCT c.subscription_id)::int AS subscriptions
          FROM sandbox_checkouts s JOIN subscription_charges c ON s.payment_id = c.id
          WHERE s.mode = 'charge' AND s.status = 'succeeded' AND c.period_start = ${periodStart}`,
    );
    const [movedOn] = await rowsOf<{ count: number }>(
      db,
      sql`SELECT count(*)::int AS count FROM subscriptions WHERE status = 'active' AND current_period_start = ${periodStart}`,
    );
    const [wallets] = await rowsOf<{ off: number; all: number }>(
      db,
      sql`SELECT count(*) FILTER (WHERE w.total_tokens <> coalesce(l.sum, 0) OR w.total_tokens <> coalesce(t.sum, 0))::int AS off, count(*)::int AS all
          FROM wallets w
          LEFT JOIN (SELECT user_id, sum(amount)::int AS sum FROM ledger GROUP BY user_id) l USING (user_id)
          LEFT JOIN (SELECT user_id, sum(remaining)::int AS sum FROM token_lots GROUP BY user_id) t USING (user_id)`,
    );
    return {
      renewals: RENEWALS,
      seconds,
      renewed: result.renewed,
      lapsed: result.lapsed,
      idle,
      during,
      rate,
      completed: charges?.completed ?? 0,
      charges: charges?.all ?? 0,
      subscriptionsCharged: charges?.subscriptions ?? 0,
      duplicates: duplicates?.count ?? -1,
      sandboxCharges: sandbox?.charges ?? 0,
      sandboxSubscriptions: sandbox?.subscriptions ?? 0,
      movedOn: movedOn?.count ?? 0,
      walletsOff: wallets?.off ?? -1,
      wallets: wallets?.all ?? 0,
    };
  } finally {
    await server.stop();
  }
}
