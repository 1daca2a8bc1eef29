// Photos the device had no room to store (a quota error): kept in memory, shown on their slots
// with a way to save them again, and guarded by the browser's leave-page warning, so a full disk
// costs the seller a retry, never the photo.
import { atom } from 'jotai';
import type { ShoeView } from '../../contract/enums';
import type { CompressedPhoto } from '../../contract/capture';
import { store } from '../lib/store';
import type { DraftKey } from '../offline/records';

export interface HeldPhoto {
  photo: CompressedPhoto;
  /** An object URL for the slot's thumbnail. */
  url: string;
}

const key = (contentType: DraftKey, view: ShoeView) => `${contentType}:${view}`;

/** Every held photo by `contentType:view`; the atom re-renders the slots when it changes. */
export const heldPhotosAtom = atom<ReadonlyMap<string, HeldPhoto>>(new Map());

function warnBeforeLeaving(event: BeforeUnloadEvent) {
  event.preventDefault();
}

function update(change: (next: Map<string, HeldPhoto>) => void) {
  const next = new Map(store.get(heldPhotosAtom));
  change(next);
  store.set(heldPhotosAtom, next);
  if (next.size > 0) window.addEventListener('beforeunload', warnBeforeLeaving);
  else window.removeEventListener('beforeunload', warnBeforeLeaving);
}

export function holdPhoto(contentType: DraftKey, view: ShoeView, photo: CompressedPhoto): void {
  update((next) => {
    const previous = next.get(key(contentType, view));
    if (previous) URL.revokeObjectURL(previous.url);
    next.set(key(contentType, view), { photo, url: URL.createObjectURL(new Blob([photo.bytes], { type: photo.mime })) });
  });
}

export function heldPhoto(held: ReadonlyMap<string, HeldPhoto>, contentType: DraftKey, view: ShoeView): HeldPhoto | undefined {
  return held.get(key(contentType, view));
}

export function releasePhoto(contentType: DraftKey, view: ShoeView): void {
  if (!store.get(heldPhotosAtom).has(key(contentType, view))) return;
  update((next) => {
    URL.revokeObjectURL(next.get(key(contentType, view))!.url);
    next.delete(key(contentType, view));
  });
}
