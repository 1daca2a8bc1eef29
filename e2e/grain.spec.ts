// The guided camera in a dim room (issue 16 §2c): Chromium's fake camera plays a clip of a shoe
// standing in the middle of the frame with wide margins, underexposed and with the heavy grain a
// phone's sensor shows at high ISO. The six shots go up, the server's check passes every one (no
// slot says the shoe is cut off), and a product-shots task made from them is not rejected.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { chromium, type LaunchOptions, type Page } from '@playwright/test';
import { shoePhoto } from '../tests/fixtures/shoes';
import { createVerifiedSeller, signIn } from './accounts';
import { activePage, expect, test } from './support';

// Six 2080 px shots, their uploads and checks, and a task: about a minute and a half on a busy
// 2-core machine, so the bound is generous.
test.describe.configure({ timeout: 240_000 });

const SIX = ['right_45', 'right_side', 'left_side', 'front', 'back', 'bottom'] as const;
const FRAME = 640;

/** A one-frame Y4M clip (I420, full-range BT.601) of a grainy, dim, centred shoe. */
async function grainyClip(file: string) {
  const photo = await shoePhoto({ width: FRAME, height: FRAME, exposure: 0.72, grain: 32, seed: 21 });
  const rgb = await sharp(photo.jpeg).removeAlpha().raw().toBuffer();
  const w = FRAME;
  const h = FRAME;
  const y = Buffer.alloc(w * h);
  const u = Buffer.alloc((w / 2) * (h / 2));
  const v = Buffer.alloc((w / 2) * (h / 2));
  const clamp = (value: number) => Math.max(0, Math.min(255, Math.round(value)));
  for (let i = 0; i < w * h; i += 1) y[i] = clamp(0.299 * rgb[i * 3]! + 0.587 * rgb[i * 3 + 1]! + 0.114 * rgb[i * 3 + 2]!);
  for (let row = 0; row < h / 2; row += 1) {
    for (let col = 0; col < w / 2; col += 1) {
      let r = 0;
      let g = 0;
      let b = 0;
      for (const [dy, dx] of [[0, 0], [0, 1], [1, 0], [1, 1]] as const) {
        const i = ((row * 2 + dy) * w + col * 2 + dx) * 3;
        r += rgb[i]! / 4;
        g += rgb[i + 1]! / 4;
        b += rgb[i + 2]! / 4;
      }
      u[row * (w / 2) + col] = clamp(128 - 0.168736 * r - 0.331264 * g + 0.5 * b);
      v[row * (w / 2) + col] = clamp(128 + 0.5 * r - 0.418688 * g - 0.081312 * b);
    }
  }
  const header = Buffer.from(`YUV4MPEG2 W${w} H${h} F30:1 Ip A1:1 C420jpeg\n`);
  fs.writeFileSync(file, Buffer.concat([header, Buffer.from('FRAME\n'), y, u, v]));
}

interface Verification {
  material_id: string;
  view: string;
  ok: boolean;
  findings: { check: string; ok: boolean; message: string }[];
}

/** Calls the API as the signed-in seller. */
async function api<T>(page: Page, url: string, body?: unknown): Promise<T> {
  return page.evaluate(
    async ([url, body]) => {
      const token = localStorage.getItem('auth_token') ?? sessionStorage.getItem('auth_token');
      const headers: Record<string, string> = { authorization: `Bearer ${token}` };
      if (body) Object.assign(headers, { 'content-type': 'application/json', 'idempotency-key': `grain-${Date.now()}` });
      const res = await fetch(url, { method: body ? 'POST' : 'GET', headers, body: body ? JSON.stringify(body) : undefined });
      return (await res.json()).data;
    },
    [url, body] as const,
  );
}

test('six shots of a centred shoe in a dim room with heavy grain: none is called cut off, and their task is not rejected', async ({ request, baseURL }, testInfo) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'solestudio-grain-'));
  const clip = path.join(dir, 'dim-shoe.y4m');
  await grainyClip(clip);
  // This journey's own browser: the fake camera plays the clip instead of its test pattern.
  const { launchOptions, defaultBrowserType: _, ...device } = testInfo.project.use as typeof testInfo.project.use & { launchOptions: LaunchOptions };
  const browser = await chromium.launch({ ...launchOptions, args: [...(launchOptions.args ?? []), `--use-file-for-fake-video-capture=${clip}`] });
  try {
    const context = await browser.newContext({ ...device, baseURL });
    const page = await context.newPage();
    const verified: Verification[] = [];
    page.on('response', (res) => {
      if (res.url().endsWith('/api/v1/shoe-verification/verify-angle') && res.ok()) void res.json().then((body) => verified.push(body.data));
    });

    const seller = await createVerifiedSeller(request, 'grain');
    await page.goto('/');
    await signIn(page, seller.username, seller.password, { remember: true, firstTime: true });
    await activePage(page).getByTestId('tile-product').click();
    await page.getByTestId('requirements-dialog').getByTestId('requirements-camera').click();
    const camera = page.getByTestId('camera-dialog');
    for (let i = 0; i < SIX.length; i += 1) {
      // Each shot is drawn, encoded and stored before the next angle shows: slow on a busy machine.
      await expect(camera.getByRole('heading')).toContainText(`(${i + 1} из 6)`, { timeout: 60_000 });
      await expect(camera.getByTestId('camera-shutter')).toBeEnabled({ timeout: 30_000 });
      await camera.getByTestId('camera-shutter').click();
    }
    await expect(camera).toBeHidden({ timeout: 30_000 });
    const task = activePage(page);
    for (const view of SIX) await expect(task.getByTestId(`slot-${view}`)).toHaveAttribute('data-state', 'uploaded', { timeout: 60_000 });

    // The server checked each shot: every one passes, so no slot asks for a retake.
    await expect.poll(() => verified.length, { timeout: 60_000 }).toBe(6);
    expect(new Set(verified.map((v) => v.view))).toEqual(new Set(SIX));
    for (const v of verified) {
      expect(v.findings.find((f) => f.check === 'subject'), v.view).toMatchObject({ ok: true });
      expect(v.ok, `${v.view}: ${JSON.stringify(v.findings.filter((f) => !f.ok))}`).toBe(true);
    }
    for (const view of SIX) await expect(task.getByTestId(`warnings-${view}`)).toHaveCount(0);
    await expect(task).not.toContainText('Обувь не помещается в кадр целиком.');

    // A product-shots task from the six: intake takes the photos, and the shots are made.
    const submitted = await api<{ id: string }>(page, '/api/v1/content/generate', {
      content_config: [{ content_module: 'PRODUCT_IMAGE', category: 'PRODUCT', custom_params: { shoe_params: {} }, name: 'PRODUCT', selected: true, views: ['front'] }],
      material_ids: verified.map((v) => v.material_id),
    });
    expect(submitted.id).toBeTruthy();
    await expect
      .poll(async () => {
        const row = await api<{ status: string; failure_type: string | null }>(page, `/api/v1/content/tasks/${submitted.id}`);
        return [row.status, row.failure_type];
      }, { timeout: 90_000, intervals: [500] })
      .toEqual(['completed', null]);
  } finally {
    await browser.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
