// The canvas of a comparison: the later version's graph (graph/mapping.ts) with every node
// marked added, changed or unchanged, and the steps the later version removed drawn from the
// earlier one in a row below it, so that nothing is drawn over a node that is still there.

import { MarkerType, type Node } from '@xyflow/react';
import type { Layout, WorkflowDoc } from '../doc/types';
import { documentToGraph, stepHeight, type FlowEdge, type FlowNode, type NodeKind, type StepNodeData } from '../graph/mapping';
import { fieldsText, type DiffKind, type DocDiff } from './compareDocs';

export type DiffNodeData = StepNodeData & {
  diff: DiffKind;
  /** "instructions changed, timeout added" on a changed step, else ''. */
  changes: string;
  /** Steps inside this loop that changed. */
  inside: number;
};
export type DiffNode = Node<DiffNodeData, NodeKind>;
export type DiffEdge = FlowEdge;

export interface DiffGraph {
  nodes: DiffNode[];
  edges: DiffEdge[];
  /** Why the later version cannot be drawn. */
  unmapped: string | null;
}

export interface Side {
  doc: WorkflowDoc;
  layout: Layout | null;
}

/** Space between the later version's steps and the row of removed ones. */
export const REMOVED_GAP = 120;
const ROW_GAP = 60;

const DIFF_WORDS: Record<DiffKind, string> = { added: 'added', removed: 'removed', changed: 'changed', unchanged: 'unchanged' };

function sizeOf(n: FlowNode | DiffNode): { width: number; height: number } {
  return { width: n.width ?? 240, height: n.height ?? stepHeight(n.data.step, n.data.kind) };
}

function marked(n: FlowNode, diff: DocDiff['steps'][number] | undefined, kind: DiffKind): DiffNode {
  return {
    ...n,
    draggable: false,
    connectable: false,
    deletable: false,
    className: `diff-${kind}`,
    ariaLabel: `${n.ariaLabel ?? n.id}, ${DIFF_WORDS[kind]}${diff && diff.fields.length ? `: ${fieldsText(diff.fields)}` : ''}`,
    data: { ...n.data, diff: kind, changes: diff ? fieldsText(diff.fields) : '', inside: diff?.inside ?? 0 },
  };
}

export function diffGraph(before: Side, after: Side, diff: DocDiff): DiffGraph {
  const later = documentToGraph(after.doc, after.layout);
  if (later.unmapped) return { nodes: [], edges: [], unmapped: later.unmapped };
  const byKey = new Map(diff.steps.map((s) => [s.key, s]));
  const nodes: DiffNode[] = later.nodes.map((n) => {
    const d = byKey.get(n.id);
    return marked(n, d, d?.kind ?? 'unchanged');
  });

  const earlier = documentToGraph(before.doc, before.layout);
  const removed = earlier.unmapped ? [] : earlier.nodes.filter((n) => byKey.get(n.id)?.kind === 'removed');
  const removedIds = new Set(removed.map((n) => n.id));
  if (removed.length) {
    const top = nodes.filter((n) => !n.parentId);
    const left = top.length ? Math.min(...top.map((n) => n.position.x)) : 0;
    let y = top.length ? Math.max(...top.map((n) => n.position.y + sizeOf(n).height)) + REMOVED_GAP : 0;
    let x = left;
    let rowHeight = 0;
    const rowWidth = Math.max(1200, ...top.map((n) => n.position.x + sizeOf(n).width - left));
    for (const n of removed) {
      // Inner steps of a removed loop stay inside it; every other removed step starts the row's next place.
      if (n.parentId && removedIds.has(n.parentId)) {
        nodes.push(marked(n, byKey.get(n.id), 'removed'));
        continue;
      }
      const { width, height } = sizeOf(n);
      if (x > left && x + width - left > rowWidth) {
        x = left;
        y += rowHeight + ROW_GAP;
        rowHeight = 0;
      }
      const root: FlowNode = { ...n, position: { x, y } };
      delete root.parentId;
      delete root.extent;
      nodes.push(marked(root, byKey.get(n.id), 'removed'));
      x += width + ROW_GAP;
      rowHeight = Math.max(rowHeight, height);
    }
  }

  const arrow = { type: MarkerType.ArrowClosed, width: 16, height: 16 };
  const earlierEdges = new Set(earlier.edges.map((e) => e.id));
  const laterEdges = new Set(later.edges.map((e) => e.id));
  const drawn = new Set(nodes.map((n) => n.id));
  const edges: DiffEdge[] = [
    ...later.edges.map((e) => ({
      ...e,
      markerEnd: arrow,
      className: earlierEdges.has(e.id) ? 'diff-edge' : 'diff-edge diff-edge-added',
      deletable: false,
    })),
    // A dependency the later version dropped, where both ends are still drawn.
    ...earlier.edges
      .filter((e) => !laterEdges.has(e.id) && drawn.has(e.source) && drawn.has(e.target))
      .map((e) => ({ ...e, markerEnd: arrow, className: 'diff-edge diff-edge-removed', deletable: false })),
  ];
  return { nodes, edges, unmapped: null };
}
