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

export interface OutboxJob {
  /** A client UUID, sent as Idempotency-Key: a replay never makes a second material. */
  id: string;
  kind: 'upload';
  draftKey: ContentType;
  view: ShoeView;
  photoId: string;
  state: JobState;
  attempts: number;
  /** Unix ms before which the job is not tried again (backoff). */
  nextAttemptAt: number;
  /** A running job's lease: another runner may take it over after this (a crashed tab). */
  leaseUntil?: number;
  materialId?: string;
  uploadUrl?: string;
  /** The server's message when the job failed for good (a 4xx). */
  error?: string;
  errorStatus?: number;
  createdAt: number;
  updatedAt: number;
}

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
