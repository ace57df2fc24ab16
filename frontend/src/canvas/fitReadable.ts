// Fitting the canvas to its box. React Flow's fitView centres the graph; when a readable zoom cannot hold it
// all, centring cuts the first steps off at the left. Here such a graph is shown from its start instead, the
// way it reads (left to right), and the minimap and panning reach the rest.
import type { ReactFlowInstance } from '@xyflow/react';
import type { FlowEdge, FlowNode } from '../graph/mapping';

/**
 * Fit and Tidy up never zoom out past this: node text (12-13 px at zoom 1) stays at 11 px or more.
 */
export const READABLE_ZOOM = 0.92;
/** Room kept between the graph and the canvas's edges, in screen pixels. */
const MARGIN = 32;

type Flow = ReactFlowInstance<FlowNode, FlowEdge>;

/**
 * Fits every node in `box` at zoom READABLE_ZOOM..1; returns false when there is nothing to fit yet. A graph
 * too big is shown from its start, moved just enough to keep the `keep` node (the one just added or chosen) in
 * view.
 */
export function fitReadable(flow: Flow, box: Element | null, keep?: string | null): boolean {
  const nodes = flow.getNodes().filter((n) => !n.hidden);
  if (!box || nodes.length === 0) return false;
  const { width, height } = box.getBoundingClientRect();
  if (width < 1 || height < 1) return false;
  const b = flow.getNodesBounds(nodes);
  if (!b.width || !b.height) return false;
  const zoom = Math.max(READABLE_ZOOM, Math.min(1, (width - 2 * MARGIN) / b.width, (height - 2 * MARGIN) / b.height));
  const along = (room: number, start: number, size: number) =>
    size * zoom + 2 * MARGIN <= room ? (room - size * zoom) / 2 - start * zoom : MARGIN - start * zoom;
  let x = along(width, b.x, b.width);
  let y = along(height, b.y, b.height);
  const kept = keep ? flow.getInternalNode(keep) : undefined;
  if (kept) {
    const at = kept.internals.positionAbsolute;
    const w = kept.measured.width ?? kept.width ?? 0;
    const h = kept.measured.height ?? kept.height ?? 0;
    x -= Math.max(0, (at.x + w) * zoom + x - (width - MARGIN));
    y -= Math.max(0, (at.y + h) * zoom + y - (height - MARGIN));
  }
  void flow.setViewport({ x, y, zoom });
  return true;
}
