// The image editor against the real server, on a phone (touch through CDP) and on a desktop
// (mouse and keyboard): a product shot from My materials gets a text in one of its own colours, a
// logo and a 3:4 crop, and is saved as a new, edited result at full resolution with the text's
// pixels where they were placed; reopened, its layers come back and change; saved offline, it
// waits in the outbox and goes up once when the network returns.
import crypto from 'node:crypto';
import type { APIRequestContext, CDPSession, Locator, Page } from '@playwright/test';
import sharp from 'sharp';
import { createVerifiedSeller, signIn } from './accounts';
import { apiToken, entry, finishedTask, submitTask, uploadViews } from './content';
import { activePage, expect, test, toastShown } from './support';

test.describe.configure({ timeout: 240_000 });

interface EditedAsset {
  id: string;
  file_url: string;
  width: number;
  height: number;
  edit_meta: {
    source: { asset_id: string; width: number; height: number };
    crop: { ratio: string | null; x: number; y: number; width: number; height: number };
    layers: ({ type: 'text'; text: string; color: string; size: number; x: number; y: number } | { type: 'logo'; x: number; y: number; scale: number; width: number; opacity: number })[];
  } | null;
}

const auth = (token: string) => ({ authorization: `Bearer ${token}` });

async function productAssets(request: APIRequestContext, token: string): Promise<EditedAsset[]> {
  const res = await request.get('/api/v1/content/assets?material_category=PRODUCT&page=1&page_size=50', { headers: auth(token) });
  expect(res.status()).toBe(200);
  return (await res.json()).data;
}

/** The pixels of a stored result. */
async function pixelsOf(request: APIRequestContext, url: string) {
  const res = await request.get(url);
  expect(res.status()).toBe(200);
  const { data, info } = await sharp(await res.body()).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const at = (x: number, y: number) => {
    const i = (Math.round(y) * info.width + Math.round(x)) * 3;
    return [data[i]!, data[i + 1]!, data[i + 2]!] as const;
  };
  /** How many pixels of a box (fractions of the picture) are within `tolerance` of a colour. */
  const near = (colour: string, box: { x: number; y: number; w: number; h: number }, tolerance = 60) => {
    const want = [1, 3, 5].map((i) => parseInt(colour.slice(i, i + 2), 16));
    let count = 0;
    for (let y = (box.y - box.h / 2) * info.height; y < (box.y + box.h / 2) * info.height; y += 1) {
      for (let x = (box.x - box.w / 2) * info.width; x < (box.x + box.w / 2) * info.width; x += 1) {
        const got = at(Math.min(info.width - 1, Math.max(0, x)), Math.min(info.height - 1, Math.max(0, y)));
        if (Math.hypot(got[0] - want[0]!, got[1] - want[1]!, got[2] - want[2]!) <= tolerance) count += 1;
      }
    }
    return count;
  };
  return { width: info.width, height: info.height, at, near };
}

/** The states of the device's outbox jobs of a kind, read from its IndexedDB store. */
function outboxStates(page: Page, kind: string): Promise<string[]> {
  return page.evaluate(
    (wanted) =>
      new Promise<string[]>((resolve, reject) => {
        const opening = indexedDB.open('solestudio');
        opening.onerror = () => reject(opening.error);
        opening.onsuccess = () => {
          const database = opening.result;
          const reading = database.transaction('outbox', 'readonly').objectStore('outbox').getAll();
          reading.onerror = () => reject(reading.error);
          reading.onsuccess = () => {
            database.close();
            resolve((reading.result as { kind?: string; state: string }[]).filter((job) => job.kind === wanted).map((job) => job.state));
          };
        };
      }),
    kind,
  );
}

/** A red square logo with a transparent margin. */
async function logoPng(): Promise<Buffer> {
  const size = 240;
  const pixels = Buffer.alloc(size * size * 4);
  for (let y = 0; y < size; y += 1) {
    for (let x = 0; x < size; x += 1) {
      const inside = x >= 30 && x < size - 30 && y >= 30 && y < size - 30;
      pixels.set(inside ? [224, 16, 16, 255] : [0, 0, 0, 0], (y * size + x) * 4);
    }
  }
  return sharp(pixels, { raw: { width: size, height: size, channels: 4 } }).png().toBuffer();
}

/** A finished product shot in the seller's My materials, made through the real studio. */
async function sellerWithProductShot(request: APIRequestContext) {
  const seller = await createVerifiedSeller(request, 'edit');
  const token = await apiToken(request, seller);
  const photos = await uploadViews(request, token, { seed: 21 });
  const task = await submitTask(request, token, photos, [entry('PRODUCT')]);
  expect((await finishedTask(request, token, task, 120_000)).status).toBe('completed');
  const made = await productAssets(request, token);
  expect(made.length).toBeGreaterThan(0);
  // The newest is first in the section: the one the seller picks.
  return { seller, token, shot: made[0]!, made: made.length };
}

/** A point on the canvas by fractions, the canvas brought into view first. */
async function canvasPoint(canvas: Locator, fx: number, fy: number) {
  await canvas.scrollIntoViewIfNeeded();
  const box = (await canvas.boundingBox())!;
  return { x: box.x + box.width * fx, y: box.y + box.height * fy };
}

type Point = { x: number; y: number };

/** One or two fingers moving together from `from` to `to` in steps (CDP touch events). */
async function touchMove(cdp: CDPSession, from: Point[], to: Point[], steps = 12) {
  const points = (t: number) => from.map((start, i) => ({ x: start.x + (to[i]!.x - start.x) * t, y: start.y + (to[i]!.y - start.y) * t, id: i }));
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: points(0) });
  for (let step = 1; step <= steps; step += 1) {
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: points(step / steps) });
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
}

async function openEditorFromMaterials(page: Page, tileIndex = 0) {
  const product = activePage(page).getByTestId('section-PRODUCT');
  await expect(product.getByTestId('material-tile').nth(tileIndex)).toBeVisible({ timeout: 30_000 });
  await product.getByTestId('material-tile').nth(tileIndex).getByRole('button', { name: /^Выбрать/ }).click();
  await product.getByTestId('action-edit').click();
  await expect(page).toHaveURL(/\/image\/edit\?asset_id=/);
  const canvas = activePage(page).getByTestId('editor-canvas');
  await expect(canvas.locator('canvas').first()).toBeVisible({ timeout: 30_000 });
  return canvas;
}

test('a product shot gets a text, a logo and a 3:4 crop, is saved at full size, reopens with its layers and saves offline once', async ({ page, context, request, isMobile, signedInConsole }) => {
  const { seller, token, shot, made } = await sellerWithProductShot(request);
  const original = await pixelsOf(request, shot.file_url);

  await page.goto('/');
  await signIn(page, seller.username, seller.password, { remember: true, firstTime: true });
  await page.goto('/material');

  // Nothing selected: the editor says so.
  await activePage(page).getByTestId('section-PRODUCT').getByTestId('action-edit').click();
  await expect(page.getByTestId('toast').last()).toHaveText('Выберите изображение, чтобы изменить его.');

  const canvas = await openEditorFromMaterials(page);
  const editor = activePage(page).getByTestId('editor');

  // A text, typed in place, at size 48.
  await editor.getByTestId('add-text').click();
  const typing = canvas.locator('textarea');
  await expect(typing).toBeFocused();
  await typing.fill('SALE −30%');
  await typing.press('Escape');
  await editor.getByTestId('text-size').fill('48');

  // Moved up by a finger (the centre line holds it), or by the mouse on a desktop.
  const start = await canvasPoint(canvas, 0.5, 0.5);
  const end = await canvasPoint(canvas, 0.5, 0.28);
  if (isMobile) {
    await touchMove(await context.newCDPSession(page), [start], [end]);
  } else {
    await page.mouse.move(start.x, start.y);
    await page.mouse.down();
    await page.mouse.move(end.x, end.y, { steps: 12 });
    await page.mouse.up();
  }

  // In one of the picture's own colours: the one that stands out most where the text is.
  await editor.getByTestId('tool-colour').click();
  const behind = original.at(original.width / 2, original.height * 0.28);
  const swatches = await editor.getByTestId('swatch').evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-colour')!));
  expect(swatches.length).toBeGreaterThanOrEqual(3);
  const distance = (hex: string) => Math.hypot(...[1, 3, 5].map((i, k) => parseInt(hex.slice(i, i + 2), 16) - behind[k]!));
  const colour = [...swatches].sort((a, b) => distance(b) - distance(a))[0]!;
  await editor.locator(`[data-testid="swatch"][data-colour="${colour}"]`).click();
  await expect(editor.getByTestId('contrast')).toBeVisible();

  // A logo in the corner, made larger by a pinch (or the keyboard on a desktop).
  await editor.getByTestId('tool-logo').click();
  await editor.getByTestId('logo-input').setInputFiles({ name: 'brand.png', mimeType: 'image/png', buffer: await logoPng() });
  await expect(editor.getByRole('button', { name: 'Логотип', exact: true })).toBeVisible();
  if (isMobile) {
    const centre = await canvasPoint(canvas, 0.8, 0.2);
    await touchMove(
      await context.newCDPSession(page),
      [{ x: centre.x - 30, y: centre.y }, { x: centre.x + 30, y: centre.y }],
      [{ x: centre.x - 45, y: centre.y }, { x: centre.x + 45, y: centre.y }],
    );
  } else {
    await canvas.focus();
    for (let i = 0; i < 8; i += 1) await canvas.press('+');
  }

  // A 3:4 crop for Wildberries and Ozon, with its size shown.
  await editor.getByTestId('tool-crop').click();
  await editor.getByTestId('choice-3:4').click();
  await expect(editor.getByTestId('crop-size')).toContainText(`${Math.round(shot.height * 0.75)} × ${shot.height}`);

  // An SVG logo is refused in the seller's language.
  await editor.getByTestId('tool-logo').click();
  await editor.getByTestId('logo-input').setInputFiles({ name: 'brand.svg', mimeType: 'image/svg+xml', buffer: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>') });
  await expect(page.getByTestId('toast').last()).toHaveText('SVG не принимается: сохраните логотип как PNG.');

  await editor.getByTestId('save').click();
  await toastShown(page, 'Сохранено в «Мои материалы».', 60_000);
  await expect(page).toHaveURL(/\/material$/);

  // The new result: beside the original, marked as edited, at the crop's full resolution.
  let assets = await productAssets(request, token);
  expect(assets).toHaveLength(made + 1);
  const edited = assets.find((asset) => asset.edit_meta !== null)!;
  expect(edited.edit_meta?.source.asset_id).toBe(shot.id);
  expect(edited.edit_meta?.crop.ratio).toBe('3:4');
  expect([edited.width, edited.height]).toEqual([edited.edit_meta!.crop.width, edited.edit_meta!.crop.height]);
  expect(edited.height).toBe(shot.height);
  const text = edited.edit_meta!.layers.find((layer) => layer.type === 'text')!;
  const logo = edited.edit_meta!.layers.find((layer) => layer.type === 'logo')!;
  expect(text).toMatchObject({ text: 'SALE −30%', size: 48, color: colour, x: 0.5 });
  expect(Math.abs(text.y - 0.28)).toBeLessThan(0.04);
  const cornerScale = (shot.width * 0.22) / logo.width;
  expect(logo.scale / cornerScale).toBeGreaterThan(1.2);
  await expect(activePage(page).getByTestId('section-PRODUCT').getByTestId('edited-badge')).toHaveCount(1, { timeout: 30_000 });

  // The text's pixels are where it was placed, and not where it was not.
  const picture = await pixelsOf(request, edited.file_url);
  expect([picture.width, picture.height]).toEqual([edited.width, edited.height]);
  // Counted against the same part of the original, which may hold the swatch's colour itself (it
  // is one of the picture's own): the text adds its pixels where it was placed and none elsewhere.
  const { crop } = edited.edit_meta!;
  const inOriginal = (box: { x: number; y: number; w: number; h: number }) => ({
    x: (crop.x + box.x * crop.width) / original.width,
    y: (crop.y + box.y * crop.height) / original.height,
    w: (box.w * crop.width) / original.width,
    h: (box.h * crop.height) / original.height,
  });
  const added = (box: { x: number; y: number; w: number; h: number }) => picture.near(colour, box, 40) - original.near(colour, inOriginal(box), 40);
  const placed = { x: text.x, y: text.y, w: 0.5, h: 0.08 };
  const lower = { x: text.x, y: 0.75, w: 0.5, h: 0.08 };
  expect(added(placed)).toBeGreaterThan(150);
  expect(Math.abs(added(lower))).toBeLessThan(added(placed) / 5);
  // The logo's red is where the logo is.
  expect(picture.near('#e01010', { x: logo.x, y: logo.y, w: 0.06, h: 0.06 }, 50)).toBeGreaterThan(50);
  // The original is untouched.
  expect((await productAssets(request, token)).find((asset) => asset.id === shot.id)?.edit_meta).toBeNull();

  // Edit the edited result: its layers come back on the original picture; change the text.
  await page.goto('/material');
  const reopened = await openEditorFromMaterials(page, 0);
  const again = activePage(page).getByTestId('editor');
  await expect(again.getByRole('button', { name: 'Текст: SALE −30%' })).toBeVisible();
  await expect(again.getByRole('button', { name: 'Логотип', exact: true })).toBeVisible();
  await again.getByRole('button', { name: 'Текст: SALE −30%' }).click();
  await again.getByTestId('text-field').fill('SALE −40%');
  await expect(again.getByRole('button', { name: 'Текст: SALE −40%' })).toBeVisible();
  await expect(reopened).toBeVisible();
  await again.getByTestId('save').click();
  await toastShown(page, 'Сохранено в «Мои материалы».', 60_000);
  assets = await productAssets(request, token);
  expect(assets).toHaveLength(made + 2);
  const second = assets.find((asset) => asset.edit_meta?.layers.some((layer) => layer.type === 'text' && layer.text === 'SALE −40%'))!;
  expect(second.edit_meta!.source.asset_id).toBe(shot.id);
  expect(second.edit_meta!.crop.ratio).toBe('3:4');
  expect(second.edit_meta!.layers.find((layer) => layer.type === 'logo')).toMatchObject({ x: logo.x, y: logo.y, scale: logo.scale });

  // Saved with no network: kept on the device, then uploaded once when the network returns.
  await page.goto(`/image/edit?asset_id=${shot.id}`);
  const offlineEditor = activePage(page).getByTestId('editor');
  await expect(activePage(page).getByTestId('editor-canvas').locator('canvas').first()).toBeVisible({ timeout: 30_000 });
  await offlineEditor.getByTestId('add-text').click();
  await activePage(page).getByTestId('editor-canvas').locator('textarea').fill(`OFFLINE ${crypto.randomInt(1000)}`);
  await activePage(page).getByTestId('editor-canvas').locator('textarea').press('Escape');
  // With no network, My materials cannot load the pictures it has not kept yet (the service worker
  // answers their requests with a network error): that is being offline, not a fault.
  signedInConsole.expect(/^GET \/api\/v1\/storage\/assets\/[^ ]+ failed: net::ERR_FAILED$/, /^console error: Failed to load resource: net::ERR_FAILED \(https?:\/\/[^/]+\/api\/v1\/storage\/assets\//);
  await context.setOffline(true);
  await offlineEditor.getByTestId('save').click();
  await toastShown(page, 'Нет сети: изображение сохранено на устройстве и загрузится, когда связь вернётся.', 60_000);
  await expect(activePage(page).getByTestId('pending-edits')).toContainText('ждёт загрузки');
  expect(await productAssets(request, token)).toHaveLength(made + 2);
  await context.setOffline(false);
  await expect(activePage(page).getByTestId('pending-edits')).toBeHidden({ timeout: 60_000 });
  // Once, however the runners met it: counted when each of the three saves' jobs on the device is
  // done, so nothing is left that could send one again (and a second job for a save shows here).
  await expect.poll(() => outboxStates(page, 'edit'), { timeout: 60_000 }).toEqual(['done', 'done', 'done']);
  expect(await productAssets(request, token)).toHaveLength(made + 3);
});
