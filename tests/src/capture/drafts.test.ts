// Slots of a draft on fake-indexeddb: a photo replaces what its slot held, and a photo moved to
// another slot (or swapped with the one there) is queued again under its new view. A photo is
// stored with its upload in one transaction, a draft left with a photo and no upload (by an older
// build killed between its two steps) is queued at start-up, and a material already on the server
// for a photo that is replaced, moved or deleted is queued for deletion.
import 'fake-indexeddb/auto';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ShoeView } from '../../../contract/enums';
import type { Selection } from '../../../contract/selection';
import { loadDraft, movePhoto, putPhoto, removePhoto, savePage, saveShoeParam, saveStyles } from '../../../src/capture/drafts';
import { db } from '../../../src/offline/db';
import type { DeleteJob, UploadJob } from '../../../src/offline/records';
import { purgeDone } from '../../../src/offline/outbox';
import { queueStrandedPhotos } from '../../../src/offline/jobs/upload';

function photo(marker: number) {
  return { bytes: new Uint8Array([0xff, 0xd8, 0xff, marker]).buffer, mime: 'image/jpeg' as const, width: 2080, height: 2080 };
}

async function jobFor(view: ShoeView) {
  const slot = (await loadDraft('product')).slots[view];
  return slot?.jobId ? db.outbox.get(slot.jobId) : undefined;
}

const persist = vi.fn(async () => true);
beforeAll(() => {
  Object.defineProperty(navigator, 'storage', { value: { persist }, configurable: true });
});

afterEach(async () => {
  vi.restoreAllMocks();
  await db.transaction('rw', db.drafts, db.photos, db.outbox, async () => {
    await Promise.all([db.drafts.clear(), db.photos.clear(), db.outbox.clear()]);
  });
});

describe('draft slots', () => {
  it('stores a photo, queues it, and replaces both when the slot gets another', async () => {
    const first = await putPhoto('product', 'front', photo(1));
    // The first photo asks the browser to keep the app's storage under pressure; once is enough.
    expect(persist).toHaveBeenCalledTimes(1);
    const firstJob = await jobFor('front');
    expect(firstJob).toMatchObject({ state: 'queued', view: 'front', photoId: first.id });

    const second = await putPhoto('product', 'front', photo(2));
    expect((await loadDraft('product')).slots.front).toMatchObject({ photoId: second.id, state: 'queued' });
    expect(await db.photos.get(first.id)).toBeUndefined();
    expect(await db.outbox.get(firstJob!.id)).toBeUndefined();
    expect(await db.outbox.count()).toBe(1);
    expect(persist).toHaveBeenCalledTimes(1);
  });

  it('moves a photo to an empty slot and queues it under the new view', async () => {
    const stored = await putPhoto('product', 'optional1', photo(1));
    const old = await jobFor('optional1');
    await movePhoto('product', 'optional1', 'back');

    const draft = await loadDraft('product');
    expect(draft.slots.optional1).toBeUndefined();
    expect(draft.slots.back).toMatchObject({ photoId: stored.id, state: 'queued' });
    expect(await db.outbox.get(old!.id)).toBeUndefined();
    expect(await jobFor('back')).toMatchObject({ view: 'back', photoId: stored.id, state: 'queued' });
    expect((await db.photos.get(stored.id))?.view).toBe('back');
  });

  it('swaps two photos, drops what the server found about their old views, and uploads both again', async () => {
    const left = await putPhoto('product', 'left_side', photo(1));
    const right = await putPhoto('product', 'right_side', photo(2));
    await db.drafts.update('product', {
      'slots.left_side.state': 'uploaded',
      'slots.left_side.materialId': 'material-1',
      'slots.left_side.warnings': ['The shoe is cut off'],
    });
    await movePhoto('product', 'left_side', 'right_side');

    const draft = await loadDraft('product');
    expect(draft.slots.right_side).toMatchObject({ photoId: left.id, state: 'queued' });
    expect(draft.slots.left_side).toMatchObject({ photoId: right.id, state: 'queued' });
    expect(draft.slots.right_side?.warnings).toBeUndefined();
    expect(draft.slots.right_side?.materialId).toBeUndefined();
    const jobs = (await db.outbox.toArray()).filter((job) => job.kind === 'upload') as UploadJob[];
    // The material filed under the old view is deleted from the server.
    expect(await deletions()).toEqual(['material-1']);
    expect(jobs.map((job) => [job.view, job.photoId]).sort()).toEqual(
      [
        ['left_side', right.id],
        ['right_side', left.id],
      ].sort(),
    );
  });

  it('leaves a job that is being sent to finish on its own', async () => {
    await putPhoto('product', 'bottom', photo(1));
    const sending = await jobFor('bottom');
    await db.outbox.update(sending!.id, { state: 'running' });
    await movePhoto('product', 'bottom', 'front');

    expect((await db.outbox.get(sending!.id))?.state).toBe('running');
    expect(await jobFor('front')).toMatchObject({ view: 'front', state: 'queued' });
    expect(await db.outbox.count()).toBe(2);
  });

  it('deletes a photo with its job', async () => {
    const stored = await putPhoto('product', 'right_45', photo(1));
    await removePhoto('product', 'right_45');
    expect((await loadDraft('product')).slots.right_45).toBeUndefined();
    expect(await db.photos.get(stored.id)).toBeUndefined();
    expect(await db.outbox.count()).toBe(0);
  });
});

/** The materials queued for deletion. */
async function deletions() {
  return ((await db.outbox.toArray()).filter((job) => job.kind === 'delete') as DeleteJob[]).map((job) => job.materialId).sort();
}

/** Marks a slot's photo as on the server, as the outbox does once its upload is done. */
async function uploaded(view: ShoeView, materialId: string) {
  const job = await jobFor(view);
  await db.outbox.update(job!.id, (stored) => void Object.assign(stored, { state: 'done', materialId }));
  await db.drafts.update('product', (draft) => void (draft.slots[view] = { ...draft.slots[view]!, state: 'uploaded', materialId }));
}

describe('a photo and its upload', () => {
  it('are written in one transaction: when queueing fails, the photo is not stored either', async () => {
    const kept = await putPhoto('product', 'front', photo(1));
    const keptJob = await jobFor('front');
    // The upload's job id is already taken, so queueing it fails after the photo was written.
    const taken: DeleteJob = { id: 'taken', kind: 'delete', draftKey: 'product', materialId: 'm', state: 'done', attempts: 0, nextAttemptAt: 0, createdAt: 0, updatedAt: 0 };
    await db.outbox.add(taken);
    const ids = ['new-photo', 'taken'];
    vi.spyOn(crypto, 'randomUUID').mockImplementation(() => ids.shift() as ReturnType<typeof crypto.randomUUID>);
    await expect(putPhoto('product', 'front', photo(2))).rejects.toThrow();

    expect(await db.photos.get('new-photo')).toBeUndefined();
    expect((await loadDraft('product')).slots.front).toMatchObject({ photoId: kept.id, jobId: keptJob!.id, state: 'queued' });
    expect(await db.photos.get(kept.id)).toBeDefined();
  });

  it('is queued at start-up when a draft holds a photo with no upload, and only once', async () => {
    const stranded = await putPhoto('product', 'back', photo(1));
    const onServer = await putPhoto('product', 'front', photo(2));
    await uploaded('front', 'material-front');
    await putPhoto('product', 'left_side', photo(3));
    // What an older build left when the tab was killed between storing a photo and queueing it,
    // and an uploaded slot whose finished job was forgotten; a slot whose photo is gone is left.
    await db.outbox.clear();
    await db.drafts.update('product', { 'slots.back': { photoId: stranded.id, state: 'stored' } });
    await db.drafts.update('product', { 'slots.left_side.photoId': 'no-such-photo' });

    expect(await queueStrandedPhotos(db)).toBe(2);
    const draft = await loadDraft('product');
    expect(draft.slots.back).toMatchObject({ photoId: stranded.id, state: 'queued', jobId: expect.any(String) });
    expect(await jobFor('back')).toMatchObject({ kind: 'upload', state: 'queued', photoId: stranded.id, view: 'back' });
    expect(draft.slots.front).toMatchObject({ photoId: onServer.id, state: 'uploaded', materialId: 'material-front' });
    expect(await jobFor('front')).toMatchObject({ kind: 'upload', state: 'done', materialId: 'material-front', photoId: onServer.id });
    expect(await jobFor('left_side')).toBeUndefined();

    expect(await queueStrandedPhotos(db)).toBe(0);
    expect(await db.outbox.count()).toBe(2);
  });
});

describe('a photo that had gone up', () => {
  it('is deleted from the server when it is replaced, moved or deleted', async () => {
    await putPhoto('product', 'front', photo(1));
    await uploaded('front', 'material-1');
    await putPhoto('product', 'front', photo(2));
    expect(await deletions()).toEqual(['material-1']);

    await putPhoto('product', 'back', photo(3));
    await uploaded('back', 'material-2');
    await movePhoto('product', 'back', 'left_side');
    expect(await deletions()).toEqual(['material-1', 'material-2']);

    await uploaded('left_side', 'material-3');
    await removePhoto('product', 'left_side');
    expect(await deletions()).toEqual(['material-1', 'material-2', 'material-3']);
  });

  it('is deleted once registered even if its bytes never arrived; a photo never registered needs nothing', async () => {
    await putPhoto('product', 'front', photo(1));
    await putPhoto('product', 'front', photo(2));
    expect(await deletions()).toEqual([]);
    const registered = await jobFor('front');
    await db.outbox.update(registered!.id, (job) => void Object.assign(job, { materialId: 'material-pending', attempts: 1 }));
    await removePhoto('product', 'front');
    expect(await deletions()).toEqual(['material-pending']);
  });

  it('leaves a job being sent to its runner, which deletes what it made (see the outbox tests)', async () => {
    await putPhoto('product', 'front', photo(1));
    const sending = await jobFor('front');
    await db.outbox.update(sending!.id, (job) => void Object.assign(job, { state: 'running', materialId: 'material-1' }));
    await putPhoto('product', 'front', photo(2));
    expect((await db.outbox.get(sending!.id))?.state).toBe('running');
    expect(await deletions()).toEqual([]);
  });
});

describe('finished jobs a day old', () => {
  it('are forgotten, except an upload a draft still carries (its material goes with the task)', async () => {
    const now = Date.now();
    const twoDaysAgo = now - 2 * 24 * 60 * 60_000;
    await putPhoto('product', 'front', photo(1));
    await uploaded('front', 'material-1');
    const carried = await jobFor('front');
    await db.outbox.update(carried!.id, { updatedAt: twoDaysAgo });
    const old = (id: string, state: 'done' | 'failed'): DeleteJob => ({ id, kind: 'delete', draftKey: 'product', materialId: id, state, attempts: 1, nextAttemptAt: 0, createdAt: twoDaysAgo, updatedAt: twoDaysAgo });
    await db.outbox.bulkAdd([old('old-done', 'done'), old('old-refused', 'failed'), { ...old('recent', 'done'), updatedAt: now }]);

    await purgeDone(db, now);
    expect((await db.outbox.toCollection().primaryKeys()).sort()).toEqual([carried!.id, 'recent'].sort());
  });
});

describe("page 2's choices", () => {
  it('never write back a slot as it was before the outbox changed it', async () => {
    const picked = { categories: { PRODUCT: [] }, custom: false, prompt: '' };
    await putPhoto('product', 'front', photo(1));
    const { jobId } = (await loadDraft('product')).slots.front!;
    // The seller turns to page 2, names the shoe's heights and picks styles while the upload ends.
    const finishing = db.drafts
      .where('contentType')
      .equals('product')
      .modify((draft) => {
        draft.slots.front = { ...draft.slots.front!, state: 'uploaded', materialId: 'material-1' };
      });
    await Promise.all([savePage('product', 2), saveShoeParam('product', 'heelHeight', 3), saveStyles('product', () => picked), finishing]);
    const draft = await loadDraft('product');
    expect(draft.slots.front).toMatchObject({ state: 'uploaded', materialId: 'material-1', jobId });
    expect(draft).toMatchObject({ page: 2, shoeParams: { heelHeight: 3 }, styles: picked });
  });

  it('build on each other when two come before the page has shown the first', async () => {
    // Two measurements typed and two cards tapped in quick succession: each change starts from
    // what is stored, not from the draft the page rendered before the other one landed.
    const toggle = (name: 'PRODUCT' | 'POSTER') => (styles: Selection | null): Selection => ({
      categories: { ...styles?.categories, [name]: [] },
      custom: false,
      prompt: '',
    });
    await Promise.all([
      saveShoeParam('product', 'heelHeight', 3),
      saveShoeParam('product', 'shaftHeight', 12.5),
      saveStyles('product', toggle('PRODUCT')),
      saveStyles('product', toggle('POSTER')),
    ]);
    expect(await loadDraft('product')).toMatchObject({ shoeParams: { heelHeight: 3, shaftHeight: 12.5 }, styles: { categories: { PRODUCT: [], POSTER: [] } } });
    await saveShoeParam('product', 'heelHeight', undefined);
    expect((await loadDraft('product')).shoeParams).toEqual({ shaftHeight: 12.5 });
  });
});
