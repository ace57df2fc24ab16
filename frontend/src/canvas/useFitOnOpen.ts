// The canvas fitted when it opens, when asked (imports, Tidy up, Fit), and whenever its box changes size
// (a panel opened, resized or collapsed beside it) until the user pans or zooms it themselves.
import { useCallback, useEffect, useRef, type RefObject } from 'react';
import { useReactFlow } from '@xyflow/react';
import type { FlowEdge, FlowNode } from '../graph/mapping';
import { fitReadable } from './fitReadable';

/** `keep`: the step to keep in view when the graph is too big to show whole (the selected one). */
export function useFitOnOpen(box: RefObject<HTMLElement | null>, fitNonce: number, nodeCount: number, keep: () => string | null) {
  const flow = useReactFlow<FlowNode, FlowEdge>();
  /** Whether the user moved the view: a resize then leaves their view alone. */
  const moved = useRef(false);
  const fitted = useRef(false);
  const fit = useCallback(() => {
    requestAnimationFrame(() => {
      if (fitReadable(flow, box.current, keep())) fitted.current = true;
    });
  }, [flow, box, keep]);

  // On open: as soon as there are nodes to fit.
  useEffect(() => {
    if (!fitted.current && nodeCount > 0) fit();
  }, [nodeCount, fit]);

  // When asked, once the new nodes are drawn.
  useEffect(() => {
    if (!fitNonce) return;
    moved.current = false;
    const t = setTimeout(fit, 30);
    return () => clearTimeout(t);
  }, [fitNonce, fit]);

  useEffect(() => {
    const el = box.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const watch = new ResizeObserver(() => {
      if (!moved.current) fit();
    });
    watch.observe(el);
    return () => watch.disconnect();
  }, [box, fit]);

  /** React Flow's onMoveStart: an event means the user moved the view (a fit moves it without one). */
  const onMoveStart = useCallback((event: MouseEvent | TouchEvent | null) => {
    if (event) moved.current = true;
  }, []);
  return { onMoveStart };
}
