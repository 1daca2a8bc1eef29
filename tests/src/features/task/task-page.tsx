// The task page as the app shows it, for the tests of tests/src/features/task: on the app's one
// store, at /task?type=…, over a draft written to IndexedDB (fake-indexeddb) beforehand.
import type { ComponentType } from 'react';
import { setupIonicReact } from '@ionic/react';
import { render } from '@testing-library/react';
import { Provider } from 'jotai';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import type { ShoeView } from '../../../../contract/enums';
import { initI18n } from '../../../../src/lib/i18n';
import { store } from '../../../../src/lib/store';
import { db } from '../../../../src/offline/db';
import type { DraftRecord, PhotoRecord, SlotRecord } from '../../../../src/offline/records';

/** The page module, loaded once the texts are (it registers the account texts as it loads). */
export async function loadTaskPage(): Promise<ComponentType> {
  // As the app starts Ionic: its components then know their look (and have styles to attach).
  setupIonicReact({ mode: 'md' });
  await initI18n('en');
  return (await import('../../../../src/features/task/TaskPage')).default;
}

export function renderTaskPage(TaskPage: ComponentType, type = 'product') {
  return render(
    <Provider store={store}>
      <MemoryRouter initialEntries={[`/task?type=${type}`]} future={{ v7_startTransition: true, v7_relativeSplatPath: true }}>
        <Routes>
          <Route path="/task" element={<TaskPage />} />
          <Route path="/home" element={<p>workspace</p>} />
        </Routes>
      </MemoryRouter>
    </Provider>,
  );
}

export const FIVE: ShoeView[] = ['right_45', 'right_side', 'left_side', 'front', 'back'];

export function photoRecord(view: ShoeView, marker = 1): PhotoRecord {
  return { id: `photo-${view}-${marker}`, draftKey: 'product', view, mime: 'image/jpeg', bytes: new Uint8Array([0xff, 0xd8, marker]).buffer, width: 2080, height: 2080, createdAt: 1 };
}

/** A slot whose photo is on the server and checked (nothing for the page to ask about). */
export function uploaded(view: ShoeView): SlotRecord {
  return { photoId: `photo-${view}-1`, state: 'uploaded', jobId: `job-${view}`, materialId: `material-${view}`, warnings: [] };
}

export function productDraft(slots: DraftRecord['slots'], page: 1 | 2 = 1): DraftRecord {
  return { contentType: 'product', page, slots, shoeParams: {}, styles: null, updatedAt: 1 };
}

/** Empties the device's drafts, photos and outbox (after each test). */
export async function clearDevice() {
  await db.transaction('rw', db.drafts, db.photos, db.outbox, async () => {
    await Promise.all([db.drafts.clear(), db.photos.clear(), db.outbox.clear()]);
  });
}
