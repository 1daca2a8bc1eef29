// Runs an effect once per key for the life of the page, even when React mounts a component
// twice (StrictMode) — for calls that must not repeat, such as using a single-use link.
import { useEffect } from 'react';

const started = new Set<string>();

export function useOnce(key: string | null, run: () => unknown): void {
  useEffect(() => {
    if (key === null || started.has(key)) return;
    started.add(key);
    run();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- keyed on purpose
  }, [key]);
}
