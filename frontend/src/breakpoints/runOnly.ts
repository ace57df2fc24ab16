// Breakpoints the run dialog adds for one run: never saved with the workflow, sent in POST /runs' `breakpoints`
// beside the workflow's own. The form offers the kinds the engine knows (designer/breakpoints.py) for the steps
// the document has; the server checks each as it is added (POST /workflows/{id}/breakpoints/check) and again
// when the run starts. Rounds and items are typed from 1, as the page words them, and sent 0-based.
import { isObject, type WorkflowDoc } from '../doc/types';
import type { Breakpoint } from './rules';

export type RunBreakpointKind = 'step' | 'round' | 'judge' | 'condition' | 'tool';

/** A step the form can name: whether it is a loop, and the loop around it (its own, for a loop step). */
export interface StepChoice {
  id: string;
  /** This step is a loop of that kind. */
  loop: 'repeat' | 'forEach' | null;
  /** The loop that numbers its executions (its own for a loop step, its parent's for an inner one). */
  around: 'repeat' | 'forEach' | null;
  /** A repeat-until with an untilAgent judge. */
  judge: boolean;
}

export interface RunBreakpointForm {
  kind: RunBreakpointKind;
  step: string;
  /** Round or item, from 1; empty: every one. */
  at: string;
  done: 'either' | 'done' | 'not-done';
  condition: string;
  tool: string;
}

export const EMPTY_FORM: RunBreakpointForm = { kind: 'step', step: '', at: '', done: 'either', condition: '', tool: '' };

function loopKind(loop: unknown): 'repeat' | 'forEach' | null {
  if (!isObject(loop)) return null;
  return 'forEach' in loop ? 'forEach' : 'repeat';
}

/** Every step with an id, inner ones after their loop, as the server finds them (ids as written). */
export function stepChoices(doc: WorkflowDoc): StepChoice[] {
  const out: StepChoice[] = [];
  const walk = (steps: unknown, parent: 'repeat' | 'forEach' | null) => {
    if (!Array.isArray(steps)) return;
    for (const s of steps) {
      if (!isObject(s)) continue;
      const loop = loopKind(s.loop);
      if (typeof s.id === 'string' && s.id) {
        out.push({ id: s.id, loop, around: loop ?? parent, judge: loop === 'repeat' && isObject(s.loop) && typeof s.loop.untilAgent === 'string' });
      }
      if (isObject(s.loop)) walk(s.loop.steps, loop);
    }
  };
  walk(doc.steps, null);
  return out;
}

/** The steps the form offers for a kind: any step, a loop, a judged loop. */
export function stepsFor(kind: RunBreakpointKind, choices: readonly StepChoice[]): readonly StepChoice[] {
  if (kind === 'round') return choices.filter((c) => c.loop !== null);
  if (kind === 'judge') return choices.filter((c) => c.judge);
  if (kind === 'step') return choices;
  return [];
}

/** What the "only in" field numbers for this form: rounds, items, or nothing (a step no loop repeats). */
export function atWord(form: Pick<RunBreakpointForm, 'kind' | 'step'>, choices: readonly StepChoice[]): 'round' | 'item' | null {
  if (form.kind !== 'step' && form.kind !== 'round') return null;
  const found = choices.find((c) => c.id === form.step);
  const loop = form.kind === 'round' ? found?.loop : found?.around;
  return loop === 'forEach' ? 'item' : loop === 'repeat' ? 'round' : null;
}

/** An id no breakpoint of this run has yet: run-1, run-2, ... (a run's own would replace a saved one of its id). */
export function freeRunId(taken: readonly string[]): string {
  for (let n = 1; ; n++) if (!taken.includes(`run-${n}`)) return `run-${n}`;
}

/** The breakpoint the form describes, or what to fix first (the server judges the rest). */
export function formBreakpoint(form: RunBreakpointForm, choices: readonly StepChoice[], id: string): { breakpoint: Breakpoint } | { error: string } {
  const bp: Breakpoint = { id, kind: form.kind };
  if (form.kind === 'step' || form.kind === 'round' || form.kind === 'judge') {
    if (!form.step) return { error: 'step: choose the step it holds before' };
    bp.step = form.step;
  }
  const word = atWord(form, choices);
  if (word && form.at.trim() !== '') {
    const n = Number(form.at.trim());
    if (!Number.isInteger(n) || n < 1) return { error: `${word}: a whole number from 1 (the first ${word})` };
    bp[word] = n - 1;
  }
  if (form.kind === 'judge' && form.done !== 'either') bp.done = form.done === 'done';
  if (form.kind === 'condition') {
    if (!form.condition.trim()) return { error: 'condition: a CEL expression over the run’s state' };
    bp.condition = form.condition.trim();
  }
  if (form.kind === 'tool') {
    if (!form.tool.trim()) return { error: 'tool: the tool’s name' };
    bp.tool = form.tool.trim();
  }
  return { breakpoint: bp };
}

/** The server's refusal of the one breakpoint checked, named by its field: "round: must be ...". */
export function refusalWords(message: string): string {
  return message.replace(/^breakpoints\[0\]\./, '').replace(/^breakpoints\[0\]: /, '');
}
