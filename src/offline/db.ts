// The app's IndexedDB database (Dexie), opened through this one module by the page and by the
// service worker (DESIGN §3). It holds what must survive a reload, the network dropping or the
// app being closed: the session row the service worker uploads with, drafts, the photos
// themselves (bytes as ArrayBuffer + mime: WebKit loses Blobs in IndexedDB) and the outbox.
//
// Every record read from it has been checked (record-checks.ts, checked-reads.ts): the shapes in
// records.ts are what a read gives, whatever an older build or a damaged disk left.
import Dexie, { type EntityTable } from 'dexie';
import { checkedReads, sweep } from './checked-reads';
import type { DraftRecord, EditDraftRecord, ListRecord, OutboxJob, PhotoRecord, SessionRecord } from './records';

export class AppDatabase extends Dexie {
  session!: EntityTable<SessionRecord, 'id'>;
  drafts!: EntityTable<DraftRecord, 'contentType'>;
  photos!: EntityTable<PhotoRecord, 'id'>;
  outbox!: EntityTable<OutboxJob, 'id'>;
  lists!: EntityTable<ListRecord, 'key'>;
  edits!: EntityTable<EditDraftRecord, 'key'>;

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
    // Version 3: the last loaded history lists, shown offline.
    this.version(3).stores({ lists: 'key, userId' });
    // Version 4: edits in progress, and the outbox's edit jobs (a kind an older build cannot read).
    this.version(4).stores({ edits: 'key' });
    this.use(checkedReads);
    // Sticky: again at every opening (the database closes when another tab upgrades it).
    this.on('ready', (vip) => sweep(vip), true);
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
