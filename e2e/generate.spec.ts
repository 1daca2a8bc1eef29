// From six photos to finished results on a phone, against the real server and its studio
// engine: styles, the confirmation dialog, submission, the notification toast arriving over the
// event stream without a reload, and a task added offline that is sent exactly once.
import sharp from 'sharp';
import type { Page } from '@playwright/test';
import { createVerifiedSeller, signIn } from './accounts';
import { activePage, expect, shoeFiles, test, toastShown, waitForServiceWorker } from './support';

// Each journey shoots, uploads and waits for the studio engine.
test.describe.configure({ timeout: 120_000 });

const SIX = ['right_45', 'right_side', 'left_side', 'front', 'back', 'bottom'] as const;

const photos = (count: number) => shoeFiles(count);

async function openTask(page: Page, type: 'product' | 'video') {
  await activePage(page).getByTestId(`tile-${type}`).click();
  await expect(page).toHaveURL(new RegExp(`/task\\?type=${type}$`));
  await page.getByTestId('requirements-dialog').getByRole('button', { name: 'Понятно' }).click();
}

/** Calls the API as the signed-in seller. */
async function api<T>(page: Page, path: string): Promise<T> {
  return page.evaluate(async (url) => {
    const token = localStorage.getItem('auth_token') ?? sessionStorage.getItem('auth_token');
    const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    return (await res.json()).data;
  }, path);
}

interface TaskRow {
  id: string;
  status: string;
  cost: number;
  result: { url: string; category: string; file_type: string }[];
}

async function fillSlots(page: Page, count: number, state: 'uploaded' | 'queued') {
  const task = activePage(page);
  await task.getByTestId('batch-input').setInputFiles(await photos(count));
  for (const view of SIX.slice(0, count)) {
    await expect(task.getByTestId(`slot-${view}`)).toHaveAttribute('data-state', state, { timeout: 30_000 });
  }
}

const card = (page: Page, category: string) => activePage(page).getByTestId(`category-${category}`).getByRole('checkbox').first();

test('six photos, two styles, one output removed: the task is charged once and its results arrive with a toast', async ({ page, request }) => {
  const seller = await createVerifiedSeller(request, 'gen');
  await page.goto('/');
  await signIn(page, seller.username, seller.password, { remember: true, firstTime: true });
  // Nothing on this server makes model photos: the tile says so before any photo is taken.
  const person = activePage(page).getByTestId('tile-person');
  await expect(person).toHaveAttribute('data-available', 'false');
  await expect(person).toContainText('Сейчас недоступно: Нужен сервис ИИ-изображений, а на этом сервере он не настроен.');
  await expect(person).not.toHaveAttribute('href');
  await openTask(page, 'product');
  await fillSlots(page, 6, 'uploaded');
  await activePage(page).getByTestId('task-next').click();

  const styles = activePage(page).getByTestId('task-page-2');
  await expect(styles).toBeVisible();
  await expect(styles.getByTestId('category-PRODUCT')).toContainText('2 токена за ракурс');
  // Nothing chosen yet: the seller is told so.
  await activePage(page).getByTestId('task-add').click();
  await expect(page.getByTestId('toast').last()).toHaveText('Выберите хотя бы один стиль.');

  await card(page, 'PRODUCT').click();
  // Product shots start as the studio look; this seller wants Amazon's white main images instead.
  const looks = styles.getByTestId('category-PRODUCT');
  await expect(looks.getByRole('group', { name: 'Оформление' })).toBeVisible();
  await expect(looks.getByTestId('sub-PRODUCT-STUDIO')).toHaveAttribute('aria-checked', 'true');
  await looks.getByTestId('sub-PRODUCT-AMAZON').click();
  await looks.getByTestId('sub-PRODUCT-STUDIO').click();
  await expect(looks.getByTestId('sub-PRODUCT-STUDIO')).toHaveAttribute('aria-checked', 'false');
  await card(page, 'PRODUCT2').click();
  await expect(card(page, 'PRODUCT')).toHaveAttribute('aria-checked', 'true');
  await expect(styles.getByLabel('Описание сцены')).toBeDisabled();
  await activePage(page).getByTestId('task-add').click();

  const confirm = page.getByTestId('confirm-dialog');
  await expect(confirm).toBeVisible();
  await expect(confirm.getByTestId('confirm-output')).toHaveCount(7);
  await expect(confirm.getByTestId('confirm-total')).toHaveText('Итого: 16 токенов');
  await expect(confirm).toContainText('Ваш баланс: 50 токенов');
  await confirm.getByRole('button', { name: 'Убрать: Фото товара: Amazon, белый фон: Подошва' }).click();
  await expect(confirm.getByTestId('confirm-output')).toHaveCount(6);
  await expect(confirm.getByTestId('confirm-total')).toHaveText('Итого: 14 токенов');
  // The studio may finish while the page still waits to leave: watched from the submission on.
  const finished = toastShown(page, 'Задача готова. Смотрите в истории задач.', 90_000);
  await confirm.getByTestId('confirm-submit').click();

  await expect(page.getByTestId('toast').filter({ hasText: 'Задача добавлена: Фото товара, 14 токенов.' })).toBeVisible();
  await expect(activePage(page).getByTestId('task-add')).toHaveAttribute('aria-disabled', 'true');
  await expect(activePage(page).getByTestId('task-leaving')).toBeVisible();
  await expect(page).toHaveURL(/\/home$/, { timeout: 12_000 });

  // The toast comes over the stream.
  await finished;
  const tasks = await api<TaskRow[]>(page, '/api/v1/content/tasks');
  expect(tasks).toHaveLength(1);
  const task = await api<TaskRow>(page, `/api/v1/content/tasks/${tasks[0]!.id}`);
  expect(task).toMatchObject({ status: 'completed', cost: 14 });
  expect(task.result.filter((r) => r.category === 'PRODUCT')).toHaveLength(5);
  expect(task.result.filter((r) => r.category === 'PRODUCT2')).toHaveLength(1);
  const shot = await page.request.get(task.result.find((r) => r.category === 'PRODUCT')!.url);
  expect(shot.status()).toBe(200);
  expect(shot.headers()['content-type']).toMatch(/^image\//);
  // Amazon's main image: square, on pure white.
  const { data, info } = await sharp(await shot.body()).raw().toBuffer({ resolveWithObject: true });
  expect(info.width).toBe(info.height);
  expect([data[0], data[1], data[2]]).toEqual([255, 255, 255]);
  expect(await api<{ total_tokens: number }>(page, '/api/v1/tokens/balance')).toEqual({ total_tokens: 36, expires_at: null, expiring_tokens: 0 });

  // The draft was cleared: the product task starts empty again, even after a reload.
  await page.goto('/task?type=product');
  await page.getByTestId('requirements-dialog').getByRole('button', { name: 'Понятно' }).click();
  await expect(activePage(page).getByTestId('slot-front')).toHaveAttribute('data-state', 'empty');
});

test('a task added offline waits on the workspace and is sent exactly once when the network returns', async ({ page, context, request }) => {
  const seller = await createVerifiedSeller(request, 'genoff');
  await page.goto('/');
  await waitForServiceWorker(page);
  await signIn(page, seller.username, seller.password, { remember: true, firstTime: true });
  await openTask(page, 'product');
  await fillSlots(page, 3, 'uploaded');

  await context.setOffline(true);
  const task = activePage(page);
  await task.getByTestId('batch-input').setInputFiles((await photos(6)).slice(3));
  for (const view of SIX.slice(3)) await expect(task.getByTestId(`slot-${view}`)).toHaveAttribute('data-state', 'queued', { timeout: 30_000 });
  await task.getByTestId('task-next').click();
  // The styles come from the copy the workspace saved while this device was online.
  await expect(activePage(page).getByTestId('task-page-2')).toBeVisible();
  await expect(activePage(page).getByText('Нет сети: показаны варианты, загруженные в прошлый раз.')).toBeVisible();
  await card(page, 'PRODUCT2').click();
  await activePage(page).getByTestId('task-add').click();
  await page.getByTestId('confirm-dialog').getByTestId('confirm-submit').click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Задача сохранена: Фото товара, 4 токена.' })).toBeVisible();
  await expect(page).toHaveURL(/\/home$/);

  const pending = activePage(page).getByTestId('pending-task');
  await expect(pending).toHaveCount(1);
  await expect(pending).toContainText('Ждёт сети');
  // A reload offline keeps it.
  await page.reload();
  await expect(activePage(page).getByTestId('pending-task')).toContainText('Ждёт сети');

  const finished = toastShown(page, 'Задача готова.', 90_000);
  await context.setOffline(false);
  await expect(activePage(page).getByTestId('pending-tasks')).toBeHidden({ timeout: 30_000 });
  await finished;
  const tasks = await api<TaskRow[]>(page, '/api/v1/content/tasks');
  expect(tasks).toHaveLength(1);
  expect(tasks[0]).toMatchObject({ status: 'completed', cost: 4 });
  expect(await api<{ total_tokens: number }>(page, '/api/v1/tokens/balance')).toEqual({ total_tokens: 46, expires_at: null, expiring_tokens: 0 });
});

test('video: scenes to choose, a custom scene the server cannot follow is explained, and too many scenes open the out-of-tokens dialog', async ({ page, request }) => {
  const seller = await createVerifiedSeller(request, 'genvid');
  await page.goto('/');
  await signIn(page, seller.username, seller.password, { remember: true, firstTime: true });
  await openTask(page, 'video');
  await fillSlots(page, 5, 'uploaded');
  await activePage(page).getByTestId('task-next').click();

  const styles = activePage(page).getByTestId('task-page-2');
  await card(page, 'CREATIVE_VIDEO').click();
  await expect(styles.getByTestId('sub-CREATIVE_VIDEO-SHOE_GIANT')).toHaveAttribute('aria-checked', 'true');
  for (const scene of ['SHOE_SAND', 'SHOE_FRUIT', 'SHOE_MOUNTAIN']) await styles.getByTestId(`sub-CREATIVE_VIDEO-${scene}`).click();
  await expect(styles.getByTestId('custom-card').getByRole('checkbox')).toHaveAttribute('aria-disabled', 'true');
  await expect(styles.getByTestId('custom-card')).toContainText('Недоступно:');

  await activePage(page).getByTestId('task-add').click();
  const confirm = page.getByTestId('confirm-dialog');
  await expect(confirm.getByTestId('confirm-total')).toHaveText('Итого: 60 токенов');
  await expect(confirm).toContainText('Не хватает токенов: нужно ещё 10.');
  await confirm.getByTestId('confirm-submit').click();
  const out = page.getByTestId('out-of-tokens-dialog');
  await expect(out).toBeVisible();
  await expect(out).toContainText('Задача стоит 60 токенов, а на балансе 50.');
  await out.getByRole('button', { name: 'Не сейчас' }).click();
  // Nothing was sent or charged, and the choices are still there.
  expect(await api<TaskRow[]>(page, '/api/v1/content/tasks')).toHaveLength(0);
  await expect(styles.getByTestId('sub-CREATIVE_VIDEO-SHOE_MOUNTAIN')).toHaveAttribute('aria-checked', 'true');
});
