// A countdown in whole seconds, for "send again in N s" (SPEC §9: 60 s).
import { useCallback, useEffect, useState } from 'react';

export function useCountdown(initialSeconds = 0): [remaining: number, start: (seconds: number) => void] {
  const [now, setNow] = useState(() => Date.now());
  const [endsAt, setEndsAt] = useState(() => now + initialSeconds * 1000);
  useEffect(() => {
    if (endsAt <= now) return;
    const timer = setTimeout(() => setNow(Date.now()), 250);
    return () => clearTimeout(timer);
  }, [endsAt, now]);
  const start = useCallback((seconds: number) => {
    const at = Date.now();
    setNow(at);
    setEndsAt(at + seconds * 1000);
  }, []);
  return [Math.max(0, Math.ceil((endsAt - now) / 1000)), start];
}
