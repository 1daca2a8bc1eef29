// After the fleet's run, the database against what the sellers sent: every task a seller
// submitted is there once (one per Idempotency-Key, none the sellers did not send), ended
// completed, charged exactly once in the ledger (one content_generation entry of its cost, no
// refund), with one asset per planned output and its file on the shared disk, and one job, done,
// claimed once — only a job the killed worker held may have been claimed twice (it is taken
// again once its lease lapses, and carries on from the outputs already made). Every photo
// registered was uploaded, and every wallet is the sum of its ledger. Also when the tasks ended.
import fs from 'node:fs';
import path from 'node:path';
import type pg from 'pg';
import type { SellerRecord } from './fleet-seller';

export interface FleetCheck {
  tasks: number;
  byStatus: Record<string, number>;
  /** Generate requests the sellers got an answer for whose task is not in the database. */
  lost: number;
  /** Tasks stored for a request whose answer the seller never got. */
  unanswered: number;
  /** Tasks under a key no seller sent. */
  unknown: number;
  /** Tasks not charged exactly once, at their cost; refunds given. */
  chargesOff: number;
  refunds: number;
  /** Outputs not made, or made other than once (assets per output). */
  outputsOff: number;
  filesMissing: number;
  /** Tasks without exactly one job, and jobs not done. */
  jobsOff: number;
  /** Jobs claimed more than once: all, and those the killed worker did not hold. */
  claimedAgain: number;
  claimedAgainUnexplained: number;
  materials: number;
  materialsNotUploaded: number;
  walletsOff: number;
}

interface TaskRow {
  id: string;
  key: string;
  status: string;
  cost: number;
  charges: number;
  charged: number;
  refunds: number;
  outputs: number;
  made: number;
  assets: number;
  keys: string[] | null;
  jobs: number;
  jobs_done: number;
  job_ids: string[] | null;
}

export async function checkFleet(db: pg.Client, records: SellerRecord[], filesDir: string, heldByKilled: ReadonlySet<number>): Promise<FleetCheck> {
  const { rows } = await db.query<TaskRow>(`
    SELECT t.id, t.idempotency_key AS key, t.status, t.cost,
      (SELECT count(*)::int FROM ledger l WHERE l.type = 'content_generation' AND l.reference = t.id::text) AS charges,
      (SELECT coalesce(sum(-l.amount), 0)::int FROM ledger l WHERE l.type = 'content_generation' AND l.reference = t.id::text) AS charged,
      (SELECT count(*)::int FROM ledger l JOIN task_outputs o ON l.reference = 'output:' || o.id WHERE l.type = 'refund' AND o.task_id = t.id) AS refunds,
      (SELECT count(*)::int FROM task_outputs o WHERE o.task_id = t.id) AS outputs,
      (SELECT count(*)::int FROM task_outputs o WHERE o.task_id = t.id AND o.status = 'completed'
         AND (SELECT count(*) FROM assets a WHERE a.output_id = o.id) = 1) AS made,
      (SELECT count(*)::int FROM assets a WHERE a.task_id = t.id) AS assets,
      (SELECT array_agg(a.storage_key) FROM assets a WHERE a.task_id = t.id) AS keys,
      (SELECT count(*)::int FROM jobs j WHERE j.task_id = t.id) AS jobs,
      (SELECT count(*)::int FROM jobs j WHERE j.task_id = t.id AND j.status = 'done') AS jobs_done,
      (SELECT array_agg(j.id::text) FROM jobs j WHERE j.task_id = t.id AND j.attempts > 1) AS job_ids
    FROM tasks t`);
  const sent = records.flatMap((record) => record.generated);
  const byKey = new Map(rows.map((row) => [row.key, row]));
  const keys = new Set(sent.map((g) => g.key));
  const byStatus: Record<string, number> = {};
  for (const row of rows) byStatus[row.status] = (byStatus[row.status] ?? 0) + 1;
  const againIds = rows.flatMap((row) => (row.job_ids ?? []).map(Number));
  const materialIds = records.flatMap((record) => record.materials);
  const notUploaded = await db.query<{ n: number }>(`SELECT $1::int - count(*)::int AS n FROM materials WHERE id = ANY($2::uuid[]) AND status = 'uploaded'`, [
    materialIds.length,
    materialIds,
  ]);
  const wallets = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM wallets w WHERE w.total_tokens <> (SELECT coalesce(sum(amount), 0) FROM ledger l WHERE l.user_id = w.user_id)`,
  );
  return {
    tasks: rows.length,
    byStatus,
    lost: sent.filter((g) => g.taskId !== null && byKey.get(g.key)?.id !== g.taskId).length,
    unanswered: sent.filter((g) => g.taskId === null && byKey.has(g.key)).length,
    unknown: rows.filter((row) => !keys.has(row.key)).length,
    chargesOff: rows.filter((row) => row.charges !== 1 || row.charged !== row.cost).length,
    refunds: rows.reduce((sum, row) => sum + row.refunds, 0),
    outputsOff: rows.filter((row) => row.made !== row.outputs || row.assets !== row.outputs).length,
    filesMissing: rows.flatMap((row) => row.keys ?? []).filter((key) => !fs.existsSync(path.join(filesDir, key))).length,
    jobsOff: rows.filter((row) => row.jobs !== 1 || row.jobs_done !== 1).length,
    claimedAgain: againIds.length,
    claimedAgainUnexplained: againIds.filter((id) => !heldByKilled.has(id)).length,
    materials: materialIds.length,
    materialsNotUploaded: notUploaded.rows[0]!.n,
    walletsOff: wallets.rows[0]!.n,
  };
}

export interface TaskTimes {
  /** Tasks completed in each half of the run: before the kill, and after it until the run's end. */
  completedBeforeKill: number;
  completedAfterKill: number;
  /** Seconds from each task's submission to its end. */
  taskSeconds: number[];
  /** Jobs the killed worker held, and how long after the kill their tasks ended. */
  orphans: { job: number; endedAfterKillS: number | null }[];
}

/** When the tasks ended, by the database's clock (`killAt` and `until` are Date.now() ms). */
export async function taskTimes(db: pg.Client, killAt: number, until: number, heldByKilled: ReadonlySet<number>): Promise<TaskTimes> {
  const ended = await db.query<{ before: number; after: number }>(
    `SELECT count(*) FILTER (WHERE finished_at < to_timestamp($1 / 1000.0))::int AS before,
       count(*) FILTER (WHERE finished_at >= to_timestamp($1 / 1000.0) AND finished_at < to_timestamp($2 / 1000.0))::int AS after
     FROM tasks WHERE status = 'completed'`,
    [killAt, until],
  );
  const orphans = await db.query<{ job: string; after: number | null }>(
    `SELECT j.id AS job, extract(epoch FROM t.finished_at - to_timestamp($2 / 1000.0))::float AS after
     FROM jobs j JOIN tasks t ON t.id = j.task_id WHERE j.id = ANY($1::bigint[])`,
    [[...heldByKilled], killAt],
  );
  const durations = await db.query<{ s: number }>(`SELECT extract(epoch FROM finished_at - created_at)::float AS s FROM tasks WHERE finished_at IS NOT NULL`);
  return {
    completedBeforeKill: ended.rows[0]!.before,
    completedAfterKill: ended.rows[0]!.after,
    taskSeconds: durations.rows.map((row) => row.s),
    orphans: orphans.rows.map((row) => ({ job: Number(row.job), endedAfterKillS: row.after })),
  };
}
