import { useEffect, useState } from 'react';

/**
 * `value`, followed at most once per `everyMs`: a live region that spoke every patch would talk
 * over itself ten times a second.
 */
export function useThrottled<T>(value: T, everyMs: number): T {
  const [shown, setShown] = useState(value);
  const [shownAt, setShownAt] = useState(0);
  useEffect(() => {
    if (Object.is(value, shown)) return;
    const timer = setTimeout(
      () => {
        setShown(value);
        setShownAt(Date.now());
      },
      Math.max(0, shownAt + everyMs - Date.now()),
    );
    return () => clearTimeout(timer);
  }, [value, shown, shownAt, everyMs]);
  return shown;
}

/** The time now, ticking each `everyMs` while `ticking` (a clock on screen). */
export function useNow(ticking: boolean, everyMs = 1000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!ticking) return;
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [ticking, everyMs]);
  return now;
}
