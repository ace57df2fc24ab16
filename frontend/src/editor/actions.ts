// Editor gestures that combine document edits (pure ops) with the store.
import { addStep, disconnect, makeJudge, removeSteps, uniqueAgentName, uniqueStepId } from '../doc/ops';
import { isObject, type Position, type Step, type WorkflowDoc } from '../doc/types';
import { documentToGraph, LOOP_HEADER, LOOP_PAD, SINGLE_LOOP_H, SINGLE_LOOP_W, STEP_H, STEP_W, stepHeight, type NodeKind } from '../graph/mapping';
import { autoLayout } from '../layout/elk';
import { defaultForEach } from '../nodes/forEach/defaults';
import { defaultInclude } from '../nodes/include/defaults';
import { defaultJudgeLoop, defaultRepeat } from '../nodes/repeat/defaults';
import { defaultStep } from '../nodes/step/defaults';
import type { EditorStore } from '../store/editorStore';

export type PaletteKind = 'step' | 'forEach' | 'repeat' | 'judge' | 'include';

function firstAgent(doc: WorkflowDoc, avoid?: string): string | undefined {
  if (!isObject(doc.agents)) return undefined;
  return Object.keys(doc.agents).find((n) => n !== avoid);
}

interface Box {
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
 * that Fit keeps the text readable. Pure; exported for tests.
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

/** Where to put a new node when no drop point is given. */
function freeSpot(store: EditorStore, scope: string, kind: NodeKind, step: Step, aspect?: number): Position {
  const { doc, layout } = store.getState();
  const graph = documentToGraph(doc, layout);
  if (!scope) {
    const boxes: Box[] = graph.nodes
      .filter((n) => n.data.scope === '')
      .map((n) => ({ x: n.position.x, y: n.position.y, w: n.width ?? STEP_W, h: n.height ?? stepHeight(n.data.step, n.data.kind) }));
    const container = kind === 'forEach' || kind === 'repeat';
    // The new node's own estimated height (its text and chips), not a fixed one: a taller node placed
    // by a fixed height would overlap the node below it.
    return compactSpot(boxes, { w: container ? SINGLE_LOOP_W : STEP_W, h: container ? SINGLE_LOOP_H : Math.max(STEP_H, stepHeight(step, 'step')) }, aspect);
  }
  // Inside a loop: below its last inner step.
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
 * Adds a step or loop from the palette: at `at` (a drop), else in a free slot
 * that keeps the graph compact for a canvas of shape `aspect` (width / height).
 */
export function addFromPalette(store: EditorStore, kind: PaletteKind, at?: Position, scope = '', aspect?: number): string | null {
  const state = store.getState();
  if (state.readOnly) return null;
  let doc = state.doc;
  // Loops cannot nest (v1): a loop dropped into a loop goes to the top level.
  if (kind !== 'step') scope = '';
  const agent = firstAgent(doc);
  let step: Step;
  switch (kind) {
    case 'step':
      step = defaultStep(uniqueStepId(doc, scope, scope ? 'inner' : 'step'), agent);
      break;
    case 'forEach':
      step = defaultForEach(uniqueStepId(doc, scope, 'for_each'), agent);
      break;
    case 'repeat':
      step = defaultRepeat(uniqueStepId(doc, scope, 'repeat'), agent);
      break;
    case 'judge': {
      const existing = isObject(doc.agents) && isObject(doc.agents.judge) ? 'judge' : null;
      const judge = existing ?? uniqueAgentName(doc, 'judge');
      doc = makeJudge(doc, judge);
      step = defaultJudgeLoop(uniqueStepId(doc, scope, 'refine'), judge, firstAgent(doc, judge));
      break;
    }
    case 'include': {
      const names = isObject(doc.includes) ? Object.keys(doc.includes) : [];
      step = defaultInclude(uniqueStepId(doc, scope, 'include'), names[0] ?? 'workflows/sub.yaml');
      break;
    }
  }
  const result = addStep(doc, scope, step);
  const position = at ?? freeSpot(store, scope, kind === 'judge' ? 'repeat' : kind === 'forEach' || kind === 'repeat' ? kind : 'step', step, aspect);
  const layout = { version: 1 as const, positions: { ...state.layout.positions, [result.key]: position } };
  store.getState().applyDoc(result.doc, { layout, select: { kind: 'step', key: result.key } });
  // Placed by a click (not a drop): bring it into view.
  if (!at) store.getState().requestFit();
  return result.key;
}

export function addInnerStep(store: EditorStore, loopKey: string): string | null {
  return addFromPalette(store, 'step', undefined, loopKey);
}

/** Keyboard delete: the selected step (and its inner steps) or dependency. */
export function deleteSelection(store: EditorStore): void {
  const { selection, doc, readOnly } = store.getState();
  if (readOnly || !selection) return;
  if (selection.kind === 'step') {
    store.getState().applyDoc(removeSteps(doc, [selection.key]), { select: null });
  } else if (selection.kind === 'edge') {
    store.getState().applyDoc(disconnect(doc, selection.source, selection.target), { select: null });
  }
}

/** Lays out the whole document with elkjs (one undoable change). */
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
 * Lays out the steps the layout does not know yet (imported documents) with
 * elkjs. Meanwhile the canvas shows a simple layered placement; if the user
 * moved something in between, only the steps still unplaced take elk's spot.
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
  // Keep what the user placed; fill the rest. Positions only: no history entry.
  const known = Object.keys(base).length;
  store.getState().setLayout(known ? { version: 1, positions: { ...next.positions, ...base } } : next);
}
