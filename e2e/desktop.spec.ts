// What a desktop shows and does otherwise than a phone, against the real server and its studio:
// My materials lays out eight results a row and previews one by a double-click, a task card shows
// up to six of its photos, and the editor is worked by the mouse and the keyboard. The journeys
// themselves (zips, deletes, retries, offline, the editor's save offline) run on a phone in
// history.spec.ts and editor.spec.ts; the desktop project runs only this file.
import { createVerifiedSeller, signIn } from './accounts';
import { apiToken, entry, finishedTask, gridColumns, materialSection, submitTask, uploadViews } from './content';
import { addText, canvasPoint, logoPng, openEditorFromMaterials, productAssets, sellerWithProductShot } from './editing';
import { activePage, expect, test, toastShown } from './support';

test.describe.configure({ timeout: 420_000 });

test('My materials and the task list on a desktop: eight a row, a double-click previews, six thumbnails a task', async ({ page, request }) => {
  const seller = await createVerifiedSeller(request, 'desk');
  const token = await apiToken(request, seller);
  const made = await submitTask(request, token, await uploadViews(request, token), [entry('POSTER')]);
  // Bounded for a busy machine: the photos' checks and a poster, on a server perhaps just started.
  expect((await finishedTask(request, token, made, 240_000)).status).toBe('completed');
  // A task whose front photo intake refuses: its card shows the task's photos, having no results.
  const refused = await submitTask(request, token, await uploadViews(request, token, { dark: 'front' }), [entry('POSTER')]);
  expect(await finishedTask(request, token, refused, 120_000)).toMatchObject({ status: 'failed', failure_type: 'manual_rejection' });

  await page.goto('/');
  await signIn(page, seller.username, seller.password, { remember: true, firstTime: true });
  await page.goto('/material');
  const posters = materialSection(page, 'POSTER');
  await expect(posters.getByTestId('material-tile')).toHaveCount(1);
  expect(await gridColumns(posters.getByTestId('material-grid'))).toBe(8);

  // A double-click previews the result without selecting it.
  await posters.getByTestId('material-tile').first().getByRole('button', { name: /^Выбрать/ }).dblclick();
  const preview = page.getByTestId('preview-dialog');
  await expect.poll(() => preview.getByTestId('preview-image').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  await preview.getByRole('button', { name: 'Закрыть' }).last().click();
  await expect(preview).toBeHidden();
  await expect(posters.getByTestId('selected-count')).toHaveText('Выбрано: 0');

  // The refused task's card shows all five of its photos (a phone shows two).
  await page.goto('/task/history');
  const newest = activePage(page).getByTestId('task-card').first();
  await expect(newest.getByTestId('task-status')).toHaveText('Фото отклонены');
  await expect(newest.locator('img:visible')).toHaveCount(5);
});

test('the editor by mouse and keyboard: a text dragged into place, a logo enlarged by keys, saved', async ({ page, request }) => {
  const { seller, token, shot, made } = await sellerWithProductShot(request);

  await page.goto('/');
  await signIn(page, seller.username, seller.password, { remember: true, firstTime: true });
  await page.goto('/material');
  const canvas = await openEditorFromMaterials(page);
  const editor = activePage(page).getByTestId('editor');

  await addText(canvas, editor, 'SALE −30%');

  // Dragged up by the mouse (the centre line holds it).
  const start = await canvasPoint(canvas, 0.5, 0.5);
  const end = await canvasPoint(canvas, 0.5, 0.28);
  await page.mouse.move(start.x, start.y);
  await page.mouse.down();
  await page.mouse.move(end.x, end.y, { steps: 12 });
  await page.mouse.up();

  // A logo, made larger from the keyboard.
  await editor.getByTestId('tool-logo').click();
  await editor.getByTestId('logo-input').setInputFiles({ name: 'brand.png', mimeType: 'image/png', buffer: await logoPng() });
  await expect(editor.getByRole('button', { name: 'Логотип', exact: true })).toBeVisible();
  await canvas.focus();
  for (let i = 0; i < 8; i += 1) await canvas.press('+');

  await editor.getByTestId('save').click();
  await toastShown(page, 'Сохранено в «Мои материалы».', 60_000);
  const assets = await productAssets(request, token);
  expect(assets).toHaveLength(made + 1);
  const edited = assets.find((asset) => asset.edit_meta !== null)!;
  expect(edited.edit_meta?.source.asset_id).toBe(shot.id);
  const text = edited.edit_meta!.layers.find((layer) => layer.type === 'text')!;
  const logo = edited.edit_meta!.layers.find((layer) => layer.type === 'logo')!;
  expect(text).toMatchObject({ text: 'SALE −30%', x: 0.5 });
  expect(Math.abs(text.y - 0.28)).toBeLessThan(0.04);
  const cornerScale = (shot.width * 0.22) / logo.width;
  expect(logo.scale / cornerScale).toBeGreaterThan(1.2);
});
