// The CEL variables a field can use, to show and complete them (the server
// still checks the expression). Follows the spec digest's list of variables.
import { innerSteps, locate } from './keys';
import { isObject, type WorkflowDoc } from './types';

export interface CelVar {
  name: string;
  detail: string;
}

/** A CEL reference to a step: `steps.plan`, or `steps['write-up']` for an id CEL cannot read bare. */
export function stepRef(id: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(id) ? `steps.${id}` : `steps['${id}']`;
}

function stepVars(ids: string[], why: string): CelVar[] {
  const out: CelVar[] = [];
  for (const id of ids) {
    const base = stepRef(id);
    out.push({ name: `${base}.content`, detail: `text output of ${id} (${why})` });
    out.push({ name: `${base}.status`, detail: `status of ${id}: completed, failed, skipped, cancelled` });
    out.push({ name: `${base}.result`, detail: `structured result of ${id} (needs a resultSchema)` });
  }
  return out;
}

export type CelField = 'condition' | 'forEach' | 'until';

export function celVariables(doc: WorkflowDoc, key: string, field: CelField): CelVar[] {
  const found = locate(doc, key);
  if (!found) return [];
  const step = found.step;
  const deps = Array.isArray(step.dependsOn) ? step.dependsOn.filter((d): d is string => typeof d === 'string') : [];
  const vars: CelVar[] = [];
  if (field === 'until') {
    vars.push({ name: 'iteration', detail: 'zero-based number of the iteration that just finished' });
    const inner = innerSteps(step);
    if (inner && inner.length > 0) {
      const ids = inner.map((s) => (isObject(s) && typeof s.id === 'string' ? s.id : '')).filter(Boolean);
      vars.push(...stepVars(ids, 'inner step, this iteration'));
    } else {
      vars.push({ name: 'content', detail: 'text output of this iteration' });
      vars.push({ name: 'result', detail: 'structured result of this iteration' });
      vars.push({ name: 'status', detail: 'status of this iteration' });
    }
    return vars;
  }
  vars.push(...stepVars(deps, 'dependency'));
  if (found.scope) {
    const parent = locate(doc, found.scope);
    const loop = parent && isObject(parent.step.loop) ? parent.step.loop : null;
    if (loop && 'forEach' in loop) {
      vars.push({ name: 'item', detail: 'the current forEach item' });
      vars.push({ name: 'index', detail: 'zero-based index of the current item' });
    } else if (loop) {
      vars.push({ name: 'iteration', detail: 'zero-based iteration number' });
    }
  }
  if (field === 'condition' && isObject(step.loop) && !('forEach' in step.loop) && !innerSteps(step)) {
    vars.push({ name: 'content', detail: 'always "" in a plain condition' });
  }
  return vars;
}
