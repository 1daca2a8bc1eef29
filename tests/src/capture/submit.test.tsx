// A submission that cannot be queued ends with an answer the page can show, never a throw that
// leaves the confirmation dialog spinning; the photos in the way are named before confirming. The
// wait for the server's answer watches the outbox: no clock ticks while the answer is awaited.
import 'fake-indexeddb/auto';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import { submitTask } from '../../../src/capture/submit';
import { UnsendablePhotos, unsendableViews } from '../../../src/capture/UnsendablePhotos';
import { AppDatabase, db } from '../../../src/offline/db';
import type { DraftRecord, GenerateJob, UploadJob } from '../../../src/offline/records';
import { initI18n } from '../../../src/lib/i18n';

beforeAll(async () => {
  await initI18n('en');
});

afterEach(async () => {
  vi.restoreAllMocks();
  await db.transaction('rw', db.drafts, db.photos, db.outbox, async () => {
    await Promise.all([db.drafts.clear(), db.photos.clear(), db.outbox.clear()]);
  });
});

const draft: DraftRecord = {
  contentType: 'product',
  page: 2,
  slots: {
    right_45: { photoId: 'p1', state: 'queued', jobId: 'job-1' },
    // Stored by an older build, whose tab was killed before it queued the upload.
    front: { photoId: 'p2', state: 'stored' },
    back: { photoId: 'p3', state: 'failed', jobId: 'job-3', error: 'Formats: [jpg,jpeg,png]' },
  },
  shoeParams: {},
  styles: null,
  updatedAt: 1,
};

describe('a submission that cannot be queued', () => {
  it('answers which photo stands in the way and leaves the draft and the outbox as they were', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    await db.drafts.put(draft);
    const outcome = await submitTask({ draft, config: [], total: 4, outputs: 1 });
    expect(outcome).toEqual({ kind: 'failed', view: 'front' });
    expect(await db.drafts.get('product')).toEqual(draft);
    expect(await db.outbox.count()).toBe(0);
  });
});

describe('waiting for the server’s answer', () => {
  const realSetTimeout = globalThis.setTimeout;
  const pause = (ms: number) => new Promise((resolve) => realSetTimeout(resolve, ms));

  it('ends when the outbox writes the answer, with no timer ticking meanwhile', async () => {
    // The photo is still going up, carried by another runner (the service worker) under its lease:
    // the page's runner leaves it alone (this browser has no Web Locks), and the task waits for it.
    const now = Date.now();
    const upload: UploadJob = {
      id: 'job-1',
      kind: 'upload',
      draftKey: 'product',
      view: 'right_45',
      photoId: 'p1',
      state: 'running',
      attempts: 0,
      nextAttemptAt: now,
      leaseUntil: now + 60_000,
      createdAt: now,
      updatedAt: now,
    };
    await db.outbox.put(upload);
    const sending: DraftRecord = { ...draft, slots: { right_45: { photoId: 'p1', state: 'uploading', jobId: 'job-1' } } };
    await db.drafts.put(sending);

    const outcome = submitTask({ draft: sending, config: [], total: 4, outputs: 1 });
    await pause(300);
    const timeouts = vi.spyOn(globalThis, 'setTimeout');
    const intervals = vi.spyOn(globalThis, 'setInterval');
    await pause(1_000);
    expect(timeouts).not.toHaveBeenCalled();
    expect(intervals).not.toHaveBeenCalled();
    vi.restoreAllMocks();

    // The service worker, on its own connection, finishes the photo and sends the task.
    const task = (await db.outbox.toArray()).find((job): job is GenerateJob => job.kind === 'generate')!;
    const uploaded: UploadJob = { ...upload, state: 'done', materialId: 'material-1', leaseUntil: undefined };
    const sent: GenerateJob = { ...task, state: 'done', taskId: 'task-1' };
    const worker = new AppDatabase();
    await worker.outbox.bulkPut([uploaded, sent]);
    expect(await outcome).toEqual({ kind: 'sent', taskId: 'task-1' });
    worker.close();
  });
});

describe('photos that cannot be sent', () => {
  it('are the refused uploads and the photos nothing will send', () => {
    expect(unsendableViews(draft)).toEqual(['front', 'back']);
    expect(unsendableViews({ slots: { front: { photoId: 'p', state: 'uploaded', jobId: 'j', materialId: 'm' } } })).toEqual([]);
  });

  it('are named in the seller’s language, and nothing is shown when there are none', () => {
    const { rerender } = render(<UnsendablePhotos views={unsendableViews(draft)} />);
    expect(screen.getByRole('alert').textContent).toBe('These photos cannot be sent: Front, Back. Retry, replace or delete them on page 1.');
    rerender(<UnsendablePhotos views={[]} />);
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
