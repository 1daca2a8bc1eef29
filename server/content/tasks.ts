// Generation tasks (DESIGN §4 Generation): a submission is checked, priced, charged, stored with
// its planned outputs and queued, all in one statement under the seller's Idempotency-Key;
// then read back, listed, and deleted. Every query is scoped to the seller.
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Database } from '../db/client';
import { assets, materials, taskFailures, taskOutputs, tasks } from '../db/schema';
import { HttpError } from '../lib/errors';
import type { Ledger } from '../ledger/ledger';
import { REQUIRED_VIEWS, SHOE_VIEWS, type Background, type Category, type CreativeScene, type ShoeView } from '../../contract/enums';
import type { contentConfigEntrySchema, generateRequestSchema } from '../../contract/content';
import {
  contentModuleOf,
  plannedOutputs,
  subOptionsOf,
  type ContentConfigEntry,
  type Prices,
} from '../../contract/selection';
import { MIN_VIEWS } from '../../contract/views';
import { prepared } from '../db/prepared';
import { pageOf, type ListOf } from '../db/pages';
import { routeOption, type EngineName, type EngineSupport } from './catalogue';

export type TaskRow = typeof tasks.$inferSelect;
export type OutputRow = typeof taskOutputs.$inferSelect;
type Entry = z.output<typeof contentConfigEntrySchema>;
type GenerateRequest = z.output<typeof generateRequestSchema>;

/** A custom scene is asked for by a CUSTOM background or scene, or by a description. */
export function isCustom(entry: Pick<Entry, 'background' | 'creative_scene' | 'custom_params'>): boolean {
  return entry.background === 'CUSTOM' || entry.creative_scene === 'CUSTOM' || Boolean(entry.custom_params.custom_scene_description);
}

/** The entry's options belong together: module, category, and a background or scene only where one fits. */
function checkEntry(entry: Entry): void {
  const mismatch = () => {
    throw new HttpError(400, 'CONFIG_MISMATCH', 'CONFIG_MISMATCH', { category: entry.category, module: entry.content_module });
  };
  if (contentModuleOf(entry.category) !== entry.content_module) mismatch();
  const isPerson = entry.content_module === 'REAL_PERSON_IMAGE';
  const isVideo = entry.category === 'CREATIVE_VIDEO';
  if (entry.background && !isPerson) mismatch();
  if (entry.creative_scene && !isVideo) mismatch();
  if ((entry.views || entry.preset) && entry.category !== 'PRODUCT') mismatch();
  if (isPerson && !entry.background) throw new HttpError(400, 'BACKGROUND_REQUIRED', 'CONFIG_MISMATCH', { category: entry.category, module: entry.content_module });
  const sub = entry.background ?? entry.creative_scene ?? entry.preset;
  if (sub && sub !== 'CUSTOM' && !subOptionsOf(entry.category).includes(sub)) mismatch();
  if ((entry.background === 'CUSTOM' || entry.creative_scene === 'CUSTOM') && !entry.custom_params.custom_scene_description) {
    throw new HttpError(400, 'PROMPT_REQUIRED', 'PROMPT_REQUIRED');
  }
}

export interface PlannedRow {
  position: number;
  name: string;
  contentModule: string;
  category: Category;
  background: Background | null;
  creativeScene: CreativeScene | null;
  view: ShoeView | null;
  engine: EngineName;
  cost: number;
}

/** The outputs a request plans, each routed to its engine and priced; refuses what cannot be made. */
export function planTask(
  config: readonly Entry[],
  views: readonly ShoeView[],
  support: EngineSupport,
  prices: Prices,
): PlannedRow[] {
  const selected = config.filter((entry) => entry.selected);
  if (selected.length === 0) throw new HttpError(400, 'NOTHING_SELECTED', 'NOTHING_SELECTED');
  if (new Set(config.map((entry) => entry.name)).size !== config.length) throw new HttpError(400, 'DUPLICATE_NAMES', 'DUPLICATE_NAMES');
  const byName = new Map(selected.map((entry) => [entry.name, entry]));
  for (const entry of selected) checkEntry(entry);
  const outputs = plannedOutputs(selected as ContentConfigEntry[], views);
  // PRODUCT entries whose views were all removed or never uploaded plan nothing.
  if (outputs.length === 0) throw new HttpError(400, 'NOTHING_SELECTED', 'NOTHING_SELECTED');
  return outputs.map((output, position) => {
    const entry = byName.get(output.name)!;
    const routing = routeOption(
      { category: entry.category, background: entry.background, creativeScene: entry.creative_scene, custom: isCustom(entry) },
      support,
    );
    if (!routing.engine) {
      throw new HttpError(400, 'OPTION_UNAVAILABLE', 'OPTION_UNAVAILABLE', { option: entry.name, reason: routing.reason });
    }
    return {
      position,
      name: entry.name,
      contentModule: entry.content_module,
      category: entry.category,
      background: entry.background ?? null,
      creativeScene: entry.creative_scene ?? null,
      view: output.view ?? null,
      engine: routing.engine,
      cost: prices[entry.category],
    };
  });
}

/** The seller's uploaded photos for a task, one per view, with the required views present. */
async function taskMaterials(db: Database, userId: string, ids: readonly string[]) {
  if (new Set(ids).size !== ids.length) throw new HttpError(400, 'DUPLICATE_VIEWS', 'DUPLICATE_VIEWS', { view: '' });
  const query = prepared(db, 'task_materials', (d) =>
    d
      .select({ id: materials.id, view: materials.view, status: materials.status })
      .from(materials)
      .where(and(eq(materials.userId, sql.placeholder('userId')), sql`${materials.id} = ANY(${sql.placeholder('ids')}::uuid[])`))
      .prepare('task_materials'),
  );
  const rows = await query.execute({ userId, ids: [...ids] });
  // An edit's picture or logo has no view: it is no shoe photo, and not found among them.
  if (rows.length !== ids.length || rows.some((row) => row.view === null)) throw new HttpError(404, 'NOT_FOUND', 'NOT_FOUND');
  if (rows.some((row) => row.status !== 'uploaded')) throw new HttpError(409, 'MATERIAL_NOT_UPLOADED', 'MATERIAL_NOT_UPLOADED');
  const views = rows.map((row) => row.view as ShoeView);
  const repeated = views.find((view, i) => views.indexOf(view) !== i);
  if (repeated) throw new HttpError(400, 'DUPLICATE_VIEWS', 'DUPLICATE_VIEWS', { view: repeated });
  if (views.length < MIN_VIEWS) throw new HttpError(400, 'TOO_FEW_VIEWS', 'TOO_FEW_VIEWS', { count: MIN_VIEWS });
  const missing = REQUIRED_VIEWS.filter((view) => !views.includes(view));
  if (missing.length > 0) throw new HttpError(400, 'REQUIRED_VIEWS_MISSING', 'REQUIRED_VIEWS_MISSING', { views: missing.join(', ') });
  // Outputs follow the guided order of the views, whatever order the ids came in.
  return { views: [...views].sort((a, b) => SHOE_VIEWS.indexOf(a) - SHOE_VIEWS.indexOf(b)) };
}

export interface CreateTaskInput {
  userId: string;
  locale: string;
  idempotencyKey: string;
  request: GenerateRequest;
  support: EngineSupport;
  prices: Prices;
  /** Plan only this view's product shot (a retry of one result). */
  onlyView?: string | undefined;
}

export interface CreatedTask {
  task: Pick<TaskRow, 'id' | 'status' | 'cost'>;
  /** The balance after the charge (or now, for a replay). */
  balance: number;
  replayed: boolean;
}

/** JSON with object keys sorted: jsonb keeps no key order, so this is how stored and sent compare. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    return `{${entries.sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

const sameRequest = (task: TaskRow, request: GenerateRequest) =>
  canonical(task.contentConfig) === canonical(request.content_config) && canonical(task.materialIds) === canonical(request.material_ids);

async function existing(db: Database, userId: string, key: string): Promise<TaskRow | undefined> {
  const [row] = await db
    .select()
    .from(tasks)
    .where(and(eq(tasks.userId, userId), eq(tasks.idempotencyKey, key)));
  return row;
}

interface ChargedTask {
  id: string;
  status: TaskRow['status'];
  cost: number;
  balance: number;
}

/**
 * The task, its debit with the ledger entry, its planned outputs and its job, as one statement
 * (one round trip, one commit). The task is inserted only under a new key and only while the
 * balance covers the cost; everything else hangs off the inserted task, so a replayed key or a
 * short balance changes nothing and answers no row. The wallet's check constraint refuses a
 * concurrent charge that would take the balance below zero, which undoes the whole statement.
 */
async function insertChargedTask(
  db: Database,
  ledger: Ledger,
  input: { userId: string; idempotencyKey: string; request: GenerateRequest; locale: string; cost: number; planned: readonly PlannedRow[] },
): Promise<ChargedTask | undefined> {
  const { userId, cost } = input;
  const result = await db.execute(sql`
    WITH task AS (
      INSERT INTO tasks (user_id, idempotency_key, content_config, material_ids, cost, locale)
      SELECT ${userId}, ${input.idempotencyKey}, ${JSON.stringify(input.request.content_config)}::jsonb,
        ${JSON.stringify(input.request.material_ids)}::jsonb, ${cost}, ${input.locale}
      WHERE EXISTS (SELECT 1 FROM wallets WHERE user_id = ${userId} AND total_tokens >= ${cost})
      ON CONFLICT (user_id, idempotency_key) DO NOTHING
      RETURNING id, status, cost
    ), ${ledger.chargeTaskCtes(userId, cost)}, outputs AS (
      INSERT INTO task_outputs (task_id, position, name, content_module, category, background, creative_scene, view, engine, cost)
      SELECT task.id, o.position, o.name, o."contentModule", o.category, o.background, o."creativeScene", o.view, o.engine, o.cost
      FROM task, jsonb_to_recordset(${JSON.stringify(input.planned)}::jsonb) AS o(
        position integer, name text, "contentModule" text, category text, background text,
        "creativeScene" text, view text, engine text, cost integer)
    ), job AS (
      INSERT INTO jobs (kind, task_id) SELECT 'generate', task.id FROM task
    ), version AS (
      -- The seller's history lists show the new task (the other task changes move it by trigger).
      INSERT INTO content_versions AS v (user_id, version) SELECT ${userId}, 1 FROM task
      ON CONFLICT (user_id) DO UPDATE SET version = v.version + 1
    )
    SELECT task.id, task.status, task.cost, wallet.total_tokens AS balance FROM task, wallet`);
  return (result as unknown as { rows: ChargedTask[] }).rows[0];
}

/** The wallet's check constraint refused the charge: another charge took the tokens first. */
function isOverdrawn(error: unknown): boolean {
  for (let cause: unknown = error; cause && typeof cause === 'object'; cause = (cause as { cause?: unknown }).cause) {
    if ((cause as { constraint?: string }).constraint === 'wallets_total_tokens_nonnegative') return true;
  }
  return false;
}

/**
 * Checks, prices and charges a submission, and stores the task with its outputs and its job in
 * one statement. A repeat under the same key returns the first task and charges nothing.
 */
export async function createTask(db: Database, ledger: Ledger, input: CreateTaskInput): Promise<CreatedTask> {
  const { userId, idempotencyKey, request } = input;
  const balanceNow = () => ledger.balanceOf(userId);
  const replay = async (task: TaskRow): Promise<CreatedTask> => {
    if (!sameRequest(task, request)) throw new HttpError(409, 'IDEMPOTENCY_MISMATCH', 'IDEMPOTENCY_MISMATCH');
    return { task, balance: await balanceNow(), replayed: true };
  };
  const shortOf = async (cost: number) => {
    const balance = await balanceNow();
    return new HttpError(402, 'INSUFFICIENT_BALANCE', 'INSUFFICIENT_BALANCE', { cost, balance });
  };

  let planned: PlannedRow[];
  try {
    const { views } = await taskMaterials(db, userId, request.material_ids);
    planned = planTask(request.content_config, views, input.support, input.prices)
      .filter((output) => !input.onlyView || !output.view || output.view === input.onlyView)
      .map((output, position) => ({ ...output, position }));
  } catch (error) {
    // A replay is answered with its task even when the request could no longer be accepted.
    const before = await existing(db, userId, idempotencyKey);
    if (before) return replay(before);
    throw error;
  }
  const cost = planned.reduce((sum, output) => sum + output.cost, 0);
  // Tokens whose period has ended lapse now, before anything is charged, rather than at the
  // expiry job's next run: a lapsed token is never spent.
  await ledger.expireFor(userId, new Date());

  let created: ChargedTask | undefined;
  try {
    created = await insertChargedTask(db, ledger, { userId, idempotencyKey, request, locale: input.locale, cost, planned });
  } catch (error) {
    if (isOverdrawn(error)) throw await shortOf(cost);
    throw error;
  }
  if (created) return { task: created, balance: created.balance, replayed: false };
  // Nothing inserted: the key was used before, or the balance does not cover the cost.
  const before = await existing(db, userId, idempotencyKey);
  if (before) return replay(before);
  throw await shortOf(cost);
}

export async function findOwnTask(db: Database, userId: string, id: string): Promise<TaskRow | undefined> {
  const [row] = await db
    .select()
    .from(tasks)
    .where(and(eq(tasks.id, id), eq(tasks.userId, userId)));
  return row;
}

/** The seller's task list (server/db/pages.ts). */
export const tasksList = (userId: string): ListOf => ({ userId, lists: ['tasks'] });

/** A page of the seller's tasks, newest first, and how many they have. */
export function listOwnTasks(db: Database, userId: string, page: number, pageSize: number) {
  return pageOf(db, tasks, tasksList(userId), page, pageSize);
}

/** Everything a task's answer shows, loaded for a whole page of tasks at once. */
export async function taskDetails(db: Database, taskRows: readonly TaskRow[]) {
  const ids = taskRows.map((task) => task.id);
  const materialIds = [...new Set(taskRows.flatMap((task) => task.materialIds))];
  if (ids.length === 0) return { outputs: [], results: [], photos: [] };
  const [outputs, results, photos] = await Promise.all([
    db.select().from(taskOutputs).where(inArray(taskOutputs.taskId, ids)).orderBy(taskOutputs.position),
    db.select().from(assets).where(inArray(assets.taskId, ids)).orderBy(assets.createdAt, assets.id),
    materialIds.length
      ? db
          .select({ id: materials.id, storageKey: materials.storageKey, description: materials.description, status: materials.status })
          .from(materials)
          .where(inArray(materials.id, materialIds))
      : Promise.resolve([]),
  ]);
  return { outputs, results, photos };
}

export async function failureDetails(db: Database, taskId: string) {
  return db.select().from(taskFailures).where(eq(taskFailures.taskId, taskId)).orderBy(taskFailures.createdAt);
}

/** Deletes a finished task (its results stay in material history); false when there is none. */
export async function deleteOwnTask(db: Database, userId: string, id: string): Promise<boolean> {
  const task = await findOwnTask(db, userId, id);
  if (!task) return false;
  if (task.status === 'pending' || task.status === 'processing') throw new HttpError(409, 'TASK_BUSY', 'TASK_BUSY');
  await db.delete(tasks).where(and(eq(tasks.id, id), eq(tasks.userId, userId)));
  return true;
}
