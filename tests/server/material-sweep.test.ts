// Photos no task uses: the seller may delete one, but never one a task uses or an edit places as
// its logo (the server answers 409 and keeps it), and the sweep deletes them with their files once
// older than MATERIAL_RETENTION_DAYS, never one a task or an edit uses. The sweep is run with an
// injected clock.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { materials } from '../../server/db/schema';
import { ConfigError, loadConfig } from '../../server/config/env';
import { shoePhoto } from '../fixtures/shoes';
import { createTestApp, type TestApp } from '../support/test-app';
import { signedInSeller } from '../support/sellers';
import { uploadPhoto, uploadViews } from '../support/photos';
import { createAsset, editWithLogo, logoPng, uploadEditFile } from '../support/edits';

const DAY_MS = 24 * 60 * 60_000;

let t: TestApp;
let anna: { token: string; id: string };
let jpeg: Buffer;
/** The five photos of a task Anna has submitted. */
let used: string[];

const auth = (token: string) => ({ authorization: `Bearer ${token}`, 'accept-language': 'en' });
const fileOf = (id: string) => path.join(t.dataDir, 'files', 'materials', anna.id, `${id}.jpg`);

/** A seller's edited picture with a logo, from a source result of theirs; what it is made of. */
async function editWithItsLogo(token: string) {
  const picture = await uploadEditFile(t, token, jpeg, 'image edit');
  const source = (await createAsset(t, token, picture.file_key)).json().data[0] as { id: string };
  const logo = await uploadEditFile(t, token, await logoPng(), 'image edit (logo)');
  const edited = await createAsset(t, token, picture.file_key, editWithLogo(source.id, logo.file_key));
  expect(edited.statusCode, edited.body).toBe(200);
  return { picture, logo, edited: edited.json().data[0] as { id: string } };
}

async function onServer(id: string) {
  const [row] = await t.app.database.db.select({ id: materials.id }).from(materials).where(eq(materials.id, id));
  return row !== undefined;
}

beforeAll(async () => {
  // No job runner: the task stays pending, and no sweep runs on its own.
  t = await createTestApp({ RUN_JOBS: 'false', MATERIAL_RETENTION_DAYS: '7' });
  anna = await signedInSeller(t, 'anna');
  jpeg = (await shoePhoto()).jpeg;
  used = await uploadViews(t, anna.token);
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/v1/content/generate',
    headers: { ...auth(anna.token), 'idempotency-key': 'sweep-task' },
    payload: {
      content_config: [{ content_module: 'PRODUCT_IMAGE', category: 'PRODUCT2', custom_params: { shoe_params: {} }, name: 'PRODUCT2', selected: true }],
      material_ids: used,
    },
  });
  expect(created.statusCode, created.body).toBe(200);
});
afterAll(() => t?.close());

describe('deleting a photo', () => {
  it('refuses a photo a task uses with 409 in the seller’s language, and keeps it with its file', async () => {
    const res = await t.app.inject({ method: 'DELETE', url: `/api/v1/materials/${used[0]}`, headers: auth(anna.token) });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 409, message: 'A task uses this photo: it is kept with the task.' });
    expect(await onServer(used[0]!)).toBe(true);
    expect(fs.existsSync(fileOf(used[0]!))).toBe(true);
  });
});

describe('deleting an edit’s logo', () => {
  it('refuses it with 409 while an edit places it, and deletes it once that edit is gone', async () => {
    const lara = await signedInSeller(t, 'laralogo');
    const { picture, logo, edited } = await editWithItsLogo(lara.token);
    const remove = (id: string) => t.app.inject({ method: 'DELETE', url: `/api/v1/materials/${id}`, headers: auth(lara.token) });
    // The edited picture was copied under the results: its upload is kept by nothing.
    expect((await remove(picture.material_id)).statusCode).toBe(200);

    const refused = await remove(logo.material_id);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 409, error: 'MATERIAL_IN_USE', message: 'An edited picture uses this image as its logo: it is kept with the edit.' });
    expect(await onServer(logo.material_id)).toBe(true);
    expect(await t.app.storage.get(logo.file_key, 10_000_000)).not.toBeNull();

    await t.app.inject({ method: 'DELETE', url: '/api/v1/content/assets', headers: auth(lara.token), payload: { asset_ids: [edited.id] } });
    expect((await remove(logo.material_id)).statusCode).toBe(200);
    expect(await onServer(logo.material_id)).toBe(false);
    expect(await t.app.storage.get(logo.file_key, 10_000_000)).toBeNull();
  });
});

describe('the sweep of photos no task uses', () => {
  it('deletes one older than the retention with its file, keeps a younger one and every one a task uses', async () => {
    const unused = await uploadPhoto(t, anna.token, jpeg, 'front');
    expect(fs.existsSync(fileOf(unused))).toBe(true);

    // Six days on: younger than the retention of seven.
    expect(await t.app.sweepMaterials(new Date(Date.now() + 6 * DAY_MS))).toBe(0);
    expect(await onServer(unused)).toBe(true);

    // Eight days on: past it.
    expect(await t.app.sweepMaterials(new Date(Date.now() + 8 * DAY_MS))).toBe(1);
    expect(await onServer(unused)).toBe(false);
    expect(fs.existsSync(fileOf(unused))).toBe(false);
    for (const id of used) {
      expect(await onServer(id)).toBe(true);
      expect(fs.existsSync(fileOf(id))).toBe(true);
    }
  });

  it('keeps the logo an edit places, and deletes the edit’s picture once copied and a photo nothing uses', async () => {
    const sveta = await signedInSeller(t, 'svetasweep');
    const { picture, logo, edited } = await editWithItsLogo(sveta.token);
    const unused = await uploadPhoto(t, sveta.token, jpeg, 'front');

    await t.app.sweepMaterials(new Date(Date.now() + 8 * DAY_MS));
    expect(await onServer(unused)).toBe(false);
    expect(await onServer(picture.material_id)).toBe(false);
    expect(await onServer(logo.material_id)).toBe(true);
    expect(await t.app.storage.get(logo.file_key, 10_000_000)).not.toBeNull();
    // The edit still reopens with its logo.
    const page = (await t.app.inject({ method: 'GET', url: '/api/v1/content/assets?material_category=PRODUCT', headers: auth(sveta.token) })).json();
    const reopened = page.data.find((a: { id: string }) => a.id === edited.id);
    expect(Object.keys(reopened.edit_files.logos)).toEqual([logo.file_key]);

    // With the edit gone, nothing keeps the logo.
    await t.app.inject({ method: 'DELETE', url: '/api/v1/content/assets', headers: auth(sveta.token), payload: { asset_ids: [edited.id] } });
    await t.app.sweepMaterials(new Date(Date.now() + 8 * DAY_MS));
    expect(await onServer(logo.material_id)).toBe(false);
    expect(await t.app.storage.get(logo.file_key, 10_000_000)).toBeNull();
  });

  it('keeps seven days by default, and refuses a retention that is not a whole number of days', () => {
    expect(loadConfig({}).materialRetentionDays).toBe(7);
    expect(loadConfig({ MATERIAL_RETENTION_DAYS: '30' }).materialRetentionDays).toBe(30);
    for (const bad of ['0', '1.5', 'week']) {
      expect(() => loadConfig({ MATERIAL_RETENTION_DAYS: bad })).toThrow(ConfigError);
    }
  });
});
