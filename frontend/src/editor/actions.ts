// Editor gestures that combine document edits (pure ops) with the store.
import { addStep, disconnect, makeJudge, removeSteps, uniqueAgentName, uniqueStepId } from '../doc/ops';
import { isObject, type Position, type Step, type WorkflowDoc } from '../doc/types';
import { documentToGraph, LOOP_HEADER, LOOP_PAD, STEP_H } from '../graph/mapping';
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

/** Where to put a new node when no drop point is given: below everything in its scope. */
function freeSpot(store: EditorStore, scope: string): Position {
  const { doc, layout } = store.getState();
  const graph = documentToGraph(doc, layout);
  let maxY = scope ? LOOP_HEADER - 40 - STEP_H : -STEP_H;
  let x = scope ? LOOP_PAD : 0;
  for (const n of graph.nodes) {
    if (n.data.scope !== scope) continue;
    const bottom = n.position.y + (n.height ?? STEP_H);
    if (bottom > maxY) {
      maxY = bottom;
      x = n.position.x;
    }
  }
  return { x, y: maxY + 40 };
}

export function addFromPalette(store: EditorStore, kind: PaletteKind, at?: Position, scope = ''): string | null {
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
  const position = at ?? freeSpot(store, scope);
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
