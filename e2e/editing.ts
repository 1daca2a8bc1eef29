// The editor's helpers for the journeys that edit a picture (editor.spec.ts on a phone,
// desktop.spec.ts with a mouse and keyboard): a seller with a product shot made by the real studio,
// their product results, a result's pixels, a logo, and the canvas reached from My materials.
import type { APIRequestContext, CDPSession, Locator, Page } from '@playwright/test';
import sharp from 'sharp';
import { createVerifiedSeller } from './accounts';
import { apiToken, entry, finishedTask, submitTask, uploadViews } from './content';
import { activePage, expect } from './support';

export interface EditedAsset {
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

export async function productAssets(request: APIRequestContext, token: string): Promise<EditedAsset[]> {
  const res = await request.get('/api/v1/content/assets?material_category=PRODUCT&page=1&page_size=50', { headers: auth(token) });
  expect(res.status()).toBe(200);
  return (await res.json()).data;
}

/** The pixels of a stored result. */
export async function pixelsOf(request: APIRequestContext, url: string) {
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

/** A red square logo with a transparent margin. */
export async function logoPng(): Promise<Buffer> {
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
export async function sellerWithProductShot(request: APIRequestContext) {
  const seller = await createVerifiedSeller(request, 'edit');
  const token = await apiToken(request, seller);
  const photos = await uploadViews(request, token);
  const task = await submitTask(request, token, photos, [entry('PRODUCT')]);
  expect((await finishedTask(request, token, task, 240_000)).status).toBe('completed');
  const made = await productAssets(request, token);
  expect(made.length).toBeGreaterThan(0);
  // The newest is first in the section: the one the seller picks.
  return { seller, token, shot: made[0]!, made: made.length };
}

/** A point on the canvas by fractions, the canvas brought into view first. */
export async function canvasPoint(canvas: Locator, fx: number, fy: number) {
  await canvas.scrollIntoViewIfNeeded();
  const box = (await canvas.boundingBox())!;
  return { x: box.x + box.width * fx, y: box.y + box.height * fy };
}

export type Point = { x: number; y: number };

/** One or two fingers moving together from `from` to `to` in steps (CDP touch events). */
export async function touchMove(cdp: CDPSession, from: Point[], to: Point[], steps = 12) {
  const points = (t: number) => from.map((start, i) => ({ x: start.x + (to[i]!.x - start.x) * t, y: start.y + (to[i]!.y - start.y) * t, id: i }));
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: points(0) });
  for (let step = 1; step <= steps; step += 1) {
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: points(step / steps) });
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
}

export async function openEditorFromMaterials(page: Page, tileIndex = 0) {
  const product = activePage(page).getByTestId('section-PRODUCT');
  await expect(product.getByTestId('material-tile').nth(tileIndex)).toBeVisible({ timeout: 30_000 });
  await product.getByTestId('material-tile').nth(tileIndex).getByRole('button', { name: /^Выбрать/ }).click();
  await product.getByTestId('action-edit').click();
  await expect(page).toHaveURL(/\/image\/edit\?asset_id=/);
  const canvas = activePage(page).getByTestId('editor-canvas');
  await expect(canvas.locator('canvas').first()).toBeVisible({ timeout: 30_000 });
  return canvas;
}

/** A text added to the picture and typed in place. */
export async function addText(canvas: Locator, editor: Locator, text: string) {
  await editor.getByTestId('add-text').click();
  const typing = canvas.locator('textarea');
  await expect(typing).toBeFocused();
  await typing.fill(text);
  await typing.press('Escape');
}
