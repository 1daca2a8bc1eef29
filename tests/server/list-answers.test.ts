// History lists answered again from memory (server/content/list-answers.ts) only while nothing
// they show has changed: the content version kept by database triggers moves with every change,
// made through the API or straight in the database (another API node, the worker).
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../support/test-app';
import { signedInSeller } from '../support/sellers';
import { uploadViews } from '../support/photos';
import { assets, contentVersions, materials, taskOutputs, tasks } from '../../server/db/schema';
import { ListAnswers, contentVersion } from '../../server/content/list-answers';

let t: TestApp;
let anna: { token: string; id: string };
let boris: { token: string; id: string };
const auth = (token: string, language = 'en') => ({ authorization: `Bearer ${token}`, 'accept-language': language });
const get = (token: string, url: string, language?: string) => t.app.inject({ method: 'GET', url, headers: auth(token, language) });

async function storedAsset(userId: string, category: string) {
  const id = crypto.randomUUID();
  await t.app.database.db.insert(assets).values({
    id,
    userId,
    contentModule: 'PRODUCT_IMAGE',
    category,
    storageKey: `assets/${userId}/${id}.jpg`,
    fileType: 'image/jpeg',
    width: 1200,
    height: 1600,
    byteSize: 10,
  });
  return id;
}

beforeAll(async () => {
  // No jobs run here: this file moves its one task by hand, and a runner that claimed it first
  // would make it in the studio meanwhile, holding the app's closing until it was done.
  t = await createTestApp({ RUN_JOBS: 'false' });
  anna = await signedInSeller(t, 'anna');
  boris = await signedInSeller(t, 'boris');
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('kept list answers', () => {
  it('answers a section again unchanged, and at once differently after any change to it', async () => {
    const db = t.app.database.db;
    // A seller of its own: the totals below count only this test's results, in any order.
    const ada = await signedInSeller(t, 'ada');
    const first = await storedAsset(ada.id, 'PRODUCT');
    await storedAsset(ada.id, 'PRODUCT2');
    const url = '/api/v1/content/assets?material_category=PRODUCT';
    const before = await get(ada.token, url);
    expect(before.headers['content-type']).toMatch(/^application\/json/);
    expect(before.json().meta.total).toBe(2);
    expect((await get(ada.token, url)).body).toBe(before.body);

    // Changed straight in the database, as another node or the worker would.
    await db.update(assets).set({ category: 'POSTER' }).where(eq(assets.id, first));
    expect((await get(ada.token, url)).json().meta.total).toBe(1);
    expect((await get(ada.token, '/api/v1/content/assets?material_category=POSTER')).json().data[0].id).toBe(first);

    // Deleted through the API.
    const removed = await t.app.inject({ method: 'DELETE', url: '/api/v1/content/assets', headers: auth(ada.token), payload: { asset_ids: [first] } });
    expect(removed.statusCode).toBe(200);
    expect((await get(ada.token, '/api/v1/content/assets?material_category=POSTER')).json().data).toEqual([]);
  });

  it('shows a task’s every change: its status, an output’s outcome, a photo turned away', async () => {
    const db = t.app.database.db;
    const photos = await uploadViews(t, boris.token);
    const listedBefore = await get(boris.token, '/api/v1/content/tasks');
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/v1/content/generate',
      headers: { ...auth(boris.token), 'idempotency-key': crypto.randomUUID() },
      payload: { content_config: [{ content_module: 'PRODUCT_IMAGE', category: 'PRODUCT2', custom_params: { shoe_params: {} }, name: 'card', selected: true }], material_ids: photos },
    });
    expect(created.statusCode).toBe(200);
    const id = created.json().data.id as string;
    // A new task is in the list at once, even though the list was answered just before.
    expect(listedBefore.json().data.some((row: { id: string }) => row.id === id)).toBe(false);
    expect((await get(boris.token, '/api/v1/content/tasks')).json().data[0].id).toBe(id);
    // No runner takes its job (RUN_JOBS is off), so only the changes below move it.
    await db.update(tasks).set({ status: 'processing' }).where(eq(tasks.id, id));
    await db.execute(sql`DELETE FROM jobs WHERE task_id = ${id}`);
    const task = async () => (await get(boris.token, '/api/v1/content/tasks')).json().data.find((row: { id: string }) => row.id === id);

    expect(await task()).toMatchObject({ status: 'processing' });
    await db.update(taskOutputs).set({ status: 'failed', error: 'GENERATION_FAILED' }).where(eq(taskOutputs.taskId, id));
    expect((await task()).outputs[0]).toMatchObject({ status: 'failed', error: expect.any(String) });
    await db.update(materials).set({ status: 'rejected' }).where(eq(materials.id, photos[0]!));
    expect((await task()).materials.find((m: { id: string }) => m.id === photos[0]).file_url).toBeNull();
    await db.update(tasks).set({ status: 'failed', failureType: 'system_error' }).where(eq(tasks.id, id));
    expect(await task()).toMatchObject({ status: 'failed', failure_type: 'system_error' });
    // Each language gets its own answer.
    const ru = (await get(boris.token, '/api/v1/content/tasks', 'ru')).json().data.find((row: { id: string }) => row.id === id);
    expect(ru.outputs[0].error).not.toBe((await task()).outputs[0].error);
  }, 60_000);

  it('answers photos, the history and the balance again unchanged, and differently after a new photo or entry', async () => {
    const db = t.app.database.db;
    const cleo = await signedInSeller(t, 'cleokept');
    const routes = ['/api/v1/materials/list', '/api/v1/tokens/history', '/api/v1/tokens/balance'];
    const answers = async () => Promise.all(routes.map(async (route) => (await get(cleo.token, route)).body));
    const [photos, history, balance] = await answers();
    expect(await answers()).toEqual([photos, history, balance]);

    // A photo registered through the API is in the list at once.
    const registered = await t.app.inject({
      method: 'POST',
      url: '/api/v1/materials/upload',
      headers: { ...auth(cleo.token), 'idempotency-key': 'kept-photo-1' },
      payload: { file_name: 'front.jpg', file_type: 'image/jpeg', file_size: 1000, description: JSON.stringify({ view: 'front' }) },
    });
    const listed = JSON.parse((await answers())[0]!);
    expect(listed.data[0].id).toBe(registered.json().data.material_id);
    expect(listed.meta.total).toBe(JSON.parse(photos!).meta.total + 1);

    // A credit made straight in the database (a notification on another node) is in the history and the balance at once.
    await t.app.ledger.creditTopUp(cleo.id, 'kept-credit', 25);
    const [, historyAfter, balanceAfter] = await answers();
    expect(JSON.parse(historyAfter!).data[0]).toMatchObject({ type: 'top_up', amount: 25 });
    expect(JSON.parse(balanceAfter!).data.total_tokens).toBe(JSON.parse(balance!).data.total_tokens + 25);
    // And a lapse: tokens of a lot whose time has come, with their entry.
    await db.execute(sql`UPDATE token_lots SET expires_at = now() - interval '1 minute' WHERE user_id = ${cleo.id} AND remaining > 0`);
    await t.app.ledger.expireFor(cleo.id, new Date());
    expect(JSON.parse((await answers())[2]!).data.total_tokens).toBe(0);
  });

  it('moves one seller’s version once per statement, and no one else’s', async () => {
    const db = t.app.database.db;
    const annaBefore = await contentVersion(db, anna.id);
    const borisBefore = await contentVersion(db, boris.id);
    await db.insert(assets).values(
      ['PRODUCT', 'POSTER', 'POSTER'].map((category) => ({
        userId: anna.id,
        contentModule: 'PRODUCT_IMAGE',
        category,
        storageKey: `assets/${anna.id}/${crypto.randomUUID()}.jpg`,
        fileType: 'image/jpeg',
        width: 1,
        height: 1,
        byteSize: 1,
      })),
    );
    expect(await contentVersion(db, anna.id)).toBe(annaBefore + 1);
    expect(await contentVersion(db, boris.id)).toBe(borisBefore);
    // Another seller's list is never another's answer.
    expect((await get(boris.token, '/api/v1/content/assets?material_category=POSTER')).json().data).toEqual([]);
    expect(await db.select().from(contentVersions).where(eq(contentVersions.userId, anna.id))).toHaveLength(1);
  });
});

describe('ListAnswers', () => {
  it('makes an answer once for the requests that miss it at once', async () => {
    const answers = new ListAnswers();
    let made = 0;
    const build = async () => {
      made += 1;
      await new Promise((resolve) => setTimeout(resolve, 20));
      return `answer ${made}`;
    };
    const all = await Promise.all(Array.from({ length: 5 }, () => answers.make('a', 1, build)));
    expect(all).toEqual(Array(5).fill('answer 1'));
    expect(answers.get('a', 1)).toBe('answer 1');
    // Another version is made again.
    expect(await answers.make('a', 2, build)).toBe('answer 2');
  });

  it('gives an answer back only at its version and while fresh', () => {
    let now = 0;
    const answers = new ListAnswers(1000, 10, () => now);
    answers.set('a', 3, '{"a":1}');
    expect(answers.get('a', 3)).toBe('{"a":1}');
    expect(answers.get('a', 4)).toBeNull();
    // A stale version is dropped for good.
    expect(answers.get('a', 3)).toBeNull();
    answers.set('a', 4, 'x');
    now = 1001;
    expect(answers.get('a', 4)).toBeNull();
  });

  it('drops the least recently used past its size', () => {
    const answers = new ListAnswers(60_000, 2);
    answers.set('a', 1, 'A');
    answers.set('b', 1, 'B');
    expect(answers.get('a', 1)).toBe('A');
    answers.set('c', 1, 'C');
    expect(answers.get('b', 1)).toBeNull();
    expect(answers.get('a', 1)).toBe('A');
    expect(answers.size).toBe(2);
  });
});
