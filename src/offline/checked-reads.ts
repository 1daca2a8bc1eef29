// Every record the app reads from its database passes record-checks.ts's check first, whichever
// way it is read (get, lists, cursors, filters, modify, liveQuery): a Dexie middleware under all of
// them. (Dexie's 'reading' hook is not enough: `filter` and `modify` see records as stored.) When
// the database opens, a sweep writes repaired records back and deletes the ones that cannot be used.
import type Dexie from 'dexie';
import type { DBCore, DBCoreCursor, DBCoreQueryRequest, DBCoreTable, DBCoreTransaction, IndexableType, Middleware } from 'dexie';
import { inspect, isCheckedTable, type TableName } from './record-checks';

/** The sweep's transactions, which read records as they are stored. */
const asStored = new WeakSet<DBCoreTransaction>();

const told = new Set<string>();

/** One log line per record and outcome, however often the record is read. */
function tell(database: string, table: string, key: unknown, what: string) {
  const line = `IndexedDB ${database}/${table} ${JSON.stringify(key)}: ${what}`;
  if (told.has(line)) return;
  told.add(line);
  console.warn(line);
}

/**
 * A record that cannot be used reads as absent: `get` gives undefined, and lists, counts, keys and
 * cursors pass over it, so `modify` never meets it either. A caller can then neither trust it by
 * accident nor trip on it (a damaged outbox job never stops the queue). It was written after the
 * database opened (another tab of another build), so the next opening's sweep deletes it (photos
 * aside, see `SWEPT`). To pass over a record, keys and counts read it too: the tables are small,
 * and nothing asks for the keys or the count of many photos (that would read their bytes).
 */
function checkedTable(database: string, name: TableName, table: DBCoreTable): DBCoreTable {
  const check = (trans: DBCoreTransaction, stored: unknown): unknown => {
    if (stored === undefined || asStored.has(trans)) return stored;
    const verdict = inspect(name, stored);
    const key = () => table.schema.primaryKey.extractKey?.(stored);
    if (!verdict.usable) {
      tell(database, name, key(), `left unread (${verdict.reason})`);
      return undefined;
    }
    if (verdict.repaired.length > 0) tell(database, name, key(), `read repaired (${verdict.repaired.join(', ')})`);
    return verdict.value;
  };
  const extractKey = table.schema.primaryKey.extractKey;
  if (!extractKey) throw new Error(`${name}: a checked table keeps its key in its records`);
  /** The usable records a query finds, each as it may be used and as it is stored. */
  const usable = (req: DBCoreQueryRequest) =>
    table.query({ ...req, values: true }).then(({ result }) =>
      result.map((stored: unknown) => ({ stored, checked: check(req.trans, stored) })).filter(({ checked }) => checked !== undefined),
    );
  return {
    ...table,
    get: (req) => table.get(req).then((stored) => check(req.trans, stored)),
    getMany: (req) => table.getMany(req).then((stored) => stored.map((value) => check(req.trans, value))),
    query: (req) => usable(req).then((found) => ({ result: found.map(({ stored, checked }) => (req.values ? checked : extractKey(stored))) })),
    count: (req) => usable(req).then((found) => found.length),
    openCursor: (req) =>
      table.openCursor({ ...req, values: true }).then((cursor) => cursor && checkedCursor(cursor, (stored) => check(req.trans, stored))),
  };
}

/** A cursor whose values are checked, stepping over the unusable ones. */
function checkedCursor(cursor: DBCoreCursor, check: (stored: unknown) => unknown): DBCoreCursor {
  let stored: unknown;
  let checked: unknown;
  const value = () => {
    if (cursor.value !== stored) {
      stored = cursor.value;
      checked = check(stored);
    }
    return checked;
  };
  // The IndexedDB cursor's own getters refuse another `this`, so they are passed on explicitly.
  return Object.create(cursor, {
    key: { get: () => cursor.key },
    primaryKey: { get: () => cursor.primaryKey },
    value: { get: value },
    start: { value: (onNext: () => void) => cursor.start(() => (value() === undefined ? cursor.continue() : onNext())) },
  }) as DBCoreCursor;
}

export const checkedReads: Middleware<DBCore> = {
  stack: 'dbcore',
  name: 'CheckedReads',
  create: (down) => ({
    ...down,
    table: (name) => (isCheckedTable(name) ? checkedTable(down.schema.name, name, down.table(name)) : down.table(name)),
  }),
};

/**
 * Photos are not swept: reading every photo's bytes at each start would cost the seller seconds,
 * and a photo is only unusable without its bytes, where there is nothing left to lose.
 */
const SWEPT: TableName[] = ['session', 'drafts', 'outbox', 'lists', 'edits'];

/** Run when the database opens (before anything else may use it): puts every stored record right. */
export async function sweep(database: Dexie): Promise<void> {
  try {
    await database.transaction('rw', SWEPT, async (transaction) => {
      asStored.add(transaction.idbtrans);
      for (const name of SWEPT) {
        const table = database.table(name);
        const repaired: unknown[] = [];
        const unusable: IndexableType[] = [];
        await table.each((stored: unknown, { primaryKey }) => {
          const verdict = inspect(name, stored);
          if (!verdict.usable) {
            unusable.push(primaryKey);
            tell(database.name, name, primaryKey, `deleted, it cannot be repaired (${verdict.reason})`);
          } else if (verdict.repaired.length > 0) {
            repaired.push(verdict.value);
            tell(database.name, name, primaryKey, `repaired (${verdict.repaired.join(', ')})`);
          }
        });
        await table.bulkPut(repaired);
        await table.bulkDelete(unusable);
      }
    });
  } catch (error) {
    // The app still opens; every read is checked all the same.
    console.warn('The stored records could not be checked', error);
  }
}
