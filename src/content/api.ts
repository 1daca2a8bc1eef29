// The calls behind task history, task retry and material history (SPEC §7 Content).
import { z } from 'zod';
import { assetDownloadSchema, assetSchema, ASSETS_PAGE_SIZE, type MaterialSection } from '../../contract/assets';
import { failureDetailSchema, generateResultSchema, taskSchema, TASKS_PAGE_SIZE } from '../../contract/content';
import { okEnvelope, pagedEnvelope } from '../../contract/envelope';
import { storageUsageSchema } from '../../contract/materials';
import { apiRequest } from '../lib/api-client';

const TASKS = '/api/v1/content/tasks';
const ASSETS = '/api/v1/content/assets';

const taskPage = pagedEnvelope(taskSchema);
/** A page of one section's results, as the material page keeps it for offline. */
export const assetPage = pagedEnvelope(assetSchema);
const oneTask = okEnvelope(taskSchema);
const oneAsset = okEnvelope(assetSchema);
const details = okEnvelope(z.array(failureDetailSchema));
const generated = okEnvelope(generateResultSchema);
const download = okEnvelope(assetDownloadSchema);
const nothing = okEnvelope(z.null());
const usage = okEnvelope(storageUsageSchema);

export type TaskPage = z.output<typeof taskPage>;
export type AssetPage = z.output<typeof assetPage>;

export function listTasks(page: number, signal?: AbortSignal): Promise<TaskPage> {
  return apiRequest(TASKS, { schema: taskPage, query: { page, page_size: TASKS_PAGE_SIZE }, signal });
}

export async function getTask(id: string, signal?: AbortSignal) {
  return (await apiRequest(`${TASKS}/${encodeURIComponent(id)}`, { schema: oneTask, signal })).data;
}

export async function getFailureDetails(id: string, signal?: AbortSignal) {
  return (await apiRequest(`${TASKS}/${encodeURIComponent(id)}/failure-details`, { schema: details, signal })).data;
}

export function listAssets(section: MaterialSection, page: number, signal?: AbortSignal): Promise<AssetPage> {
  return apiRequest(ASSETS, { schema: assetPage, query: { material_category: section, page, page_size: ASSETS_PAGE_SIZE }, signal });
}

/** One of the seller's results (an edit opens on it). */
export async function getAsset(id: string, signal?: AbortSignal) {
  return (await apiRequest(`${ASSETS}/${encodeURIComponent(id)}`, { schema: oneAsset, signal })).data;
}

export async function deleteAssets(ids: readonly string[]): Promise<string> {
  return (await apiRequest(ASSETS, { method: 'DELETE', body: { asset_ids: ids }, schema: nothing })).message;
}

/** Asks for one zip of these assets; the answer's address streams it (and expires). */
export async function prepareDownload(ids: readonly string[]) {
  return (await apiRequest(`${ASSETS}/download`, { method: 'POST', body: { asset_ids: ids }, schema: download })).data;
}

/** Makes one result again under a new task (SPEC §4 retry); the key makes a resend harmless. */
export async function regenerate(assetId: string, idempotencyKey: string) {
  return (
    await apiRequest('/api/v1/content/regenerate', {
      method: 'POST',
      body: { asset_id: assetId },
      headers: { 'Idempotency-Key': idempotencyKey },
      schema: generated,
    })
  ).data;
}

/** How much the seller keeps in storage, against the server's quota. */
export async function getStorageUsage(signal?: AbortSignal) {
  return (await apiRequest('/api/v1/materials/storage', { schema: usage, signal })).data;
}
