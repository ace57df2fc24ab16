// Fitting the view to every step, drawn or not. React Flow's fitView counts only
// measured nodes, and with onlyRenderVisibleElements a step that starts out of
// view is never drawn, so never measured: a fit made before the new steps were
// measured left them out for good (a step lost off screen after discarding a
// draft on a busy machine). The layout knows where every step is; its size is
// the measured one when known, an estimate otherwise.
import { getViewportForBounds, type ReactFlowInstance } from '@xyflow/react';
import { useCallback } from 'react';

/** A step card's size before it is measured (about what a card with a short title takes). */
const ESTIMATE = { width: 220, height: 90 };

export interface FitOptions {
  padding: number;
  minZoom: number;
  maxZoom: number;
}

type Flow = Pick<ReactFlowInstance, 'getNodes' | 'setViewport'>;

/** The box holding every top-level node (inner steps lie inside their loop's box). */
export function boundsOfAll(flow: Pick<ReactFlowInstance, 'getNodes'>) {
  const nodes = flow.getNodes().filter((n) => !n.parentId && !n.hidden);
  if (nodes.length === 0) return null;
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const n of nodes) {
    const width = n.measured?.width ?? n.width ?? numeric(n.style?.width) ?? ESTIMATE.width;
    const height = n.measured?.height ?? n.height ?? numeric(n.style?.height) ?? ESTIMATE.height;
    minX = Math.min(minX, n.position.x);
    minY = Math.min(minY, n.position.y);
    maxX = Math.max(maxX, n.position.x + width);
    maxY = Math.max(maxY, n.position.y + height);
  }
  return { x: minX, y: minY, width: maxX - minX, height: maxY - minY };
}

function numeric(v: unknown): number | undefined {
  return typeof v === 'number' ? v : undefined;
}

/** Fits the viewport of the flow drawn in `pane` to every step. */
export function fitAll(flow: Flow, pane: Element | null, opts: FitOptions): void {
  const bounds = boundsOfAll(flow);
  const box = pane?.getBoundingClientRect();
  if (!bounds || !box || box.width === 0 || box.height === 0) return;
  void flow.setViewport(getViewportForBounds(bounds, box.width, box.height, opts.minZoom, opts.maxZoom, opts.padding));
}

/** fitAll for the editor's canvas (the one `.canvas .react-flow` on the page). */
export function useFitAll(flow: Flow, opts: FitOptions): () => void {
  const { padding, minZoom, maxZoom } = opts;
  return useCallback(
    () => fitAll(flow, document.querySelector('[data-testid=canvas] .react-flow'), { padding, minZoom, maxZoom }),
    [flow, padding, minZoom, maxZoom],
  );
}
