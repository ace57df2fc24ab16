// Node keys: how the editor names a step in the graph, in the layout and in
// the selection. A key is the scope path of step ids: `plan` for a top-level
// step, `dev_cycle/review` for an inner step of the loop `dev_cycle`. Missing
// or duplicate ids get a stable suffix from their list index so that a broken
// document still draws.

import { isObject, type Json, type Step, type WorkflowDoc } from './types';

export const SCOPE_SEP = '/';

/** The local keys for one scope's list of steps, in list order. */
export function localKeys(steps: readonly Json[]): string[] {
  const seen = new Set<string>();
  return steps.map((raw, index) => {
    const id = isObject(raw) && typeof raw.id === 'string' && raw.id !== '' ? raw.id : `#${index}`;
    let local = id;
    if (seen.has(local)) local = `${id}#${index}`;
    seen.add(local);
    return local;
  });
}

export function joinKey(scope: string, local: string): string {
  return scope ? `${scope}${SCOPE_SEP}${local}` : local;
}

export function parentKey(key: string): string {
  const at = key.lastIndexOf(SCOPE_SEP);
  return at < 0 ? '' : key.slice(0, at);
}

export interface Located {
  /** The list that holds the step (top-level steps or a loop's steps). */
  siblings: Step[];
  index: number;
  step: Step;
  scope: string;
  /** JSON pointer of the step in the document. */
  pointer: string;
}

export function innerSteps(step: Step): Step[] | null {
  const loop = step.loop;
  if (!isObject(loop) || !Array.isArray(loop.steps)) return null;
  return loop.steps as Step[];
}

/** Finds the step a key names, or null. */
export function locate(doc: WorkflowDoc, key: string): Located | null {
  if (!Array.isArray(doc.steps)) return null;
  const parts = splitKey(doc, key);
  if (!parts) return null;
  return parts;
}

function splitKey(doc: WorkflowDoc, key: string): Located | null {
  // Keys may contain the separator only between scopes: step ids cannot hold '/'
  // in a valid document, and broken ones get '#n' keys, so walking is safe.
  let siblings: Step[] = doc.steps;
  let scope = '';
  let pointer = '/steps';
  let rest = key;
  for (;;) {
    const keys = localKeys(siblings);
    // Longest local key that matches the head of `rest`.
    let found = -1;
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i];
      if (rest === k || rest.startsWith(k + SCOPE_SEP)) {
        if (found < 0 || k.length > keys[found].length) found = i;
      }
    }
    if (found < 0) return null;
    const local = keys[found];
    const step = siblings[found];
    if (rest === local) {
      return { siblings, index: found, step, scope, pointer: `${pointer}/${found}` };
    }
    const inner = isObject(step) ? innerSteps(step) : null;
    if (!inner) return null;
    scope = joinKey(scope, local);
    pointer = `${pointer}/${found}/loop/steps`;
    siblings = inner;
    rest = rest.slice(local.length + 1);
  }
}

/** Every key of the document, parents before children. */
export function allKeys(doc: WorkflowDoc): string[] {
  const out: string[] = [];
  const walk = (steps: Step[], scope: string) => {
    const keys = localKeys(steps);
    steps.forEach((step, i) => {
      const key = joinKey(scope, keys[i]);
      out.push(key);
      const inner = isObject(step) ? innerSteps(step) : null;
      if (inner) walk(inner, key);
    });
  };
  if (Array.isArray(doc.steps)) walk(doc.steps, '');
  return out;
}
