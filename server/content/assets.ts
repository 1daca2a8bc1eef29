// Material history on the server (SPEC §7 Content assets): a seller's results by section, a page
// at a time, an edited one with the files it reopens with; adding results from the seller's
// uploads (edited pictures), once per Idempotency-Key; deleting them with their files; and a
// selection packed into one zip that streams as each file is read, behind a signed address that
// expires.
import crypto from 'node:crypto';
import { Readable } from 'node:stream';
import { isDeepStrictEqual } from 'node:util';
import yazl from 'yazl';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { pageOf, type ListOf } from '../db/pages';
import { assets, materials, tasks } from '../db/schema';
import { HttpError } from '../lib/errors';
import { MATERIAL_SECTIONS, type Asset, type AssetCreateItem, type EditFiles, type MaterialSection } from '../../contract/assets';
import { MAX_UPLOAD_BYTES } from '../../contract/materials';
import { editDescriptionSchema, type EditDescription } from '../../contract/edit';
import { contentModuleOf } from '../../contract/selection';
import type { Category, ContentModule } from '../../contract/enums';
import { DOWNLOAD_URL_LIFETIME_S, type ObjectStorage } from '../storage/storage';
import { acceptUpload } from '../materials/materials';
import { ensureRoom } from '../materials/quota';

export type AssetRow = typeof assets.$inferSelect;

/** No result the engines make comes near this; it only bounds what one zip entry may hold. */
const MAX_ENTRY_BYTES = 512 * 1024 * 1024;

/**
 * The seller's results in one section of material history, or in all of them (server/db/pages.ts):
 * each section a range of the index on (user_id, section, created_at, id).
 */
export function assetsList(userId: string, section: MaterialSection | undefined): ListOf {
  const sections = section ? [section] : MATERIAL_SECTIONS;
  return {
    userId,
    lists: sections.map((name) => `assets:${name}`),
    rows: sql`section = ANY(ARRAY[${sql.join(
      sections.map((name) => sql`${name}`),
      sql`, `,
    )}]::text[])`,
  };
}

/** A page of the seller's results in a section (or all of them), newest first, and how many there are. */
export function listOwnAssets(db: Database, userId: string, section: MaterialSection | undefined, page: number, pageSize: number) {
  return pageOf(db, assets, assetsList(userId, section), page, pageSize);
}

/** Those of these ids that are the seller's assets, in the order asked. */
export async function assetsAmong(db: Database, userId: string, ids: readonly string[]): Promise<AssetRow[]> {
  const rows = await db
    .select()
    .from(assets)
    .where(and(eq(assets.userId, userId), inArray(assets.id, [...ids])));
  return ids.flatMap((id) => rows.filter((row) => row.id === id));
}

/** The seller's assets with these ids, in the order asked; null when any is not theirs. */
export async function ownAssets(db: Database, userId: string, ids: readonly string[]): Promise<AssetRow[] | null> {
  const rows = await assetsAmong(db, userId, ids);
  return rows.length === ids.length ? rows : null;
}

/** Deletes the seller's assets and then their files; false (and nothing deleted) when any is not theirs. */
export async function deleteOwnAssets(db: Database, storage: ObjectStorage, userId: string, ids: readonly string[]): Promise<boolean> {
  const keys = await db
    .transaction(async (tx) => {
      const deleted = await tx
        .delete(assets)
        .where(and(eq(assets.userId, userId), inArray(assets.id, [...ids])))
        .returning({ storageKey: assets.storageKey, posterKey: assets.posterKey });
      if (deleted.length !== ids.length) throw new NotAllOwn();
      return deleted.flatMap((row) => (row.posterKey ? [row.storageKey, row.posterKey] : [row.storageKey]));
    })
    .catch((error: unknown) => {
      if (error instanceof NotAllOwn) return null;
      throw error;
    });
  if (!keys) return false;
  // A file left behind by a failed delete is only disk space; the rows are what the seller sees.
  await Promise.allSettled(keys.map((key) => storage.delete(key)));
  return true;
}

const EXTENSION: Record<string, string> = { 'image/jpeg': 'jpg', 'image/png': 'png' };

/** The storage keys of an edit's logos, in layer order. */
function logoKeysOf(edit: EditDescription | null | undefined): string[] {
  return edit?.layers.flatMap((layer) => (layer.type === 'logo' ? [layer.file_key] : [])) ?? [];
}

/**
 * The id of the asset a batch-create under `idempotencyKey` makes at `position`: the same for every
 * repeat of the request, so a repeat finds what the first made, and no other seller's key meets it.
 */
function keyedAssetId(userId: string, idempotencyKey: string, position: number): string {
  const hash = crypto.createHash('sha256').update(`assets/batch-create\0${userId}\0${idempotencyKey}\0${position}`).digest();
  // An RFC 9562 UUID of version 8 (custom) and the RFC variant.
  hash[6] = (hash[6]! & 0x0f) | 0x80;
  hash[8] = (hash[8]! & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Whether an asset a batch-create made is what this item asks for. */
function madeFrom(row: AssetRow, item: AssetCreateItem): boolean {
  return (
    row.taskId === (item.task_id ?? null) &&
    row.category === item.content_config.category &&
    row.contentModule === item.content_config.content_module &&
    row.background === (item.content_config.background ?? null) &&
    isDeepStrictEqual(editOf(row.editMeta), item.edit_meta ?? null)
  );
}

/**
 * Adds results from images the seller uploaded (an edited image, say): each file is copied under
 * the results, so deleting the result never touches the upload. Nothing is added when any item
 * names an upload, a task, an edit's source or an edit's logo that is not the seller's, or a
 * category outside its module. Under an Idempotency-Key, a repeat of the request answers the
 * assets the first made (those the seller still has), even once its uploads are gone, and
 * another request under the key is refused. The copies must fit the seller's storage quota
 * (413 STORAGE_QUOTA_EXCEEDED); a repeat is answered whatever the seller stores since.
 */
export async function createAssets(
  db: Database,
  storage: ObjectStorage,
  userId: string,
  items: readonly AssetCreateItem[],
  { idempotencyKey, quotaBytes }: { idempotencyKey?: string; quotaBytes: number },
): Promise<AssetRow[]> {
  const ids = items.map((_, position) => (idempotencyKey ? keyedAssetId(userId, idempotencyKey, position) : crypto.randomUUID()));
  const replay = async () => {
    const made = await assetsAmong(db, userId, ids);
    if (made.some((row) => !madeFrom(row, items[ids.indexOf(row.id)]!))) {
      throw new HttpError(409, 'IDEMPOTENCY_MISMATCH', 'IDEMPOTENCY_MISMATCH');
    }
    return made;
  };
  if (idempotencyKey) {
    const made = await replay();
    if (made.length > 0) return made;
  }
  const logoKeys = [...new Set(items.flatMap((item) => logoKeysOf(item.edit_meta)))];
  const found = await db
    .select()
    .from(materials)
    .where(
      and(
        eq(materials.userId, userId),
        inArray(materials.status, ['uploaded', 'pending']),
        inArray(materials.storageKey, [...items.map((item) => item.file_key), ...logoKeys]),
      ),
    );
  // With S3 the bytes go straight to the bucket: an upload still pending is checked there now
  // (missing bytes answer 409, a bad file its rejection), as verify-angle does for a photo.
  const uploads = await Promise.all(found.map((row) => (row.status === 'pending' ? acceptUpload(db, storage, row) : row)));
  const taskIds = [...new Set(items.flatMap((item) => (item.task_id ? [item.task_id] : [])))];
  const ownTasks = taskIds.length
    ? await db.select({ id: tasks.id }).from(tasks).where(and(eq(tasks.userId, userId), inArray(tasks.id, taskIds)))
    : [];
  // An edit's source is one of the seller's own results: another seller's answers 404 like any id.
  const sourceIds = [...new Set(items.flatMap((item) => (item.edit_meta ? [item.edit_meta.source.asset_id] : [])))];
  if (sourceIds.length > 0 && !(await ownAssets(db, userId, sourceIds))) throw new HttpError(404, 'NOT_FOUND', 'NOT_FOUND');
  // So is each logo it places: one of the seller's uploads, kept as long as the edit (materials.ts).
  if (logoKeys.some((key) => !uploads.some((row) => row.storageKey === key))) throw new HttpError(404, 'NOT_FOUND', 'NOT_FOUND');
  const planned = items.map((item, position) => {
    const upload = uploads.find((row) => row.storageKey === item.file_key);
    if (!upload || (item.task_id && !ownTasks.some((task) => task.id === item.task_id))) throw new HttpError(404, 'NOT_FOUND', 'NOT_FOUND');
    const { category, content_module: module, background } = item.content_config;
    if (contentModuleOf(category) !== module || (background && module !== 'REAL_PERSON_IMAGE')) {
      throw new HttpError(400, 'CONFIG_MISMATCH', 'CONFIG_MISMATCH', { category, module });
    }
    const id = ids[position]!;
    return { item, upload, id, key: `assets/${userId}/${id}.${EXTENSION[upload.fileType] ?? 'jpg'}` };
  });
  await ensureRoom(db, userId, quotaBytes, planned.reduce((bytes, { upload }) => bytes + (upload.byteSize ?? upload.fileSize), 0));
  for (const { upload, key } of planned) {
    const bytes = await storage.get(upload.storageKey, MAX_UPLOAD_BYTES);
    if (!bytes) throw new HttpError(404, 'NOT_FOUND', 'NOT_FOUND');
    await storage.put(key, bytes, upload.fileType);
  }
  // Two repeats at once both copy (to the same keys, the same bytes); one inserts, the other answers its rows.
  const created = await db
    .insert(assets)
    .values(
      planned.map(({ item, upload, id, key }) => ({
        id,
        userId,
        taskId: item.task_id ?? null,
        contentModule: item.content_config.content_module,
        category: item.content_config.category,
        background: item.content_config.background ?? null,
        storageKey: key,
        fileType: upload.fileType,
        width: upload.width ?? 0,
        height: upload.height ?? 0,
        byteSize: upload.byteSize ?? 0,
        editMeta: item.edit_meta ?? null,
      })),
    )
    .onConflictDoNothing({ target: assets.id })
    .returning();
  return created.length === planned.length ? created : replay();
}

/** Some of the ids are not the seller's assets: the delete is undone. */
class NotAllOwn extends Error {}

/** What kind of result an asset is, as every answer that shows one says it. */
export function assetKind(row: Pick<AssetRow, 'fileType' | 'category' | 'background' | 'creativeScene' | 'contentModule'>) {
  return {
    file_type: row.fileType,
    category: row.category as Category,
    background: row.background,
    creative_scene: row.creativeScene,
    content_module: row.contentModule as ContentModule,
  };
}

/**
 * The seller's assets as the API shows them. The files their edits reopen with (sources still the
 * seller's, logos still uploaded) are looked up in one query each for all of them, and each file
 * is signed once however many answers name it.
 */
export async function publicAssets(db: Database, storage: ObjectStorage, userId: string, rows: readonly AssetRow[]): Promise<Asset[]> {
  const edits = rows.map((row) => editOf(row.editMeta));
  const sourceIds = [...new Set(edits.flatMap((edit) => (edit ? [edit.source.asset_id] : [])))];
  const logoKeys = [...new Set(edits.flatMap(logoKeysOf))];
  const [sources, logos] = await Promise.all([
    sourceIds.length > 0
      ? db
          .select({ id: assets.id, storageKey: assets.storageKey })
          .from(assets)
          .where(and(eq(assets.userId, userId), inArray(assets.id, sourceIds)))
      : [],
    logoKeys.length > 0
      ? db
          .select({ storageKey: materials.storageKey })
          .from(materials)
          .where(and(eq(materials.userId, userId), eq(materials.status, 'uploaded'), inArray(materials.storageKey, logoKeys)))
      : [],
  ]);
  const sourceKeys = new Map(sources.map((source) => [source.id, source.storageKey]));
  const keptLogos = new Set(logos.map((logo) => logo.storageKey));
  const signed = new Map<string, Promise<string>>();
  const urlOf = (key: string) => {
    const url = signed.get(key) ?? storage.downloadUrl(key, DOWNLOAD_URL_LIFETIME_S);
    signed.set(key, url);
    return url;
  };
  const filesOf = async (edit: EditDescription): Promise<EditFiles> => {
    const sourceKey = sourceKeys.get(edit.source.asset_id);
    const logoUrls = await Promise.all(logoKeysOf(edit).filter((key) => keptLogos.has(key)).map(async (key) => [key, await urlOf(key)] as const));
    return { source_url: sourceKey ? await urlOf(sourceKey) : null, logos: Object.fromEntries(logoUrls) };
  };
  return Promise.all(
    rows.map(async (row, index) => {
      const edit = edits[index] ?? null;
      return {
        id: row.id,
        file_url: await urlOf(row.storageKey),
        poster_url: row.posterKey ? await urlOf(row.posterKey) : null,
        task_id: row.taskId,
        ...assetKind(row),
        width: row.width,
        height: row.height,
        created_at: row.createdAt.toISOString(),
        edit_meta: edit,
        edit_files: edit ? await filesOf(edit) : null,
      };
    }),
  );
}

/** A kept edit as the editor can reopen it; one in another shape (an older build's) reads as none. */
function editOf(stored: unknown): EditDescription | null {
  if (stored === null || stored === undefined) return null;
  const parsed = editDescriptionSchema.safeParse(stored);
  return parsed.success ? parsed.data : null;
}

/**
 * Signs a download of these assets for this seller until `expiresAt`. The token carries its own
 * contents, so any API node can serve it; a key of its own keeps it from passing for any other
 * signature the server makes.
 */
export class DownloadTokens {
  private readonly key: Buffer;

  constructor(signingKey: Uint8Array) {
    this.key = crypto.createHmac('sha256', signingKey).update('solestudio/asset-downloads').digest();
  }

  private sign(payload: string) {
    return crypto.createHmac('sha256', this.key).update(payload).digest('base64url');
  }

  issue(userId: string, ids: readonly string[], expiresAt: Date): string {
    const payload = Buffer.from(JSON.stringify({ u: userId, a: ids, e: Math.floor(expiresAt.getTime() / 1000) })).toString('base64url');
    return `${payload}.${this.sign(payload)}`;
  }

  /** The seller and assets a token names, or null when it is forged, malformed or expired. */
  read(token: string, now = Date.now()): { userId: string; ids: string[] } | null {
    const [payload, signature, extra] = token.split('.');
    if (!payload || !signature || extra !== undefined) return null;
    const expected = Buffer.from(this.sign(payload));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !crypto.timingSafeEqual(expected, given)) return null;
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { u: string; a: string[]; e: number };
    if (claims.e * 1000 < now) return null;
    return { userId: claims.u, ids: claims.a };
  }
}

const stamp = (date: Date) => date.toISOString().slice(0, 19).replace(/[-:]/g, '').replace('T', '-');

/** The name a file has inside the zip: its category, when it was made, and its id. */
export function entryName(row: AssetRow): string {
  const extension = row.storageKey.slice(row.storageKey.lastIndexOf('.') + 1);
  return `${row.category.toLowerCase().replace(/_/g, '-')}-${stamp(row.createdAt)}-${row.id.slice(0, 8)}.${extension}`;
}

export function archiveName(now = new Date()): string {
  return `solestudio-${stamp(now)}.zip`;
}

/**
 * A zip of the assets' files, stored as they are (photos and videos are compressed already).
 * Each file is read only when the zip reaches it, so the first bytes leave at once.
 */
export function zipOf(storage: ObjectStorage, rows: readonly AssetRow[]): Readable {
  const zip = new yazl.ZipFile();
  const pending: Readable[] = [];
  for (const row of rows) {
    let started = false;
    const file = new Readable({
      read() {
        if (started) return;
        started = true;
        storage
          .get(row.storageKey, MAX_ENTRY_BYTES)
          .then((bytes) => {
            if (!bytes) throw new Error(`the file of asset ${row.id} is missing`);
            this.push(bytes);
            this.push(null);
          })
          .catch((error: unknown) => this.destroy(error as Error));
      },
    });
    pending.push(file);
    zip.addReadStream(file, entryName(row), { compress: false, mtime: row.createdAt });
  }
  zip.end();
  const output = zip.outputStream as Readable;
  // A file that cannot be read ends the download with an error rather than a zip without it.
  for (const file of pending) file.once('error', (error) => output.destroy(error));
  return output;
}
