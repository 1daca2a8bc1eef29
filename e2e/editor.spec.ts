// The image editor against the real server, on a phone (touch through CDP; the mouse and the
// keyboard on a desktop are desktop.spec.ts): a product shot from My materials gets a text in one
// of its own colours, a logo and a 3:4 crop, and is saved as a new, edited result at full
// resolution with the text's pixels where they were placed; reopened, its layers come back and
// change; saved offline, it waits in the outbox and goes up once when the network returns.
import crypto from 'node:crypto';
import type { Page } from '@playwright/test';
import { signIn } from './accounts';
import { addText, canvasPoint, logoPng, openEditorFromMaterials, pixelsOf, productAssets, sellerWithProductShot, touchMove } from './editing';
import { activePage, expect, test, toastShown } from './support';

test.describe.configure({ timeout: 360_000 });

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

test('a product shot gets a text, a logo and a 3:4 crop, is saved at full size, reopens with its layers and saves offline once', async ({ page, context, request, signedInConsole }) => {
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
  await addText(canvas, editor, 'SALE −30%');
  await editor.getByTestId('text-size').fill('48');

  // Moved up by a finger (the centre line holds it).
  const start = await canvasPoint(canvas, 0.5, 0.5);
  const end = await canvasPoint(canvas, 0.5, 0.28);
  await touchMove(await context.newCDPSession(page), [start], [end]);

  // In one of the picture's own colours: the one that stands out most where the text is.
  await editor.getByTestId('tool-colour').click();
  const behind = original.at(original.width / 2, original.height * 0.28);
  const swatches = await editor.getByTestId('swatch').evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-colour')!));
  expect(swatches.length).toBeGreaterThanOrEqual(3);
  const distance = (hex: string) => Math.hypot(...[1, 3, 5].map((i, k) => parseInt(hex.slice(i, i + 2), 16) - behind[k]!));
  const colour = [...swatches].sort((a, b) => distance(b) - distance(a))[0]!;
  await editor.locator(`[data-testid="swatch"][data-colour="${colour}"]`).click();
  await expect(editor.getByTestId('contrast')).toBeVisible();

  // A logo in the corner, made larger by a pinch.
  await editor.getByTestId('tool-logo').click();
  await editor.getByTestId('logo-input').setInputFiles({ name: 'brand.png', mimeType: 'image/png', buffer: await logoPng() });
  await expect(editor.getByRole('button', { name: 'Логотип', exact: true })).toBeVisible();
  const centre = await canvasPoint(canvas, 0.8, 0.2);
  await touchMove(
    await context.newCDPSession(page),
    [{ x: centre.x - 30, y: centre.y }, { x: centre.x + 30, y: centre.y }],
    [{ x: centre.x - 45, y: centre.y }, { x: centre.x + 45, y: centre.y }],
  );

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
