// The one pure module that maps a document to a graph and back.
//
// documentToGraph: every step becomes a node; a step with a `loop` becomes a
// container node (forEach or repeat-until) whose inner steps are child nodes;
// `dependsOn` becomes edges (dependency -> dependent). Node data holds the step
// itself (with its `loop.steps` emptied: the children carry those), so the
// mapping back (graphToDocument) is lossless, even for broken documents.
// Positions come from the layout, which is kept apart from the document.

import type { Edge, Node } from '@xyflow/react';
import { clone, isObject, type Layout, type Position, type Step, type WorkflowDoc } from '../doc/types';
import { innerSteps, joinKey, localKeys } from '../doc/keys';
import { stepNodeHeight } from './nodeSize';

export type NodeKind = 'step' | 'include' | 'forEach' | 'repeat';

export type StepNodeData = {
  key: string;
  /** Key of the enclosing loop step, '' at top level. */
  scope: string;
  /** Index in the scope's list of steps. */
  index: number;
  kind: NodeKind;
  /** The step as in the document, except that `loop.steps` is emptied. */
  step: Step;
  /** True when `loop.steps` is a list (its items are child nodes). */
  hasInnerSteps: boolean;
  childCount: number;
};

export type FlowNode = Node<StepNodeData, NodeKind>;
export type EdgeData = { scope: string };
export type FlowEdge = Edge<EdgeData>;

export interface Graph {
  nodes: FlowNode[];
  edges: FlowEdge[];
  /** Why the steps could not be drawn, when the document is too broken. */
  unmapped: string | null;
}

// Geometry shared with the node components and the auto-layout.
export const STEP_W = 240;
/** The smallest step node; a step's own height comes from stepHeight(). */
export const STEP_H = 96;
export const LOOP_HEADER = 128;

const KIND_WORDS: Record<string, string> = { step: 'step', forEach: 'forEach loop', repeat: 'repeat-until loop', include: 'include' };

/**
 * Ids of the hidden elements a node draws with its full name (with problems and run status) and the keys
 * it answers to; the node's frame points at them. Keys may hold any character, ids no spaces.
 */
export function nodeNameId(key: string): string {
  return `node-name-${encodeURIComponent(key)}`;
}

export function nodeHintId(key: string): string {
  return `node-keys-${encodeURIComponent(key)}`;
}

/** What a screen reader says for an edge: "draft to review, dependency". */
export function edgeLabel(source: string, target: string): string {
  return `${source} to ${target}, dependency`;
}

export const LOOP_PAD = 24;
export const SINGLE_LOOP_W = 300;
export const SINGLE_LOOP_H = 210;
const GAP_X = 80;
const GAP_Y = 40;

export function kindOf(step: Step): NodeKind {
  if (isObject(step.loop)) return 'forEach' in step.loop ? 'forEach' : 'repeat';
  if (step.include !== undefined) return 'include';
  return 'step';
}

export function isContainer(kind: NodeKind): boolean {
  return kind === 'forEach' || kind === 'repeat';
}

/** How tall a step or include node is drawn (its text and chips), from nodeSize.ts. */
export function stepHeight(step: Step, kind: NodeKind): number {
  return isContainer(kind) ? SINGLE_LOOP_H : stepNodeHeight(step, kind === 'include' ? 'include' : 'step');
}

/** Strips `loop.steps` items: they live in child nodes. Keeps key order. */
function shallowStep(step: Step): { step: Step; hasInnerSteps: boolean } {
  const copy = clone(step);
  const inner = innerSteps(copy);
  if (inner && isObject(copy.loop)) {
    copy.loop.steps = [];
    return { step: copy, hasInnerSteps: true };
  }
  return { step: copy, hasInnerSteps: false };
}

interface Sized {
  width: number;
  height: number;
}

export function documentToGraph(doc: WorkflowDoc, layout?: Layout | null): Graph {
  const nodes: FlowNode[] = [];
  const edges: FlowEdge[] = [];
  if (!isObject(doc) || !Array.isArray(doc.steps)) {
    return { nodes, edges, unmapped: 'The document has no list of steps to draw.' };
  }
  const positions = layout?.positions ?? {};
  const broken = findNonObjectStep(doc.steps);
  if (broken) return { nodes, edges, unmapped: broken };

  // Returns the scope's nodes (already pushed) and the bounding size.
  const mapScope = (steps: Step[], scope: string): Sized => {
    const keys = localKeys(steps);
    const scopeNodes: FlowNode[] = [];
    const sizes: Sized[] = [];
    steps.forEach((raw, index) => {
      const key = joinKey(scope, keys[index]);
      const kind = kindOf(raw);
      const { step, hasInnerSteps } = shallowStep(raw);
      const inner = innerSteps(raw);
      const node: FlowNode = {
        id: key,
        type: kind,
        position: { x: 0, y: 0 },
        data: { key, scope, index, kind, step, hasInnerSteps, childCount: inner ? inner.length : 0 },
        // A short name; the node's own full name (nodeNameId) wins where it is drawn. Its keys hint replaces
        // React Flow's, which speaks of moving nodes with the arrows (here they go to the nearest node).
        ariaLabel: `${KIND_WORDS[kind] ?? 'step'} ${typeof step.id === 'string' ? step.id : '(no id)'}${scope ? ` in ${scope}` : ''}`,
        domAttributes: { 'aria-labelledby': nodeNameId(key), 'aria-describedby': nodeHintId(key) },
      };
      if (scope) {
        node.parentId = scope;
        node.extent = 'parent';
      }
      nodes.push(node);
      scopeNodes.push(node);
      let size: Sized = { width: STEP_W, height: stepHeight(raw, kind) };
      if (isContainer(kind)) {
        if (inner && inner.length > 0) {
          const innerSize = mapScope(inner, key);
          size = {
            width: Math.max(SINGLE_LOOP_W, innerSize.width + 2 * LOOP_PAD + 40),
            height: LOOP_HEADER + innerSize.height + LOOP_PAD + 40,
          };
        } else {
          size = { width: SINGLE_LOOP_W, height: SINGLE_LOOP_H };
        }
        node.width = size.width;
        node.height = size.height;
        node.style = { width: size.width, height: size.height };
      }
      sizes.push(size);
    });
    // Edges of this scope: dependency -> dependent.
    const byId = new Map<string, string>();
    steps.forEach((s, i) => {
      if (typeof s.id === 'string' && !byId.has(s.id)) byId.set(s.id, joinKey(scope, keys[i]));
    });
    const edgeIds = new Set<string>();
    steps.forEach((s, i) => {
      if (!Array.isArray(s.dependsOn)) return;
      const target = joinKey(scope, keys[i]);
      for (const dep of s.dependsOn) {
        if (typeof dep !== 'string') continue;
        const source = byId.get(dep);
        if (!source) continue;
        const id = `${source}->${target}`;
        if (edgeIds.has(id)) continue;
        edgeIds.add(id);
        edges.push({ id, source, target, data: { scope }, focusable: true, ariaLabel: edgeLabel(dep, typeof s.id === 'string' ? s.id : target) });
      }
    });
    placeScope(steps, scopeNodes, sizes, positions, scope ? { x: LOOP_PAD, y: LOOP_HEADER } : { x: 0, y: 0 });
    // Bounding box of the scope, relative to its origin.
    let width = 0;
    let height = 0;
    scopeNodes.forEach((n, i) => {
      width = Math.max(width, n.position.x + sizes[i].width - (scope ? LOOP_PAD : 0));
      height = Math.max(height, n.position.y + sizes[i].height - (scope ? LOOP_HEADER : 0));
    });
    return { width, height };
  };

  mapScope(doc.steps, '');
  return { nodes, edges, unmapped: null };
}

function findNonObjectStep(steps: unknown[], where = 'steps'): string | null {
  for (let i = 0; i < steps.length; i++) {
    const s = steps[i];
    if (!isObject(s)) return `Item ${i + 1} of ${where} is not a step (a mapping with an id). Fix it in the YAML view.`;
    const inner = innerSteps(s as Step);
    if (inner) {
      const nested = findNonObjectStep(inner, `the steps of loop "${String(s.id)}"`);
      if (nested) return nested;
    }
  }
  return null;
}

/** Rank of each step in its scope: longest dependency chain before it. */
export function ranks(steps: Step[]): number[] {
  const index = new Map<string, number>();
  steps.forEach((s, i) => {
    if (typeof s.id === 'string' && !index.has(s.id)) index.set(s.id, i);
  });
  const rank = steps.map(() => 0);
  // Bellman-Ford style relaxation, bounded so cycles terminate.
  for (let round = 0; round < steps.length; round++) {
    let changed = false;
    steps.forEach((s, i) => {
      if (!Array.isArray(s.dependsOn)) return;
      for (const dep of s.dependsOn) {
        const j = typeof dep === 'string' ? index.get(dep) : undefined;
        if (j === undefined || j === i) continue;
        if (rank[j] + 1 > rank[i] && rank[j] + 1 < steps.length + 1) {
          rank[i] = rank[j] + 1;
          changed = true;
        }
      }
    });
    if (!changed) break;
  }
  return rank;
}

/** Positions from the layout; a layered fallback for steps it does not know. */
function placeScope(
  steps: Step[],
  nodes: FlowNode[],
  sizes: Sized[],
  positions: Record<string, Position>,
  origin: Position,
): void {
  const r = ranks(steps);
  const columns = new Map<number, number[]>();
  r.forEach((rank, i) => {
    const list = columns.get(rank) ?? [];
    list.push(i);
    columns.set(rank, list);
  });
  const colX: number[] = [];
  let x = origin.x;
  const maxRank = Math.max(0, ...r);
  for (let rank = 0; rank <= maxRank; rank++) {
    colX[rank] = x;
    const members = columns.get(rank) ?? [];
    const w = Math.max(0, ...members.map((i) => sizes[i].width));
    x += w + GAP_X;
  }
  // Saved positions first; an inner step is kept below its loop's header (origin.y), where a drag or an older
  // layout may have left it over the iteration chips.
  const placed: Box[] = [];
  const floorY = origin.y > 0 ? origin.y : -Infinity; // the top level has no header: any saved y stands
  const done = nodes.map((node, i) => {
    const saved = positions[node.id];
    if (!saved || !Number.isFinite(saved.x) || !Number.isFinite(saved.y)) return false;
    node.position = { x: saved.x, y: Math.max(saved.y, floorY) };
    placed.push({ ...node.position, width: sizes[i].width, height: sizes[i].height });
    return true;
  });
  // Then the others in their rank's column, each moved down past any node already there: a step without a
  // saved position (restored by an undo, say) never lands on one that has one.
  const colY = new Map<number, number>();
  nodes.forEach((node, i) => {
    if (done[i]) return;
    const rank = r[i];
    const box = { x: colX[rank], y: colY.get(rank) ?? origin.y, width: sizes[i].width, height: sizes[i].height };
    for (let hit = placed.find((p) => overlaps(p, box)); hit; hit = placed.find((p) => overlaps(p, box))) box.y = hit.y + hit.height + GAP_Y;
    node.position = { x: box.x, y: box.y };
    placed.push(box);
    colY.set(rank, box.y + box.height + GAP_Y);
  });
}

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

function overlaps(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/** The document back from the graph: `base` gives every field but `steps`. */
export function graphToDocument(base: WorkflowDoc, nodes: readonly FlowNode[]): WorkflowDoc {
  const byScope = new Map<string, FlowNode[]>();
  for (const n of nodes) {
    const list = byScope.get(n.data.scope) ?? [];
    list.push(n);
    byScope.set(n.data.scope, list);
  }
  const build = (scope: string): Step[] => {
    const list = [...(byScope.get(scope) ?? [])].sort((a, b) => a.data.index - b.data.index);
    return list.map((n) => {
      const step = clone(n.data.step);
      if (n.data.hasInnerSteps && isObject(step.loop)) step.loop.steps = build(n.id);
      return step;
    });
  };
  const doc = clone(base);
  doc.steps = build('');
  return doc;
}

/** The layout (positions) of a graph's nodes. */
export function layoutOf(nodes: readonly FlowNode[]): Layout {
  const positions: Record<string, Position> = {};
  for (const n of nodes) positions[n.id] = { x: Math.round(n.position.x), y: Math.round(n.position.y) };
  return { version: 1, positions };
}
