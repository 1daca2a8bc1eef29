// Events the app's parts send one another through `window` (SPEC §4): the wallet-refresh event
// after a task is submitted, the task-updated event when the server says a task has ended, and
// the wallet-updated event when the server says the balance moved (a top-up landed), and the
// publication-updated event when a publication to a store has ended.
import type { TaskEvent } from '../../contract/content';
import type { PublicationEvent } from '../../contract/publisher';

export const WALLET_REFRESH_EVENT = 'solestudio:wallet-refresh';
export const TASK_UPDATED_EVENT = 'solestudio:task-updated';
export const WALLET_UPDATED_EVENT = 'solestudio:wallet-updated';
export const PUBLICATION_UPDATED_EVENT = 'solestudio:publication-updated';

export function requestWalletRefresh(): void {
  window.dispatchEvent(new Event(WALLET_REFRESH_EVENT));
}

export function announceTaskUpdate(event: TaskEvent): void {
  window.dispatchEvent(new CustomEvent<TaskEvent>(TASK_UPDATED_EVENT, { detail: event }));
}

/** Calls `listener` on every task-updated event; returns the way to stop. */
export function onTaskUpdated(listener: (event: TaskEvent) => void): () => void {
  const handler = (event: Event) => listener((event as CustomEvent<TaskEvent>).detail);
  window.addEventListener(TASK_UPDATED_EVENT, handler);
  return () => window.removeEventListener(TASK_UPDATED_EVENT, handler);
}

export function announceWalletUpdate(): void {
  window.dispatchEvent(new Event(WALLET_UPDATED_EVENT));
}

/** Calls `listener` whenever the balance moved outside a task (a top-up, a refund); returns the way to stop. */
export function onWalletUpdated(listener: () => void): () => void {
  window.addEventListener(WALLET_UPDATED_EVENT, listener);
  return () => window.removeEventListener(WALLET_UPDATED_EVENT, listener);
}

export function announcePublicationUpdate(event: PublicationEvent): void {
  window.dispatchEvent(new CustomEvent<PublicationEvent>(PUBLICATION_UPDATED_EVENT, { detail: event }));
}

/** Calls `listener` whenever a publication ends; returns the way to stop. */
export function onPublicationUpdated(listener: (event: PublicationEvent) => void): () => void {
  const handler = (event: Event) => listener((event as CustomEvent<PublicationEvent>).detail);
  window.addEventListener(PUBLICATION_UPDATED_EVENT, handler);
  return () => window.removeEventListener(PUBLICATION_UPDATED_EVENT, handler);
}
