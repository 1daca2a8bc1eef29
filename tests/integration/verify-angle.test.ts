// @vitest-environment happy-dom
// The page's photo checks against the real server over HTTP. They go two at a time: the server
// runs its networks for one photo at a time, and each question waiting there holds one of the
// browser's six connections to the server, which the outbox needs for the photos still to go up (a
// batch asked about at once held them all, and the uploads waited with the link idle). A question
// whose photo has left its slot is not sent, and one whose answer cannot come, the network having
// gone, is given up so that the ones behind it still go.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { CheckNotWanted, verifyAngle } from '../../src/capture/api/verify-angle';
import { initI18n } from '../../src/lib/i18n';
import { sessionTokenAtom, store } from '../../src/lib/store';
import { shoePhoto } from '../fixtures/shoes';
import { uploadPhoto } from '../support/photos';
import { signedInSeller } from '../support/sellers';
import { createTestApp, type TestApp } from '../support/test-app';

let t: TestApp;
let materialId: string;

beforeAll(async () => {
  t = await createTestApp();
  const base = await t.app.listen({ host: '127.0.0.1', port: 0 });
  // The page and the API share an origin, as they do when the server serves the app.
  (window as unknown as { happyDOM: { setURL(url: string): void } }).happyDOM.setURL(`${base}/`);
  const seller = await signedInSeller(t, 'vera');
  store.set(sessionTokenAtom, seller.token);
  materialId = await uploadPhoto(t, seller.token, (await shoePhoto({ width: 1200, height: 900 })).jpeg, 'right_45');
  // The check's networks load on its first use: here, not within a test's time.
  await t.app.inject({
    method: 'POST',
    url: '/api/v1/shoe-verification/verify-angle',
    headers: { authorization: `Bearer ${seller.token}` },
    payload: { material_id: materialId, view: 'right_45' },
  });
});
afterAll(() => t.close());
beforeEach(() => initI18n('en'));
afterEach(() => vi.unstubAllGlobals());

const isCheck = (input: RequestInfo | URL) => String(input instanceof Request ? input.url : input).endsWith('/shoe-verification/verify-angle');

/** The page's own fetch, watched: how many photo checks it has in flight at most. */
function watchChecks(hold?: (init?: RequestInit) => Promise<Response> | undefined) {
  const pageFetch = globalThis.fetch;
  const seen = { inFlight: 0, most: 0, asked: 0 };
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    if (!isCheck(input)) return pageFetch(input, init);
    seen.asked += 1;
    seen.inFlight += 1;
    seen.most = Math.max(seen.most, seen.inFlight);
    try {
      return await (hold?.(init) ?? pageFetch(input, init));
    } finally {
      seen.inFlight -= 1;
    }
  });
  return seen;
}

describe('photo checks', () => {
  it('are asked two at a time, each answered by the server', async () => {
    const seen = watchChecks();
    const views = ['right_45', 'front', 'back'] as const;
    const answers = await Promise.all(views.map((view) => verifyAngle(materialId, view)));
    expect(seen.asked).toBe(3);
    expect(seen.most).toBe(2);
    expect(answers.map((answer) => answer.view)).toEqual([...views]);
    for (const answer of answers) expect(answer.findings.length).toBeGreaterThan(0);
  });

  it('are not sent for a photo that has left its slot by their turn', async () => {
    const seen = watchChecks();
    let moved = false;
    const first = [verifyAngle(materialId, 'right_45'), verifyAngle(materialId, 'front')];
    const third = verifyAngle(materialId, 'right_side', async () => !moved);
    // The seller moves the third photo while the first two are answered.
    moved = true;
    await expect(third).rejects.toBeInstanceOf(CheckNotWanted);
    expect((await Promise.all(first)).map((answer) => answer.view)).toEqual(['right_45', 'front']);
    expect(seen.asked).toBe(2);
  });

  it('give up questions whose answers cannot come once the network is gone, and the next one goes', async () => {
    // The first two questions reach no server (the link dropped under them); each ends only when
    // aborted, as a stalled request does.
    const seen = watchChecks((init) => {
      if (seen.asked > 2) return undefined;
      return new Promise<Response>((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal!.reason)));
    });
    const stalled = [verifyAngle(materialId, 'back'), verifyAngle(materialId, 'front')];
    const next = verifyAngle(materialId, 'bottom');
    await vi.waitFor(() => expect(seen.asked).toBe(2));
    // Still only the stalled ones: the next waits behind them.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(seen.asked).toBe(2);
    window.dispatchEvent(new Event('offline'));
    for (const question of stalled) await expect(question).rejects.toThrow();
    const answer = await next;
    expect(answer.view).toBe('bottom');
    expect(seen.asked).toBe(3);
    expect(seen.most).toBe(2);
  });
});
