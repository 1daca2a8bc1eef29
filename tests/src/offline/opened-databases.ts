// The IndexedDB databases a test opens: the app's own (AppDatabase, which validates what it reads),
// or the same stores as an older build or a damaged disk left them (plain Dexie at version 3, no
// validation, to write what the app would refuse). All are closed and deleted by closeAll().
import Dexie from 'dexie';
import { AppDatabase } from '../../../src/offline/db';

const STORES = { session: 'id', drafts: 'contentType', photos: 'id, draftKey', outbox: 'id, state, nextAttemptAt, draftKey', lists: 'key, userId' };

export function openedDatabases() {
  const databases: Dexie[] = [];
  return {
    asStored(name: string) {
      const raw = new Dexie(name);
      raw.version(3).stores(STORES);
      databases.push(raw);
      return raw;
    },
    app(name: string) {
      const database = new AppDatabase(name);
      databases.push(database);
      return database;
    },
    async closeAll() {
      const opened = databases.splice(0);
      for (const database of opened) database.close();
      for (const name of new Set(opened.map((database) => database.name))) await Dexie.delete(name);
    },
  };
}
