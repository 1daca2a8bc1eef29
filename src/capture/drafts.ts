// A seller's work on /task, kept in IndexedDB as it happens (DESIGN §3): the draft per content
// type, each slot's photo and where its upload stands. Pages render it live from IndexedDB
// (useDraftPhotos), so a reload, the app closed, the outbox or another tab all show at once.
import type { ShoeView } from '../../contract/enums';
import type { CompressedPhoto } from '../../contract/capture';
import type { Selection } from '../../contract/selection';
import { db } from '../offline/db';
import { retryDraftKey, type DraftKey, type DraftRecord, type PhotoRecord, type RetryOf, type ShoeParams } from '../offline/records';
import { abandonUpload, enqueueUpload } from '../offline/jobs/upload';

let persistenceAsked = false;

function emptyDraft(contentType: DraftKey): DraftRecord {
  return { contentType, page: 1, slots: {}, shoeParams: {}, styles: null, updatedAt: Date.now() };
}

export async function loadDraft(contentType: DraftKey): Promise<DraftRecord> {
  return (await db.drafts.get(contentType)) ?? emptyDraft(contentType);
}

/**
 * The draft that replaces a rejected task's photos: made once from the task, then kept (with the
 * photos taken for it) until the retry is sent, like any draft.
 */
export async function startRetryDraft(retry: RetryOf): Promise<DraftRecord> {
  const key = retryDraftKey(retry.taskId);
  return db.transaction('rw', db.drafts, async () => {
    const existing = await db.drafts.get(key);
    if (existing?.retry) return existing;
    const draft: DraftRecord = { ...emptyDraft(key), retry };
    await db.drafts.put(draft);
    return draft;
  });
}

/** Asks the browser not to evict our data under storage pressure, once, with the first photo. */
function askForPersistence() {
  if (persistenceAsked) return;
  persistenceAsked = true;
  void navigator.storage?.persist?.().catch(() => false);
}

export class StorageFullError extends Error {
  constructor() {
    super('QUOTA');
    this.name = 'StorageFullError';
  }
}

function isQuotaError(error: unknown): boolean {
  const name = (error as { name?: string; inner?: { name?: string } }).name;
  const inner = (error as { inner?: { name?: string } }).inner?.name;
  return name === 'QuotaExceededError' || inner === 'QuotaExceededError';
}

/**
 * Stores a photo in its slot and queues its upload, replacing what the slot held (taken off the
 * server too if it had gone up), all in one transaction: a tab killed at any moment leaves either
 * the old slot or the new photo with its upload, never a photo nothing will send.
 */
export async function putPhoto(contentType: DraftKey, view: ShoeView, photo: CompressedPhoto): Promise<PhotoRecord> {
  askForPersistence();
  const record: PhotoRecord = {
    id: crypto.randomUUID(),
    draftKey: contentType,
    view,
    mime: photo.mime,
    bytes: photo.bytes,
    width: photo.width,
    height: photo.height,
    createdAt: Date.now(),
  };
  try {
    await db.transaction('rw', db.drafts, db.photos, db.outbox, async () => {
      const draft = (await db.drafts.get(contentType)) ?? emptyDraft(contentType);
      const previous = draft.slots[view];
      if (previous) {
        await db.photos.delete(previous.photoId);
        await abandonUpload(db, contentType, previous);
      }
      await db.photos.put(record);
      draft.slots[view] = { photoId: record.id, state: 'stored' };
      draft.updatedAt = Date.now();
      await db.drafts.put(draft);
      await enqueueUpload(db, contentType, view, record.id);
    });
  } catch (error) {
    if (isQuotaError(error)) throw new StorageFullError();
    throw error;
  }
  return record;
}

/**
 * Moves a slot's photo to another slot (batch photos land in order and the seller puts them
 * right); a photo already there moves the other way. The server filed each upload under its old
 * view, so a moved photo is queued again under the new one and the old material is deleted (a job
 * still in flight finishes on its own and then deletes its material).
 */
export async function movePhoto(contentType: DraftKey, from: ShoeView, to: ShoeView): Promise<void> {
  if (from === to) return;
  await db.transaction('rw', db.drafts, db.photos, db.outbox, async () => {
    const draft = await db.drafts.get(contentType);
    const source = draft?.slots[from];
    if (!draft || !source) return;
    const target = draft.slots[to];
    for (const slot of [source, target]) await abandonUpload(db, contentType, slot);
    const moved = [{ view: to, photoId: source.photoId }];
    draft.slots[to] = { photoId: source.photoId, state: 'stored' };
    if (target) {
      draft.slots[from] = { photoId: target.photoId, state: 'stored' };
      moved.push({ view: from, photoId: target.photoId });
    } else {
      delete draft.slots[from];
    }
    draft.updatedAt = Date.now();
    await db.drafts.put(draft);
    for (const { view, photoId } of moved) {
      await db.photos.update(photoId, { view });
      await enqueueUpload(db, contentType, view, photoId);
    }
  });
}

/** Deletes a slot's photo, with its upload (and its material, if it had gone up). */
export async function removePhoto(contentType: DraftKey, view: ShoeView): Promise<void> {
  await db.transaction('rw', db.drafts, db.photos, db.outbox, async () => {
    const draft = await db.drafts.get(contentType);
    const slot = draft?.slots[view];
    if (!draft || !slot) return;
    await db.photos.delete(slot.photoId);
    await abandonUpload(db, contentType, slot);
    delete draft.slots[view];
    draft.updatedAt = Date.now();
    await db.drafts.put(draft);
  });
}

/**
 * Changes a draft's own fields in one transaction with reading it, so a slot the outbox updated
 * meanwhile is never written back as it was, and two quick changes (two style cards tapped one
 * after the other) each build on the other rather than on what the page showed a moment before.
 */
async function updateDraft(contentType: DraftKey, change: (draft: DraftRecord) => Partial<Pick<DraftRecord, 'page' | 'shoeParams' | 'styles'>>): Promise<void> {
  await db.transaction('rw', db.drafts, async () => {
    const draft = (await db.drafts.get(contentType)) ?? emptyDraft(contentType);
    await db.drafts.put({ ...draft, ...change(draft), updatedAt: Date.now() });
  });
}

/** Sets one of the shoe's measurements, or clears it (`undefined`). */
export function saveShoeParam(contentType: DraftKey, name: keyof ShoeParams, value: number | undefined): Promise<void> {
  return updateDraft(contentType, ({ shoeParams }) => {
    const next = { ...shoeParams };
    if (value === undefined) delete next[name];
    else next[name] = value;
    return { shoeParams: next };
  });
}

export function savePage(contentType: DraftKey, page: 1 | 2): Promise<void> {
  return updateDraft(contentType, () => ({ page }));
}

export function photoOf(id: string) {
  return db.photos.get(id);
}

/** Keeps the server's findings on the slot, unless the seller has replaced the photo since. */
export async function saveWarnings(contentType: DraftKey, view: ShoeView, photoId: string, warnings: string[]): Promise<void> {
  await db.drafts
    .where('contentType')
    .equals(contentType)
    .modify((draft) => {
      const slot = draft.slots[view];
      if (slot?.photoId === photoId) draft.slots[view] = { ...slot, warnings };
    });
}

/** Keeps page 2's choices as the seller makes them: `change` turns the stored choices into the new ones. */
export function saveStyles(contentType: DraftKey, change: (styles: Selection | null) => Selection | null): Promise<void> {
  return updateDraft(contentType, ({ styles }) => ({ styles: change(styles) }));
}
