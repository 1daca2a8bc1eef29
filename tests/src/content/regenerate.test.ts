// Following a regenerated result (SPEC §4, §9): polled every 5 s; done shows the first result and
// finishes 20 s later; a failure says why; poll errors are reported and tolerated up to 60.
import { describe, expect, it, vi } from 'vitest';
import { RETRY_FINISH_WAIT_MS, RETRY_MAX_POLL_ERRORS, RETRY_POLL_MS, followRegeneration, type RetryStep } from '../../../src/content/regenerate';

type Polled = Awaited<ReturnType<Parameters<typeof followRegeneration>[0]['fetchTask']>>;

const processing: Polled = { status: 'processing', result: [], outputs: [{ error: null }] };
const completed: Polled = { status: 'completed', result: [{ url: '/new.png', poster_url: null, file_type: 'image/png' }, { url: '/other.png', poster_url: null, file_type: 'image/png' }], outputs: [{ error: null }] };

function follow(answers: (Polled | Error)[], signal?: AbortSignal) {
  const sleeps: number[] = [];
  const steps: RetryStep[] = [];
  const errors: unknown[] = [];
  let call = 0;
  const promise = followRegeneration({
    fetchTask: async () => {
      const answer = answers[Math.min(call, answers.length - 1)]!;
      call += 1;
      if (answer instanceof Error) throw answer;
      return answer;
    },
    onStep: (step) => steps.push(step),
    onPollError: (error) => errors.push(error),
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    signal,
  });
  return { promise, sleeps, steps, errors, calls: () => call };
}

describe('followRegeneration', () => {
  it('polls every 5 s until completed, shows the first result, and finishes after 20 s', async () => {
    const run = follow([processing, processing, completed]);
    expect(await run.promise).toEqual({ step: 'finished', url: '/new.png', poster: null, fileType: 'image/png' });
    expect(run.sleeps).toEqual([RETRY_POLL_MS, RETRY_POLL_MS, RETRY_POLL_MS, RETRY_FINISH_WAIT_MS]);
    expect(RETRY_POLL_MS).toBe(5_000);
    expect(RETRY_FINISH_WAIT_MS).toBe(20_000);
    expect(run.steps.map((s) => s.step)).toEqual(['waiting', 'done', 'finished']);
  });

  it('stops on failure with the output’s reason', async () => {
    const run = follow([processing, { status: 'failed', result: [], outputs: [{ error: 'The engine is unavailable.' }] }]);
    expect(await run.promise).toEqual({ step: 'failed', message: 'The engine is unavailable.' });
    expect(run.sleeps).toHaveLength(2);
  });

  it('reports each failed poll and keeps polling while under 60 errors', async () => {
    const run = follow([new Error('offline'), new Error('offline'), completed]);
    expect((await run.promise).step).toBe('finished');
    expect(run.errors).toHaveLength(2);
  });

  it('gives up after 60 failed polls', async () => {
    const run = follow([new Error('down')]);
    expect(await run.promise).toEqual({ step: 'failed', message: null });
    expect(RETRY_MAX_POLL_ERRORS).toBe(60);
    expect(run.errors).toHaveLength(60);
    expect(run.calls()).toBe(60);
  });

  it('stops quietly once the dialog is gone', async () => {
    const controller = new AbortController();
    const onStep = vi.fn();
    let calls = 0;
    const done = followRegeneration({
      fetchTask: async () => {
        calls += 1;
        controller.abort();
        return processing;
      },
      onStep,
      onPollError: () => {},
      sleep: async () => {},
      signal: controller.signal,
    });
    expect((await done).step).toBe('failed');
    expect(calls).toBe(1);
    expect(onStep.mock.calls.map(([s]) => s.step)).toEqual(['waiting']);
  });
});
