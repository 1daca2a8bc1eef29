// Publishing onto a product card, on a phone, against the real server's demo store: a key the
// platform would not take is refused in the seller's language; the demo store connects with no
// keys; two results and a video chosen in My materials go onto a demo card after its own pictures,
// each shown applied, the seller told when it ends; the publication stays listed under Stores.
import { createVerifiedSeller, signIn } from './accounts';
import { apiToken, entry, finishedTask, submitTask, uploadViews } from './content';
import { activePage, expect, test, toastShown } from './support';

// A task with a video is made first: the studio's work waits on a busy two-core machine.
test.describe.configure({ timeout: 300_000 });

test('a seller connects the demo store and publishes two results and a video onto a card', async ({ page, request, signedInConsole }) => {
  // The key refused on purpose below.
  signedInConsole.expectAnswer('/api/v1/publisher/auth', 422);
  signedInConsole.expect(/^console error: Failed to load resource: the server responded with a status of 422/);
  const seller = await createVerifiedSeller(request, 'publisher');
  const token = await apiToken(request, seller);
  const photos = await uploadViews(request, token);
  const task = await submitTask(request, token, photos, [entry('PRODUCT2'), entry('POSTER'), entry('CREATIVE_VIDEO', { creative_scene: 'SHOE_GIANT' })]);
  expect((await finishedTask(request, token, task, 240_000)).status).toBe('completed');

  await page.goto('/');
  await signIn(page, seller.username, seller.password, { remember: true, firstTime: true });
  await page.goto('/stores');
  const stores = activePage(page);
  await expect(stores).toHaveAttribute('data-testid', 'stores-page');

  // A Wildberries key that is not one: refused, in Russian, and nothing is connected.
  const wildberries = stores.getByTestId('connect-wildberries');
  await wildberries.getByLabel('API-токен (категория «Контент»)').fill('not-a-real-token');
  await wildberries.getByTestId('connect-submit').click();
  await expect(wildberries.getByRole('alert')).toContainText('Wildberries не принял этот ключ');
  await expect(stores.getByTestId('store-connection')).toHaveCount(0);

  // The demo store, labelled as such, connects with no keys.
  const demo = stores.getByTestId('platform-demo');
  await expect(demo).toContainText('Демо');
  await demo.getByTestId('connect-submit').click();
  await expect(stores.getByTestId('store-connection')).toHaveCount(1);
  await expect(stores.getByTestId('store-connection')).toContainText('SoleStudio demo');

  // My materials: a product shot, a poster and the video, chosen and published.
  await page.goto('/material');
  const material = activePage(page);
  for (const section of ['PRODUCT', 'POSTER', 'CREATIVE_VIDEO']) {
    const tile = material.getByTestId(`section-${section}`).getByTestId('material-tile').first();
    await expect(tile).toBeVisible({ timeout: 30_000 });
    await tile.getByRole('button', { name: /^Выбрать/ }).click();
  }
  await material.getByTestId('publish-selected').click();
  const dialog = page.getByTestId('publish-dialog');
  await expect(dialog).toBeVisible();
  const card = dialog.getByTestId('store-card').filter({ hasText: 'Демо: кроссовки беговые' });
  await expect(card).toContainText('фото: 2');
  await card.click();

  // After the card's own two pictures, as the preview shows; the video goes to the card's video place.
  await expect(dialog.getByTestId('placement-gallery')).toBeChecked();
  await expect(dialog.getByTestId('mode-append')).toBeChecked();
  const preview = dialog.getByTestId('publish-preview');
  await expect(preview.getByRole('listitem')).toHaveCount(3);
  await expect(preview.getByRole('listitem').first()).toHaveText('Фото карточки: 2');
  await expect(dialog.getByTestId('publish-problems')).toHaveCount(0);
  const told = toastShown(page, 'Все материалы на карточке: 3.', 120_000);
  await dialog.getByTestId('publish-send').click();

  const publication = dialog.getByTestId('publication');
  await expect(publication).toHaveAttribute('data-status', 'done', { timeout: 60_000 });
  await expect(publication.getByTestId('publication-item')).toHaveCount(3);
  for (const item of await publication.getByTestId('publication-item').all()) await expect(item).toHaveAttribute('data-status', 'applied');
  await expect(publication).toContainText('На карточке: 3 из 3');
  await told;
  await dialog.getByTestId('publish-close').click();

  // The card holds them now, and the publication is listed under Stores.
  await page.goto('/stores');
  const listed = activePage(page).getByTestId('publication');
  await expect(listed).toHaveCount(1);
  await expect(listed).toHaveAttribute('data-status', 'done');
  await expect(listed).toContainText('Демо: кроссовки беговые');
  await expect(listed.getByRole('link', { name: 'Открыть на карточке' })).toHaveCount(3);
});
