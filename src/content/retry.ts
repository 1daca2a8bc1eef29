// What a retry of a rejected task keeps (SPEC §4, §5): the task's styles and the photos intake
// accepted; the rejected views, with their photos and reasons, are to be shot again.
import { mergeConfigHistory, type FailureDetail, type Task } from '../../contract/content';
import { CONTENT_MODULE_OF, CONTENT_TYPES, type ContentType, type ShoeView } from '../../contract/enums';
import type { RetryOf } from '../offline/records';
import { materialView } from './rules';

function contentTypeOfTask(task: Task): ContentType {
  const module = task.content_config[0]?.content_module;
  return CONTENT_TYPES.find((type) => CONTENT_MODULE_OF[type] === module) ?? 'product';
}

/** What the retry keeps of the task, and which views were rejected and why. */
export function planRetry(task: Task, details: FailureDetail[]) {
  const rejectedIds = new Set(details.map((detail) => detail.material_id));
  const rejected = new Map<ShoeView, { reason: string; url: string | null }>();
  const kept: RetryOf['kept'] = [];
  for (const material of task.materials) {
    const view = materialView(material.description);
    if (!view) continue;
    const detail = details.find((d) => d.material_id === material.id);
    if (rejectedIds.has(material.id)) rejected.set(view, { reason: detail?.reason ?? '', url: detail?.file_url ?? material.file_url });
    else kept.push({ view, materialId: material.id, url: material.file_url });
  }
  const retry: RetryOf = {
    taskId: task.id,
    contentType: contentTypeOfTask(task),
    contentConfig: mergeConfigHistory(task.content_config, task.config_history),
    kept,
    total: task.cost,
    outputs: task.outputs.length,
  };
  return { retry, rejected };
}
