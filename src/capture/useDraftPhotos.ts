// A draft's photos as a page works with them (SPEC §4 upload flow, DESIGN §3). The draft is read
// live from IndexedDB, the one truth: what the outbox, the service worker or another tab writes
// shows at once, and nothing here keeps a copy to refresh. Each file is checked, compressed in the
// worker with progress, stored in IndexedDB and queued for upload at once; a photo the device has
// no room for is held in memory until it can be saved. Used by /task and /task/retry.
import { useCallback, useEffect, useRef, useState } from 'react';
import { useAtomValue } from 'jotai';
import { useLiveQuery } from 'dexie-react-hooks';
import { useTranslation } from 'react-i18next';
import type { ShoeView } from '../../contract/enums';
import { isAcceptedPhoto, type CompressedPhoto } from '../../contract/capture';
import { showToast } from '../components/toast';
import { db } from '../offline/db';
import type { DraftKey, DraftRecord } from '../offline/records';
import { PhotoTooLargeError, compressPhoto } from './compress';
import { StorageFullError, loadDraft, movePhoto, putPhoto, removePhoto } from './drafts';
import { heldPhoto, heldPhotosAtom, holdPhoto, releasePhoto } from './held';
import { processUploads } from './uploads';

/** Object URLs for the draft's photos, made once per photo and released when gone. */
function useThumbnails(draft: DraftRecord | null | undefined) {
  const urls = useRef(new Map<string, string>());
  const [, setVersion] = useState(0);
  useEffect(() => {
    if (!draft) return;
    let cancelled = false;
    const wanted = new Set(Object.values(draft.slots).map((slot) => slot!.photoId));
    for (const [id, url] of urls.current) {
      if (!wanted.has(id)) {
        URL.revokeObjectURL(url);
        urls.current.delete(id);
      }
    }
    const missing = [...wanted].filter((id) => !urls.current.has(id));
    if (missing.length === 0) return;
    void db.photos.bulkGet(missing).then((photos) => {
      if (cancelled) return;
      for (const photo of photos) {
        if (photo && !urls.current.has(photo.id)) {
          urls.current.set(photo.id, URL.createObjectURL(new Blob([photo.bytes], { type: photo.mime })));
        }
      }
      setVersion((v) => v + 1);
    });
    return () => {
      cancelled = true;
    };
  }, [draft]);
  useEffect(() => {
    const current = urls.current;
    return () => {
      for (const url of current.values()) URL.revokeObjectURL(url);
      current.clear();
    };
  }, []);
  return (photoId: string | undefined) => (photoId ? urls.current.get(photoId) : undefined);
}

type Compressing = Partial<Record<ShoeView, number>>;

export function useDraftPhotos(key: DraftKey | null) {
  const { t } = useTranslation();
  const stored = useLiveQuery(() => (key ? loadDraft(key) : null), [key]);
  const live = stored && stored.contentType === key ? stored : undefined;
  /** The draft as it was sent, shown while the page waits for the server (the stored one has started over). */
  const [frozen, setFrozen] = useState<DraftRecord | null>(null);
  const draft = frozen ?? live;
  /** Photos in the worker or on their way into IndexedDB, by draft and view: percent compressed. */
  const [progress, setProgress] = useState<Readonly<Partial<Record<DraftKey, Compressing>>>>({});
  const held = useAtomValue(heldPhotosAtom);
  const thumbnail = useThumbnails(draft);
  const compressing: Compressing = (key && progress[key]) || {};

  const storePhoto = async (view: ShoeView, photo: CompressedPhoto) => {
    if (!key) return;
    await putPhoto(key, view, photo);
    releasePhoto(key, view);
    void processUploads();
  };

  const addPhoto = async (view: ShoeView, file: File) => {
    if (!key) return;
    if (!isAcceptedPhoto(file)) {
      showToast(t('task.errors.format'), 'error');
      return;
    }
    const report = (percent: number) => setProgress((p) => ({ ...p, [key]: { ...p[key], [view]: percent } }));
    report(0);
    let compressed: CompressedPhoto | undefined;
    try {
      compressed = await compressPhoto(file, report);
      await storePhoto(view, compressed);
    } catch (error) {
      if (error instanceof PhotoTooLargeError) showToast(t('task.errors.tooLarge'), 'error');
      else if (error instanceof StorageFullError && compressed) {
        // Nowhere to store it: the page keeps it until the seller has made room.
        holdPhoto(key, view, compressed);
        showToast(t('task.errors.quota'), 'error', 10_000);
      } else showToast(t('task.errors.compress'), 'error');
    } finally {
      setProgress((p) => {
        const { [view]: _, ...rest } = p[key] ?? {};
        return { ...p, [key]: rest };
      });
    }
  };

  const saveHeld = async (view: ShoeView) => {
    const photo = key ? heldPhoto(held, key, view)?.photo : undefined;
    if (!photo) return;
    try {
      await storePhoto(view, photo);
    } catch (error) {
      showToast(t(error instanceof StorageFullError ? 'task.errors.quota' : 'task.errors.compress'), 'error', 10_000);
    }
  };

  const move = async (from: ShoeView, to: ShoeView) => {
    if (!key) return;
    await movePhoto(key, from, to);
    void processUploads();
  };

  const remove = async (view: ShoeView) => {
    if (!key) return;
    releasePhoto(key, view);
    await removePhoto(key, view);
    // A photo that had gone up leaves a deletion in the outbox: it goes now.
    void processUploads();
  };

  /** Keeps showing `sent` until `thaw`, whatever IndexedDB holds meanwhile. */
  const freeze = useCallback((sent: DraftRecord) => setFrozen(sent), []);
  const thaw = useCallback(() => setFrozen(null), []);

  return {
    /** The draft: undefined until IndexedDB has answered. */
    draft,
    compressing,
    /** Whether a photo is still being compressed or stored: what the draft holds is not yet what the seller picked. */
    processing: Object.keys(compressing).length > 0,
    held,
    thumbnail,
    addPhoto,
    saveHeld,
    move,
    remove,
    freeze,
    thaw,
  };
}

export type DraftPhotos = ReturnType<typeof useDraftPhotos>;
