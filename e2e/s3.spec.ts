// Scale-out storage through a browser: a server whose photos and results live in an S3 bucket
// (s3rver, with the CORS rule the README gives and a front that checks presigned signatures as S3
// does). The page uploads each photo straight to the bucket with the presigned PUT — its exact
// size and type, as signed — under the Content-Security-Policy the server sends, and the results
// are shown from the bucket. The server and bucket start here, only for this journey.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startBucket, type FakeBucket } from '../tests/support/fakes/s3';
import { createVerifiedSeller, signIn } from './accounts';
import { activePage, expect, shoeFiles, test } from './support';

const port = Number(process.env.E2E_PORT ?? 4179) + 2;
const baseURL = `http://127.0.0.1:${port}`;

test.use({ baseURL });
// Starting a server and a bucket, uploading five photos and waiting for the studio engine.
test.describe.configure({ mode: 'serial', timeout: 420_000 });

let bucket: FakeBucket;
let server: ChildProcess;
let dataDir: string;

test.beforeAll(async () => {
  test.setTimeout(150_000);
  bucket = await startBucket();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'solestudio-e2e-s3-'));
  server = spawn('node', ['dist-server/server.js'], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      NETWORK_CACHE_DIR: process.env.E2E_NETWORK_CACHE_DIR,
      STATIC_DIR: 'dist',
      LOG_LEVEL: 'warn',
      PUBLIC_URL: baseURL,
      RATE_LIMIT_DISABLED: 'true',
      ...bucket.env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  await expect
    .poll(() => fetch(`${baseURL}/api/health`).then((res) => res.status, () => 0), { timeout: 120_000, intervals: [500] })
    .toBe(200);
});

test.afterAll(async () => {
  if (server && server.exitCode === null) {
    const exited = new Promise((resolve) => server.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
  }
  await bucket?.close();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

test('with S3 the page uploads five photos straight to the bucket and shows the results from it', async ({ page, request }) => {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  const toBucket: string[] = [];
  page.on('requestfinished', (finished) => {
    if (finished.url().startsWith(bucket.endpoint)) toBucket.push(`${finished.method()} ${new URL(finished.url()).pathname}`);
  });

  const seller = await createVerifiedSeller(request, 's3', dataDir);
  await page.goto('/');
  await signIn(page, seller.username, seller.password, { remember: true, firstTime: true });
  const csp = (await request.get('/api/health')).headers()['content-security-policy'];
  expect(csp).toContain(`connect-src 'self' ${bucket.endpoint}`);

  await activePage(page).getByTestId('tile-product').click();
  await page.getByTestId('requirements-dialog').getByRole('button', { name: 'Понятно' }).click();
  const task = activePage(page);
  await task.getByTestId('batch-input').setInputFiles(await shoeFiles(5));
  for (const view of ['right_45', 'right_side', 'left_side', 'front', 'back']) {
    await expect(task.getByTestId(`slot-${view}`)).toHaveAttribute('data-state', 'uploaded', { timeout: 60_000 });
  }
  // Each photo went to the bucket's upload keys, with exactly the size and type that were signed.
  expect(toBucket.filter((line) => /^PUT \/photos\/uploads\//.test(line))).toHaveLength(5);
  expect(bucket.refused).toEqual([]);

  await task.getByTestId('task-next').click();
  await activePage(page).getByTestId('category-PRODUCT2').getByRole('checkbox').first().click();
  await activePage(page).getByTestId('task-add').click();
  await page.getByTestId('confirm-dialog').getByTestId('confirm-submit').click();
  // The task's own state, not a toast that shows for six seconds: on a busy machine the studio
  // engine may take minutes, and a toast can come and go while the page is elsewhere.
  const statuses = () =>
    page.evaluate(async () => {
      const token = localStorage.getItem('auth_token') ?? sessionStorage.getItem('auth_token');
      const answer = await fetch('/api/v1/content/tasks', { headers: { authorization: `Bearer ${token}` } });
      return ((await answer.json()) as { data: { status: string }[] }).data.map((row) => row.status);
    });
  await expect.poll(statuses, { timeout: 300_000, intervals: [2_000] }).toEqual(['completed']);

  await page.goto('/material');
  const tile = activePage(page).getByTestId('section-PRODUCT').getByTestId('material-tile');
  await expect(tile).toHaveCount(1, { timeout: 20_000 });
  const picture = tile.locator('img.material-tile__media');
  expect(await picture.getAttribute('src')).toMatch(new RegExp(`^${bucket.endpoint}/photos/assets/`));
  await expect.poll(() => picture.evaluate((img: HTMLImageElement) => img.naturalWidth), { timeout: 20_000 }).toBeGreaterThan(0);
  await expect(activePage(page).getByTestId('storage-usage')).toContainText('Хранилище: занято');

  // Nothing the page did was refused by the policy or by the bucket.
  expect(problems.filter((text) => /Content Security Policy|violates|CORS/i.test(text))).toEqual([]);
});
