// Asking again until an answer is final (SPEC §9: status polling 24 tries, 5 s apart), as the
// upgrade screen and the way back from a provider use it.
import { describe, expect, it } from 'vitest';
import { pollUntil, STATUS_POLL_EVERY_MS, STATUS_POLL_TRIES } from '../../../src/billing/poll';

/** A wait that only records how long it was asked to wait. */
function recordedWaits() {
  const waits: number[] = [];
  return { waits, sleep: (ms: number) => (waits.push(ms), Promise.resolve()) };
}

describe('pollUntil', () => {
  it('stops at the first final answer, waiting 5 s between tries', async () => {
    const answers = ['pending', 'pending', 'active', 'active'];
    const { waits, sleep } = recordedWaits();
    const result = await pollUntil(async () => answers.shift()!, (status) => status === 'active', { sleep });
    expect(result).toEqual({ value: 'active', final: true, tries: 3 });
    expect(waits).toEqual([STATUS_POLL_EVERY_MS, STATUS_POLL_EVERY_MS]);
  });

  it('gives up after 24 tries with the last answer, not final', async () => {
    let reads = 0;
    const { waits, sleep } = recordedWaits();
    const result = await pollUntil(async () => ++reads, () => false, { sleep });
    expect(result).toEqual({ value: STATUS_POLL_TRIES, final: false, tries: STATUS_POLL_TRIES });
    expect(reads).toBe(24);
    expect(waits).toHaveLength(23);
  });

  it('counts a failed read as a try and goes on', async () => {
    let reads = 0;
    const { sleep } = recordedWaits();
    const result = await pollUntil(
      async () => {
        reads += 1;
        if (reads < 3) throw new Error('network');
        return 'active';
      },
      (status) => status === 'active',
      { sleep },
    );
    expect(result).toEqual({ value: 'active', final: true, tries: 3 });
  });

  it('stops when the page leaves', async () => {
    const controller = new AbortController();
    const { sleep } = recordedWaits();
    const polling = pollUntil(
      async () => {
        controller.abort(new Error('left'));
        return 'pending';
      },
      () => false,
      { sleep, signal: controller.signal },
    );
    await expect(polling).rejects.toThrow('left');
  });
});
