// The canvas fitted when it opens, when asked (imports, Tidy up, Fit), and whenever its box changes size
// (a panel opened, resized or collapsed beside it) until the user pans or zooms it themselves.
import { useCallback, useEffect, useRef, type RefObject } from 'react';
import { useReactFlow, type ReactFlowInstance } from '@xyflow/react';
import type { FlowEdge, FlowNode } from '../graph/mapping';
import { fitReadable } from './fitReadable';

/** Fits on the next frame (the nodes just given are drawn by then); `done` hears whether there was anything to fit. */
function fitSoon(flow: ReactFlowInstance<FlowNode, FlowEdge>, box: HTMLElement | null, keep: string | null, done?: (fitted: boolean) => void) {
  requestAnimationFrame(() => {
    // Not `done?.(fitReadable(…))`: an optional call skips its arguments when there is no `done`.
    const fitted = fitReadable(flow, box, keep);
    done?.(fitted);
  });
}

/** `keep`: the step to keep in view when the graph is too big to show whole (the selected one). */
export function useFitOnOpen(box: RefObject<HTMLElement | null>, fitNonce: number, nodeCount: number, keep: () => string | null) {
  const flow = useReactFlow<FlowNode, FlowEdge>();
  /** Whether the user moved the view: a resize then leaves their view alone. */
  const moved = useRef(false);
  const fitted = useRef(false);

  // On open: as soon as there are nodes to fit.
  useEffect(() => {
    if (fitted.current || nodeCount === 0) return;
    fitSoon(flow, box.current, keep(), (ok) => {
      if (ok) fitted.current = true;
    });
  }, [nodeCount, flow, box, keep]);

  // When asked, once the new nodes are drawn.
  useEffect(() => {
    if (!fitNonce) return;
    moved.current = false;
    const t = setTimeout(() => fitSoon(flow, box.current, keep()), 30);
    return () => clearTimeout(t);
  }, [fitNonce, flow, box, keep]);

  useEffect(() => {
    const el = box.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const watch = new ResizeObserver(() => {
      if (moved.current) return;
      fitSoon(flow, el, keep(), (ok) => {
        if (ok) fitted.current = true;
      });
    });
    watch.observe(el);
    return () => watch.disconnect();
  }, [flow, box, keep]);

  /** React Flow's onMoveStart: an event means the user moved the view (a fit moves it without one). */
  const onMoveStart = useCallback((event: MouseEvent | TouchEvent | null) => {
    if (event) moved.current = true;
  }, []);
  return { onMoveStart };
}
