// The task page renders its draft, the slots' upload states and the queue live from IndexedDB:
// what another tab (or the service worker) writes shows without the page being told, and a page
// left open does nothing until something changes — no timer, not even while an earlier task waits
// for photos that wait for the network.
import 'fake-indexeddb/auto';
import type { ComponentType } from 'react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { AppDatabase, db } from '../../../../src/offline/db';
import type { GenerateJob, UploadJob } from '../../../../src/offline/records';
import { clearDevice, FIVE, loadTaskPage, photoRecord, productDraft, renderTaskPage, uploaded } from './task-page';

// Nothing here may reach a network: a call that tried would fail at once.
vi.stubGlobal('fetch', () => Promise.reject(new TypeError('no network in unit tests')));

/** Waits on the real clock, whatever the test spies on. */
const realSetTimeout = globalThis.setTimeout;
const pause = (ms: number) => new Promise((resolve) => realSetTimeout(resolve, ms));

let TaskPage: ComponentType;
beforeAll(async () => {
  TaskPage = await loadTaskPage();
});

afterEach(async () => {
  vi.restoreAllMocks();
  await clearDevice();
});

const now = Date.now();
/** An upload waiting out its backoff (the network has been gone a while). */
function waitingUpload(id: string, view: UploadJob['view'], photoId: string): UploadJob {
  return { id, kind: 'upload', draftKey: 'product', view, photoId, state: 'queued', attempts: 3, nextAttemptAt: now + 5 * 60_000, createdAt: now, updatedAt: now };
}
function doneUpload(view: UploadJob['view']): UploadJob {
  return { ...waitingUpload(`job-${view}`, view, `photo-${view}-1`), state: 'done', attempts: 1, materialId: `material-${view}` };
}

async function storeFiveUploaded() {
  await db.photos.bulkPut(FIVE.map((view) => photoRecord(view)));
  await db.outbox.bulkPut(FIVE.map(doneUpload));
  await db.drafts.put(productDraft(Object.fromEntries(FIVE.map((view) => [view, uploaded(view)]))));
}

const slotState = (view: string) => screen.getByTestId(`slot-${view}`).dataset.state;

describe('the task page left open', () => {
  it('schedules no timer, even while an earlier task waits for photos that wait for the network', async () => {
    await storeFiveUploaded();
    const earlierTask: GenerateJob = {
      id: 'earlier-task',
      kind: 'generate',
      draftKey: 'product',
      state: 'queued',
      attempts: 0,
      nextAttemptAt: now,
      createdAt: now,
      updatedAt: now,
      task: { contentConfig: [], photos: [{ view: 'front', photoId: 'earlier-photo', uploadJobId: 'earlier-upload' }], total: 4, outputs: 1 },
      draft: productDraft({}),
    };
    await db.outbox.bulkAdd([waitingUpload('earlier-upload', 'front', 'earlier-photo'), earlierTask]);

    renderTaskPage(TaskPage);
    await waitFor(() => expect(FIVE.map(slotState)).toEqual(FIVE.map(() => 'uploaded')));
    // The outbox's start-up run finds nothing due and ends.
    await pause(1_000);

    const timeouts = vi.spyOn(globalThis, 'setTimeout');
    const intervals = vi.spyOn(globalThis, 'setInterval');
    await pause(1_500);
    expect(timeouts).not.toHaveBeenCalled();
    expect(intervals).not.toHaveBeenCalled();
    expect(FIVE.map(slotState)).toEqual(FIVE.map(() => 'uploaded'));
  });
});

describe('a draft changed in another tab', () => {
  it('shows the change in its slots and its waiting count without anything refreshing it', async () => {
    await storeFiveUploaded();
    await db.photos.put(photoRecord('bottom'));
    await db.outbox.put(waitingUpload('job-bottom', 'bottom', 'photo-bottom-1'));
    await db.drafts.update('product', (draft) => {
      draft.slots.bottom = { photoId: 'photo-bottom-1', state: 'queued', jobId: 'job-bottom' };
    });

    renderTaskPage(TaskPage);
    await waitFor(() => expect(slotState('bottom')).toBe('queued'));
    expect(screen.getByTestId('upload-banner').textContent).toBe('Sending photos: 1');

    // Another tab, with its own connection to the same database, finishes the sole's upload.
    const otherTab = new AppDatabase();
    await otherTab.transaction('rw', otherTab.drafts, otherTab.outbox, async () => {
      const sent: UploadJob = { ...waitingUpload('job-bottom', 'bottom', 'photo-bottom-1'), state: 'done', materialId: 'material-bottom' };
      await otherTab.outbox.put(sent);
      await otherTab.drafts.update('product', (draft) => {
        draft.slots.bottom = { ...draft.slots.bottom!, state: 'uploaded', materialId: 'material-bottom', warnings: [] };
      });
    });
    await waitFor(() => expect(slotState('bottom')).toBe('uploaded'));
    expect(screen.queryByTestId('upload-banner')).toBeNull();

    // …then deletes the back photo and queues a new one for the first detail.
    await otherTab.transaction('rw', otherTab.drafts, otherTab.photos, otherTab.outbox, async () => {
      await otherTab.photos.put({ ...photoRecord('optional1'), id: 'photo-detail' });
      await otherTab.outbox.put(waitingUpload('job-detail', 'optional1', 'photo-detail'));
      await otherTab.drafts.update('product', (draft) => {
        delete draft.slots.back;
        draft.slots.optional1 = { photoId: 'photo-detail', state: 'queued', jobId: 'job-detail' };
      });
    });
    await waitFor(() => expect(slotState('back')).toBe('empty'));
    expect(slotState('optional1')).toBe('queued');
    expect(screen.getByTestId('upload-banner').textContent).toBe('Sending photos: 1');
    otherTab.close();
  });
});
