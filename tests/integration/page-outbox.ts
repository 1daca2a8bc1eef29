// The page's outbox in tests: IndexedDB databases of its own per test (fake-indexeddb), deleted
// after it, and the real transport to the real server with faults injected in front of it.
import { afterEach } from 'vitest';
import { AppDatabase } from '../../src/offline/db';
import { fetchTransport } from '../../src/offline/transport';

/** What a fault does to one call: a response in the server's place, an error thrown, or nothing (the call goes on). */
export type Fault = (url: URL, init?: RequestInit) => Response | Error | undefined;

/** Opens a fresh database per call; every one is closed and deleted after each test. */
export function testDatabases(prefix: string): () => AppDatabase {
  const databases: AppDatabase[] = [];
  afterEach(async () => {
    for (const database of databases.splice(0)) {
      database.close();
      await database.delete();
    }
  });
  return () => {
    const database = new AppDatabase(`${prefix}-${Math.random()}`);
    databases.push(database);
    return database;
  };
}

/** The real transport, with faults injected in front of the real server. */
export function faultyTransport(origin: string, token: string, fault?: Fault) {
  return fetchTransport({
    origin,
    token: async () => token,
    locale: () => 'en',
    fetch: async (input, init) => {
      const url = new URL(String(input instanceof Request ? input.url : input));
      const injected = fault?.(url, init);
      if (injected instanceof Error) throw injected;
      if (injected) return injected;
      return fetch(url, init);
    },
  });
}
