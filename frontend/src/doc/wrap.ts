// Wrapping steps in a loop and unwrapping a loop's inner steps into its
// scope, as pure edits of the document. Dependencies are kept valid where
// they can be (an edge into a wrapped step now ends at the loop, the loop's
// dependents now wait for its last inner steps); a reference that cannot
// stay valid is kept as written and named in a notice, never dropped quietly.

import { nextFreeId } from './clipboard';
import { innerSteps, joinKey, localKeys, locate, parentKey, SCOPE_SEP } from './keys';
import { celStepRefs, forEachCel, isJudge, makeJudge, renameCelRefsMany, uniqueAgentName, uniqueStepId } from './ops';
import { clone, isObject, type Loop, type Step, type WorkflowDoc } from './types';

export type WrapKind = 'forEach' | 'repeat' | 'judge';

export const WRAP_LABELS: Record<WrapKind, string> = { forEach: 'forEach loop', repeat: 'repeat-until loop', judge: 'judge loop' };

const WRAP_IDS: Record<WrapKind, string> = { forEach: 'for_each', repeat: 'repeat', judge: 'refine' };

export interface WrapResult {
  doc: WorkflowDoc;
  loopKey: string;
  /** Old key -> new key of each wrapped step (and its position now relative to the loop). */
  keyMap: Record<string, string>;
  notices: string[];
}

export interface UnwrapResult {
  doc: WorkflowDoc;
  /** Keys of the steps that were inside, now in the loop's scope. */
  keys: string[];
  keyMap: Record<string, string>;
  notices: string[];
}

function depsOf(step: Step): string[] {
  return Array.isArray(step.dependsOn) ? step.dependsOn.filter((d): d is string => typeof d === 'string') : [];
}

function setDeps(step: Step, deps: string[]): void {
  const unique = [...new Set(deps)];
  if (unique.length > 0) step.dependsOn = unique;
  else delete step.dependsOn;
}

/** The steps of `list` no other step of it depends on: the last ones of a DAG. */
function sinks(list: Step[]): Step[] {
  const needed = new Set(list.flatMap(depsOf));
  return list.filter((s) => !needed.has(s.id));
}

const quote = (ids: string[]) => ids.map((i) => `"${i}"`).join(', ');

/** Why the steps cannot be wrapped, or null. */
export function wrapProblem(doc: WorkflowDoc, keys: readonly string[]): string | null {
  if (keys.length === 0) return 'Select the steps to wrap first.';
  const scopes = new Set(keys.map(parentKey));
  if (scopes.size > 1) return 'Select steps of one scope: all at the top level, or all in the same loop.';
  if ([...scopes][0] !== '') return 'These steps are inside a loop already, and zenflow v1 has no nested loops.';
  for (const key of keys) {
    const found = locate(doc, key);
    if (!found) return `There is no step "${key}".`;
    if (isObject(found.step.loop)) return `"${key}" is a loop, and zenflow v1 has no nested loops.`;
  }
  return null;
}

/** The judge agent a judge loop uses: an agent that is one already, else "judge" (given the contract). */
function judgeFor(doc: WorkflowDoc): { doc: WorkflowDoc; name: string; made: boolean } {
  const agents = isObject(doc.agents) ? doc.agents : {};
  const existing = Object.keys(agents).find((n) => isObject(agents[n]) && isJudge(agents[n]));
  if (existing) return { doc, name: existing, made: false };
  const name = isObject(agents.judge) ? 'judge' : uniqueAgentName(doc, 'judge');
  return { doc: makeJudge(doc, name), name, made: true };
}

/**
 * Wraps top-level steps in a new loop of `kind`, in the place of the first of them. The loop takes the
 * wrapped steps' dependencies from outside; steps that depended on a wrapped step depend on the loop.
 */
export function wrapInLoop(doc: WorkflowDoc, keys: readonly string[], kind: WrapKind): WrapResult | { error: string } {
  const problem = wrapProblem(doc, keys);
  if (problem) return { error: problem };
  const notices: string[] = [];
  let next = clone(doc);
  let judge = '';
  if (kind === 'judge') {
    const j = judgeFor(next);
    next = j.doc;
    judge = j.name;
    if (j.made) notices.push(`The judge is agent "${judge}" (it answers done: true or false): tell it in its prompt how to decide.`);
  }
  const list = next.steps;
  const indexes = keys.map((k) => locate(next, k)!.index).sort((a, b) => a - b);
  const wrapped = indexes.map((i) => list[i]);
  const wrappedIds = new Set(wrapped.map((s) => s.id));
  const loopId = uniqueStepId(next, '', WRAP_IDS[kind]);

  // Dependencies that leave the wrapped set move up to the loop.
  const outerDeps: string[] = [];
  for (const s of wrapped) {
    const deps = depsOf(s);
    outerDeps.push(...deps.filter((d) => !wrappedIds.has(d)));
    setDeps(s, deps.filter((d) => wrappedIds.has(d)));
    forEachCel(s, (field, expr) => {
      const out = celStepRefs(expr).filter((r) => !wrappedIds.has(r));
      if (out.length > 0) notices.push(`The ${field} of "${s.id}" reads ${out.map((r) => `steps.${r}`).join(', ')}, outside the loop now: an inner step cannot read it.`);
    });
  }
  const last = sinks(wrapped).map((s) => s.id);
  const loop: Loop = {};
  if (kind === 'forEach') {
    // Left empty on purpose: the Problems panel asks for it until the user says what to iterate over.
    loop.forEach = '';
    notices.push(`Set what "${loopId}" iterates over (its forEach).`);
  } else {
    loop.maxIterations = 3;
    if (kind === 'repeat') loop.until = `${refOf(last[last.length - 1])}.content.contains('DONE')`;
    else loop.untilAgent = judge;
  }
  loop.steps = wrapped;
  const loopStep: Step = { id: loopId };
  setDeps(loopStep, outerDeps);
  loopStep.loop = loop;

  // Steps outside that read a wrapped step: the edge now ends at the loop, CEL cannot reach inside.
  for (const s of list) {
    if (wrappedIds.has(s.id)) continue;
    const deps = depsOf(s);
    if (deps.some((d) => wrappedIds.has(d))) setDeps(s, deps.map((d) => (wrappedIds.has(d) ? loopId : d)));
    forEachCel(s, (field, expr) => {
      const inside = celStepRefs(expr).filter((r) => wrappedIds.has(r));
      if (inside.length > 0) {
        notices.push(`The ${field} of "${s.id}" reads ${inside.map((r) => `steps.${r}`).join(', ')}, inside "${loopId}" now: read steps.${loopId} instead.`);
      }
    });
  }
  next.steps = list.filter((s) => !wrapped.includes(s));
  next.steps.splice(indexes[0], 0, loopStep);
  const keyMap: Record<string, string> = {};
  const locals = localKeys(wrapped);
  for (const key of keys) {
    const found = locate(doc, key)!;
    const i = wrapped.findIndex((w) => w.id === found.step.id);
    keyMap[key] = joinKey(loopId, locals[i]);
  }
  return { doc: next, loopKey: loopId, keyMap, notices };
}

function refOf(id: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(id) ? `steps.${id}` : `steps['${id}']`;
}

/** Why the step cannot be unwrapped, or null. */
export function unwrapProblem(doc: WorkflowDoc, key: string): string | null {
  const found = locate(doc, key);
  if (!found) return `There is no step "${key}".`;
  if (!isObject(found.step.loop)) return `"${key}" is not a loop.`;
  if (!innerSteps(found.step)?.length) return `"${key}" loops over itself and has no inner steps to take out.`;
  return null;
}

/**
 * Moves a loop's inner steps into the loop's scope and removes the loop. Inner steps that started the
 * iteration wait for what the loop waited for; the loop's dependents wait for its last inner steps.
 */
export function unwrapLoop(doc: WorkflowDoc, key: string): UnwrapResult | { error: string } {
  const problem = unwrapProblem(doc, key);
  if (problem) return { error: problem };
  const next = clone(doc);
  const found = locate(next, key)!;
  const loopStep = found.step;
  const loop = loopStep.loop as Loop;
  const inner = innerSteps(loopStep)!;
  const oldLocals = localKeys(inner);
  const notices: string[] = [];
  const loopId = loopStep.id;

  // Ids free among the loop's siblings (the loop's own id is free once it has gone).
  const used = new Set(found.siblings.filter((s) => s !== loopStep).map((s) => s.id));
  const rename = new Map<string, string>();
  for (const s of inner) {
    const id = nextFreeId(s.id, used);
    used.add(id);
    if (id !== s.id) notices.push(`"${s.id}" is now "${id}": the name was taken.`);
    rename.set(s.id, id);
  }
  const lastIds = sinks(inner).map((s) => rename.get(s.id) ?? s.id);
  const loopDeps = depsOf(loopStep);
  for (const s of inner) {
    const deps = depsOf(s).map((d) => rename.get(d) ?? d);
    setDeps(s, deps.length === 0 ? loopDeps : deps);
    s.id = rename.get(s.id) ?? s.id;
    forEachCel(s, (field, expr, set) => {
      set(renameCelRefsMany(expr, rename));
      const vars = ['item', 'index', 'iteration'].filter((v) => new RegExp(`(^|[^.\\w])${v}\\b`).test(expr));
      if (vars.length > 0) notices.push(`The ${field} of "${s.id}" reads ${vars.join(', ')}, which only a loop gives.`);
    });
  }
  const dropped: string[] = [];
  if (typeof loopStep.condition === 'string') dropped.push(`condition (${loopStep.condition})`);
  if (typeof loop.forEach === 'string' && loop.forEach) dropped.push(`forEach (${loop.forEach})`);
  else if (Array.isArray(loop.forEach)) dropped.push(`forEach (${loop.forEach.length} items)`);
  if (typeof loop.until === 'string' && loop.until) dropped.push(`until (${loop.until})`);
  if (typeof loop.untilAgent === 'string') dropped.push(`judge (${loop.untilAgent})`);
  for (const f of ['timeout', 'retries'] as const) if (loopStep[f] !== undefined) dropped.push(`${f} (${String(loopStep[f])})`);
  if (dropped.length > 0) notices.push(`Dropped with the loop "${loopId}": ${dropped.join(', ')}.`);

  // The loop's dependents wait for its last inner steps; what read the loop's output is re-pointed when one step gave it.
  for (const s of found.siblings) {
    if (s === loopStep) continue;
    const deps = depsOf(s);
    if (deps.includes(loopId)) setDeps(s, deps.flatMap((d) => (d === loopId ? lastIds : [d])));
    forEachCel(s, (field, expr, set) => {
      if (!celStepRefs(expr).includes(loopId)) return;
      if (lastIds.length === 1) {
        set(renameCelRefsMany(expr, new Map([[loopId, lastIds[0]]])));
        notices.push(`The ${field} of "${s.id}" now reads steps.${lastIds[0]} instead of the loop's output.`);
      } else {
        notices.push(`The ${field} of "${s.id}" reads steps.${loopId}, which is gone: choose one of ${quote(lastIds)}.`);
      }
    });
  }
  found.siblings.splice(found.index, 1, ...inner);
  const locals = localKeys(found.siblings);
  const keys = inner.map((_, i) => joinKey(found.scope, locals[found.index + i]));
  const keyMap: Record<string, string> = {};
  oldLocals.forEach((local, i) => (keyMap[`${key}${SCOPE_SEP}${local}`] = keys[i]));
  return { doc: next, keys, keyMap, notices };
}
