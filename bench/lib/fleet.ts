// A fleet under load (`npm run bench -- fleet`): PostgreSQL (a fresh database in the cluster
// BENCH_DATABASE_URL names), two API nodes (RUN_JOBS=false) and two workers (`npm run worker`),
// all on this machine and sharing one DATA_DIR (its files/ and mail/: the local storage's
// addresses are signed with the key every node reads from the database). FLEET_SELLERS sellers
// (100) register and then, for FLEET_SECONDS (300), upload six photos, generate, follow the task
// live and download it, spreading their requests over both nodes (fleet-nodes.ts). Halfway,
// API node 2 and worker 2 are killed (SIGKILL). Once no seller starts a new task, the tasks in
// hand are waited for (at most FLEET_DRAIN_SECONDS, 1800), then the database is checked against
// what the sellers sent (fleet-check.ts). CPU and the queue are sampled meanwhile (fleet-watch.ts).
// Each process's log is kept in bench/results/fleet/.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { fixtures } from './generation';
import { ROOT, startServer, type RunningServer } from './server';
import { FleetClient } from './fleet-nodes';
import { Mailbox, sellerJourney, type SellerRecord } from './fleet-seller';
import { FleetWatch, jobsDone, type CpuFigures, type QueueSample } from './fleet-watch';
import { checkFleet, taskTimes, type FleetCheck, type TaskTimes } from './fleet-check';

export const FLEET_SECONDS = Number(process.env.FLEET_SECONDS ?? 300);
export const FLEET_SELLERS = Number(process.env.FLEET_SELLERS ?? 100);
const DRAIN_SECONDS = Number(process.env.FLEET_DRAIN_SECONDS ?? 1800);

/** Each process's log (its stdout), kept after the run. */
const LOGS_DIR = path.join(ROOT, 'bench', 'results', 'fleet');

export interface FleetFigures extends TaskTimes {
  sellers: number;
  seconds: number;
  killAtS: number;
  drainSeconds: number;
  registered: number;
  /** Processes that ended though nobody killed them: which, how, when (s into the run). */
  unasked: { name: string; how: string; atS: number }[];
  timings: Map<string, number[]>;
  retries: { route: string; reason: string; afterKill: boolean }[];
  errors: { route: string; reason: string }[];
  records: SellerRecord[];
  cpu: Record<string, CpuFigures>;
  machineBusy: CpuFigures;
  cores: number;
  queue: QueueSample[];
  check: FleetCheck;
  /** Generate jobs each worker finished (worker 2: until it was killed), and its mean time over one. */
  workers: { name: string; done: number; meanSeconds: number }[];
}

/** A fresh database in the cluster `base` names; its URL and how to drop it. */
async function freshDatabase(base: string) {
  const name = `solestudio_fleet_${crypto.randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: base });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).finally(() => client.end());
    },
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function runFleet(baseUrl: string): Promise<FleetFigures> {
  const photos = await fixtures();
  const database = await freshDatabase(baseUrl);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-'));
  const metricsToken = crypto.randomBytes(24).toString('hex');
  const env = {
    DATABASE_URL: database.url,
    METRICS_TOKEN: metricsToken,
    RATE_LIMIT_DISABLED: 'true',
    SIGN_UP_BONUS_TOKENS: '1000',
    MALLOC_ARENA_MAX: '2',
    // The studio really works: no network answers kept from an earlier run.
    NETWORK_CACHE_DIR: '',
  };
  const processes: RunningServer[] = [];
  const db = new pg.Client({ connectionString: database.url });
  let keep = false;
  try {
    fs.rmSync(LOGS_DIR, { recursive: true, force: true });
    fs.mkdirSync(LOGS_DIR, { recursive: true });
    const logFile = (name: string) => path.join(LOGS_DIR, `${name}.log`);
    for (const name of ['api-1', 'api-2']) processes.push(await startServer(dataDir, { ...env, RUN_JOBS: 'false' }, { logFile: logFile(name) }));
    const program = { script: 'dist-server/worker.js', portVariable: 'WORKER_METRICS_PORT', readyPath: '/metrics', headers: { authorization: `Bearer ${metricsToken}` } };
    for (const name of ['worker-1', 'worker-2']) processes.push(await startServer(dataDir, { ...env, JOB_CONCURRENCY: '1' }, { program, logFile: logFile(name) }));
    const [api1, api2, worker1, worker2] = processes as [RunningServer, RunningServer, RunningServer, RunningServer];
    await db.connect();

    const client = new FleetClient([api1.url, api2.url]);
    const mailbox = new Mailbox(path.join(dataDir, 'mail'));
    let api2Up = true;
    const watch = new FleetWatch(
      [
        { name: 'API node 1', pid: api1.pid },
        { name: 'API node 2', pid: api2.pid },
        { name: 'worker 1', pid: worker1.pid },
        { name: 'worker 2', pid: worker2.pid },
        { name: 'the sellers (this process)', pid: process.pid },
      ],
      () => (api2Up ? [api1.url, api2.url] : [api1.url]),
      metricsToken,
      db,
    );
    const started = Date.now();
    const until = started + FLEET_SECONDS * 1000;
    const deadline = until + DRAIN_SECONDS * 1000;
    const killAt = started + (FLEET_SECONDS * 1000) / 2;
    // Arrivals spread over the first tenth of the run (at most 30 s).
    const rampMs = Math.min(30_000, FLEET_SECONDS * 100);
    const context = { client, mailbox, photos, until, deadline };
    const sellers = Array.from({ length: FLEET_SELLERS }, async (_, i) => {
      await sleep((rampMs * i) / FLEET_SELLERS);
      return sellerJourney(context, `seller${i + 1}`);
    });

    // A process that ends though nobody killed it is an error of the run, with when it happened.
    const names = new Map([
      [api1, 'API node 1'],
      [api2, 'API node 2'],
      [worker1, 'worker 1'],
      [worker2, 'worker 2'],
    ]);
    const killed = new Set<RunningServer>();
    const unasked: FleetFigures['unasked'] = [];
    const lookout = setInterval(() => {
      for (const [running, name] of names) {
        const how = running.ended();
        if (how && !killed.has(running) && !unasked.some((u) => u.name === name)) {
          unasked.push({ name, how, atS: (Date.now() - started) / 1000 });
          console.log(`  ${Math.round((Date.now() - started) / 1000)} s: ${name} ended (${how}) though nobody killed it; its log: ${LOGS_DIR}`);
        }
      }
    }, 1000);

    const orphanIds = new Set<number>();
    const workers: FleetFigures['workers'] = [];
    const killing = (async () => {
      await sleep(killAt - Date.now());
      workers.push({ name: 'worker 2', ...(await jobsDone(worker2.url, metricsToken).catch(() => ({ done: NaN, meanSeconds: NaN }))) });
      console.log(`  ${Math.round((Date.now() - started) / 1000)} s: killing API node 2 and worker 2 (SIGKILL)…`);
      api2Up = false;
      killed.add(api2).add(worker2);
      await Promise.all([api2.kill(), worker2.kill()]);
      // What the dead worker held stays claimed by it until the lease lapses.
      const held = await db.query<{ id: string }>(`SELECT id FROM jobs WHERE status = 'running' AND locked_by LIKE $1`, [`%:${worker2.pid}:%`]);
      for (const row of held.rows) orphanIds.add(Number(row.id));
    })();

    let cpu: Record<string, CpuFigures> = {};
    let machineBusy: CpuFigures = { average: 0, peak: 0 };
    const loadEnd = (async () => {
      await sleep(until - Date.now());
      ({ cpu, machineBusy } = watch.cpuFigures());
      console.log(`  ${FLEET_SECONDS} s: no new tasks; waiting for those in hand…`);
    })();
    const settled = await Promise.allSettled(sellers);
    await killing;
    await loadEnd;
    const drainSeconds = (Date.now() - until) / 1000;
    clearInterval(lookout);
    const queue = await watch.stop();
    workers.unshift({ name: 'worker 1', ...(await jobsDone(worker1.url, metricsToken).catch(() => ({ done: NaN, meanSeconds: NaN }))) });
    client.stop();
    mailbox.stop();

    const records = settled.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
    for (const result of settled) if (result.status === 'rejected') client.fail('a seller', String(result.reason));
    for (const u of unasked) client.fail('a process of the fleet', `${u.name} ended (${u.how}) at ${u.atS.toFixed(0)} s though nobody killed it`);
    const check = await checkFleet(db, records, path.join(dataDir, 'files'), orphanIds);
    const times = await taskTimes(db, killAt, until, orphanIds);
    const figures: FleetFigures = {
      sellers: FLEET_SELLERS,
      seconds: FLEET_SECONDS,
      killAtS: (killAt - started) / 1000,
      ...times,
      drainSeconds,
      registered: records.length,
      unasked,
      timings: client.timings,
      retries: client.retries.map((retry) => ({ route: retry.route, reason: retry.reason, afterKill: retry.at >= killAt })),
      errors: client.errors,
      records,
      cpu,
      machineBusy,
      cores: os.cpus().length,
      queue,
      check,
      workers,
    };
    keep = figures.errors.length > 0 || check.lost + check.unanswered + check.unknown + check.chargesOff + check.outputsOff + check.jobsOff + check.claimedAgainUnexplained > 0;
    return figures;
  } finally {
    await db.end().catch(() => {});
    await Promise.all(processes.map((p) => p.stop()));
    if (keep) console.log(`  kept for a look: the database ${database.url} and ${dataDir}`);
    else {
      await database.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }
}
