// Laying out the canvas with elkjs: all of it (Tidy up), or only the steps
// the layout does not know yet (an imported document).
import { documentToGraph } from '../graph/mapping';
import { clearOfKept } from '../graph/placement';
import { autoLayout } from '../layout/elk';
import type { EditorStore } from '../store/editorStore';

/** Lays out the whole document (one undoable change). */
export async function tidyUp(store: EditorStore, measured?: ReadonlyMap<string, { width: number; height: number }>): Promise<void> {
  const { doc, layout } = store.getState();
  const graph = documentToGraph(doc, layout);
  if (graph.unmapped) return;
  const next = await autoLayout(graph, measured);
  store.getState().setLayout(next, { history: true });
}

/** True when some step has no saved position (an imported document). */
export function needsLayout(store: EditorStore): boolean {
  const { doc, layout } = store.getState();
  const graph = documentToGraph(doc, layout);
  return !graph.unmapped && graph.nodes.some((n) => !layout.positions[n.id]);
}

/**
 * Lays out the steps the layout does not know yet. Meanwhile the canvas
 * shows a simple layered placement; if the user moved something in between,
 * only the steps still unplaced take elk's spot.
 */
export async function layoutMissing(store: EditorStore): Promise<void> {
  const { doc, layout } = store.getState();
  const graph = documentToGraph(doc, layout);
  if (graph.unmapped || graph.nodes.length === 0) return;
  const missing = graph.nodes.some((n) => !layout.positions[n.id]);
  if (!missing) return;
  const next = await autoLayout(graph);
  const now = store.getState().layout;
  const base = now === layout ? layout.positions : now.positions;
  // Keep what the user placed; fill the rest, clear of it (elk placed the rest where it would have put the
  // kept steps too). Positions only: no history entry.
  const known = Object.keys(base).length;
  const positions = known ? clearOfKept(graph, { ...next.positions, ...base }, new Set(Object.keys(base))) : next.positions;
  store.getState().setLayout(known ? { version: 1, positions } : next);
}
