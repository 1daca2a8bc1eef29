// The app's IndexedDB database (Dexie), opened through this one module. Version 1 holds the
// `session` row the service worker reads to replay uploads with the seller's token (DESIGN §3).
import Dexie, { type EntityTable } from 'dexie';

export interface SessionRecord {
  /** Always "current": there is one signed-in seller per browser profile. */
  id: 'current';
  token: string;
  userId: string;
  updatedAt: number;
}

export class AppDatabase extends Dexie {
  session!: EntityTable<SessionRecord, 'id'>;

  constructor(name = 'solestudio') {
    super(name);
    this.version(1).stores({ session: 'id' });
  }
}

export const db = new AppDatabase();

export async function writeSessionRecord(token: string, userId: string, database: AppDatabase = db): Promise<void> {
  await database.session.put({ id: 'current', token, userId, updatedAt: Date.now() });
}

export async function clearSessionRecord(database: AppDatabase = db): Promise<void> {
  await database.session.delete('current');
}

export async function readSessionRecord(database: AppDatabase = db): Promise<SessionRecord | undefined> {
  return database.session.get('current');
}
