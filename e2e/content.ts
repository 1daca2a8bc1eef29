// Tasks made through the real API for history journeys, as if the seller had submitted them on
// another device: photos uploaded (one view may be on a busy background, which intake rejects),
// a task submitted, and its end awaited.
import crypto from 'node:crypto';
import { expect, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { FIVE_VIEWS, viewPhoto } from '../tests/fixtures/views';
import { activePage } from './support';

const MODULES: Record<string, string> = {
  PRODUCT: 'PRODUCT_IMAGE',
  PRODUCT2: 'PRODUCT_IMAGE',
  POSTER: 'PRODUCT_IMAGE',
  OUTFIT_COLOR: 'OUTFIT_IMAGE',
  CREATIVE_VIDEO: 'CREATIVE_VIDEO',
};

export function entry(category: keyof typeof MODULES, extra: Record<string, unknown> = {}) {
  return { content_module: MODULES[category], category, custom_params: { shoe_params: {} }, name: category, selected: true, ...extra };
}

export async function apiToken(request: APIRequestContext, seller: { username: string; password: string }): Promise<string> {
  const res = await request.post('/api/v1/auth/login/custom', {
    data: { username_or_email: seller.username, password: seller.password, remember_me: false },
  });
  expect(res.status()).toBe(200);
  return (await res.json()).data.access_token as string;
}

const auth = (token: string) => ({ authorization: `Bearer ${token}` });

/**
 * The five required views' photos; `dark` shoots that view in far too little light, which the photo
 * check refuses. The same photos the server tests upload (tests/fixtures/views.ts): `npm test`
 * gives both one place for the studio's answers, so each is segmented once in the run.
 */
export async function uploadViews(request: APIRequestContext, token: string, { dark }: { dark?: string } = {}) {
  const ids: string[] = [];
  for (const [i, view] of FIVE_VIEWS.entries()) {
    const { jpeg } = await viewPhoto(i, view === dark ? { exposure: 0.2 } : {});
    const registered = await request.post('/api/v1/materials/upload', {
      headers: { ...auth(token), 'idempotency-key': crypto.randomUUID() },
      data: { file_name: `${view}.jpg`, file_type: 'image/jpeg', file_size: jpeg.length, description: JSON.stringify({ view }) },
    });
    expect(registered.status()).toBe(200);
    const ticket = (await registered.json()).data;
    const put = await request.put(ticket.presigned_url, { headers: { 'content-type': 'image/jpeg' }, data: jpeg });
    expect(put.status()).toBe(200);
    ids.push(ticket.material_id as string);
  }
  return ids;
}

export async function submitTask(request: APIRequestContext, token: string, materialIds: string[], config: unknown[]): Promise<string> {
  const res = await request.post('/api/v1/content/generate', {
    headers: { ...auth(token), 'idempotency-key': crypto.randomUUID() },
    data: { content_config: config, material_ids: materialIds },
  });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()).data.id as string;
}

export interface ApiTask {
  id: string;
  status: string;
  failure_type: string | null;
  result: { id: string; category: string; file_type: string }[];
}

export async function taskOf(request: APIRequestContext, token: string, id: string): Promise<ApiTask> {
  const res = await request.get(`/api/v1/content/tasks/${id}`, { headers: auth(token) });
  expect(res.status()).toBe(200);
  return (await res.json()).data as ApiTask;
}

/** Waits for the task to end (completed, partially completed or failed) and returns it. */
export async function finishedTask(request: APIRequestContext, token: string, id: string, timeoutMs = 60_000): Promise<ApiTask> {
  let task: ApiTask | undefined;
  await expect
    .poll(
      async () => {
        task = await taskOf(request, token, id);
        return ['completed', 'partially_completed', 'failed'].includes(task.status);
      },
      { timeout: timeoutMs, intervals: [500] },
    )
    .toBe(true);
  return task!;
}

export async function assetsIn(request: APIRequestContext, token: string, section: string): Promise<{ id: string; category: string }[]> {
  const res = await request.get(`/api/v1/content/assets?material_category=${section}&page=1&page_size=8`, { headers: auth(token) });
  expect(res.status()).toBe(200);
  return (await res.json()).data;
}

/** A section of My materials on the page shown now. */
export const materialSection = (page: Page, name: string) => activePage(page).getByTestId(`section-${name}`);

/** How many columns a grid lays out. */
export const gridColumns = (grid: Locator) => grid.evaluate((el) => getComputedStyle(el).gridTemplateColumns.split(' ').length);
