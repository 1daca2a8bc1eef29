// Capture on phones against the real server: photos from files go through the compression
// worker into IndexedDB and the outbox; the network drops, the page reloads offline and the
// draft comes back whole; when the network returns every photo reaches the server exactly once.
import type { Page } from '@playwright/test';
import { shoePhoto } from '../tests/fixtures/shoes';
import { createVerifiedSeller, signIn } from './accounts';
import { activePage, expect, shoeFiles, test, waitForServiceWorker } from './support';

const SIX = ['right_45', 'right_side', 'left_side', 'front', 'back', 'bottom'] as const;

const photos = (count: number) => shoeFiles(count);

async function openProductTask(page: Page) {
  await activePage(page).getByTestId('tile-product').click();
  await expect(page).toHaveURL(/\/task\?type=product$/);
  const requirements = page.getByTestId('requirements-dialog');
  await expect(requirements).toBeVisible();
  await expect(requirements.getByRole('heading', { name: 'Как снимать' })).toBeVisible();
  await expect(requirements.locator('.requirements__angles svg')).toHaveCount(6);
  await requirements.getByRole('button', { name: 'Понятно' }).click();
}

async function materialsOnServer(page: Page): Promise<{ id: string; status: string; view: string }[]> {
  return page.evaluate(async () => {
    const token = localStorage.getItem('auth_token') ?? sessionStorage.getItem('auth_token');
    const res = await fetch('/api/v1/materials/list?page_size=50', { headers: { authorization: `Bearer ${token}` } });
    return (await res.json()).data;
  });
}

// Each journey compresses photos in the page (the guided camera six 2080 px frames) while the
// server checks every one: on two busy cores one takes up to a minute, so each is given two.
test.describe.configure({ timeout: 120_000 });

test('batch upload fills the slots in order and every photo reaches the server once', async ({ page, request }) => {
  // Seven photo checks, each a segmentation queued with other journeys' on a busy machine.
  test.setTimeout(360_000);
  const seller = await createVerifiedSeller(request, 'cap');
  await page.goto('/');
  await signIn(page, seller.username, seller.password, { remember: true, firstTime: true });
  await openProductTask(page);

  const task = activePage(page);
  await task.getByTestId('batch-input').setInputFiles(await photos(6));
  for (const view of SIX) {
    await expect(task.getByTestId(`slot-${view}`)).toHaveAttribute('data-state', 'uploaded', { timeout: 30_000 });
  }
  await expect(task.getByTestId('slot-optional1')).toHaveAttribute('data-state', 'empty');
  const onServer = await materialsOnServer(page);
  expect(onServer).toHaveLength(6);
  expect(new Set(onServer.map((m) => m.view))).toEqual(new Set(SIX));
  for (const view of SIX) await expect(task.getByTestId(`warnings-${view}`)).toHaveCount(0);
  expect(onServer.every((m) => m.status === 'uploaded')).toBe(true);

  // The server's check of each photo shows on its slot: a busy background is advice for the next shot.
  await expect(task.getByTestId('warnings-front')).toHaveCount(0);
  await task.getByTestId('slot-optional1').locator('input[type=file]').setInputFiles({
    name: 'busy.jpg',
    mimeType: 'image/jpeg',
    buffer: (await shoePhoto({ background: 'busy', seed: 5 })).jpeg,
  });
  // Its check waits behind the six photos' and other journeys' segmentations: sized for a busy machine.
  await expect(task.getByTestId('warnings-optional1')).toContainText('Совет: в кадре есть посторонние предметы; на однотонном фоне край будет чище.', { timeout: 240_000 });

  // A HEIC photo is refused with SPEC's words, and nothing is added.
  await task.getByTestId('batch-input').setInputFiles({ name: 'IMG_0001.HEIC', mimeType: 'image/heic', buffer: Buffer.from('heic') });
  await expect(page.getByTestId('toast')).toHaveText('Formats: [jpg,jpeg,png]');

  // Five views are not enough without the back… here all required views are present: next works.
  await task.getByTestId('slot-back').getByRole('button', { name: 'Удалить' }).click();
  await expect(task.getByTestId('slot-back')).toHaveAttribute('data-state', 'empty');
  await task.getByTestId('task-next').click();
  await expect(page.getByTestId('toast').last()).toHaveText('Required images: добавьте все обязательные ракурсы.');
});

test('offline: photos wait in the outbox, survive a reload, and go up once the network returns', async ({ page, context, request }) => {
  const seller = await createVerifiedSeller(request, 'off');
  await page.goto('/');
  await waitForServiceWorker(page);
  await signIn(page, seller.username, seller.password, { remember: true, firstTime: true });
  await openProductTask(page);
  const files = await photos(6);
  const task = activePage(page);

  await task.getByTestId('batch-input').setInputFiles(files.slice(0, 3));
  for (const view of SIX.slice(0, 3)) await expect(task.getByTestId(`slot-${view}`)).toHaveAttribute('data-state', 'uploaded', { timeout: 30_000 });

  await context.setOffline(true);
  await task.getByTestId('batch-input').setInputFiles(files.slice(3));
  for (const view of SIX.slice(3)) await expect(task.getByTestId(`slot-${view}`)).toHaveAttribute('data-state', 'queued', { timeout: 30_000 });
  await expect(task.getByTestId('upload-banner')).toHaveText('3 фото ждут сети');

  await page.reload();
  const restored = activePage(page);
  await expect(restored.getByTestId('task-page')).toBeVisible().catch(() => {});
  for (const view of SIX) await expect(page.getByTestId(`slot-${view}`).locator('img')).toBeVisible();
  for (const view of SIX.slice(3)) await expect(page.getByTestId(`slot-${view}`)).toHaveAttribute('data-state', 'queued');

  await context.setOffline(false);
  for (const view of SIX) await expect(page.getByTestId(`slot-${view}`)).toHaveAttribute('data-state', 'uploaded', { timeout: 30_000 });
  await expect(page.getByTestId('upload-banner')).toBeHidden();
  const onServer = await materialsOnServer(page);
  expect(onServer).toHaveLength(6);
  expect(new Set(onServer.map((m) => m.view)).size).toBe(6);
});

test('with no page open, the service worker sends waiting photos when Background Sync fires', async ({ page, context, request, baseURL }) => {
  const seller = await createVerifiedSeller(request, 'sync');
  await page.goto('/');
  await waitForServiceWorker(page);
  await signIn(page, seller.username, seller.password, { remember: true, firstTime: true });
  const token = await page.evaluate(() => localStorage.getItem('auth_token'));
  await openProductTask(page);

  await context.setOffline(true);
  await activePage(page).getByTestId('batch-input').setInputFiles(await photos(2));
  for (const view of SIX.slice(0, 2)) await expect(activePage(page).getByTestId(`slot-${view}`)).toHaveAttribute('data-state', 'queued', { timeout: 30_000 });

  // The seller leaves: no page runs the outbox any more.
  const cdp = await context.newCDPSession(page);
  const registrations: string[] = [];
  cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations: list }) => {
    for (const r of list as { registrationId: string; scopeURL: string; isDeleted: boolean }[]) {
      if (!r.isDeleted && r.scopeURL.startsWith(baseURL!)) registrations.push(r.registrationId);
    }
  });
  await cdp.send('ServiceWorker.enable');
  await page.goto('about:blank');
  const listed = async () =>
    ((await (await request.get('/api/v1/materials/list', { headers: { authorization: `Bearer ${token}` } })).json()).data as { status: string }[]).filter(
      (m) => m.status === 'uploaded',
    ).length;
  // Nothing went up while the browser was offline. Once it is back, Chromium may fire the waiting
  // sync by itself before the test does: either way the worker sends the photos, with no page open.
  expect(await listed()).toBe(0);
  await context.setOffline(false);
  await expect.poll(() => registrations.length).toBeGreaterThan(0);
  await cdp.send('ServiceWorker.dispatchSyncEvent', { origin: new URL(baseURL!).origin, registrationId: registrations[0]!, tag: 'outbox', lastChance: false });
  await expect.poll(listed, { timeout: 30_000 }).toBe(2);
});

test('the guided camera takes the six angles in order with the fake camera', { tag: '@small-screen' }, async ({ page, request }) => {
  const seller = await createVerifiedSeller(request, 'cam');
  await page.goto('/');
  await signIn(page, seller.username, seller.password, { remember: true, firstTime: true });
  await activePage(page).getByTestId('tile-product').click();
  await page.getByTestId('requirements-dialog').getByTestId('requirements-camera').click();
  const camera = page.getByTestId('camera-dialog');
  const names = ['Справа под 45°', 'Правый бок', 'Левый бок', 'Спереди', 'Сзади', 'Подошва'];
  for (const [i, name] of names.entries()) {
    await expect(camera.getByRole('heading')).toHaveText(`Съёмка: ${name} (${i + 1} из 6)`);
    // A sample shot of this very angle sits beside the outline.
    await expect(camera.getByTestId('camera-sample')).toHaveAttribute('data-view', SIX[i]!);
    await expect(camera.getByRole('img', { name: `Пример снимка: ${name}` })).toBeVisible();
    await expect(camera.getByTestId('camera-shutter')).toBeEnabled();
    await camera.getByTestId('camera-shutter').click();
  }
  await expect(camera).toBeHidden();
  for (const view of SIX) await expect(activePage(page).getByTestId(`slot-${view}`)).toHaveAttribute('data-state', 'uploaded', { timeout: 30_000 });
  const onServer = await materialsOnServer(page);
  expect(onServer).toHaveLength(6);
  // Square 2080×2080 frames.
  expect(onServer.every((m) => (m as unknown as { width: number }).width === 2080 && (m as unknown as { height: number }).height === 2080)).toBe(true);
});

test('a refused camera is explained, with a way on through picking files', async ({ page, request }) => {
  const seller = await createVerifiedSeller(request, 'deny');
  // The seller has blocked the camera for this site.
  await page.addInitScript(() => {
    navigator.mediaDevices.getUserMedia = () => Promise.reject(new DOMException('blocked', 'NotAllowedError'));
  });
  await page.goto('/');
  await signIn(page, seller.username, seller.password, { remember: true, firstTime: true });
  await activePage(page).getByTestId('tile-product').click();
  await page.getByTestId('requirements-dialog').getByTestId('requirements-camera').click();
  const camera = page.getByTestId('camera-dialog');
  await expect(camera.getByRole('alert')).toHaveText(/Доступ к камере запрещён/);
  const chooser = page.waitForEvent('filechooser');
  await camera.getByRole('button', { name: 'Выбрать файлы' }).click();
  expect((await chooser).isMultiple()).toBe(true);
  await expect(camera).toBeHidden();
});

test('a photo on its way shows its progress; a refused one shows why on its slot and goes up on retry', async ({ page, context, request }) => {
  const seller = await createVerifiedSeller(request, 'refuse');
  await page.goto('/');
  await signIn(page, seller.username, seller.password, { remember: true, firstTime: true });
  await openProductTask(page);
  const task = activePage(page);
  const [front, back] = await photos(2);

  // A slow link (800 kbit/s up): the slot counts the bytes as they go. The bar and its words are
  // seen in one look (the bar is named by them), so an upload that ends between two looks cannot
  // leave the second looking for a bar that is already gone.
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 20, downloadThroughput: -1, uploadThroughput: 100_000 });
  await task.getByTestId('slot-front').locator('input[type=file]').setInputFiles(front!);
  const sending = task.getByTestId('slot-front').getByRole('progressbar', { name: /^Отправляем… \d+%$/ });
  await expect(sending).toBeVisible({ timeout: 30_000 });
  await expect(task.getByTestId('slot-front')).toHaveAttribute('data-state', 'uploaded', { timeout: 60_000 });
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });

  // The bytes arrive damaged on the way (as many as were declared, or the upload address itself
  // would refuse them): the server refuses what they are, and the slot says why.
  let damage = true;
  await page.route('**/api/v1/storage/**', (route) =>
    damage && route.request().method() === 'PUT'
      ? route.continue({ postData: Buffer.alloc(route.request().postDataBuffer()?.length ?? 0, 'not a photo ') })
      : route.continue(),
  );
  await task.getByTestId('slot-back').locator('input[type=file]').setInputFiles(back!);
  const slot = task.getByTestId('slot-back');
  await expect(slot).toHaveAttribute('data-state', 'failed', { timeout: 30_000 });
  await expect(slot.getByRole('alert')).toHaveText('Formats: [jpg,jpeg,png]. Поддерживаются только JPEG и PNG.');
  expect((await materialsOnServer(page)).filter((m) => m.status === 'uploaded')).toHaveLength(1);

  damage = false;
  await slot.getByRole('button', { name: 'Повторить' }).click();
  await expect(slot).toHaveAttribute('data-state', 'uploaded', { timeout: 30_000 });
  await expect(slot.getByRole('alert')).toHaveCount(0);
  const uploaded = (await materialsOnServer(page)).filter((m) => m.status === 'uploaded');
  expect(uploaded.map((m) => m.view).sort()).toEqual(['back', 'front']);
});

test('a batch photo in the wrong slot moves to the right one, and the server files it under that view', async ({ page, request }) => {
  const seller = await createVerifiedSeller(request, 'move');
  await page.goto('/');
  await signIn(page, seller.username, seller.password, { remember: true, firstTime: true });
  await openProductTask(page);
  const task = activePage(page);
  await task.getByTestId('batch-input').setInputFiles(await photos(2));
  for (const view of SIX.slice(0, 2)) await expect(task.getByTestId(`slot-${view}`)).toHaveAttribute('data-state', 'uploaded', { timeout: 30_000 });
  const picture = (view: string) => task.getByTestId(`slot-${view}`).locator('img').getAttribute('src');
  const second = await picture('right_side');

  // The second photo is really the sole: it moves to its slot, leaving the right side empty.
  await task.getByTestId('move-right_side').selectOption('bottom');
  await expect(task.getByTestId('slot-right_side')).toHaveAttribute('data-state', 'empty');
  await expect(task.getByTestId('slot-bottom')).toHaveAttribute('data-state', 'uploaded', { timeout: 30_000 });
  expect(await picture('bottom')).toBe(second);

  // Two filled slots swap (both were uploaded already: wait for the pictures to change places).
  const first = await picture('right_45');
  await task.getByTestId('move-right_45').selectOption('bottom');
  await expect(task.getByTestId('slot-right_45').locator('img')).toHaveAttribute('src', second!);
  await expect(task.getByTestId('slot-bottom').locator('img')).toHaveAttribute('src', first!);
  for (const view of ['right_45', 'bottom']) {
    await expect(task.getByTestId(`slot-${view}`)).toHaveAttribute('data-state', 'uploaded', { timeout: 30_000 });
  }
  // Every placement was filed under its view, and each upload filed under a view its photo left
  // is deleted from the server: what remains is one photo per filled slot.
  await expect
    .poll(async () => (await materialsOnServer(page)).map((m) => `${m.view}:${m.status}`).sort(), { timeout: 30_000 })
    .toEqual(['bottom:uploaded', 'right_45:uploaded']);
});

test.describe('a full device', () => {
  // Without the service worker's precache, the device holds only what the page stores.
  test.use({ serviceWorkers: 'block' });

  test('keeps the photo in memory and saves it once there is room again', async ({ page, context, request, baseURL }) => {
    const seller = await createVerifiedSeller(request, 'quota');
    // 1 MB for this site, set before it stores anything (Chromium reckons free space ahead of time):
    // the session fits, a 2080×2080 photo does not.
    const cdp = await context.newCDPSession(page);
    const origin = new URL(baseURL!).origin;
    await cdp.send('Storage.overrideQuotaForOrigin', { origin, quotaSize: 1_000_000 });
    await page.goto('/');
    await signIn(page, seller.username, seller.password, { remember: true, firstTime: true });
    await openProductTask(page);
    const task = activePage(page);
    const big = { name: 'big.jpg', mimeType: 'image/jpeg', buffer: (await shoePhoto({ width: 2080, height: 2080, noise: 40, seed: 3 })).jpeg };

    await task.getByTestId('slot-front').locator('input[type=file]').setInputFiles(big);
    const slot = task.getByTestId('slot-front');
    await expect(slot).toHaveAttribute('data-state', 'held', { timeout: 30_000 });
    await expect(slot.locator('.slot__state')).toHaveText('Не сохранено: на телефоне нет места');
    await expect(slot.locator('img')).toBeVisible();
    await expect(page.getByTestId('toast').last()).toContainText('На телефоне закончилось место');
    // A reload would lose it: the browser asks first.
    expect(await page.evaluate(() => {
      const event = new Event('beforeunload', { cancelable: true });
      window.dispatchEvent(event);
      return event.defaultPrevented;
    })).toBe(true);

    // Room again: the photo the page kept is stored, queued and uploaded.
    await cdp.send('Storage.overrideQuotaForOrigin', { origin });
    await task.getByTestId('save-again-front').click();
    await expect(slot).toHaveAttribute('data-state', 'uploaded', { timeout: 30_000 });
    expect((await materialsOnServer(page)).map((m) => m.view)).toEqual(['front']);
  });
});
