// The app's IndexedDB database (Dexie), opened through this one module by the page and by the
// service worker (DESIGN §3). It holds what must survive a reload, the network dropping or the
// app being closed: the session row the service worker uploads with, drafts, the photos
// themselves (bytes as ArrayBuffer + mime: WebKit loses Blobs in IndexedDB) and the outbox.
import Dexie, { type EntityTable } from 'dexie';
import type { ContentType, ShoeView } from '../../contract/enums';

export interface SessionRecord {
  /** Always "current": there is one signed-in seller per browser profile. */
  id: 'current';
  token: string;
  userId: string;
  /** The seller's language, for the messages the service worker's uploads may bring back. */
  locale?: string;
  updatedAt: number;
}

export interface PhotoRecord {
  id: string;
  /** The draft it belongs to: the content type. */
  draftKey: ContentType;
  view: ShoeView;
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

export interface DraftRecord {
  contentType: ContentType;
  /** 1: photos, 2: styles. */
  page: 1 | 2;
  slots: Partial<Record<ShoeView, SlotRecord>>;
  shoeParams: ShoeParams;
  /** Style selections of page 2, kept as the page left them. */
  styles: unknown;
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
  /** Tokens the confirmation dialog showed. */
  total: number;
  outputs: number;
}

interface JobBase {
  /** A client UUID, sent as Idempotency-Key: a replay never makes a second material or task. */
  id: string;
  draftKey: ContentType;
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

export type OutboxJob = UploadJob | GenerateJob;

export class AppDatabase extends Dexie {
  session!: EntityTable<SessionRecord, 'id'>;
  drafts!: EntityTable<DraftRecord, 'contentType'>;
  photos!: EntityTable<PhotoRecord, 'id'>;
  outbox!: EntityTable<OutboxJob, 'id'>;

  constructor(name = 'solestudio') {
    super(name);
    this.version(1).stores({ session: 'id' });
    // Version 2: capture, drafts and the upload outbox. Version 1 data (the session) is kept.
    this.version(2).stores({
      session: 'id',
      drafts: 'contentType',
      photos: 'id, draftKey',
      outbox: 'id, state, nextAttemptAt, draftKey',
    });
  }
}

export const db = new AppDatabase();

export async function writeSessionRecord(
  token: string,
  userId: string,
  database: AppDatabase = db,
  locale?: string,
): Promise<void> {
  await database.session.put({ id: 'current', token, userId, locale, updatedAt: Date.now() });
}

export async function clearSessionRecord(database: AppDatabase = db): Promise<void> {
  await database.session.delete('current');
}

export async function readSessionRecord(database: AppDatabase = db): Promise<SessionRecord | undefined> {
  return database.session.get('current');
}
