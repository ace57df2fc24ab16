// Breakpoints as data: the one a step's margin dot and inspector toggle set (the same id, so both show the same
// breakpoint), the list with it put in or taken out, and each one in words. They live beside the workflow in the
// app (designer/breakpoints.py is the judge), never in its document.
import type { NodeKind } from '../graph/mapping';
import { formatIterationId, iterationName } from '../run/labels';

export interface Breakpoint {
  id: string;
  kind: string;
  step?: string;
  round?: number;
  item?: number;
  done?: boolean;
  condition?: string;
  tool?: string;
  [key: string]: unknown;
}

/** The id of the breakpoint a step's margin dot and its inspector toggle set: one per step. */
export function stepBreakpointId(stepId: string): string {
  return `at-${stepId}`;
}

/** The breakpoint a step's dot or toggle sets: a round (or item) one on a loop, a step one otherwise; `at` 0-based. */
export function breakpointFor(stepId: string, kind: NodeKind, at: number | null): Breakpoint {
  const id = stepBreakpointId(stepId);
  if (kind === 'repeat') return { id, kind: 'round', step: stepId, ...(at !== null ? { round: at } : {}) };
  if (kind === 'forEach') return { id, kind: 'round', step: stepId, ...(at !== null ? { item: at } : {}) };
  return { id, kind: 'step', step: stepId, ...(at !== null ? { round: at } : {}) };
}

/** The step's own breakpoint in `list`, or null. */
export function stepBreakpoint(list: readonly Breakpoint[] | null, stepId: string): Breakpoint | null {
  return list?.find((b) => b.id === stepBreakpointId(stepId)) ?? null;
}

/** `list` with `bp` in (replacing one of its id, in its place) or, with `bp` null, without the one of `id`. */
export function withBreakpoint(list: readonly Breakpoint[], id: string, bp: Breakpoint | null): Breakpoint[] {
  const at = list.findIndex((b) => b.id === id);
  if (bp === null) return list.filter((b) => b.id !== id);
  if (at < 0) return [...list, bp];
  return list.map((b, i) => (i === at ? bp : b));
}

/** "before round 3 of write", "when the judge of write says done", "before a call of bash", ... */
export function breakpointWords(bp: Record<string, unknown>): string {
  const step = typeof bp.step === 'string' ? bp.step : '';
  const at = typeof bp.round === 'number' ? ` in ${iterationName('round', bp.round)}` : typeof bp.item === 'number' ? ` in ${iterationName('item', bp.item)}` : '';
  switch (bp.kind) {
    case 'step':
      return `before step ${step}${at}`;
    case 'round':
      if (typeof bp.round === 'number') return `before ${iterationName('round', bp.round)} of ${step} (${formatIterationId(step, bp.round, 'round')})`;
      if (typeof bp.item === 'number') return `before ${iterationName('item', bp.item)} of ${step} (${formatIterationId(step, bp.item, 'item')})`;
      return `before each round of ${step}`;
    case 'judge':
      return `when the judge of ${step} says ${bp.done === false ? 'not done' : bp.done === true ? 'done' : 'done or not'}`;
    case 'condition':
      return `when ${String(bp.condition ?? '')} holds`;
    case 'tool':
      return `before a call of ${String(bp.tool ?? '')}`;
    default:
      return String(bp.kind ?? 'breakpoint');
  }
}

/** The words a step's margin dot says (its aria-label and title): what it holds before, and what a click does. */
export function marginWords(stepId: string, kind: NodeKind, set: Breakpoint | null, canChange: boolean): string {
  if (set) return `Breakpoint ${breakpointWords(set)}: ${canChange ? 'click to remove' : 'your role cannot change breakpoints'}`;
  const words = kind === 'forEach' ? `before each item of ${stepId}` : breakpointWords(breakpointFor(stepId, kind, null));
  return `Set a breakpoint ${words}`;
}
