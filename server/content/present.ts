// Tasks as the API shows them (SPEC §3 task): the config with its history merged, the photos
// and results behind time-limited addresses, and the planned outputs with their outcome.
import type { Locale } from '../../contract/locales';
import { mergeConfigHistory, type Task } from '../../contract/content';
import type { Category, FailureType } from '../../contract/enums';
import { translate, type MessageKey } from '../lib/i18n';
import { DOWNLOAD_URL_LIFETIME_S, type ObjectStorage } from '../storage/storage';
import type { TaskRow, taskDetails } from './tasks';
import { assetKind } from './assets';

type Details = Awaited<ReturnType<typeof taskDetails>>;

/** An output's error is stored as a message key with its values: `KEY` or `KEY|{"detail":"…"}`. */
export function outputError(locale: Locale, stored: string | null): string | null {
  if (!stored) return null;
  const [key, vars] = stored.split('|', 2) as [MessageKey, string | undefined];
  return translate(locale, key, vars ? (JSON.parse(vars) as Record<string, string>) : {});
}

export async function publicTask(task: TaskRow, details: Details, storage: ObjectStorage, locale: Locale): Promise<Task> {
  const url = (key: string) => storage.downloadUrl(key, DOWNLOAD_URL_LIFETIME_S);
  const config = task.contentConfig as Record<string, unknown>[];
  const photos = details.photos.filter((photo) => task.materialIds.includes(photo.id));
  const outputs = details.outputs.filter((output) => output.taskId === task.id);
  const showResults = task.status === 'completed' || task.status === 'partially_completed';
  const results = showResults ? details.results.filter((asset) => asset.taskId === task.id) : [];
  return {
    id: task.id,
    status: task.status,
    failure_type: (task.failureType as FailureType | null) ?? null,
    content_config: mergeConfigHistory(config, task.configHistory as Record<string, unknown>[]),
    config_history: task.configHistory as Record<string, unknown>[],
    material_ids: task.materialIds,
    materials: await Promise.all(
      task.materialIds.map(async (id) => {
        const photo = photos.find((p) => p.id === id);
        return {
          id,
          file_url: photo && photo.status === 'uploaded' ? await url(photo.storageKey) : null,
          description: photo?.description ?? '{}',
        };
      }),
    ),
    parameters: config.filter((entry) => entry.selected !== false),
    outputs: outputs.map((output) => ({
      name: output.name,
      category: output.category as Category,
      view: output.view,
      cost: output.cost,
      status: output.status,
      error: outputError(locale, output.error),
    })),
    result: await Promise.all(
      results.map(async (asset) => ({
        id: asset.id,
        url: await url(asset.storageKey),
        poster_url: asset.posterKey ? await url(asset.posterKey) : null,
        ...assetKind(asset),
      })),
    ),
    cost: task.cost,
    created_at: task.createdAt.toISOString(),
    finished_at: task.finishedAt?.toISOString() ?? null,
  };
}
