import { useCallback, useEffect, useRef, useState } from 'react';
import type { Run } from '../../api/types';
import { mergePatch, type View } from './merge';
import { keepFinal, RunViewStream, type ViewConn } from './viewSocket';

export interface RunViewLive {
  run: Run | null;
  view: View | null;
  conn: ViewConn;
  /** No view can be had: the page falls back to the normal run view, which has its own fallbacks. */
  unavailable: boolean;
  /** A run record from elsewhere (a control action's answer). */
  acceptRun(run: Run): void;
}

/** `fn` at the next frame (a hidden tab has none: soon, then); returns how to cancel it. */
function nextFrame(fn: () => void): () => void {
  if (typeof requestAnimationFrame === 'function' && document.visibilityState === 'visible') {
    const id = requestAnimationFrame(fn);
    return () => cancelAnimationFrame(id);
  }
  const id = setTimeout(fn, 100);
  return () => clearTimeout(id);
}

/**
 * Watches a run's view over its socket. Patches merge into a ref as they come; the state the page
 * renders from follows at most once a frame, however fast patches arrive.
 */
export function useRunView(runId: string): RunViewLive {
  const [run, setRun] = useState<Run | null>(null);
  const [view, setView] = useState<View | null>(null);
  const [conn, setConn] = useState<ViewConn>('connecting');
  const [unavailable, setUnavailable] = useState(false);
  const latest = useRef<View | null>(null);

  useEffect(() => {
    let cancelFrame: (() => void) | null = null;
    const publish = () => {
      cancelFrame = null;
      setView(latest.current);
    };
    const schedule = () => {
      if (!cancelFrame) cancelFrame = nextFrame(publish);
    };
    const stream = new RunViewStream(runId, {
      onRun: (next) => setRun((current) => keepFinal(current, next)),
      onView: (next) => {
        latest.current = next;
        schedule();
      },
      onPatch: (patch) => {
        if (!latest.current) return;
        latest.current = mergePatch(latest.current, patch);
        schedule();
      },
      onState: setConn,
      onUnavailable: () => setUnavailable(true),
    });
    stream.start();
    return () => {
      stream.stop();
      cancelFrame?.();
      latest.current = null;
    };
  }, [runId]);

  const acceptRun = useCallback((next: Run) => setRun((current) => keepFinal(current, next)), []);
  return { run, view, conn, unavailable, acceptRun };
}
