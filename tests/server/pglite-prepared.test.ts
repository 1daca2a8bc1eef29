// The PGlite client that keeps named statements: its answers must be PGlite's own, value for
// value, in and out of transactions, and its errors the database's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PGlite, types } from '@electric-sql/pglite';
import { preparedPglite } from '../../server/db/pglite-prepared';

let pglite: PGlite;

beforeAll(async () => {
  pglite = await PGlite.create();
  await pglite.exec(`
    CREATE TABLE items (
      id serial PRIMARY KEY,
      name text NOT NULL UNIQUE,
      price numeric(10, 2),
      tags text[] NOT NULL DEFAULT '{}',
      meta jsonb,
      ok boolean NOT NULL DEFAULT true,
      at timestamptz NOT NULL DEFAULT '2026-11-21T10:00:00Z',
      stock integer NOT NULL DEFAULT 0 CHECK (stock >= 0)
    )`);
});

afterAll(async () => {
  await pglite.close();
});

// One table's story (rows inserted, updated, refused, rolled back), each step building on the
// last: run in the order written even when the suite is shuffled.
describe('preparedPglite', { shuffle: false }, () => {
  it('answers exactly as PGlite does, for every type, in object and array rows', async () => {
    const client = preparedPglite(pglite);
    const insert = 'INSERT INTO items (name, price, tags, meta, ok) VALUES ($1, $2, $3, $4, $5) RETURNING *';
    const params = ['boot', '12.50', ['a', 'b c'], { size: 42, colours: ['red'] }, false];
    const mine = await client.query(insert, params);
    const theirs = await pglite.query(insert, ['shoe', ...params.slice(1)]);
    expect(mine.affectedRows).toBe(1);
    expect(mine.fields).toEqual(theirs.fields);
    expect({ ...(mine.rows[0] as object), id: 0, name: '' }).toEqual({ ...(theirs.rows[0] as object), id: 0, name: '' });
    expect(mine.rows[0]).toMatchObject({ name: 'boot', tags: ['a', 'b c'], meta: { size: 42, colours: ['red'] }, ok: false, at: new Date('2026-11-21T10:00:00Z') });

    const select = 'SELECT name, price, at, meta FROM items WHERE name = ANY($1::text[]) ORDER BY name';
    const options = { rowMode: 'array' as const, parsers: { [types.TIMESTAMPTZ]: (value: string) => value } };
    const rows = await client.query(select, [['boot', 'shoe', 'none']], options);
    expect(rows.rows).toEqual((await pglite.query(select, [['boot', 'shoe', 'none']], options)).rows);
    expect(rows.rows[0]).toEqual(['boot', '12.50', '2026-11-21 10:00:00+00', { size: 42, colours: ['red'] }]);
    const nulls = await client.query<{ meta: unknown }>('SELECT meta FROM items WHERE name = $1 AND $2::int IS NULL', ['boot', null]);
    expect(nulls.rows).toEqual([{ meta: { size: 42, colours: ['red'] } }]);
  });

  it('parses each text once and reuses the statement, and runs unnamed beyond its limit', async () => {
    const fresh = await PGlite.create();
    try {
      const client = preparedPglite(fresh, { maxStatements: 2 });
      const prepared = async () => (await fresh.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_prepared_statements')).rows[0]!.n;
      for (let i = 0; i < 3; i += 1) await client.query('SELECT $1::int * 2 AS doubled', [i]);
      expect(await prepared()).toBe(1);
      // Another client of the same database shares its statements rather than naming them again.
      const again = preparedPglite(fresh, { maxStatements: 2 });
      expect((await again.query('SELECT $1::int * 2 AS doubled', [4])).rows).toEqual([{ doubled: 8 }]);
      await again.query('SELECT 1 AS one WHERE $1::int > 0', [1]);
      const beyond = await again.query<{ two: number }>('SELECT 2 AS two WHERE $1::int > 0', [1]);
      expect(beyond.rows).toEqual([{ two: 2 }]);
      expect(await prepared()).toBe(2);
    } finally {
      await fresh.close();
    }
  });

  it('counts changed rows and leaves statements that cannot be prepared to PGlite', async () => {
    const client = preparedPglite(pglite);
    const updated = await client.query("UPDATE items SET stock = stock + $1 WHERE name IN ('boot', 'shoe')", [3]);
    expect(updated.affectedRows).toBe(2);
    const created = await client.query('CREATE TABLE IF NOT EXISTS notes (body text)');
    expect(created.rows).toEqual([]);
  });

  it("throws the database's error with its constraint, and keeps working afterwards", async () => {
    const client = preparedPglite(pglite);
    const take = 'UPDATE items SET stock = stock - $1 WHERE name = $2 RETURNING stock';
    const error = await client.query(take, [100, 'boot']).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: '23514', constraint: 'items_stock_check' });
    expect((await client.query(take, [1, 'boot'])).rows).toEqual([{ stock: 2 }]);
    await expect(client.query('SELECT nothing FROM items WHERE id = $1', [1])).rejects.toMatchObject({ code: '42703' });
    expect((await client.query<{ n: number }>('SELECT count(*)::int AS n FROM items WHERE id > $1', [0])).rows).toEqual([{ n: 2 }]);
  });

  it('runs inside transactions: a failure rolls back everything before it', async () => {
    const client = preparedPglite(pglite);
    const add = 'INSERT INTO items (name) VALUES ($1)';
    await expect(
      client.transaction(async (tx) => {
        await tx.query(add, ['sandal']);
        await tx.query(add, ['boot']);
      }),
    ).rejects.toMatchObject({ code: '23505' });
    const sandal = 'SELECT name FROM items WHERE name = $1';
    expect((await client.query(sandal, ['sandal'])).rows).toEqual([]);
    await client.transaction(async (tx) => {
      await tx.query(add, ['sandal']);
      expect((await tx.query(sandal, ['sandal'])).rows).toEqual([{ name: 'sandal' }]);
    });
    expect((await client.query(sandal, ['sandal'])).rows).toEqual([{ name: 'sandal' }]);
  });

  it('counts every finished statement that may write, failed ones and transactions too, and no reads', async () => {
    const client = preparedPglite(pglite);
    const other = preparedPglite(pglite);
    const start = client.writes();
    await client.query('SELECT name FROM items WHERE id > $1', [0]);
    await client.query('  select count(*) FROM items');
    expect(client.writes()).toBe(start);
    await client.query('UPDATE items SET stock = stock WHERE id = $1', [1]);
    expect(client.writes()).toBe(start + 1);
    await client.query('WITH changed AS (UPDATE items SET stock = stock WHERE id = $1 RETURNING id) SELECT id FROM changed', [1]);
    await client.query('CREATE TABLE IF NOT EXISTS counted (body text)');
    await client.query('UPDATE items SET stock = -1 WHERE id = $1', [1]).catch(() => undefined);
    expect(client.writes()).toBe(start + 4);
    // A transaction: its statements, then its end.
    await client.transaction(async (tx) => {
      await tx.query('SELECT 1');
      await tx.query('UPDATE items SET stock = stock WHERE id = $1', [2]);
    });
    expect(client.writes()).toBe(start + 6);
    // Every client of one database shares the count.
    expect(other.writes()).toBe(client.writes());
  });

  it('never interleaves a query with another caller’s transaction', async () => {
    const client = preparedPglite(pglite);
    const read = 'SELECT stock FROM items WHERE name = $1';
    let seenInside: unknown;
    const transaction = client.transaction(async (tx) => {
      await tx.query('UPDATE items SET stock = 50 WHERE name = $1', ['shoe']);
      await new Promise((resolve) => setTimeout(resolve, 30));
      seenInside = (await tx.query(read, ['shoe'])).rows;
      await tx.rollback();
    });
    const outside = await client.query(read, ['shoe']);
    await transaction;
    expect(seenInside).toEqual([{ stock: 50 }]);
    expect(outside.rows).toEqual([{ stock: 3 }]);
  });
});
