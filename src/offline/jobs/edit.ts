// Saving an edit through the outbox (SPEC §3 saved edit record, §7 materials upload and assets
// batch-create; DESIGN §3). The rendered picture, any logo picked on this device and, for a
// picture from the device, the picture itself are photos in IndexedDB until the server has them;
// one `edit` job uploads each (description "image edit", "image edit (logo)"), makes a device
// picture an asset of its own, and then creates the edited asset with its description as
// `edit_meta`. Each step keeps what it got before the next, and every call carries a key derived
// from the job's, so a run cut anywhere and run again makes each file and each asset once.
import { editDescriptionSchema, type EditDescription } from '../../../contract/edit';
import type { AssetCreateItem } from '../../../contract/assets';
import type { EditUploadDescription } from '../../../contract/materials';
import type { UpdateSpec } from 'dexie';
import type { AppDatabase } from '../db';
import type { EditDraftRecord, EditFile, EditJob, OutboxJob, PhotoRecord } from '../records';
import type { UploadTransport } from '../upload-transport';
import { TransportError } from '../transport-error';
import type { JobKind } from './job-kind';
import { pendingJobs, sendAgain, settleFailure } from './lifecycle';

export type { EditUploadDescription };

/** Where a logo picked on this device is named in an edit until it is uploaded. */
export const LOCAL_LOGO_PREFIX = 'local:';

export function localLogoKey(photoId: string): string {
  return `${LOCAL_LOGO_PREFIX}${photoId}`;
}

/** The asset id an edit of a device picture names until that picture is an asset of its own. */
export const DEVICE_SOURCE_ID = '00000000-0000-4000-8000-000000000000';

/** The picture as the edit renders it, to be saved. */
export interface RenderedPicture {
  bytes: ArrayBuffer;
  mime: 'image/jpeg' | 'image/png';
  width: number;
  height: number;
}

/**
 * Queues the save of an edit in progress: the rendered picture is stored, the job carries the
 * edit with the files to upload, and the draft is done with, all in one transaction.
 */
export async function enqueueEdit(database: AppDatabase, draft: EditDraftRecord, picture: RenderedPicture, now = Date.now()): Promise<EditJob> {
  const edit = editDescriptionSchema.parse(draft.edit);
  const pictureId = crypto.randomUUID();
  const used = new Set(edit.layers.flatMap((layer) => (layer.type === 'logo' ? [layer.file_key] : [])));
  const toUpload = draft.logos.filter((logo) => used.has(logo.localKey) && logo.localKey.startsWith(LOCAL_LOGO_PREFIX));
  const files: EditFile[] = [
    ...(draft.source.assetId === null ? [{ role: 'source' as const, photoId: draft.source.photoId, localKey: 'source' }] : []),
    ...toUpload.map((logo) => ({ role: 'logo' as const, photoId: logo.photoId, localKey: logo.localKey })),
    { role: 'picture', photoId: pictureId, localKey: 'picture' },
  ];
  const uploading = new Set(files.map((file) => file.photoId));
  // What only the draft needed: an asset's copy, the logos the server holds, logos taken off again.
  const unneeded = [draft.source.photoId, ...draft.logos.map((logo) => logo.photoId)].filter((photoId) => !uploading.has(photoId));
  const job: EditJob = {
    id: crypto.randomUUID(),
    kind: 'edit',
    draftKey: `edit:${draft.key}`,
    state: 'queued',
    attempts: 0,
    nextAttemptAt: now,
    createdAt: now,
    updatedAt: now,
    materialId: draft.source.assetId,
    materialUrl: draft.source.url,
    edit,
    placement: draft.source.placement,
    files,
  };
  await database.transaction('rw', database.outbox, database.photos, database.edits, async () => {
    await database.photos.put({ id: pictureId, mime: picture.mime, bytes: picture.bytes, width: picture.width, height: picture.height, createdAt: now });
    await database.outbox.add(job);
    await database.edits.delete(draft.key);
    await database.photos.bulkDelete(unneeded);
  });
  return job;
}

const FILE_NAMES: Record<EditFile['role'], string> = { source: 'picture', logo: 'logo', picture: 'edit' };
const DESCRIPTIONS: Record<EditFile['role'], EditUploadDescription> = { source: 'image edit', logo: 'image edit (logo)', picture: 'image edit' };

/** The edit as the server takes it: its source asset, and each uploaded logo under its stored key. */
export function editForServer(job: Pick<EditJob, 'edit' | 'files' | 'materialId' | 'sourceAssetId'>): EditDescription {
  const stored = new Map(job.files.map((file) => [file.localKey, file.fileKey]));
  return {
    ...job.edit,
    source: { ...job.edit.source, asset_id: job.materialId ?? job.sourceAssetId ?? DEVICE_SOURCE_ID },
    layers: job.edit.layers.map((layer) => (layer.type === 'logo' && stored.get(layer.file_key) ? { ...layer, file_key: stored.get(layer.file_key)! } : layer)),
  };
}

/** Works one edit job to its end; throws (a TransportError for the server's answers) to be retried or failed. */
async function workEdit(
  database: AppDatabase,
  transport: UploadTransport,
  job: EditJob,
  now: () => number,
  progress?: (sent: number, total: number) => void,
): Promise<void> {
  let current = job;
  const keep = async (changes: Partial<Pick<EditJob, 'files' | 'sourceAssetId' | 'assetId'>>) => {
    current = { ...current, ...changes };
    await database.outbox.update(job.id, { ...changes, updatedAt: now() } as UpdateSpec<OutboxJob>);
  };
  for (const [index, file] of current.files.entries()) {
    if (file.fileKey && file.uploaded) continue;
    const photo = await database.photos.get(file.photoId);
    if (!photo) throw new TransportError(400, `the ${FILE_NAMES[file.role]} to save is missing`);
    await uploadFile(transport, `${job.id}-${index}`, photo, file, (changed) => keep({ files: current.files.map((each, at) => (at === index ? changed : each)) }), progress);
  }
  const placement = (fileKey: string, publicUrl: string | undefined): Omit<AssetCreateItem, 'edit_meta'> => ({
    task_id: current.placement.taskId,
    file_key: fileKey,
    ...(publicUrl ? { file_url: publicUrl } : {}),
    content_config: { category: current.placement.category, background: current.placement.background, content_module: current.placement.contentModule },
  });
  if (current.materialId === null && !current.sourceAssetId) {
    const source = current.files.find((file) => file.role === 'source')!;
    const [created] = await transport.createAssets(`${job.id}-source`, [placement(source.fileKey!, source.publicUrl)]);
    await keep({ sourceAssetId: created });
  }
  const picture = current.files.find((file) => file.role === 'picture')!;
  const [assetId] = await transport.createAssets(job.id, [{ ...placement(picture.fileKey!, picture.publicUrl), edit_meta: editForServer(current) }]);
  // The server has everything: the job is done and its photos are no longer needed.
  await database.transaction('rw', database.outbox, database.photos, async () => {
    await database.outbox.update(job.id, { state: 'done', assetId, leaseUntil: undefined, updatedAt: now() } as UpdateSpec<OutboxJob>);
    await database.photos.bulkDelete(current.files.map((file) => file.photoId));
  });
}

/** Registers a file (once per key) and PUTs its bytes, asking again once if the upload address expired. */
async function uploadFile(
  transport: UploadTransport,
  key: string,
  photo: PhotoRecord,
  start: EditFile,
  keep: (file: EditFile) => Promise<void>,
  progress?: (sent: number, total: number) => void,
) {
  let file = start;
  for (let attempt = 0; ; attempt += 1) {
    if (!file.materialId || !file.uploadUrl) {
      const registered = await transport.registerFile(key, photo, DESCRIPTIONS[file.role]);
      file = { ...file, ...registered, uploadUrl: registered.uploadUrl ?? undefined };
      await keep(file);
      // The server already holds the file: there is nothing left to send.
      if (registered.uploadUrl === null) break;
    }
    try {
      await transport.put(file.uploadUrl!, photo, progress);
      break;
    } catch (error) {
      // An upload address lives 15 minutes: once expired, the same key gets a fresh one.
      if (attempt === 0 && error instanceof TransportError && error.status === 403) {
        file = { ...file, uploadUrl: undefined };
        continue;
      }
      throw error;
    }
  }
  await keep({ ...file, uploaded: true });
}

/** Edits still to be saved, or refused by the server, oldest first. */
export function pendingEdits(database: AppDatabase): Promise<EditJob[]> {
  return pendingJobs(database, 'edit');
}

/** Tries a refused save again (the seller's retry). */
export function retryEdit(database: AppDatabase, jobId: string, now = Date.now()): Promise<void> {
  return sendAgain(database, jobId, 'edit', now);
}

export const editKind: JobKind<EditJob> = {
  async work(run, job) {
    try {
      await workEdit(run.database, run.transport, job, run.now, (sent, total) => run.observer.onProgress?.(job, sent, total));
      run.observer.onChange?.(job);
      return 'done';
    } catch (error) {
      return settleFailure(run, job, error);
    }
  },
};
