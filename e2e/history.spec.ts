// Task history, task retry and material history against the real server and its studio engine,
// on a phone (what a desktop lays out and does otherwise is desktop.spec.ts): results land in
// their sections, are previewed, downloaded as one zip, deleted and made again; a task whose photo
// was rejected shows why and is fixed; the task list still shows offline.
import fs from 'node:fs/promises';
import type { Locator, Page } from '@playwright/test';
import yauzl from 'yauzl';
import { createVerifiedSeller, signIn } from './accounts';
import { apiToken, assetsIn, entry, finishedTask, gridColumns, materialSection as section, submitTask, taskOf, uploadViews } from './content';
import { activePage, expect, shoeFiles, test, toastShown, waitForServiceWorker } from './support';

test.describe.configure({ timeout: 360_000 });

/** The names of a zip's entries. */
function zipEntries(file: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true }, (error, zip) => {
      if (error || !zip) return reject(error);
      const names: string[] = [];
      zip.on('entry', (item: yauzl.Entry) => {
        names.push(item.fileName);
        zip.readEntry();
      });
      zip.on('end', () => resolve(names));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

/** A long press on a touch screen: the touch is held past the preview's threshold. */
async function longPress(page: Page, target: Locator) {
  const box = (await target.boundingBox())!;
  const point = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  await target.evaluate((el, { x, y }) => {
    const touch = new Touch({ identifier: 1, target: el, clientX: x, clientY: y });
    el.dispatchEvent(new TouchEvent('touchstart', { touches: [touch], changedTouches: [touch], bubbles: true, cancelable: true }));
  }, point);
  await page.waitForTimeout(800);
  await target.evaluate((el, { x, y }) => {
    const touch = new Touch({ identifier: 1, target: el, clientX: x, clientY: y });
    el.dispatchEvent(new TouchEvent('touchend', { touches: [], changedTouches: [touch], bubbles: true, cancelable: true }));
  }, point);
}

test('material history: results in their sections, previewed, zipped, deleted and made again', async ({ page, request }) => {
  const seller = await createVerifiedSeller(request, 'mat');
  const token = await apiToken(request, seller);
  const photos = await uploadViews(request, token);
  const id = await submitTask(request, token, photos, [entry('PRODUCT2'), entry('POSTER'), entry('CREATIVE_VIDEO', { creative_scene: 'SHOE_GIANT' })]);
  // Bounded for a busy machine: the photos' checks, two pictures and a video, on a server just started.
  expect((await finishedTask(request, token, id, 240_000)).status).toBe('completed');

  await page.goto('/');
  await signIn(page, seller.username, seller.password, { remember: true, firstTime: true });
  await page.goto('/material');

  // Each result is in the section its category belongs to; the others are empty.
  await expect(section(page, 'PRODUCT').getByTestId('material-tile')).toHaveCount(1);
  await expect(section(page, 'POSTER').getByTestId('material-tile')).toHaveCount(1);
  await expect(section(page, 'CREATIVE_VIDEO').getByTestId('material-tile')).toHaveCount(1);
  await expect(section(page, 'HALF_BODY')).toContainText('Здесь пока пусто.');
  // The video's tile shows its poster frame, a picture that has loaded, not a video's black first frame.
  const videoThumb = section(page, 'CREATIVE_VIDEO').getByTestId('material-tile').first().locator('img.material-tile__media');
  await expect.poll(() => videoThumb.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  expect(await videoThumb.getAttribute('src')).toMatch(/poster/);
  // Four per row on a phone.
  expect(await gridColumns(section(page, 'POSTER').getByTestId('material-grid'))).toBe(4);

  // Actions that need a selection say so.
  await section(page, 'POSTER').getByTestId('action-delete').click();
  await expect(page.getByTestId('toast').last()).toHaveText('Выберите хотя бы один материал для удаления.');
  await activePage(page).getByTestId('download-selected').click();
  await expect(page.getByTestId('toast').last()).toHaveText('Выберите хотя бы один материал для скачивания.');

  // Preview: the poster by its preview button, the video by a long press; it plays inline.
  const poster = section(page, 'POSTER').getByTestId('material-tile').first();
  await poster.getByTestId('tile-preview').click();
  const preview = page.getByTestId('preview-dialog');
  await expect(preview.getByTestId('preview-image')).toBeVisible();
  await expect.poll(() => preview.getByTestId('preview-image').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  const single = page.waitForEvent('download');
  await preview.getByTestId('preview-download').click();
  expect((await single).suggestedFilename()).toMatch(/^solestudio-poster-[0-9a-f]{8}\.(png|jpg)$/);
  const finished = page.getByTestId('toast').filter({ hasText: 'Скачивание завершено' });
  await expect(finished).toHaveCount(1);
  await preview.getByRole('button', { name: 'Закрыть' }).last().click();
  await expect(preview).toBeHidden();

  const video = section(page, 'CREATIVE_VIDEO').getByTestId('material-tile').first().getByRole('button', { name: /^Выбрать/ });
  await longPress(page, video);
  await expect(preview.getByTestId('preview-video')).toBeVisible();
  await expect.poll(() => preview.getByTestId('preview-video').evaluate((v: HTMLVideoElement) => v.duration), { timeout: 15_000 }).toBeGreaterThan(1);
  // A long press opens the preview without selecting.
  await expect(section(page, 'CREATIVE_VIDEO').getByTestId('selected-count')).toHaveText('Выбрано: 0');
  await preview.getByRole('button', { name: 'Закрыть' }).last().click();

  // Select two (the poster and the multi-angle card) and download them as one zip.
  await section(page, 'POSTER').getByTestId('select-all').check();
  await expect(section(page, 'POSTER').getByTestId('selected-count')).toHaveText('Выбрано: 1');
  await section(page, 'PRODUCT').getByTestId('material-tile').first().getByRole('button', { name: /^Выбрать/ }).click();
  await expect(activePage(page).getByTestId('download-selected')).toContainText('(2)');
  // The single file's toast has gone, so the next one is the zip's.
  await expect(finished).toHaveCount(0);
  const zipped = page.waitForEvent('download');
  await activePage(page).getByTestId('download-selected').click();
  const download = await zipped;
  expect(download.suggestedFilename()).toMatch(/^solestudio-\d{8}-\d{6}\.zip$/);
  await expect(finished).toHaveCount(1);
  const file = test.info().outputPath('selection.zip');
  await download.saveAs(file);
  const names = await zipEntries(file);
  expect(names).toHaveLength(2);
  expect(names.some((name) => /poster/i.test(name))).toBe(true);
  expect(names.some((name) => /product2/i.test(name))).toBe(true);
  expect((await fs.stat(file)).size).toBeGreaterThan(10_000);

  // Delete the video: asked first, then gone from the page and from the server.
  await section(page, 'CREATIVE_VIDEO').getByTestId('material-tile').first().getByRole('button', { name: /^Выбрать/ }).click();
  await section(page, 'CREATIVE_VIDEO').getByTestId('action-delete').click();
  await page.getByTestId('delete-dialog').getByTestId('delete-confirm').click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Удалено: 1' })).toBeVisible();
  await expect(section(page, 'CREATIVE_VIDEO')).toContainText('Здесь пока пусто.');
  expect(await assetsIn(request, token, 'CREATIVE_VIDEO')).toHaveLength(0);

  // Retry needs exactly one selected result of the section: none is refused.
  await section(page, 'PRODUCT').getByTestId('select-all').uncheck();
  await section(page, 'PRODUCT').getByTestId('action-retry').click();
  await expect(page.getByTestId('toast').last()).toHaveText('Для повтора выберите ровно один результат задачи.');
  // Made again: the new poster is shown, the retry finishes and the section reloads with two.
  await section(page, 'POSTER').getByTestId('action-retry').click();
  const retry = page.getByTestId('retry-dialog');
  await expect(retry).toContainText('Делаем заново');
  await expect(retry.getByTestId('retry-close')).toHaveAttribute('aria-disabled', 'true');
  await expect(retry.getByTestId('retry-status')).toHaveAttribute('data-step', 'done', { timeout: 90_000 });
  await expect(retry.getByTestId('retry-result')).toBeVisible();
  await expect(retry.getByTestId('retry-status')).toHaveAttribute('data-step', 'finished', { timeout: 30_000 });
  await expect(section(page, 'POSTER').getByTestId('material-tile')).toHaveCount(2);
  await retry.getByTestId('retry-close').click();
  await expect(retry).toBeHidden();
  expect(await assetsIn(request, token, 'POSTER')).toHaveLength(2);
});

test('task history: a rejected photo is explained and fixed, paging, and the list offline', async ({ page, context, request }) => {
  const seller = await createVerifiedSeller(request, 'rej');
  const token = await apiToken(request, seller);
  // Eleven tasks whose front photo is far too dark: intake rejects each and refunds it.
  const photos = await uploadViews(request, token, { dark: 'front' });
  const ids: string[] = [];
  for (let i = 0; i < 11; i += 1) ids.push(await submitTask(request, token, photos, [entry('POSTER')]));
  for (const id of ids) expect(await finishedTask(request, token, id, 90_000)).toMatchObject({ status: 'failed', failure_type: 'manual_rejection' });

  await page.goto('/');
  await waitForServiceWorker(page);
  await signIn(page, seller.username, seller.password, { remember: true, firstTime: true });
  await page.goto('/task/history');

  // Ten per page, then the rest, then the no-more text.
  const cards = activePage(page).getByTestId('task-card');
  await expect(cards).toHaveCount(10);
  await activePage(page).getByTestId('load-more').click();
  await expect(cards).toHaveCount(11);
  await expect(activePage(page).getByTestId('no-more')).toHaveText('Больше задач нет');

  const newest = cards.first();
  await expect(newest.getByTestId('task-status')).toHaveText('Фото отклонены');
  // The rejection chip is in the error colour.
  const danger = await page.evaluate(() => getComputedStyle(document.body).getPropertyValue('--ion-color-danger').trim());
  const chipColour = await newest.getByTestId('task-status').evaluate((el) => getComputedStyle(el).color);
  expect(chipColour).toBe(await page.evaluate((hex) => {
    const probe = document.createElement('span');
    probe.style.color = hex;
    document.body.append(probe);
    const colour = getComputedStyle(probe).color;
    probe.remove();
    return colour;
  }, danger));
  await expect(newest.getByTestId('task-param')).toHaveText('Постер');
  await expect(newest).toContainText(/Создана \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/);
  // Thumbnails of the task's photos: two on a phone.
  await expect(newest.locator('img:visible')).toHaveCount(2);

  // The view button explains the rejection and leads to the retry form.
  await newest.getByTestId('task-view').click();
  const rejection = page.getByTestId('rejection-dialog');
  await expect(rejection.getByTestId('rejected-material')).toHaveCount(1);
  await expect(rejection.getByTestId('rejected-material')).toContainText('Спереди');
  await rejection.getByTestId('rejection-retry').click();
  await expect(page).toHaveURL(new RegExp(`/task/retry\\?task_id=${ids.at(-1)}$`));

  const form = activePage(page);
  await expect(form.getByTestId('slot-front')).toHaveAttribute('data-state', 'rejected');
  await expect(form.getByTestId('rejected-front')).toContainText('Отклонено:');
  await expect(form.getByTestId('slot-back')).toHaveAttribute('data-state', 'kept');
  await expect(form.getByTestId('retry-cost')).toHaveText('Стоимость: 4 токена');
  // Without a new front photo the retry is refused: four views are too few.
  await form.getByTestId('retry-submit').click();
  await expect(page.getByTestId('toast').last()).toHaveText('Нужно минимум 5 ракурсов с фото.');

  const [front] = await shoeFiles(1);
  await form.getByTestId('slot-input-front').setInputFiles(front!);
  await expect(form.getByTestId('slot-front')).toHaveAttribute('data-state', 'uploaded', { timeout: 30_000 });
  // Watched from the submission on: a one-poster task may finish, and its toast go, before the
  // page is back on the workspace.
  const finished = toastShown(page, 'Задача готова.', 90_000);
  await form.getByTestId('retry-submit').click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Задача отправлена снова: Фото товара, 4 токена.' })).toBeVisible();
  await expect(form.getByTestId('task-leaving')).toBeVisible();
  await expect(page).toHaveURL(/\/home$/, { timeout: 12_000 });
  await finished;

  // The fixed task heads the list (refreshed by the event), completed, with its result.
  await page.goto('/task/history');
  await expect(cards.first().getByTestId('task-status')).toHaveText('Готово');
  await cards.first().getByTestId('task-view').click();
  await expect(page.getByTestId('results-dialog').getByTestId('carousel-image')).toBeVisible();
  await page.getByTestId('results-dialog').getByRole('button', { name: 'Закрыть' }).last().click();
  const listed = await request.get('/api/v1/content/tasks', { headers: { authorization: `Bearer ${token}` } });
  const fixed = (await listed.json()).data[0];
  expect((await taskOf(request, token, fixed.id)).result).toHaveLength(1);
  await expect.poll(() => cards.first().locator('img').first().evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);

  // Offline, a reload still shows the list and its pictures, marked as offline.
  await context.setOffline(true);
  await page.reload();
  await expect(activePage(page).getByTestId('history-offline')).toBeVisible();
  await expect(cards).toHaveCount(10);
  await expect(cards.first().getByTestId('task-status')).toHaveText('Готово');
  await expect.poll(() => cards.first().locator('img').first().evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  // Back online, it refreshes by itself.
  await context.setOffline(false);
  await expect(activePage(page).getByTestId('history-offline')).toBeHidden({ timeout: 15_000 });
});
