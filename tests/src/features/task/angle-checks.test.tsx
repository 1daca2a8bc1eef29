// The task page asks the server to check each photo once it is up, but not while a photo is going
// up: the check takes the server seconds of work, during which it takes the upload's bytes in more
// slowly, and the seller's photos reaching the server come first.
import 'fake-indexeddb/auto';
import type { ComponentType } from 'react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { db } from '../../../../src/offline/db';
import type { UploadJob } from '../../../../src/offline/records';
import { clearDevice, loadTaskPage, photoRecord, productDraft, renderTaskPage } from './task-page';

/** Every call the page makes, none of which reaches a network. */
const calls: string[] = [];
vi.stubGlobal('fetch', (input: RequestInfo | URL) => {
  calls.push(String(input instanceof Request ? input.url : input));
  return Promise.reject(new TypeError('no network in unit tests'));
});
const checksAsked = () => calls.filter((url) => url.endsWith('/shoe-verification/verify-angle')).length;

let TaskPage: ComponentType;
beforeAll(async () => {
  TaskPage = await loadTaskPage();
});

afterEach(async () => {
  await clearDevice();
});

const now = Date.now();
function upload(view: UploadJob['view'], state: UploadJob['state']): UploadJob {
  return {
    id: `job-${view}`,
    kind: 'upload',
    draftKey: 'product',
    view,
    photoId: `photo-${view}-1`,
    state,
    attempts: 0,
    nextAttemptAt: now,
    createdAt: now,
    updatedAt: now,
    ...(state === 'running' ? { leaseUntil: now + 10 * 60_000 } : { materialId: `material-${view}` }),
  };
}

describe('photo checks on the task page', () => {
  it('wait while a photo is going up, and go once none is', async () => {
    await db.photos.bulkPut([photoRecord('right_45'), photoRecord('front')]);
    // The first photo is up and not yet checked; the second is going up (another runner's lease).
    await db.outbox.bulkPut([upload('right_45', 'done'), upload('front', 'running')]);
    await db.drafts.put(
      productDraft({
        right_45: { photoId: 'photo-right_45-1', state: 'uploaded', jobId: 'job-right_45', materialId: 'material-right_45' },
        front: { photoId: 'photo-front-1', state: 'uploading', jobId: 'job-front' },
      }),
    );

    renderTaskPage(TaskPage);
    await waitFor(() => expect(screen.getByTestId('slot-right_45').dataset.state).toBe('uploaded'));
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(checksAsked()).toBe(0);

    // The second photo's upload ends: the first one's check goes.
    await db.outbox.put(upload('front', 'done'));
    await waitFor(() => expect(checksAsked()).toBeGreaterThan(0));
  });
});
