// Slots of a draft on fake-indexeddb: a photo replaces what its slot held, and a photo moved to
// another slot (or swapped with the one there) is queued again under its new view.
import 'fake-indexeddb/auto';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ShoeView } from '../../../contract/enums';
import { loadDraft, movePhoto, putPhoto, removePhoto } from '../../../src/capture/drafts';
import { db, type UploadJob } from '../../../src/offline/db';

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
    const jobs = (await db.outbox.toArray()) as UploadJob[];
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
