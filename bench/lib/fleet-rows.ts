// The fleet bench's rows (see fleet.ts): throughput, p99 of each call the sellers made, the job
// queue's age, errors and retries, what the database says was done once, the CPU each process
// used, and what saturated first.
import { FLEET_SECONDS, FLEET_SELLERS, runFleet, type FleetFigures } from './fleet';

interface Row {
  measure: string;
  value: string;
  target: string;
  ok: boolean | null;
}

/** The nearest-rank percentile. */
function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

const cores = (n: number) => n.toFixed(2);

/** Which part ran out first, from what was sampled. */
function saturation(f: FleetFigures): string {
  const busy = f.machineBusy.average / f.cores;
  const workers = Object.entries(f.cpu).filter(([name]) => name.startsWith('worker'));
  const workerCores = workers.reduce((sum, [, c]) => sum + c.average, 0);
  const oldest = Math.max(0, ...f.queue.map((s) => s.oldestDue));
  const poolWaiting = Math.max(0, ...f.queue.map((s) => s.poolWaiting));
  const lag = Math.max(0, ...f.queue.map((s) => s.eventLoopP99));
  const others = Object.entries(f.cpu)
    .filter(([name]) => !name.startsWith('worker'))
    .map(([name, c]) => `${name} ${cores(c.average)}`)
    .join(', ');
  const ours = Object.values(f.cpu).reduce((sum, c) => sum + c.average, 0);
  const otherWork = Math.max(0, f.machineBusy.average - ours);
  const where = `the machine ${Math.round(busy * 100)} % busy (${cores(f.machineBusy.average)} of ${f.cores} cores: the workers ${cores(workerCores)}; ${others}; other work on the machine ${cores(otherWork)})`;
  if (busy >= 0.85 && oldest >= 30) {
    const mean = f.workers[0]?.meanSeconds ?? NaN;
    // On a shared machine the fleet may get the smaller part of the CPU: say so first.
    const lead = otherWork > ours ? `CPU, most of it taken by other work on this shared machine; of the fleet's part, by the workers' studio work` : `CPU, taken by the workers' studio work`;
    return `${lead} (${mean.toFixed(1)} s of a worker a task): the queue's oldest job waited up to ${oldest.toFixed(0)} s while ${where}; meanwhile at most ${poolWaiting} queries waited for an API node's database pool (of 10 connections) and its event loop's p99 delay was at most ${(lag * 1000).toFixed(0)} ms`;
  }
  if (poolWaiting > 0) return `the API nodes' database pools (up to ${poolWaiting} queries waiting): ${where}`;
  if (lag >= 0.2) return `the API nodes' event loops (p99 delay up to ${(lag * 1000).toFixed(0)} ms): ${where}`;
  return `nothing ran out: ${where}; the queue's oldest job waited at most ${oldest.toFixed(0)} s`;
}

export async function fleetRows(baseUrl: string | undefined): Promise<Row[]> {
  const name = 'fleet: 2 API nodes + 2 workers on PostgreSQL';
  if (!baseUrl) return [{ measure: name, value: 'not run: BENCH_DATABASE_URL names no PostgreSQL cluster', target: '', ok: false }];
  console.log(`A fleet on PostgreSQL: ${FLEET_SELLERS} sellers for ${FLEET_SECONDS} s, one API node and one worker killed halfway…`);
  const f = await runFleet(baseUrl);
  const c = f.check;
  const records = f.records;
  const sum = (pick: (r: (typeof records)[number]) => number) => records.reduce((total, r) => total + pick(r), 0);
  const submitted = sum((r) => r.generated.length);
  const minutes = (s: number) => s / 60;
  const rows: Row[] = [
    {
      measure: name,
      value: `${f.sellers} sellers (${f.registered} registered) for ${f.seconds} s; API node 2 and worker 2 killed (SIGKILL) at ${f.killAtS.toFixed(0)} s; the tasks in hand took ${f.drainSeconds.toFixed(0)} s more`,
      target: '',
      ok: null,
    },
    {
      measure: 'fleet: tasks completed per minute',
      value: `${((f.completedBeforeKill + f.completedAfterKill) / minutes(f.seconds)).toFixed(1)} (${(f.completedBeforeKill / minutes(f.killAtS)).toFixed(1)} with 2 workers, ${(f.completedAfterKill / minutes(f.seconds - f.killAtS)).toFixed(1)} with 1; ${f.completedBeforeKill + f.completedAfterKill} in ${f.seconds} s)`,
      target: '',
      ok: null,
    },
  ];
  for (const [route, times] of [...f.timings].sort((a, b) => a[0].localeCompare(b[0]))) {
    rows.push({
      measure: `fleet: ${route}: p99`,
      value: `${Math.round(percentile(times, 99))} ms (p50 ${Math.round(percentile(times, 50))} ms, max ${Math.round(Math.max(...times))} ms, ${times.length} calls)`,
      target: '',
      ok: null,
    });
  }
  rows.push({
    measure: 'fleet: generate jobs each worker finished (its /metrics), mean time over one',
    value: f.workers.map((w) => `${w.name} ${w.done}, ${w.meanSeconds.toFixed(1)} s`).join('; '),
    target: '',
    ok: null,
  });
  rows.push({
    measure: 'fleet: a task from submission to its end (the database)',
    value: `p50 ${percentile(f.taskSeconds, 50).toFixed(1)} s, p99 ${percentile(f.taskSeconds, 99).toFixed(1)} s, max ${Math.max(...f.taskSeconds).toFixed(1)} s`,
    target: '',
    ok: null,
  });
  const ages = f.queue.map((s) => s.oldestDue);
  rows.push({
    measure: "fleet: the job queue's oldest due job (every 2 s from /metrics)",
    value: `max ${Math.max(0, ...ages).toFixed(0)} s, p99 ${percentile(ages, 99).toFixed(0)} s, p50 ${percentile(ages, 50).toFixed(0)} s; up to ${Math.max(0, ...f.queue.map((s) => s.queued))} queued (${ages.length} samples)`,
    target: '',
    ok: null,
  });
  const byRoute = new Map<string, number>();
  for (const error of f.errors) byRoute.set(error.route, (byRoute.get(error.route) ?? 0) + 1);
  rows.push({
    measure: 'fleet: errors (calls failed after their retry, tasks not completed, ends not heard)',
    value: f.errors.length === 0 ? '0' : `${f.errors.length}: ${[...byRoute].map(([route, n]) => `${n} ${route}`).join(', ')}`,
    target: '0',
    ok: f.errors.length === 0,
  });
  const afterKill = f.retries.filter((r) => r.afterKill).length;
  const breaks = records.flatMap((r) => r.streamBreaks);
  const breakReasons = new Map<string, number>();
  for (const why of breaks) breakReasons.set(why, (breakReasons.get(why) ?? 0) + 1);
  rows.push({
    measure: 'fleet: calls sent again to the other node (connection failed)',
    value: `${f.retries.length} (${afterKill} after the kill, ${f.retries.length - afterKill} before); event streams opened again ${breaks.length}${breaks.length ? ` (${[...breakReasons].map(([why, n]) => `${n} ${why}`).join(', ')})` : ''}`,
    target: '',
    ok: null,
  });
  rows.push({
    measure: 'fleet: task ends heard on the event stream / read after it moved',
    value: `${sum((r) => r.heardLive)} / ${sum((r) => r.heardByReading)}`,
    target: '',
    ok: null,
  });
  const completed = c.byStatus.completed ?? 0;
  rows.push({
    measure: 'fleet: tasks submitted → in the database → completed',
    value: `${submitted} → ${c.tasks} → ${completed} (${Object.entries(c.byStatus).map(([s, n]) => `${n} ${s}`).join(', ')}); lost ${c.lost}, stored unanswered ${c.unanswered}, unknown ${c.unknown}`,
    target: 'all, 0 lost',
    ok: submitted === c.tasks && completed === c.tasks && c.lost + c.unanswered + c.unknown === 0,
  });
  rows.push({
    measure: 'fleet: each task charged once in the ledger',
    value: `${c.tasks - c.chargesOff} of ${c.tasks} (${c.refunds} refunds); wallets ≠ ledger: ${c.walletsOff}`,
    target: 'all, 0 off',
    ok: c.chargesOff === 0 && c.walletsOff === 0,
  });
  rows.push({
    measure: 'fleet: outputs made once, files on the shared disk',
    value: `${c.tasks - c.outputsOff} of ${c.tasks} tasks; ${c.filesMissing} files missing; photos uploaded ${c.materials - c.materialsNotUploaded} of ${c.materials}`,
    target: 'all',
    ok: c.outputsOff === 0 && c.filesMissing === 0 && c.materialsNotUploaded === 0,
  });
  const orphans = f.orphans.map((o) => `job ${o.job}${o.endedAfterKillS === null ? ' not ended' : ` ended ${o.endedAfterKillS.toFixed(0)} s after the kill`}`).join(', ');
  rows.push({
    measure: 'fleet: jobs run once (claimed again: only what the killed worker held)',
    value: `${c.tasks - c.jobsOff} of ${c.tasks} done, one job each; claimed again ${c.claimedAgain}, ${c.claimedAgainUnexplained} not the killed worker's (it held ${f.orphans.length}${orphans ? `: ${orphans}` : ''})`,
    target: '0 twice',
    ok: c.jobsOff === 0 && c.claimedAgainUnexplained === 0,
  });
  rows.push({
    measure: `fleet: CPU, cores used over the ${f.seconds} s (average / peak over 2 s)`,
    value: `${Object.entries(f.cpu)
      .map(([process, used]) => `${process} ${cores(used.average)} / ${cores(used.peak)}`)
      .join(', ')}; the machine ${cores(f.machineBusy.average)} / ${cores(f.machineBusy.peak)} of ${f.cores}`,
    target: '',
    ok: null,
  });
  rows.push({ measure: 'fleet: what saturates first', value: saturation(f), target: '', ok: null });
  for (const error of f.errors.slice(0, 10)) console.log(`  error: ${error.route}: ${error.reason}`);
  return rows;
}
