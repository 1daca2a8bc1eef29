// The workspace's queue of tasks not yet on the server is read live from the outbox: a task queued
// or refused elsewhere (another tab, the service worker) shows, and one sent there goes, without
// the workspace being told.
import 'fake-indexeddb/auto';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import { setupIonicReact } from '@ionic/react';
import { Provider } from 'jotai';
import { MemoryRouter } from 'react-router-dom';
import { initI18n } from '../../../../src/lib/i18n';
import { store } from '../../../../src/lib/store';
import { AppDatabase, db } from '../../../../src/offline/db';
import type { GenerateJob, UploadJob } from '../../../../src/offline/records';
import { PendingTasks } from '../../../../src/features/workspace/PendingTasks';

vi.stubGlobal('fetch', () => Promise.reject(new TypeError('no network in unit tests')));

beforeAll(async () => {
  setupIonicReact({ mode: 'md' });
  await initI18n('en');
});

afterEach(async () => {
  await db.transaction('rw', db.drafts, db.photos, db.outbox, async () => {
    await Promise.all([db.drafts.clear(), db.photos.clear(), db.outbox.clear()]);
  });
});

const now = Date.now();
// Its photo waits out a backoff, so nothing here sends it.
const upload: UploadJob = { id: 'upload-1', kind: 'upload', draftKey: 'product', view: 'front', photoId: 'photo-1', state: 'queued', attempts: 2, nextAttemptAt: now + 5 * 60_000, createdAt: now, updatedAt: now };
const task: GenerateJob = {
  id: 'task-job-1',
  kind: 'generate',
  draftKey: 'product',
  state: 'queued',
  attempts: 0,
  nextAttemptAt: now,
  createdAt: now,
  updatedAt: now,
  task: { contentConfig: [], photos: [{ view: 'front', photoId: 'photo-1', uploadJobId: 'upload-1' }], total: 8, outputs: 2 },
  draft: { contentType: 'product', page: 2, slots: {}, shoeParams: {}, styles: null, updatedAt: now },
};

describe('the queue on the workspace', () => {
  it('follows what another tab writes to the outbox', async () => {
    render(
      <Provider store={store}>
        <MemoryRouter future={{ v7_startTransition: true, v7_relativeSplatPath: true }}>
          <PendingTasks />
        </MemoryRouter>
      </Provider>,
    );
    expect(screen.queryByTestId('pending-tasks')).toBeNull();

    const otherTab = new AppDatabase();
    await otherTab.outbox.bulkAdd([upload, task]);
    await waitFor(() => expect(screen.getByTestId('pending-task').textContent).toContain('Product photo: 2 results, 8 tokens'));
    expect(screen.getByTestId('pending-task').dataset.state).toBe('queued');

    const refused: GenerateJob = { ...task, state: 'failed', error: 'Not enough tokens', errorStatus: 402 };
    await otherTab.outbox.put(refused);
    await waitFor(() => expect(screen.getByTestId('pending-task').textContent).toContain('Not sent: Not enough tokens'));

    const sent: GenerateJob = { ...task, state: 'done', taskId: 'task-1' };
    await otherTab.outbox.put(sent);
    await waitFor(() => expect(screen.queryByTestId('pending-tasks')).toBeNull());
    otherTab.close();
  });
});
