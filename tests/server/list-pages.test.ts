// A seller's long lists are paged from their counts by day (server/db/pages.ts, migration 0015):
// any page of any list is the page the rows make (newest first, ties by id) with the same total,
// whatever the page number; and the counts stay exact through creates, deletes, the retention
// sweep, a row moved to another day, a seller's deletion, a seller counted after the fact, and
// changes made while that seller is being counted (on PostgreSQL, from other connections).
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, count, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { assets, ledger, materials, tasks, users } from '../../server/db/schema';
import { countedSellers, listCounts } from '../../server/db/schema-lists';
import { countSellers, listCountsOff, pageOf, type ListOf } from '../../server/db/pages';
import { tasksList } from '../../server/content/tasks';
import { assetsList } from '../../server/content/assets';
import { materialsList } from '../../server/materials/materials';
import { ledgerList } from '../../server/ledger/ledger';
import type { MaterialSection } from '../../contract/assets';
import { buildApp } from '../../server/app';
import { loadConfig } from '../../server/config/env';
import { borrowed, createTestApp, type TestApp } from '../support/test-app';
import { signedInSeller } from '../support/sellers';

const DAY_MS = 24 * 60 * 60_000;
const SECTIONS_USED: MaterialSection[] = ['PRODUCT', 'POSTER', 'HALF_BODY'];
const CATEGORIES_USED = ['PRODUCT', 'PRODUCT2', 'POSTER', 'HALF_BODY'];

let t: TestApp;
const auth = (token: string) => ({ authorization: `Bearer ${token}`, 'accept-language': 'en' });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * `n` instants over six days before `end`, newest last: some at midnight UTC exactly, some a
 * millisecond before it, and every fifth the same as the one before (rows only their id orders).
 */
function instants(n: number, end: number): Date[] {
  const midnight = Math.floor(end / DAY_MS) * DAY_MS;
  return Array.from({ length: n }, (_, i) => {
    if (i % 5 === 4) i -= 1;
    const at = midnight - 6 * DAY_MS + Math.floor((i * 6 * DAY_MS) / n);
    if (i % 7 === 0) return new Date(Math.floor(at / DAY_MS) * DAY_MS);
    if (i % 7 === 1) return new Date(Math.ceil(at / DAY_MS) * DAY_MS - 1);
    return new Date(at);
  });
}

/** Rows of every counted list for the seller, written straight into the database. */
async function rowsFor(userId: string, n: number, end = Date.now()) {
  const db = t.app.database.db;
  const times = instants(n, end);
  const key = () => crypto.randomUUID();
  await db.insert(tasks).values(
    times.map((createdAt) => ({ userId, idempotencyKey: key(), status: 'completed' as const, contentConfig: [], materialIds: [], cost: 1, locale: 'en', createdAt })),
  );
  await db.insert(materials).values(
    times.map((createdAt) => ({ userId, idempotencyKey: key(), fileName: 'a.jpg', fileType: 'image/jpeg', fileSize: 10, description: '{}', storageKey: `materials/${userId}/${key()}.jpg`, createdAt })),
  );
  await db.insert(assets).values(
    times.map((createdAt, i) => ({
      userId,
      contentModule: 'PRODUCT_IMAGE',
      category: CATEGORIES_USED[i % CATEGORIES_USED.length]!,
      storageKey: `assets/${userId}/${key()}.jpg`,
      fileType: 'image/jpeg',
      width: 1,
      height: 1,
      byteSize: 1,
      createdAt,
    })),
  );
  await db.insert(ledger).values(times.map((createdAt) => ({ userId, type: 'top_up' as const, amount: 1, reference: `test:${key()}`, createdAt })));
}

interface Listed {
  name: string;
  table: PgTable;
  list: ListOf;
  /** The rows of the list, as the query before counts selected them. */
  where: SQL;
}

function listsOf(userId: string): Listed[] {
  return [
    { name: 'tasks', table: tasks, list: tasksList(userId), where: eq(tasks.userId, userId) },
    { name: 'materials', table: materials, list: materialsList(userId), where: eq(materials.userId, userId) },
    { name: 'ledger', table: ledger, list: ledgerList(userId), where: eq(ledger.userId, userId) },
    { name: 'assets', table: assets, list: assetsList(userId, undefined), where: eq(assets.userId, userId) },
    ...SECTIONS_USED.map((section) => ({
      name: `assets:${section}`,
      table: assets,
      list: assetsList(userId, section),
      where: and(eq(assets.userId, userId), eq(assets.section, section))!,
    })),
  ];
}

/** The page as OFFSET over the ordered rows gives it, and count(*) the total. */
async function offsetPage({ table, where }: Listed, page: number, pageSize: number) {
  const db = t.app.database.db;
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(table)
      .where(where)
      .orderBy(desc(sql`created_at`), desc(sql`id`))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db.select({ n: count() }).from(table).where(where),
  ]);
  return { rows, total: total!.n };
}

/** Every page of every list of the seller (and one past the last) at each size, against OFFSET. */
async function expectSamePages(userId: string, sizes = [1, 4, 10]) {
  for (const listed of listsOf(userId)) {
    for (const size of sizes) {
      const { total } = await offsetPage(listed, 1, size);
      for (let page = 1; page <= Math.ceil(total / size) + 1; page += 1) {
        const expected = await offsetPage(listed, page, size);
        expect(await pageOf(t.app.database.db, listed.table, listed.list, page, size), `${listed.name}, page ${page} of ${size}`).toEqual(expected);
      }
    }
  }
}

async function countedNow(userId: string) {
  const [row] = await t.app.database.db.select({ counted: countedSellers.counted }).from(countedSellers).where(eq(countedSellers.userId, userId));
  return row?.counted;
}

/** The seller as a database from before the counts has them: not counted, nothing kept. */
async function uncount(userId: string) {
  const db = t.app.database.db;
  await db.update(countedSellers).set({ counted: false }).where(eq(countedSellers.userId, userId));
  await db.delete(listCounts).where(eq(listCounts.userId, userId));
}

const photoRow = (userId: string) => ({
  userId,
  idempotencyKey: crypto.randomUUID(),
  fileName: 'b.jpg',
  fileType: 'image/jpeg',
  fileSize: 10,
  description: '{}',
  storageKey: `materials/${userId}/${crypto.randomUUID()}.jpg`,
});

beforeAll(async () => {
  t = await createTestApp({ RUN_JOBS: 'false', MATERIAL_RETENTION_DAYS: '7' });
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('a page of a long list', () => {
  it('is the page OFFSET gives, at every page number and size, with the same total', async () => {
    const ana = await signedInSeller(t, 'anapages');
    const other = await signedInSeller(t, 'otherpages');
    await rowsFor(ana.id, 37);
    await rowsFor(other.id, 23);
    expect(await countedNow(ana.id)).toBe(true);
    await expectSamePages(ana.id);
    await expectSamePages(other.id, [3]);
  });

  it('answers the routes with the same rows, total and total_pages', async () => {
    const bea = await signedInSeller(t, 'beapages');
    await rowsFor(bea.id, 29);
    const routes: [string, Listed, (body: { data: { id: string }[] }) => string[]][] = [
      ['/api/v1/content/tasks', listsOf(bea.id)[0]!, (body) => body.data.map((task) => task.id)],
      ['/api/v1/materials/list', listsOf(bea.id)[1]!, (body) => body.data.map((photo) => photo.id)],
      ['/api/v1/tokens/history', listsOf(bea.id)[2]!, (body) => body.data.map((entry) => entry.id)],
      ['/api/v1/content/assets', listsOf(bea.id)[3]!, (body) => body.data.map((asset) => asset.id)],
      ['/api/v1/content/assets?material_category=PRODUCT', listsOf(bea.id)[4]!, (body) => body.data.map((asset) => asset.id)],
    ];
    for (const [route, listed, ids] of routes) {
      for (const page of [1, 3, 8]) {
        const answer = await t.app.inject({ method: 'GET', url: `${route}${route.includes('?') ? '&' : '?'}page=${page}&page_size=4`, headers: auth(bea.token) });
        expect(answer.statusCode, answer.body).toBe(200);
        const expected = await offsetPage(listed, page, 4);
        expect(answer.json().meta, `${route} page ${page}`).toEqual({ total: expected.total, total_pages: Math.ceil(expected.total / 4), page });
        expect(ids(answer.json()), `${route} page ${page}`).toEqual(expected.rows.map((row) => String((row as { id: string | number }).id)));
      }
    }
  });
});

describe('the counts by day', () => {
  it('stay exact through creates, deletes, the sweep, a moved row and a seller deleted', async () => {
    const db = t.app.database.db;
    const cleo = await signedInSeller(t, 'cleopages');
    const gone = await signedInSeller(t, 'gonepages');
    await rowsFor(cleo.id, 20, Date.now() - 30 * DAY_MS);
    await rowsFor(gone.id, 10);
    expect(await listCountsOff(db)).toBe(0);

    // A photo registered and deleted through the API.
    const registered = await t.app.inject({
      method: 'POST',
      url: '/api/v1/materials/upload',
      headers: { ...auth(cleo.token), 'idempotency-key': 'counts-photo-1' },
      payload: { file_name: 'front.jpg', file_type: 'image/jpeg', file_size: 1000, description: JSON.stringify({ view: 'front' }) },
    });
    expect(registered.statusCode, registered.body).toBe(200);
    expect(await listCountsOff(db)).toBe(0);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/v1/materials/${registered.json().data.material_id}`, headers: auth(cleo.token) })).statusCode).toBe(200);
    expect(await listCountsOff(db)).toBe(0);

    // Results and a finished task deleted through the API.
    const some = await db.select({ id: assets.id }).from(assets).where(eq(assets.userId, cleo.id)).limit(3);
    const deleted = await t.app.inject({ method: 'DELETE', url: '/api/v1/content/assets', headers: auth(cleo.token), payload: { asset_ids: some.map((row) => row.id) } });
    expect(deleted.statusCode, deleted.body).toBe(200);
    const [task] = await db.select({ id: tasks.id }).from(tasks).where(eq(tasks.userId, cleo.id)).limit(1);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/v1/content/tasks/${task!.id}`, headers: auth(cleo.token) })).statusCode).toBe(200);
    expect(await listCountsOff(db)).toBe(0);

    // The retention sweep deletes every photo no task uses, older than seven days.
    const photosBefore = (await pageOf(db, materials, materialsList(cleo.id), 1, 1)).total;
    expect(await t.app.sweepMaterials()).toBeGreaterThanOrEqual(photosBefore);
    expect((await pageOf(db, materials, materialsList(cleo.id), 1, 1)).total).toBe(0);
    expect(await listCountsOff(db)).toBe(0);

    // Rows given another day, section or seller move with it.
    await db.update(tasks).set({ createdAt: sql`created_at - interval '3 days'` }).where(eq(tasks.userId, cleo.id));
    await db.update(assets).set({ category: 'POSTER' }).where(and(eq(assets.userId, cleo.id), eq(assets.category, 'PRODUCT')));
    await db.update(ledger).set({ userId: gone.id }).where(and(eq(ledger.userId, cleo.id), eq(ledger.type, 'top_up')));
    expect(await listCountsOff(db)).toBe(0);
    await expectSamePages(cleo.id, [4]);

    // A seller deleted takes their counts with them.
    await db.delete(users).where(eq(users.id, gone.id));
    expect(await db.select().from(listCounts).where(eq(listCounts.userId, gone.id))).toEqual([]);
    expect(await listCountsOff(db)).toBe(0);
  });

  it('are made for a seller from before them, who is answered the same meanwhile', async () => {
    const db = t.app.database.db;
    const dora = await signedInSeller(t, 'dorapages');
    await rowsFor(dora.id, 25);
    await uncount(dora.id);
    await expectSamePages(dora.id, [4]);
    // Changes meanwhile are left to the count.
    await db.insert(materials).values(photoRow(dora.id));
    await db.delete(tasks).where(eq(tasks.id, (await db.select({ id: tasks.id }).from(tasks).where(eq(tasks.userId, dora.id)).limit(1))[0]!.id));
    expect(await db.select().from(listCounts).where(eq(listCounts.userId, dora.id))).toEqual([]);
    await expectSamePages(dora.id, [4]);

    expect(await countSellers(db)).toBe(1);
    expect(await countedNow(dora.id)).toBe(true);
    expect(await listCountsOff(db)).toBe(0);
    await expectSamePages(dora.id, [4]);
    expect(await countSellers(db)).toBe(0);
  });

  it('are made in the background once a server starts, for every seller from before them', async () => {
    const db = t.app.database.db;
    const gus = await signedInSeller(t, 'guspages');
    await rowsFor(gus.id, 12);
    await uncount(gus.id);
    // Another node starting on the same database.
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'solestudio-test-'));
    const config = loadConfig({ DATA_DIR: dataDir, STATIC_DIR: path.join(dataDir, 'no-web-build'), RUN_JOBS: 'false', PAYMENTS_SANDBOX: 'true' });
    const node = await buildApp({ config, database: borrowed(t.app.database), logger: false });
    try {
      await node.ready();
      for (let waited = 0; !(await countedNow(gus.id)) && waited < 10_000; waited += 50) await sleep(50);
      expect(await countedNow(gus.id)).toBe(true);
      expect(await listCountsOff(db)).toBe(0);
    } finally {
      await node.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('count a change made while its seller is being counted once, whichever holds the seller first', async () => {
    const db = t.app.database.db;
    const eve = await signedInSeller(t, 'evepages');
    await rowsFor(eve.id, 15);

    // A change holds the seller (its transaction open) while the count comes: the count waits for it.
    await uncount(eve.id);
    const change = db.transaction(async (tx) => {
      await tx.insert(materials).values(photoRow(eve.id));
      await sleep(400);
    });
    await sleep(50);
    const counted = countSellers(db);
    await Promise.all([change, counted]);
    expect(await countedNow(eve.id)).toBe(true);
    expect(await listCountsOff(db)).toBe(0);

    // The count holds the seller (its transaction open) while a change comes: the change waits, then counts itself.
    await uncount(eve.id);
    const counting = db.transaction(async (tx) => {
      await tx.execute(sql`SELECT count_seller_lists(${eve.id})`);
      await sleep(400);
    });
    await sleep(50);
    const inserted = db.insert(materials).values(photoRow(eve.id));
    const removed = db.delete(assets).where(eq(assets.id, (await db.select({ id: assets.id }).from(assets).where(eq(assets.userId, eve.id)).limit(1))[0]!.id));
    await Promise.all([counting, inserted, removed]);
    expect(await countedNow(eve.id)).toBe(true);
    expect(await listCountsOff(db)).toBe(0);
    await expectSamePages(eve.id, [4]);
  });

  it('keep movements of one seller at once from waiting on each other in a circle', async () => {
    const db = t.app.database.db;
    const fay = await signedInSeller(t, 'faypages');
    // Credits (added, then the wallet moved) and take-backs (the wallet held, then added), at once.
    const rounds = Array.from({ length: 20 }, (_, i) =>
      Promise.all([
        t.app.ledger.creditTopUp(fay.id, `round-${i}`, 5),
        t.app.ledger.takeBack(fay.id, { type: 'top_up', reference: `back:${i}`, reverses: { type: 'sign_up_bonus', reference: fay.id } }, 1),
      ]),
    );
    await Promise.all(rounds);
    expect((await pageOf(db, ledger, ledgerList(fay.id), 1, 100)).total).toBe(41);
    expect(await listCountsOff(db)).toBe(0);
  });
});
