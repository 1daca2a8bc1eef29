// The server's clock for a test that needs a day of the calendar (the 31st of a month, a leap
// year): the billing code reads the time through `new Date()` unless it is given a clock, and the
// app gives it none, so a test stops `Date` itself. Timers keep real time, so the database, the
// providers' stand-ins and the test runner run as usual. A helper that waits by reading `Date`
// (waitForMail) never gives up under a stopped clock, so a test waits for mail only after it ends.
import { onTestFinished, vi } from 'vitest';

/** Stops the clock at `moment` (an ISO date) until it is moved again or the test ends. */
export function stopClockAt(moment: string): Date {
  const at = new Date(moment);
  if (vi.isFakeTimers()) vi.setSystemTime(at);
  else {
    vi.useFakeTimers({ toFake: ['Date'], now: at });
    onTestFinished(() => {
      vi.useRealTimers();
    });
  }
  return at;
}
