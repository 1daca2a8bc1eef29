// Seller photos, and the pictures and logos of image edits: registering an upload under an
// idempotency key, taking the bytes in (checked and cleaned by inspect.ts), listing and deleting.
// Every query is scoped to the seller.
//
// The bytes go up to an upload key of their own (`uploads/…`), and the clean copy is kept under
// the material's storage key (`materials/…`), which no upload address ever names: an upload
// address still valid after the photo was accepted cannot replace the accepted photo.
import { setImmediate as yieldToRequests } from 'node:timers/promises';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { pageOf, type ListOf } from '../db/pages';
import { materials } from '../db/schema';
import { HttpError } from '../lib/errors';
import { MAX_UPLOAD_BYTES, type AcceptedImageType } from '../../contract/materials';
import { DOWNLOAD_URL_LIFETIME_S, type ObjectStorage } from '../storage/storage';
import { ImageRejected, cleanImage } from './inspect';
import { ensureRoom } from './quota';

export type MaterialRow = typeof materials.$inferSelect;

const EXTENSION: Record<AcceptedImageType, string> = { 'image/jpeg': 'jpg', 'image/png': 'png' };

export interface UploadRegistration {
  fileName: string;
  fileType: AcceptedImageType;
  fileSize: number;
  description: string;
  /** The shoe photo's view; null for an edit's picture or logo, which no task may use. */
  view: string | null;
}

const STORED_PREFIX = 'materials/';
const UPLOAD_PREFIX = 'uploads/';

/** Where the bytes of the material stored under `storageKey` are uploaded to. */
export function uploadKeyOf(storageKey: string): string {
  return `${UPLOAD_PREFIX}${storageKey.slice(STORED_PREFIX.length)}`;
}

/** The storage key of the material an upload key is for; null for any other key. */
export function storageKeyOfUpload(uploadKey: string): string | null {
  return uploadKey.startsWith(UPLOAD_PREFIX) ? `${STORED_PREFIX}${uploadKey.slice(UPLOAD_PREFIX.length)}` : null;
}

/** A repeat of a registration must be for the same file. */
function sameUpload(existing: MaterialRow, upload: UploadRegistration): MaterialRow {
  if (
    existing.fileType !== upload.fileType ||
    existing.fileSize !== upload.fileSize ||
    existing.view !== upload.view ||
    existing.description !== upload.description
  ) {
    throw new HttpError(409, 'IDEMPOTENCY_MISMATCH', 'IDEMPOTENCY_MISMATCH');
  }
  return existing;
}

/**
 * The material for this key: created once, the same row for every repeat of the request. A new
 * one must fit the seller's storage quota at its declared size (413 STORAGE_QUOTA_EXCEEDED); a
 * repeat is answered whatever the seller stores since.
 */
export async function registerUpload(
  db: Database,
  userId: string,
  idempotencyKey: string,
  upload: UploadRegistration,
  quotaBytes: number,
): Promise<MaterialRow> {
  const registered = await findOwnByKey(db, userId, idempotencyKey);
  if (registered) return sameUpload(registered, upload);
  await ensureRoom(db, userId, quotaBytes, upload.fileSize);
  const id = crypto.randomUUID();
  const [created] = await db
    .insert(materials)
    .values({
      id,
      userId,
      idempotencyKey,
      fileName: upload.fileName,
      fileType: upload.fileType,
      fileSize: upload.fileSize,
      description: upload.description,
      view: upload.view,
      storageKey: `${STORED_PREFIX}${userId}/${id}.${EXTENSION[upload.fileType]}`,
    })
    .onConflictDoNothing({ target: [materials.userId, materials.idempotencyKey] })
    .returning();
  if (created) return created;
  const existing = await findOwnByKey(db, userId, idempotencyKey);
  if (!existing) throw new Error('material vanished while being registered');
  return sameUpload(existing, upload);
}

export async function findByStorageKey(db: Database, key: string): Promise<MaterialRow | undefined> {
  const [row] = await db.select().from(materials).where(eq(materials.storageKey, key));
  return row;
}

/** The seller's material registered under an Idempotency-Key. */
export async function findOwnByKey(db: Database, userId: string, idempotencyKey: string): Promise<MaterialRow | undefined> {
  const [row] = await db
    .select()
    .from(materials)
    .where(and(eq(materials.userId, userId), eq(materials.idempotencyKey, idempotencyKey)));
  return row;
}

export async function findOwn(db: Database, userId: string, id: string): Promise<MaterialRow | undefined> {
  const [row] = await db
    .select()
    .from(materials)
    .where(and(eq(materials.id, id), eq(materials.userId, userId)));
  return row;
}

/**
 * Takes a material's bytes in — from the request (embedded storage) or from its upload key in the
 * bucket (S3) — checks and cleans them, stores the clean copy and marks the material uploaded. A
 * repeat for an uploaded material changes nothing and writes nothing. A bad file marks it rejected
 * and throws ImageRejected.
 */
export async function acceptUpload(
  db: Database,
  storage: ObjectStorage,
  material: MaterialRow,
  received?: Buffer,
): Promise<MaterialRow> {
  if (material.status === 'uploaded') return material;
  const uploadKey = uploadKeyOf(material.storageKey);
  try {
    const bytes = received ?? (await storage.get(uploadKey, MAX_UPLOAD_BYTES));
    if (!bytes) {
      // Taken in meanwhile by another request (a photo check and a task at once), which removed
      // the upload key once the clean copy was stored.
      const [now] = await db.select().from(materials).where(eq(materials.id, material.id));
      if (now?.status === 'uploaded') return now;
      throw new HttpError(409, 'MATERIAL_NOT_UPLOADED', 'MATERIAL_NOT_UPLOADED');
    }
    // The upload address takes only the declared size; a bucket that does not hold it to that
    // (an S3-compatible server that ignores signed headers) is held to it here.
    if (bytes.length !== material.fileSize) throw new ImageRejected(400, 'UPLOAD_SIZE_MISMATCH');
    const clean = await cleanImage(bytes, material.fileType as AcceptedImageType);
    await storage.put(material.storageKey, clean.bytes, material.fileType);
    const [updated] = await db
      .update(materials)
      .set({
        status: 'uploaded',
        rejection: null,
        width: clean.width,
        height: clean.height,
        byteSize: clean.bytes.length,
        uploadedAt: sql`now()`,
      })
      .where(eq(materials.id, material.id))
      .returning();
    if (!received) await storage.delete(uploadKey).catch(() => {});
    return updated ?? material;
  } catch (error) {
    const rejection =
      error instanceof ImageRejected ? error : (error as { name?: string }).name === 'ObjectTooLargeError' ? new ImageRejected(413, 'UPLOAD_TOO_LARGE') : null;
    if (!rejection) throw error;
    await db.update(materials).set({ status: 'rejected', rejection: rejection.reason }).where(eq(materials.id, material.id));
    if (!received) await storage.delete(uploadKey).catch(() => {});
    throw rejection;
  }
}

/**
 * Takes in the seller's photos among `ids` that are still pending: with S3 their bytes went
 * straight to the bucket, and a task may be submitted before any photo check has read them there.
 * Missing bytes answer 409 MATERIAL_NOT_UPLOADED, a bad file its rejection; ids that are not the
 * seller's pending photos are left for the caller to refuse.
 */
export async function acceptPending(db: Database, storage: ObjectStorage, userId: string, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  const pending = await db
    .select()
    .from(materials)
    .where(and(eq(materials.userId, userId), eq(materials.status, 'pending'), inArray(materials.id, [...ids])));
  await Promise.all(pending.map((row) => acceptUpload(db, storage, row)));
}

/** The seller's photos and edit uploads (server/db/pages.ts). */
export const materialsList = (userId: string): ListOf => ({ userId, lists: ['materials'] });

/** A page of the seller's photos, newest first, and how many they have. */
export function listOwn(db: Database, userId: string, page: number, pageSize: number) {
  return pageOf(db, materials, materialsList(userId), page, pageSize);
}

/** A material's stored file, and whatever an upload address put under its upload key. */
async function deleteFiles(storage: ObjectStorage, storageKey: string) {
  await Promise.all([storage.delete(storageKey), storage.delete(uploadKeyOf(storageKey))]);
}

/** A task of its seller uses the material (a task's photos are kept as long as the task). */
const USED_BY_TASK = sql`EXISTS (SELECT 1 FROM tasks
  WHERE tasks.user_id = materials.user_id AND tasks.material_ids @> jsonb_build_array(materials.id::text))`;

/**
 * An edit among its seller's results places the material as a logo (a logo is kept as long as an
 * edit that reopens with it). Containment of `{"layers":[{"type":"logo","file_key":key}]}` matches
 * any logo layer with that key, whatever else the edit holds.
 */
const USED_BY_EDIT = sql`EXISTS (SELECT 1 FROM assets
  WHERE assets.user_id = materials.user_id
    AND assets.edit_meta @> jsonb_build_object('layers', jsonb_build_array(jsonb_build_object('type', 'logo', 'file_key', materials.storage_key))))`;

const UNUSED = sql`NOT ${USED_BY_TASK} AND NOT ${USED_BY_EDIT}`;

/**
 * Deletes the seller's material and its stored file, unless something keeps it: `missing` when
 * there is no such material, `in_use` when a task keeps it, `in_edit` when an edit's logo is it.
 */
export async function deleteOwn(
  db: Database,
  storage: ObjectStorage,
  userId: string,
  id: string,
): Promise<'deleted' | 'in_use' | 'in_edit' | 'missing'> {
  const own = and(eq(materials.id, id), eq(materials.userId, userId));
  const [deleted] = await db
    .delete(materials)
    .where(and(own, UNUSED))
    .returning({ storageKey: materials.storageKey });
  if (deleted) {
    await deleteFiles(storage, deleted.storageKey);
    return 'deleted';
  }
  const [kept] = await db.select({ byTask: sql<boolean>`${USED_BY_TASK}` }).from(materials).where(own);
  if (!kept) return 'missing';
  return kept.byTask ? 'in_use' : 'in_edit';
}

/** Materials one pass of the sweep deletes at most. */
const SWEEP_BATCH = 500;

/**
 * Up to SWEEP_BATCH of the seller's materials registered before `before` that no task of theirs
 * and no logo of their edits uses, deleted. The same test as UNUSED, made for a whole seller at
 * once: the ids their tasks name and the keys their edits place as logos are each gathered once
 * and the old materials matched against them (hash joins), rather than every material looking
 * through all of the seller's tasks and results (at 5,000 tasks and 50,000 results, minutes).
 */
const sweepOfSeller = (userId: string, before: Date) => sql`
  DELETE FROM materials WHERE id IN (
    SELECT m.id FROM materials m
    WHERE m.user_id = ${userId} AND m.created_at < ${before.toISOString()}
      AND NOT EXISTS (
        SELECT 1 FROM tasks t, jsonb_array_elements_text(t.material_ids) AS used(id)
        WHERE t.user_id = ${userId} AND used.id = m.id::text)
      AND NOT EXISTS (
        SELECT 1 FROM assets a, jsonb_path_query(a.edit_meta, '$.layers[*] ? (@.type == "logo").file_key') AS logo(key)
        WHERE a.user_id = ${userId} AND a.edit_meta IS NOT NULL AND logo.key #>> '{}' = m.storage_key)
    LIMIT ${SWEEP_BATCH})
  RETURNING storage_key`;

/**
 * Deletes every material registered before `before` that no task and no edit's logo uses, with
 * its stored file (photos replaced or deleted after they had gone up, drafts never sent, edited
 * pictures once copied under the results); how many it deleted. A seller at a time, letting
 * requests in between (the embedded database answers one statement at a time).
 */
export async function sweepUnusedMaterials(db: Database, storage: ObjectStorage, before: Date): Promise<number> {
  const sellers = await db.execute(sql`
    SELECT id FROM users u WHERE EXISTS (SELECT 1 FROM materials m WHERE m.user_id = u.id AND m.created_at < ${before.toISOString()})`);
  let deleted = 0;
  for (const { id } of (sellers as unknown as { rows: { id: string }[] }).rows) {
    for (;;) {
      const result = await db.execute(sweepOfSeller(id, before));
      const rows = (result as unknown as { rows: { storage_key: string }[] }).rows;
      for (const row of rows) await deleteFiles(storage, row.storage_key);
      deleted += rows.length;
      await yieldToRequests();
      if (rows.length < SWEEP_BATCH) break;
    }
  }
  return deleted;
}

/** The material as the API shows it, with a time-limited address once uploaded. */
export async function publicMaterial(material: MaterialRow, storage: ObjectStorage) {
  return {
    id: material.id,
    file_name: material.fileName,
    file_type: material.fileType,
    file_size: material.fileSize,
    description: material.description,
    view: material.view,
    status: material.status,
    rejection: material.rejection,
    width: material.width,
    height: material.height,
    file_url: material.status === 'uploaded' ? await storage.downloadUrl(material.storageKey, DOWNLOAD_URL_LIFETIME_S) : null,
    created_at: material.createdAt.toISOString(),
  };
}
