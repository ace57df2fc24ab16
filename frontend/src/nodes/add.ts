// Adding a node: from the palette (a click or a drop), or an inner step from a loop's frame.
import { addStep } from '../doc/ops';
import type { Position } from '../doc/types';
import { isContainer, kindOf } from '../graph/mapping';
import { freeSpot } from '../graph/placement';
import type { EditorStore } from '../store/editorStore';
import { STEP_ITEM } from './step/defaults';
import type { PaletteItem } from './types';

/**
 * Adds what a palette entry makes: at `at` (a drop), else in a free slot
 * that keeps the graph compact for a canvas of shape `aspect` (width / height).
 * Selects the new node; answers its key.
 */
export function addNode(store: EditorStore, item: PaletteItem, at?: Position, scope = '', aspect?: number): string | null {
  const state = store.getState();
  if (state.readOnly) return null;
  const where = item.inner ? scope : '';
  const { doc, step } = item.create(state.doc, where);
  const result = addStep(doc, where, step);
  const position = at ?? freeSpot(state.doc, state.layout, where, isContainer(kindOf(step)), step, aspect);
  const layout = { version: 1 as const, positions: { ...state.layout.positions, [result.key]: position } };
  store.getState().applyDoc(result.doc, { layout, select: { kind: 'step', key: result.key } });
  // Placed by a click (not a drop): bring it into view.
  if (!at) store.getState().requestFit();
  return result.key;
}

export function addInnerStep(store: EditorStore, loopKey: string): string | null {
  return addNode(store, STEP_ITEM, undefined, loopKey);
}

/**
 * Where a new node of `item`'s kind goes when the user adds it with a step selected: a plain step into
 * the selected loop (or the loop the selected inner step is in), anything else at the top level.
 */
export function scopeForAdding(store: EditorStore, item: PaletteItem): string {
  const { doc, selection } = store.getState();
  if (!item.inner || selection?.kind !== 'step') return '';
  const top = selection.key.split('/')[0];
  const step = Array.isArray(doc.steps) ? doc.steps.find((s) => s && s.id === top) : undefined;
  return step && typeof step.loop === 'object' && step.loop !== null && Array.isArray(step.loop.steps) ? top : '';
}
