// What a seller sees of the payment setup: on a server with no payment service the recharge and
// plan screens say buying is not available instead of offering buttons that fail, and where the
// sandbox runs at an address sellers reach every page says that no money moves. Each server
// starts here, only for these journeys.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { APIRequestContext } from '@playwright/test';
import { createVerifiedSeller, signIn } from './accounts';
import { activePage, expect, test } from './support';

const base = Number(process.env.E2E_PORT ?? 4179);
const servers = {
  // No keys and no sandbox: nothing can be bought.
  none: { port: base + 3, env: { PAYMENTS_SANDBOX: 'false' } },
  // The sandbox asked for at a public address.
  warned: { port: base + 4, env: { PAYMENTS_SANDBOX: 'true', PUBLIC_URL: 'https://shop.example' } },
};
const urlOf = (port: number) => `http://127.0.0.1:${port}`;

test.describe.configure({ mode: 'serial', timeout: 180_000 });

const started: { process: ChildProcess; dataDir: string }[] = [];

test.beforeAll(async () => {
  test.setTimeout(150_000);
  for (const { port, env } of Object.values(servers)) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'solestudio-e2e-pay-'));
    const child = spawn('node', ['dist-server/server.js'], {
      env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, STATIC_DIR: 'dist', LOG_LEVEL: 'warn', PUBLIC_URL: urlOf(port), RATE_LIMIT_DISABLED: 'true', ...env },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    started.push({ process: child, dataDir });
  }
  for (const { port } of Object.values(servers)) {
    await expect
      .poll(() => fetch(`${urlOf(port)}/api/health`).then((res) => res.status, () => 0), { timeout: 120_000, intervals: [500] })
      .toBe(200);
  }
});

test.afterAll(async () => {
  for (const { process: child, dataDir } of started) {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

/** A seller signed up and verified on the server at `port` (whose mail is in `dataDir`). */
async function sellerOn(playwright: { request: { newContext(options: { baseURL: string }): Promise<APIRequestContext> } }, port: number, dataDir: string) {
  const api = await playwright.request.newContext({ baseURL: urlOf(port) });
  try {
    return await createVerifiedSeller(api, 'pay', dataDir);
  } finally {
    await api.dispose();
  }
}

test('with no payment service the recharge and plan screens say buying is not available', async ({ page, playwright }) => {
  const { port } = servers.none;
  const seller = await sellerOn(playwright, port, started[0]!.dataDir);
  await page.goto(`${urlOf(port)}/`);
  await signIn(page, seller.username, seller.password, { remember: true, firstTime: true });
  await expect(page.getByTestId('test-payments-banner')).toHaveCount(0);

  await page.goto(`${urlOf(port)}/recharge`);
  const recharge = activePage(page);
  await expect(recharge.getByTestId('recharge-unavailable')).toHaveText('Покупка токенов на этом сервере недоступна: платёжные сервисы не подключены.');
  await expect(recharge.getByTestId('recharge-submit')).toHaveCount(0);

  await page.goto(`${urlOf(port)}/subscription`);
  const plans = activePage(page);
  await expect(plans.getByTestId('plans-unavailable')).toBeVisible();
  await expect(plans.getByTestId('choose-plan-1')).toHaveAttribute('aria-disabled', 'true');
});

test('where the sandbox runs at a public address every page says no money moves', async ({ page }) => {
  const { port } = servers.warned;
  await page.goto(`${urlOf(port)}/`);
  const banner = page.getByTestId('test-payments-banner');
  await expect(banner).toHaveText(/Тестовые платежи/);
  await page.goto(`${urlOf(port)}/shoes`);
  await expect(banner).toBeVisible();
});
