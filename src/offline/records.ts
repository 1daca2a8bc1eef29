// The shapes of the records the app keeps in IndexedDB (db.ts), table by table, as a read gives
// them: every record read has been checked first (record-checks.ts, checked-reads.ts), whatever
// an older build or a damaged disk left. Types and a few plain helpers only: this module imports
// nothing else of src/offline, so the database, the checks and the outbox all import it.
import type { EditDescription } from '../../contract/edit';
import type { Background, Category, ContentModule, ContentType, ShoeView } from '../../contract/enums';
import type { Selection } from '../../contract/selection';

export interface SessionRecord {
  /** Always "current": there is one signed-in seller per browser profile. */
  id: 'current';
  token: string;
  userId: string;
  /** The seller's language, for the messages the service worker's uploads may bring back. */
  locale?: string;
  updatedAt: number;
}

/**
 * A draft's key: the content type of a new task on /task, or `retry:{task id}` for the photos
 * that replace a rejected task's on /task/retry. An edit being saved is keyed `edit:{its key}`.
 */
export type DraftKey = ContentType | `retry:${string}` | `edit:${string}`;

export function retryDraftKey(taskId: string): DraftKey {
  return `retry:${taskId}`;
}

/**
 * The kind of task a draft or queued task makes: a retry makes what its rejected task did (a draft
 * keyed for a retry always carries it: record-checks.ts lets no other be read).
 */
export function contentTypeOf(draft: Pick<DraftRecord, 'contentType' | 'retry'>): ContentType {
  return draft.retry?.contentType ?? (draft.contentType as ContentType);
}

export interface PhotoRecord {
  id: string;
  /** The draft and view it was taken for; a damaged record may have lost them (the slot is their truth). */
  draftKey?: DraftKey;
  view?: ShoeView;
  mime: 'image/jpeg' | 'image/png';
  bytes: ArrayBuffer;
  width: number;
  height: number;
  createdAt: number;
}

/** Where one slot's photo is on its way to the server. */
export type SlotState = 'stored' | 'queued' | 'uploading' | 'uploaded' | 'failed';

export interface SlotRecord {
  photoId: string;
  state: SlotState;
  materialId?: string;
  /** The job carrying this photo (its id is the Idempotency-Key). */
  jobId?: string;
  /** Why the last attempt failed, in the seller's language, when it did. */
  error?: string;
  /** What the server's check of the uploaded photo found wrong (empty: nothing). */
  warnings?: string[];
}

export interface ShoeParams {
  shaftHeight?: number;
  heelHeight?: number;
  shaftLatitude?: number;
  ankleLatitude?: number;
}

/** What a retry keeps of a rejected task (SPEC §4, §5): its styles and the photos that passed. */
export interface RetryOf {
  taskId: string;
  contentType: ContentType;
  /** The rejected task's `content_config`, sent again as it was. */
  contentConfig: unknown[];
  /** Photos the server already has and did not reject, by view. */
  kept: { view: ShoeView; materialId: string; url: string | null }[];
  /** Tokens and outputs of the rejected task, shown while the retry waits. */
  total: number;
  outputs: number;
}

export interface DraftRecord {
  /** The draft's key (the field keeps its first name: it is the table's primary key). */
  contentType: DraftKey;
  /** 1: photos, 2: styles. */
  page: 1 | 2;
  slots: Partial<Record<ShoeView, SlotRecord>>;
  shoeParams: ShoeParams;
  /** Page 2's choices as the page left them (null: none yet). */
  styles: Selection | null;
  /** Set on a retry draft. */
  retry?: RetryOf;
  updatedAt: number;
}

export type JobState = 'queued' | 'running' | 'done' | 'failed';

/** One photo a `generate` job waits for: its view, photo and the upload job carrying it. */
export interface TaskPhoto {
  view: ShoeView;
  photoId: string;
  uploadJobId: string;
}

/** What a queued task will ask for, kept for the seller to see while it waits. */
export interface TaskRequest {
  /** `content_config` as POST /content/generate takes it. */
  contentConfig: unknown[];
  photos: TaskPhoto[];
  /** A retry's photos the server already has: sent with the new ones. */
  kept?: { view: ShoeView; materialId: string }[];
  /** Tokens the confirmation dialog showed. */
  total: number;
  outputs: number;
}

interface JobBase {
  /** A client UUID, sent as Idempotency-Key: a replay never makes a second material or task. */
  id: string;
  draftKey: DraftKey;
  state: JobState;
  attempts: number;
  /** Unix ms before which the job is not tried again (backoff). */
  nextAttemptAt: number;
  /** A running job's lease: another runner may take it over after this (a crashed tab). */
  leaseUntil?: number;
  /** The server's message when the job failed for good (a 4xx). */
  error?: string;
  errorStatus?: number;
  createdAt: number;
  updatedAt: number;
}

/** Registers a photo as a material and PUTs its bytes. */
export interface UploadJob extends JobBase {
  kind: 'upload';
  view: ShoeView;
  photoId: string;
  materialId?: string;
  uploadUrl?: string;
}

/** Submits a task once every photo it needs is uploaded (DESIGN §3). */
export interface GenerateJob extends JobBase {
  kind: 'generate';
  task: TaskRequest;
  /** The draft as it was submitted: put back if the server refuses the task. */
  draft: DraftRecord;
  /** The server's task, once it has accepted the job. */
  taskId?: string;
}

/**
 * Deletes a material the seller no longer wants (a photo replaced, moved or deleted after it had
 * gone up). The server keeps a material a task uses, and a material already gone counts as deleted.
 */
export interface DeleteJob extends JobBase {
  kind: 'delete';
  /** The material, when the upload heard back from the server ... */
  materialId?: string;
  /** ... else the upload's key: whatever the server registered under it (if anything) goes. */
  uploadKey?: string;
}

/** A file an edit saves: the picture itself, a logo on it, or the picture it was made from when that came from the device. */
export interface EditFile {
  role: 'source' | 'logo' | 'picture';
  /** The photo holding its bytes. */
  photoId: string;
  /** Where the edit names it until the server has it (a logo's `local:{photo id}` file_key). */
  localKey: string;
  materialId?: string;
  uploadUrl?: string;
  /** What the upload answered: the stored file's key and address (SPEC §3 edit result, logo result). */
  fileKey?: string;
  publicUrl?: string;
  /** Its bytes are stored on the server. */
  uploaded?: boolean;
}

/** Where the edited picture goes in My materials: the source's category and module (SPEC §7 batch-create). */
export interface EditPlacement {
  taskId: string | null;
  category: Category;
  background: Background | null;
  contentModule: ContentModule;
}

/**
 * The saved edit record (SPEC §3): the source (material_id, material_url), the edit description
 * (edit info) and the files it uploads (edit result, logo result), worked until the new asset exists.
 */
export interface EditJob extends JobBase {
  kind: 'edit';
  /** The source asset (null: a picture from the device, made an asset of its own first). */
  materialId: string | null;
  materialUrl: string | null;
  edit: EditDescription;
  placement: EditPlacement;
  files: EditFile[];
  /** The asset made from a device picture, once created. */
  sourceAssetId?: string;
  /** The new asset, once created. */
  assetId?: string;
}

export type OutboxJob = UploadJob | GenerateJob | DeleteJob | EditJob;

/** The key of an edit in progress: the asset it edits, or the picture picked from the device. */
export type EditKey = `asset:${string}` | 'device';

/** The picture an edit in progress works on; its bytes are a photo, so the edit works offline. */
export interface EditSource {
  /** The asset, or null for a picture from the device. */
  assetId: string | null;
  /** Where the picture was loaded from (material_url), if anywhere. */
  url: string | null;
  photoId: string;
  width: number;
  height: number;
  placement: EditPlacement;
}

/**
 * An edit in progress, kept so a reload, a crash or no network loses nothing. Its logos' bytes are
 * photos too: those picked on this device under `local:{photo id}`, those the server holds (an
 * edit reopened) under their file_key.
 */
export interface EditDraftRecord {
  key: EditKey;
  source: EditSource;
  edit: EditDescription;
  logos: { localKey: string; photoId: string }[];
  updatedAt: number;
}

/** The last answer of a list the seller has loaded (task history, a material section), by seller. */
export interface ListRecord {
  /** `{user id}:{list name}`. */
  key: string;
  userId: string;
  value: unknown;
  savedAt: number;
}
