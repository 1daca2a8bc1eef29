// What the fleet's processes do while the sellers load it, sampled every two seconds:
// - CPU of each process from /proc (user + system, all its threads), PostgreSQL as the sum of the
//   backends serving the run's database (pg_stat_activity), and the machine's busy share from
//   /proc/stat (the machine is shared: other work shows there too);
// - from the API nodes' /metrics (METRICS_TOKEN): the job queue's oldest due job, queued, running
//   and lapsed jobs (read from the database at each scrape: the same on every node), waiting
//   queries of each node's pool and its event-loop delay.
import fs from 'node:fs';
import os from 'node:os';
import type pg from 'pg';
import { countOf, readSamples } from '../../tests/support/metrics';

/** Linux's clock ticks per second (USER_HZ), what /proc counts CPU time in. */
const TICKS_PER_S = 100;

/** CPU seconds a process has used; null once it is gone. */
function cpuSecondsOf(pid: number): number | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_S;
  } catch {
    return null;
  }
}

/** The machine's busy and total CPU ticks since boot. */
function machineTicks(): { busy: number; total: number } {
  const line = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0]!;
  const [user, nice, system, idle, iowait, irq, softirq, steal] = line.trim().split(/\s+/).slice(1, 9).map(Number) as number[];
  const busy = user! + nice! + system! + irq! + softirq! + steal!;
  return { busy, total: busy + idle! + iowait! };
}

export interface QueueSample {
  /** Seconds since the run started. */
  t: number;
  oldestDue: number;
  queued: number;
  running: number;
  lapsed: number;
  poolWaiting: number;
  eventLoopP99: number;
}

export interface CpuFigures {
  /** Cores used on average over the run (1 = one core busy all the time). */
  average: number;
  /** The most cores used over any two-second sample. */
  peak: number;
}

export interface WatchTarget {
  name: string;
  pid: number;
}

export class FleetWatch {
  private readonly started = performance.now();
  private readonly seconds = new Map<string, number>();
  private readonly peaks = new Map<string, number>();
  private readonly last = new Map<number, number>();
  private lastMachine = machineTicks();
  private lastAt = performance.now();
  private machinePeak = 0;
  private readonly machineStart = machineTicks();
  private readonly queue: QueueSample[] = [];
  private readonly timer: NodeJS.Timeout;
  private sampling: Promise<void> = Promise.resolve();

  constructor(
    private readonly targets: WatchTarget[],
    /** The API nodes still up: their /metrics are read. */
    private readonly apiNodes: () => string[],
    private readonly metricsToken: string,
    /** The bench's own connection to the run's database, to find its backends. */
    private readonly db: pg.Client,
  ) {
    for (const target of targets) this.last.set(target.pid, cpuSecondsOf(target.pid) ?? 0);
    this.timer = setInterval(() => (this.sampling = this.sampling.then(() => this.sample())), 2000);
  }

  private async backends(): Promise<number[]> {
    const result = await this.db.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = current_database()');
    return result.rows.map((row) => row.pid);
  }

  private add(name: string, pid: number, elapsed: number, shares: Map<string, number>) {
    const now = cpuSecondsOf(pid);
    if (now === null) return;
    const used = now - (this.last.get(pid) ?? 0);
    this.last.set(pid, now);
    this.seconds.set(name, (this.seconds.get(name) ?? 0) + used);
    shares.set(name, (shares.get(name) ?? 0) + used / elapsed);
  }

  private async sample() {
    const at = performance.now();
    const elapsed = (at - this.lastAt) / 1000;
    this.lastAt = at;
    const shares = new Map<string, number>();
    for (const target of this.targets) this.add(target.name, target.pid, elapsed, shares);
    // A backend first seen now started during the run (the pools open them as they need): all it
    // used counts.
    for (const pid of await this.backends().catch(() => [])) this.add('PostgreSQL', pid, elapsed, shares);
    for (const [name, share] of shares) this.peaks.set(name, Math.max(this.peaks.get(name) ?? 0, share));
    const machine = machineTicks();
    this.machinePeak = Math.max(this.machinePeak, (machine.busy - this.lastMachine.busy) / Math.max(1, machine.total - this.lastMachine.total));
    this.lastMachine = machine;
    await this.scrape((at - this.started) / 1000);
  }

  private async scrape(t: number) {
    const sample: QueueSample = { t, oldestDue: 0, queued: 0, running: 0, lapsed: 0, poolWaiting: 0, eventLoopP99: 0 };
    let read = false;
    for (const node of this.apiNodes()) {
      try {
        const answer = await fetch(`${node}/metrics`, { headers: { authorization: `Bearer ${this.metricsToken}` }, signal: AbortSignal.timeout(5000) });
        const samples = readSamples(await answer.text());
        const queue = { kind: 'generate' };
        sample.oldestDue = Math.max(sample.oldestDue, countOf(samples, 'solestudio_jobs_oldest_due_seconds', queue));
        sample.queued = Math.max(sample.queued, countOf(samples, 'solestudio_jobs_queued', queue));
        sample.running = Math.max(sample.running, countOf(samples, 'solestudio_jobs_running', queue));
        sample.lapsed = Math.max(sample.lapsed, countOf(samples, 'solestudio_jobs_lapsed', queue));
        sample.poolWaiting = Math.max(sample.poolWaiting, countOf(samples, 'solestudio_db_pool_waiting_queries'));
        sample.eventLoopP99 = Math.max(sample.eventLoopP99, countOf(samples, 'nodejs_eventloop_lag_p99_seconds'));
        read = true;
      } catch {
        // a node killed a moment ago
      }
    }
    if (read) this.queue.push(sample);
  }

  /** CPU used so far, in cores, by each process and by the whole machine. */
  cpuFigures(): { cpu: Record<string, CpuFigures>; machineBusy: CpuFigures } {
    const runSeconds = (performance.now() - this.started) / 1000;
    const machine = machineTicks();
    const cpu: Record<string, CpuFigures> = {};
    for (const [name, seconds] of this.seconds) cpu[name] = { average: seconds / runSeconds, peak: this.peaks.get(name) ?? 0 };
    const cores = os.cpus().length;
    const busyShare = (machine.busy - this.machineStart.busy) / Math.max(1, machine.total - this.machineStart.total);
    return { cpu, machineBusy: { average: busyShare * cores, peak: this.machinePeak * cores } };
  }

  /** Stops sampling; the queue as the API nodes' /metrics told it. */
  async stop(): Promise<QueueSample[]> {
    clearInterval(this.timer);
    await this.sampling;
    return this.queue;
  }
}

/** Generate jobs a worker finished (its own /metrics), and the mean seconds it had each. */
export async function jobsDone(workerUrl: string, metricsToken: string): Promise<{ done: number; meanSeconds: number }> {
  const answer = await fetch(`${workerUrl}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` }, signal: AbortSignal.timeout(5000) });
  const samples = readSamples(await answer.text());
  const done = { kind: 'generate', outcome: 'done' };
  const count = countOf(samples, 'solestudio_job_duration_seconds_count', done);
  return { done: count, meanSeconds: count > 0 ? countOf(samples, 'solestudio_job_duration_seconds_sum', done) / count : 0 };
}
