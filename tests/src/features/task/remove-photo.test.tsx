// A photo the seller removes after it went up is deleted on the server at once: its deletion is
// queued in the outbox, and the page works the outbox then, not at the next time something wakes it
// (a photo added, the network back, the app in front again).
import 'fake-indexeddb/auto';
import type { ComponentType } from 'react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { db } from '../../../../src/offline/db';
import type { UploadJob } from '../../../../src/offline/records';
import { loadTaskPage, photoRecord, productDraft, renderTaskPage, uploaded } from './task-page';

/** Every call the page makes ("METHOD url"), none of which reaches a network. */
const calls: string[] = [];
vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => {
  calls.push(`${init?.method ?? 'GET'} ${String(input instanceof Request ? input.url : input)}`);
  return Promise.reject(new TypeError('no network in unit tests'));
});

let TaskPage: ComponentType;
beforeAll(async () => {
  TaskPage = await loadTaskPage();
});

afterEach(async () => {
  await db.transaction('rw', db.drafts, db.photos, db.outbox, db.session, async () => {
    await Promise.all([db.drafts.clear(), db.photos.clear(), db.outbox.clear(), db.session.clear()]);
  });
});

describe('removing a photo that went up', () => {
  it('sends its deletion at once', async () => {
    const now = Date.now();
    const sent: UploadJob = {
      id: 'job-right_45',
      kind: 'upload',
      draftKey: 'product',
      view: 'right_45',
      photoId: 'photo-right_45-1',
      materialId: 'material-right_45',
      state: 'done',
      attempts: 0,
      nextAttemptAt: now,
      createdAt: now,
      updatedAt: now,
    };
    await db.session.put({ id: 'current', token: 'token-1', userId: 'seller-1', updatedAt: now });
    await db.photos.put(photoRecord('right_45'));
    await db.outbox.put(sent);
    await db.drafts.put(productDraft({ right_45: uploaded('right_45') }));

    renderTaskPage(TaskPage);
    const slot = await screen.findByTestId('slot-right_45');
    await waitFor(() => expect(slot.dataset.state).toBe('uploaded'));
    // The outbox's start-up run has found nothing to do.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(calls.filter((call) => call.startsWith('DELETE'))).toEqual([]);

    fireEvent.click(within(slot).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(calls).toContain(`DELETE ${new URL('/api/v1/materials/material-right_45', location.origin).href}`));
  });
});
