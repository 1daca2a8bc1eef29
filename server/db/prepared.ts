// Statements on the hot path (sign-in, every authenticated call) built once per database
// handle instead of once per request: building a query costs about as much event-loop time as
// the embedded database takes to run it. On PostgreSQL they are also named server-side.
import type { Database } from './client';

const cache = new WeakMap<Database, Map<string, unknown>>();

export function prepared<T>(db: Database, name: string, build: (db: Database) => T): T {
  let statements = cache.get(db);
  if (!statements) {
    statements = new Map();
    cache.set(db, statements);
  }
  let statement = statements.get(name) as T | undefined;
  if (statement === undefined) {
    statement = build(db);
    statements.set(name, statement);
  }
  return statement;
}
