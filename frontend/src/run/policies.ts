// Run-level policies (runtime/engine/policies.py): stop rules for repeat-until loops
// and what to do with a failed iteration. They belong to the run (POST
// /api/v1/runs `policies`), never to the exported document. The server judges
// them; these helpers only shape the request.
import { isObject, type WorkflowDoc } from '../doc/types';

import type { RunPolicies, StopRule } from '../api/types';

export type { RunPolicies, StopRule } from '../api/types';
export type StopRuleKind = StopRule['kind'];

export const EMPTY_POLICIES: RunPolicies = { stop_rules: [], combine: 'any', on_iteration_error: 'abort' };

export function newRule(kind: StopRuleKind): StopRule {
  if (kind === 'converged') return { kind };
  if (kind === 'output_contains') return { kind, marker: '' };
  return { kind };
}

function cleanRule(rule: StopRule): StopRule {
  if (rule.kind === 'converged') {
    return typeof rule.threshold === 'number' && Number.isFinite(rule.threshold) ? { kind: 'converged', threshold: rule.threshold } : { kind: 'converged' };
  }
  if (rule.kind === 'output_contains') return { kind: 'output_contains', marker: rule.marker };
  return { kind: 'approval' };
}

/**
 * The `policies` of a run request, or undefined when nothing is set (no stop
 * rule and the default error policy, abort). `combine` and `loops` alone
 * change nothing, so they do not make a request by themselves. An empty
 * `loops` list is left out (the server reads its absence as every loop); a
 * converged rule without a threshold leaves it out (the server's default).
 */
export function policiesForRequest(value: RunPolicies | null | undefined): RunPolicies | undefined {
  if (!value) return undefined;
  const rules = (value.stop_rules ?? []).map(cleanRule);
  const onError = value.on_iteration_error ?? 'abort';
  if (rules.length === 0 && onError === 'abort') return undefined;
  const out: RunPolicies = { stop_rules: rules, combine: value.combine ?? 'any', on_iteration_error: onError };
  const loops = (value.loops ?? []).filter((id, i, all) => id !== '' && all.indexOf(id) === i);
  if (loops.length) out.loops = loops;
  return out;
}

/** The ids of the document's top-level loop steps (the ids a run policy's `loops` names). */
export function loopIdsOf(doc: WorkflowDoc | null | undefined): string[] {
  if (!doc || !Array.isArray(doc.steps)) return [];
  const ids: string[] = [];
  for (const s of doc.steps) {
    if (isObject(s) && isObject(s.loop) && typeof s.id === 'string' && s.id) ids.push(s.id);
  }
  return ids;
}
