import { useEffect, useRef, useState } from 'react';

/**
 * The value as of the last animation frame: however often it changes, the caller redraws at most
 * once a frame, and at most once every `minMs` when given (a loop of thousands of rounds costs a few
 * milliseconds to chart). A pending update is never put off by a newer value (events arriving every
 * frame would otherwise starve it); it takes whatever is latest when it fires.
 */
export function useFrameValue<T>(value: T, minMs = 0): T {
  const [shown, setShown] = useState(value);
  const latest = useRef(value);
  const pending = useRef<{ frame: number | null; timer: ReturnType<typeof setTimeout> | null } | null>(null);
  const lastAt = useRef(0);
  useEffect(() => {
    latest.current = value;
    if (pending.current !== null || value === shown) return;
    const handle: { frame: number | null; timer: ReturnType<typeof setTimeout> | null } = { frame: null, timer: null };
    pending.current = handle;
    const frame = () => {
      handle.timer = null;
      handle.frame = requestAnimationFrame(() => {
        pending.current = null;
        lastAt.current = performance.now();
        setShown(latest.current);
      });
    };
    const wait = lastAt.current + minMs - performance.now();
    if (wait > 0) handle.timer = setTimeout(frame, wait);
    else frame();
  }, [value, shown, minMs]);
  useEffect(
    () => () => {
      const handle = pending.current;
      if (handle?.frame != null) cancelAnimationFrame(handle.frame);
      if (handle?.timer != null) clearTimeout(handle.timer);
      pending.current = null;
    },
    [],
  );
  return shown;
}
