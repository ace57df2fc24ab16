// Where a new node goes when no drop point is given: next to the others, in
// the free slot that keeps the graph compact. Pure.
import type { Position, Step, WorkflowDoc, Layout } from '../doc/types';
import { documentToGraph, type Graph, LOOP_HEADER, LOOP_PAD, SINGLE_LOOP_H, SINGLE_LOOP_W, STEP_H, STEP_W, stepHeight } from './mapping';

export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

const GAP_X = 80;
const GAP_Y = 40;

function overlaps(a: Box, b: Box): boolean {
  return a.x < b.x + b.w + GAP_Y / 2 && b.x < a.x + a.w + GAP_Y / 2 && a.y < b.y + b.h + GAP_Y / 2 && b.y < a.y + a.h + GAP_Y / 2;
}

/**
 * Where a new top-level node goes so the graph stays compact: next to or
 * below an existing node, in the free slot that keeps the whole graph's
 * bounding box closest to the canvas's shape (`aspect` = width / height), so
 * that Fit keeps the text readable.
 */
export function compactSpot(boxes: readonly Box[], size: { w: number; h: number }, aspect = 1.5): Position {
  if (boxes.length === 0) return { x: 0, y: 0 };
  const minX = Math.min(...boxes.map((b) => b.x));
  const minY = Math.min(...boxes.map((b) => b.y));
  const maxX = Math.max(...boxes.map((b) => b.x + b.w));
  const maxY = Math.max(...boxes.map((b) => b.y + b.h));
  const candidates: Position[] = [];
  for (const b of boxes) {
    candidates.push({ x: b.x + b.w + GAP_X, y: b.y }, { x: b.x, y: b.y + b.h + GAP_Y });
  }
  candidates.push({ x: maxX + GAP_X, y: minY }, { x: minX, y: maxY + GAP_Y });
  let best: Position | null = null;
  let bestScore = Infinity;
  for (const c of candidates) {
    const box = { x: c.x, y: c.y, w: size.w, h: size.h };
    if (boxes.some((b) => overlaps(box, b))) continue;
    const w = Math.max(maxX, c.x + size.w) - Math.min(minX, c.x);
    const h = Math.max(maxY, c.y + size.h) - Math.min(minY, c.y);
    // What Fit has to show: the larger of the two sides, in canvas proportions.
    const score = Math.max(w, h * aspect) + (c.y - minY) * 0.01 + (c.x - minX) * 0.001;
    if (score < bestScore) {
      bestScore = score;
      best = c;
    }
  }
  return best ?? { x: minX, y: maxY + GAP_Y };
}

/**
 * Where a new node goes in `scope` of the document: at top level a compact
 * free slot (for a canvas of shape `aspect`); inside a loop, below its last
 * inner step.
 */
export function freeSpot(doc: WorkflowDoc, layout: Layout, scope: string, container: boolean, step: Step, aspect?: number): Position {
  const graph = documentToGraph(doc, layout);
  if (!scope) {
    const boxes: Box[] = graph.nodes
      .filter((n) => n.data.scope === '')
      .map((n) => ({ x: n.position.x, y: n.position.y, w: n.width ?? STEP_W, h: n.height ?? stepHeight(n.data.step, n.data.kind) }));
    // The new node's own estimated height (its text and chips), not a fixed one: a taller node placed
    // by a fixed height would overlap the node below it.
    return compactSpot(boxes, { w: container ? SINGLE_LOOP_W : STEP_W, h: container ? SINGLE_LOOP_H : Math.max(STEP_H, stepHeight(step, 'step')) }, aspect);
  }
  let maxY = LOOP_HEADER - GAP_Y - STEP_H;
  let x = LOOP_PAD;
  for (const n of graph.nodes) {
    if (n.data.scope !== scope) continue;
    const bottom = n.position.y + (n.height ?? stepHeight(n.data.step, n.data.kind));
    if (bottom > maxY) {
      maxY = bottom;
      x = n.position.x;
    }
  }
  return { x, y: maxY + GAP_Y };
}

/**
 * `positions` with each node not in `kept` moved down, in its own scope, past any node it would cover: the
 * steps a layout lacks (elk's spots for them, after an undo or an import) never land on the steps the user
 * placed, whose spots elk did not know. Kept nodes never move.
 */
export function clearOfKept(graph: Graph, positions: Readonly<Record<string, Position>>, kept: ReadonlySet<string>): Record<string, Position> {
  const out: Record<string, Position> = { ...positions };
  const byScope = new Map<string, Box[]>();
  const boxOf = (id: string): Box | null => {
    const n = graph.nodes.find((node) => node.id === id);
    const at = out[id];
    if (!n || !at) return null;
    return { x: at.x, y: at.y, w: n.width ?? STEP_W, h: n.height ?? stepHeight(n.data.step as Step, n.data.kind) };
  };
  const placed = (scope: string) => byScope.get(scope) ?? byScope.set(scope, []).get(scope)!;
  for (const n of graph.nodes) {
    const box = kept.has(n.id) ? boxOf(n.id) : null;
    if (box) placed(n.data.scope).push(box);
  }
  for (const n of graph.nodes) {
    if (kept.has(n.id)) continue;
    const box = boxOf(n.id);
    if (!box) continue;
    const others = placed(n.data.scope);
    for (let hit = others.find((o) => overlaps(o, box)); hit; hit = others.find((o) => overlaps(o, box))) box.y = hit.y + hit.h + GAP_Y;
    out[n.id] = { x: box.x, y: box.y };
    others.push(box);
  }
  return out;
}
