// Short messages at the top centre (SPEC §8): 3 s generally, longer when asked.
import { atom } from 'jotai';
import { store } from '../lib/store';

export interface Toast {
  id: number;
  message: string;
  tone: 'info' | 'success' | 'error';
  durationMs: number;
}

export const TOAST_MS = 3_000;

export const toastsAtom = atom<Toast[]>([]);
let nextId = 1;

export function showToast(message: string, tone: Toast['tone'] = 'info', durationMs = TOAST_MS): void {
  const toast = { id: nextId++, message, tone, durationMs };
  store.set(toastsAtom, (list) => [...list, toast]);
  setTimeout(() => store.set(toastsAtom, (list) => list.filter((t) => t.id !== toast.id)), durationMs);
}
