// PGlite runs every query as six protocol exchanges with its WASM backend (parse, describe,
// bind, describe, execute, sync) and plans it afresh each time. The API runs the same few
// statements on every request, so this client keeps one named prepared statement per SQL text,
// parsed and described once, and runs each query as a single bind-describe-execute-sync batch:
// the same results in about a third of the time. Statements other than SELECT, INSERT, UPDATE,
// DELETE and WITH (DDL, transaction control) take PGlite's own path.
// Measured by `npm run bench -- generate history` (2 cores, 2026-11-23), with and without this
// client (drizzle on PGlite directly, so also without the write count below): POST
// /content/generate 296 vs 225 req/s (p99 148 vs 182 ms); GET /content/tasks 6,799 vs 1,041
// req/s (p99 15 vs 88 ms); GET /content/assets 9,027 vs 1,425 req/s (p99 9 vs 89 ms).
import { parse, protocol, type messages, type PGlite, type QueryOptions, type Results, type RowMode, type Transaction } from '@electric-sql/pglite';

type Parser = (value: string, type: number) => unknown;

/** Distinct SQL texts kept as named statements; further texts run unnamed, in one batch too. */
const MAX_STATEMENTS = 2000;
const PREPARABLE = /^\s*(select|insert|update|delete|with)\b/i;

interface Statement {
  name: string | null;
  /** Parameter types as the server inferred them, for serialising values. */
  paramTypes: number[];
}

type QueryRunner = Pick<PGlite, 'query'>;

export type PreparedPglite = Pick<PGlite, 'query' | 'transaction'> & {
  /**
   * How many statements other than plain SELECTs (and transactions) have finished through this
   * database's clients. This process is the embedded database's only writer, so while the count
   * stands still nothing in the database has changed.
   */
  writes(): number;
};

/** Statements that only read. */
const READ_ONLY = /^\s*select\b/i;

/** Named statements live as long as the database session, so they are kept per PGlite. */
const sessions = new WeakMap<PGlite, { statements: Map<string, Statement>; named: number; writes: number }>();

export function preparedPglite(pglite: PGlite, { maxStatements = MAX_STATEMENTS } = {}): PreparedPglite {
  let session = sessions.get(pglite);
  if (!session) {
    session = { statements: new Map(), named: 0, writes: 0 };
    sessions.set(pglite, session);
  }
  const { statements } = session;

  const send = async (...messages: Uint8Array[]) => {
    const { messages: replies } = await pglite.execProtocol(concat(messages), { syncToFs: false });
    return replies;
  };

  /** Parses and describes a text once: as a named statement while there is room. */
  const prepare = async (text: string): Promise<Statement> => {
    const known = statements.get(text);
    if (known) return known;
    const name = session.named < maxStatements ? `s${session.named + 1}` : null;
    const replies = await send(
      protocol.serialize.parse({ name: name ?? '', text }),
      protocol.serialize.describe({ type: 'S', name: name ?? '' }),
      protocol.serialize.sync(),
    );
    const statement = { name, paramTypes: parse.parseDescribeStatementResults(replies) };
    if (name) {
      session.named += 1;
      statements.set(text, statement);
    }
    return statement;
  };

  /** One round trip for a prepared text; the caller holds PGlite's query lock. */
  const run = async <T>(text: string, params: unknown[] = [], options?: QueryOptions): Promise<Results<T>> => {
    const statement = await prepare(text);
    const values = params.map((value, i) => {
      if (value === null || value === undefined) return null;
      const type = statement.paramTypes[i]!;
      const serialize = options?.serializers?.[type] ?? pglite.serializers[type];
      return serialize ? serialize(value) : String(value);
    });
    const head = statement.name ? [] : [protocol.serialize.parse({ text })];
    const replies = await send(
      ...head,
      protocol.serialize.bind({ statement: statement.name ?? '', values }),
      protocol.serialize.describe({ type: 'P' }),
      protocol.serialize.execute({}),
      protocol.serialize.sync(),
    );
    return results<T>(replies, (type) => options?.parsers?.[type] ?? pglite.parsers[type], options?.rowMode);
  };

  const counted = async <T>(text: string, work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } finally {
      if (!READ_ONLY.test(text)) session.writes += 1;
    }
  };

  const query = (fallback: QueryRunner, locked: (fn: () => Promise<unknown>) => Promise<unknown>) =>
    async function query<T>(text: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>> {
      if (!PREPARABLE.test(text) || options?.blob) return counted(text, () => fallback.query<T>(text, params, options));
      return counted(text, async () => (await locked(() => run<T>(text, params, options))) as Results<T>);
    };

  return {
    query: query(pglite, async (fn) => {
      await pglite._checkReady();
      return pglite._runExclusiveTransaction(() => pglite._runExclusiveQuery(fn));
    }),
    writes: () => session.writes,
    transaction<T>(callback: (tx: Transaction) => Promise<T>): Promise<T> {
      return counted('COMMIT', () => pglite.transaction((tx) => {
        const inTransaction = query(tx, (fn) => {
          if (tx.closed) throw new Error('Transaction is closed');
          return pglite._runExclusiveQuery(fn);
        });
        return callback({ ...tx, query: inTransaction, get closed() { return tx.closed; } });
      }));
    },
  };
}

/**
 * The rows of one statement's replies, as PGlite's own query answers them. (PGlite's parser copies
 * its whole table of type parsers on every call that brings its own; this looks each type up.)
 */
function results<T>(replies: readonly messages.BackendMessage[], parserOf: (type: number) => Parser | undefined, rowMode?: RowMode): Results<T> {
  let fields: { name: string; dataTypeID: number }[] = [];
  let parsers: (Parser | undefined)[] = [];
  const rows: unknown[] = [];
  let affectedRows = 0;
  for (const reply of replies) {
    if (reply.name === 'rowDescription') {
      fields = (reply as messages.RowDescriptionMessage).fields.map((field) => ({ name: field.name, dataTypeID: field.dataTypeID }));
      parsers = fields.map((field) => parserOf(field.dataTypeID));
    } else if (reply.name === 'dataRow') {
      const values = (reply as messages.DataRowMessage).fields.map((value, i) => (value === null ? null : parsers[i] ? parsers[i](value, fields[i]!.dataTypeID) : value));
      rows.push(rowMode === 'array' ? values : Object.fromEntries(values.map((value, i) => [fields[i]!.name, value])));
    } else if (reply.name === 'commandComplete') {
      const [command, ...rest] = (reply as messages.CommandCompleteMessage).text.split(' ');
      if (command && CHANGES.has(command)) affectedRows += Number.parseInt(rest.at(-1) ?? '0', 10) || 0;
    }
  }
  return { rows: rows as T[], fields, affectedRows };
}

const CHANGES = new Set(['INSERT', 'UPDATE', 'DELETE', 'MERGE', 'COPY']);

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
