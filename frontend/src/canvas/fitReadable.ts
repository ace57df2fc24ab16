// Fitting the canvas to its box. React Flow's fitView centres the graph; when a readable zoom cannot hold it
// all, centring cuts the first steps off at the left. Here such a graph is shown from its start instead, the
// way it runs (left to right), and the minimap and panning reach the rest.
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
 * too wide is shown from its start; any graph too big is moved just enough to keep the `keep` node (the one
 * just added or chosen) in view.
 */
export function fitReadable(flow: Flow, box: Element | null, keep?: string | null): boolean {
  const nodes = flow.getNodes().filter((n) => !n.hidden);
  if (!box || nodes.length === 0) return false;
  const { width, height } = box.getBoundingClientRect();
  if (width < 1 || height < 1) return false;
  const b = flow.getNodesBounds(nodes);
  if (!b.width || !b.height) return false;
  const zoom = Math.max(READABLE_ZOOM, Math.min(1, (width - 2 * MARGIN) / b.width, (height - 2 * MARGIN) / b.height));
  // Left to right is the order a workflow runs in: one too wide starts at its first steps. Top to bottom are
  // branches side by side, none first: one too tall stays centred, as much of each branch in view as fits.
  let x = b.width * zoom + 2 * MARGIN <= width ? (width - b.width * zoom) / 2 - b.x * zoom : MARGIN - b.x * zoom;
  let y = (height - b.height * zoom) / 2 - b.y * zoom;
  const kept = keep ? flow.getInternalNode(keep) : undefined;
  if (kept) {
    const at = kept.internals.positionAbsolute;
    const w = kept.measured.width ?? kept.width ?? 0;
    const h = kept.measured.height ?? kept.height ?? 0;
    x -= Math.max(0, (at.x + w) * zoom + x - (width - MARGIN));
    y -= Math.max(0, (at.y + h) * zoom + y - (height - MARGIN));
    y += Math.max(0, MARGIN - (at.y * zoom + y));
  }
  void flow.setViewport({ x, y, zoom });
  return true;
}
