// SPEC §5's rules for a task's photos, shared by the task page and the server.
import { REQUIRED_VIEWS, SHOE_VIEWS, type ShoeView } from './enums';

export const MIN_VIEWS = 5;

export type ViewsProblem = 'viewSize' | 'required';

/** What is wrong with the set of views that have a photo, if anything. */
export function viewsProblem(filled: Iterable<ShoeView>): ViewsProblem | null {
  const have = new Set(filled);
  if (have.size < MIN_VIEWS) return 'viewSize';
  if (REQUIRED_VIEWS.some((view) => !have.has(view))) return 'required';
  return null;
}

/**
 * Where a batch of picked files goes: the empty slots in the order of the guided sequence
 * (required views first), one file each; files beyond the free slots are left over.
 */
export function assignToSlots<T>(files: T[], filled: Iterable<ShoeView>): { placed: [ShoeView, T][]; leftOver: T[] } {
  const taken = new Set(filled);
  const free = SHOE_VIEWS.filter((view) => !taken.has(view));
  const placed = files.slice(0, free.length).map((file, i) => [free[i]!, file] as [ShoeView, T]);
  return { placed, leftOver: files.slice(free.length) };
}
