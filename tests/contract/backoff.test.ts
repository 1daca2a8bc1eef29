import { describe, expect, it } from 'vitest';
import { retryDelayMs } from '../../contract/backoff';

const policy = { firstMs: 2_000, longestMs: 60_000, jitter: 0.25 };
const middle = () => 0.5;

describe('retryDelayMs', () => {
  it('doubles from the first wait, one attempt after another', () => {
    expect([1, 2, 3, 4].map((attempt) => retryDelayMs(attempt, policy, middle))).toEqual([2_000, 4_000, 8_000, 16_000]);
  });

  it('stops growing at the longest wait', () => {
    expect(retryDelayMs(6, policy, middle)).toBe(60_000);
    expect(retryDelayMs(60, policy, middle)).toBe(60_000);
  });

  it('treats attempt 0 as the first', () => {
    expect(retryDelayMs(0, policy, middle)).toBe(2_000);
  });

  it('spreads each wait by ± the jitter share', () => {
    expect(retryDelayMs(1, policy, () => 0)).toBe(1_500);
    expect(retryDelayMs(1, policy, () => 1)).toBe(2_500);
    expect(retryDelayMs(6, policy, () => 0)).toBe(45_000);
  });

  it('waits exactly the doubled time without jitter', () => {
    expect(retryDelayMs(3, { ...policy, jitter: 0 }, () => 0)).toBe(8_000);
    expect(retryDelayMs(3, { ...policy, jitter: 0 }, () => 1)).toBe(8_000);
  });
});
