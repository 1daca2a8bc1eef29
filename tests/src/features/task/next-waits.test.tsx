// Next waits for a photo still being processed (a defect of an earlier release: tapping Next while
// a replacement was being compressed went on with the old photo, which page 2 then sent). The
// compression worker is the browser's, so it stands in here: a worker that answers when the test
// lets it, speaking Comlink like the real one.
import 'fake-indexeddb/auto';
import type { ComponentType } from 'react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { expose } from 'comlink';
import type { CompressApi, CompressedPhoto } from '../../../../contract/capture';
import { db } from '../../../../src/offline/db';
import { clearDevice, FIVE, loadTaskPage, photoRecord, productDraft, renderTaskPage, uploaded } from './task-page';

vi.stubGlobal('fetch', () => Promise.reject(new TypeError('no network in unit tests')));

/** Compressions the worker has been asked for, each finished when the test says. */
const asked: { file: Blob; finish: (photo: CompressedPhoto) => void }[] = [];

/** A worker on a message channel: the page's bridge talks to it as to the real one. */
class HeldCompressionWorker {
  constructor() {
    const { port1, port2 } = new MessageChannel();
    const api: CompressApi = {
      compressImage: (file, onProgress) =>
        new Promise<CompressedPhoto>((finish) => {
          asked.push({ file, finish });
          void onProgress?.(40);
        }),
    };
    expose(api, port2);
    return Object.assign(port1, { terminate: () => port1.close() });
  }
}
vi.stubGlobal('Worker', HeldCompressionWorker);

let TaskPage: ComponentType;
beforeAll(async () => {
  TaskPage = await loadTaskPage();
});

afterEach(async () => {
  await clearDevice();
});

const next = () => screen.getByTestId('task-next') as HTMLElement & { disabled: boolean };

describe('Next on page 1', () => {
  it('waits, saying why, while a replacement photo is compressed, and page 2 gets the new photo', async () => {
    await db.photos.bulkPut(FIVE.map((view) => photoRecord(view)));
    await db.drafts.put(productDraft(Object.fromEntries(FIVE.map((view) => [view, uploaded(view)]))));
    renderTaskPage(TaskPage);
    await waitFor(() => expect(screen.getByTestId('slot-front').dataset.state).toBe('uploaded'));
    expect(next().disabled).toBe(false);
    expect(screen.queryByTestId('photos-in-progress')).toBeNull();

    // The seller replaces the front photo…
    const retake = new File([new Uint8Array([0xff, 0xd8, 0xff, 9])], 'front-again.jpg', { type: 'image/jpeg' });
    fireEvent.change(screen.getByTestId('slot-input-front'), { target: { files: [retake] } });
    await waitFor(() => expect(asked).toHaveLength(1));
    await waitFor(() => expect(screen.getByTestId('slot-front').textContent).toContain('Compressing… 40%'));

    // …and taps Next while it is still in the worker: the page stays, and says why.
    expect(next().disabled).toBe(true);
    expect(screen.getByTestId('photos-in-progress').textContent).toBe('One moment: a photo is still being processed.');
    fireEvent.click(next());
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await db.drafts.get('product'))?.page).toBe(1);
    expect(screen.queryByTestId('task-add')).toBeNull();

    // The compressed photo is stored: Next goes on, and page 2 has the new photo in the draft.
    const compressed: CompressedPhoto = { bytes: new Uint8Array([0xff, 0xd8, 0xff, 9, 9]).buffer, mime: 'image/jpeg', width: 2080, height: 2080 };
    asked[0]!.finish(compressed);
    await waitFor(() => expect(next().disabled).toBe(false));
    expect(screen.queryByTestId('photos-in-progress')).toBeNull();
    const front = (await db.drafts.get('product'))!.slots.front!;
    expect(front.photoId).not.toBe('photo-front-1');
    expect(new Uint8Array((await db.photos.get(front.photoId))!.bytes)).toEqual(new Uint8Array([0xff, 0xd8, 0xff, 9, 9]));

    fireEvent.click(next());
    await waitFor(() => expect(screen.getByTestId('task-add')).toBeTruthy());
    expect((await db.drafts.get('product'))?.page).toBe(2);
  });
});
