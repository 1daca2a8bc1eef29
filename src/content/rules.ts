// The rules task history and material history follow (SPEC §4, §5, §9), as plain functions the
// pages call and the unit tests check.
import { SHOE_VIEWS, type ShoeView, type TaskStatus } from '../../contract/enums';

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** SPEC §9: dates read `YYYY-MM-DD HH:mm:ss`, in the device's time zone. */
export function formatDateTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return (
    `${pad(date.getFullYear(), 4)}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ` +
    `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`
  );
}

/** The view a task photo was taken from: its description is JSON holding it (SPEC §3). */
export function materialView(description: string): ShoeView | null {
  try {
    const view = (JSON.parse(description) as { view?: unknown }).view;
    return SHOE_VIEWS.find((v) => v === view) ?? null;
  } catch {
    return null;
  }
}

/** SPEC §4: task history shows pending and processing alike, as processing. */
export function shownStatus(status: TaskStatus): Exclude<TaskStatus, 'pending'> {
  return status === 'pending' ? 'processing' : status;
}

/** What a task's view button does (SPEC §4 task viewing). */
export type ViewAction = 'results' | 'rejection' | 'disabled';

export function viewAction(task: { status: TaskStatus; failure_type: string | null }): ViewAction {
  if (task.status !== 'failed') return 'results';
  return task.failure_type === 'manual_rejection' ? 'rejection' : 'disabled';
}

/** The result carousel shows images only once a task has finished making them. */
export function showsResults(status: TaskStatus): boolean {
  return status === 'completed' || status === 'partially_completed';
}

/** SPEC §4: paging continues while the current page is below `total_pages`. */
export function hasMorePages(meta: { page: number; total_pages: number } | null): boolean {
  return meta !== null && meta.page < meta.total_pages;
}

/** Adds a newly loaded page to the list, once per id (a task may move pages as new ones arrive). */
export function appendPage<T extends { id: string }>(list: readonly T[], page: readonly T[]): T[] {
  const seen = new Set(list.map((item) => item.id));
  return [...list, ...page.filter((item) => !seen.has(item.id))];
}

/** Material history's actions on the selection (SPEC §5 material actions). */
export type MaterialAction = 'download' | 'edit' | 'delete' | 'retry';

/** The §8 message key for an action the selection does not allow, or null when it may go ahead. */
export function materialActionProblem(
  action: MaterialAction,
  selected: readonly { task_id: string | null; file_type: string }[],
): `${'download' | 'edit' | 'del' | 'retry'}_size_invalid` | null {
  switch (action) {
    case 'download':
      return selected.length >= 1 ? null : 'download_size_invalid';
    case 'delete':
      return selected.length >= 1 ? null : 'del_size_invalid';
    case 'edit':
      // The editor works on one image at a time: the first selected must be one.
      return selected.length >= 1 && selected[0]!.file_type.startsWith('image/') ? null : 'edit_size_invalid';
    case 'retry':
      // Exactly one, made by a task from the seller's photos (its material ids).
      return selected.length === 1 && selected[0]!.task_id !== null ? null : 'retry_size_invalid';
  }
}

/** Select-all on a section's page: all of it, or none when all were already selected. */
export function toggleAll(selected: ReadonlySet<string>, page: readonly { id: string }[]): Set<string> {
  const all = page.length > 0 && page.every((item) => selected.has(item.id));
  const next = new Set(selected);
  for (const item of page) {
    if (all) next.delete(item.id);
    else next.add(item.id);
  }
  return next;
}

export function toggleOne(selected: ReadonlySet<string>, id: string): Set<string> {
  const next = new Set(selected);
  if (next.has(id)) next.delete(id);
  else next.add(id);
  return next;
}
