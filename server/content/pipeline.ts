// The generate job (DESIGN §4 Generation): processing → intake check of every photo → each
// planned output made by its engine and stored as an asset → completed, partially completed or
// failed, with every failed output refunded. Outputs already made are kept, so a job that is
// retried (or claimed again after its runner died) carries on where it stopped.
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/client';
import { assets, materials, taskFailures, taskOutputs, tasks } from '../db/schema';
import type { Ledger } from '../ledger/ledger';
import type { ObjectStorage } from '../storage/storage';
import { MAX_UPLOAD_BYTES } from '../../contract/materials';
import type { Background, Category, CreativeScene, ShoeView } from '../../contract/enums';
import { SHOE_VIEWS } from '../../contract/enums';
import { DEFAULT_LOCALE, isLocale, type Locale } from '../../contract/locales';
import type { ContentConfigEntry } from '../../contract/selection';
import { analysePhoto, refusal } from '../materials/findings';
import { OutputFailed, type Engine, type TaskPhotos } from '../studio/engine';
import type { Rendered } from '../studio/layouts';
import { withPoster } from '../studio/poster';
import type { JobHandler, JobRow } from '../jobs/runner';
import type { TaskRow } from './tasks';
import type { EngineName } from './catalogue';

/** How an engine's try at one output ended: made, failed for a reason the seller is told (refunded), or an error the job is tried again for. */
export type OutputOutcome = 'made' | 'failed' | 'error';

export interface PipelineContext {
  db: Database;
  ledger: Ledger;
  storage: ObjectStorage;
  /** Engines for one task by name (the studio engine keeps the task's cut-outs), logging to the job's log; an AI engine not configured is absent. */
  engines(log: FastifyBaseLogger): { studio: Engine } & Partial<Record<EngineName, Engine | null>>;
  /** ffmpeg, when found: a video made without a poster frame gets one from it. */
  ffmpeg: string | null;
  /** A task reached its end: tell the seller (`log` is the job's). */
  finished(task: TaskRow, log: FastifyBaseLogger): void;
  /** Told how long each engine took over an output, and how it ended (the metrics). */
  onOutput?(engine: EngineName, category: Category, outcome: OutputOutcome, seconds: number): void;
}

const EXTENSION = { 'image/jpeg': 'jpg', 'video/mp4': 'mp4' } as const;

/** Refunds each failed output once (the ledger's reference makes a repeat a no-op). */
async function refundFailed(ledger: Ledger, tx: Database, task: TaskRow) {
  const failed = await tx
    .select({ id: taskOutputs.id, cost: taskOutputs.cost })
    .from(taskOutputs)
    .where(and(eq(taskOutputs.taskId, task.id), eq(taskOutputs.status, 'failed')));
  for (const output of failed) {
    await ledger.refundOutput(task.userId, { ...output, taskId: task.id }, tx);
  }
}

/** Marks the outputs not yet made as failed with `error`. */
async function failPending(tx: Database, taskId: string, error: string) {
  await tx
    .update(taskOutputs)
    .set({ status: 'failed', error })
    .where(and(eq(taskOutputs.taskId, taskId), eq(taskOutputs.status, 'pending')));
}

/** Settles the task from its outputs: refunds and the final status, in one transaction. */
async function settle(db: Database, ledger: Ledger, taskId: string, failureType?: 'manual_rejection'): Promise<TaskRow> {
  return db.transaction(async (tx) => {
    const [task] = await tx.select().from(tasks).where(eq(tasks.id, taskId)).for('update');
    if (!task) throw new Error(`task ${taskId} vanished`);
    if (task.finishedAt) return task;
    await refundFailed(ledger, tx, task);
    const outputs = await tx.select({ status: taskOutputs.status }).from(taskOutputs).where(eq(taskOutputs.taskId, taskId));
    const made = outputs.filter((o) => o.status === 'completed').length;
    const status = made === outputs.length ? 'completed' : made > 0 ? 'partially_completed' : 'failed';
    const [updated] = await tx
      .update(tasks)
      .set({
        status,
        failureType: status === 'failed' ? (failureType ?? 'system_error') : null,
        finishedAt: sql`now()`,
      })
      .where(eq(tasks.id, taskId))
      .returning();
    return updated!;
  });
}

function photosOf(storage: ObjectStorage, rows: { id: string; view: string | null; storageKey: string }[]): TaskPhotos {
  const byView = new Map(rows.map((row) => [row.view as ShoeView, row]));
  return {
    views: SHOE_VIEWS.filter((view) => byView.has(view)),
    async bytes(view) {
      const row = byView.get(view);
      const bytes = row ? await storage.get(row.storageKey, MAX_UPLOAD_BYTES) : null;
      if (!bytes) throw new OutputFailed('MATERIAL_MISSING');
      return bytes;
    },
  };
}

/** Runs intake; returns the rejections (material id and reason key), empty when all pass. */
export async function intake(storage: ObjectStorage, rows: { id: string; storageKey: string }[]) {
  const rejections: { materialId: string; reason: string }[] = [];
  for (const row of rows) {
    const bytes = await storage.get(row.storageKey, MAX_UPLOAD_BYTES);
    if (!bytes) {
      rejections.push({ materialId: row.id, reason: 'MATERIAL_MISSING' });
      continue;
    }
    const reason = refusal(await analysePhoto(bytes));
    if (reason) rejections.push({ materialId: row.id, reason });
  }
  return rejections;
}

export function generateHandler(context: PipelineContext): JobHandler {
  const { db, storage } = context;

  const finish = async (taskId: string, log: FastifyBaseLogger, failureType?: 'manual_rejection') => {
    const task = await settle(db, context.ledger, taskId, failureType);
    context.finished(task, log);
  };

  /** An engine's output, with how long it took and how it ended told to `onOutput`. */
  const timed = async (engine: EngineName, category: Category, make: () => Promise<Rendered>): Promise<Rendered> => {
    const started = performance.now();
    let outcome: OutputOutcome = 'error';
    try {
      const made = await make();
      outcome = 'made';
      return made;
    } catch (error) {
      if (error instanceof OutputFailed) outcome = 'failed';
      throw error;
    } finally {
      context.onOutput?.(engine, category, outcome, (performance.now() - started) / 1000);
    }
  };

  return {
    async run(job: JobRow, log: FastifyBaseLogger) {
      const taskId = job.taskId!;
      const [task] = await db.select().from(tasks).where(eq(tasks.id, taskId));
      if (!task || task.finishedAt) return;
      if (task.status === 'pending') await db.update(tasks).set({ status: 'processing' }).where(eq(tasks.id, taskId));

      const photoRows = task.materialIds.length
        ? await db
            .select({ id: materials.id, view: materials.view, storageKey: materials.storageKey })
            .from(materials)
            .where(inArray(materials.id, task.materialIds))
        : [];
      const outputs = await db.select().from(taskOutputs).where(eq(taskOutputs.taskId, taskId)).orderBy(taskOutputs.position);

      // Intake, unless outputs were already made on an earlier try (the photos passed then).
      if (!outputs.some((o) => o.status === 'completed')) {
        const missing = task.materialIds.filter((id) => !photoRows.some((row) => row.id === id));
        const rejections = [...missing.map((id) => ({ materialId: id, reason: 'MATERIAL_MISSING' })), ...(await intake(storage, photoRows))];
        if (rejections.length > 0) {
          await db.transaction(async (tx) => {
            await tx.delete(taskFailures).where(eq(taskFailures.taskId, taskId));
            await tx.insert(taskFailures).values(rejections.map((r) => ({ taskId, materialId: r.materialId, reason: r.reason })));
            await failPending(tx, taskId, 'INTAKE_REJECTED');
          });
          await finish(taskId, log, 'manual_rejection');
          return;
        }
      }

      const config = task.contentConfig as ContentConfigEntry[];
      const photos = photosOf(storage, photoRows);
      const engines = context.engines(log);
      const locale: Locale = isLocale(task.locale) ? task.locale : DEFAULT_LOCALE;
      for (const output of outputs) {
        if (output.status !== 'pending') continue;
        const entry = config.find((e) => e.name === output.name);
        // The engine it was planned for; one configured away since then cannot make it.
        const engine = engines[output.engine as EngineName];
        try {
          if (!engine) throw new OutputFailed(output.category === 'CREATIVE_VIDEO' ? 'NEEDS_AI_VIDEO' : 'NEEDS_AI_IMAGES');
          const request = {
            category: output.category as Category,
            background: output.background as Background | null,
            creativeScene: output.creativeScene as CreativeScene | null,
            view: output.view as ShoeView | null,
            preset: entry?.preset ?? null,
            description: entry?.custom_params.custom_scene_description?.trim() || null,
            shoeParams: entry?.custom_params.shoe_params ?? {},
            locale,
          };
          const made = await timed(output.engine as EngineName, request.category, () => engine.make(request, photos));
          const rendered = await withPoster(made, context.ffmpeg);
          const key = `assets/${task.userId}/${output.id}.${EXTENSION[rendered.fileType]}`;
          await storage.put(key, rendered.bytes, rendered.fileType);
          const posterKey = rendered.poster ? `assets/${task.userId}/${output.id}-poster.jpg` : null;
          if (posterKey) await storage.put(posterKey, rendered.poster!, 'image/jpeg');
          await db.transaction(async (tx) => {
            await tx
              .insert(assets)
              .values({
                userId: task.userId,
                taskId,
                outputId: output.id,
                contentModule: output.contentModule,
                category: output.category,
                background: output.background,
                creativeScene: output.creativeScene,
                storageKey: key,
                posterKey,
                fileType: rendered.fileType,
                width: rendered.width,
                height: rendered.height,
                byteSize: rendered.bytes.length,
              })
              .onConflictDoNothing({ target: assets.outputId });
            await tx.update(taskOutputs).set({ status: 'completed', error: null }).where(eq(taskOutputs.id, output.id));
          });
        } catch (error) {
          if (!(error instanceof OutputFailed)) throw error; // transient: the job is tried again
          log.info({ output: output.id, reason: error.key }, 'output failed');
          const stored = Object.keys(error.vars).length ? `${error.key}|${JSON.stringify(error.vars)}` : error.key;
          await db.update(taskOutputs).set({ status: 'failed', error: stored }).where(eq(taskOutputs.id, output.id));
        }
      }
      await finish(taskId, log);
    },

    async giveUp(job: JobRow, error: unknown, log: FastifyBaseLogger) {
      if (!job.taskId) return;
      log.error({ err: error }, 'generation gave up; unmade outputs are refunded');
      await db.transaction((tx) => failPending(tx, job.taskId!, 'GENERATION_FAILED'));
      await finish(job.taskId, log);
    },
  };
}
