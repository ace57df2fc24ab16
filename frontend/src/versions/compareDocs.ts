// What changed between two versions of a workflow, step by step.
//
// Steps are matched by their namespaced key (doc/keys.ts: `review`, `dev_cycle/review`), so an
// inner step of a loop is its own entry and a step moved into another loop counts as removed
// there and added here. A loop's own fields are compared without its inner steps: those have
// entries of their own. Values are compared by meaning, not by key order or text.

import { innerSteps, joinKey, localKeys, parentKey, SCOPE_SEP } from '../doc/keys';
import { deepEqual, isObject, type Json, type WorkflowDoc } from '../doc/types';

export type DiffKind = 'added' | 'removed' | 'changed' | 'unchanged';
export type FieldChange = 'added' | 'removed' | 'changed';

export interface FieldDiff {
  /** `instructions`, `loop.maxIterations`, `agents.writer`. */
  field: string;
  change: FieldChange;
}

export interface StepDiff {
  key: string;
  /** The step's id as written (the key's last part, unless the id is missing). */
  id: string;
  kind: DiffKind;
  /** What changed in a changed step; empty otherwise. */
  fields: FieldDiff[];
  /** How many steps inside this loop were added, removed or changed. */
  inside: number;
}

export interface DocDiff {
  /** Every step of either version: the later version's order, removed steps where they stood before. */
  steps: StepDiff[];
  /** Changes outside the steps (name, agents, inputs…). */
  workflow: FieldDiff[];
  counts: Record<DiffKind, number>;
}

interface FlatStep {
  key: string;
  id: string;
  /** The step without `loop.steps` (a non-mapping item as it is). */
  own: Json;
}

/** Depth first, in document order: a loop, then its inner steps. */
function flatten(doc: unknown): FlatStep[] {
  const out: FlatStep[] = [];
  const walk = (steps: Json[], scope: string) => {
    const keys = localKeys(steps);
    steps.forEach((raw, i) => {
      const key = joinKey(scope, keys[i]);
      if (!isObject(raw)) {
        out.push({ key, id: keys[i], own: raw });
        return;
      }
      const own: Record<string, Json | undefined> = { ...raw };
      if (isObject(raw.loop)) {
        const loop: Record<string, Json | undefined> = { ...raw.loop };
        // Only whether the inner steps are a list is the loop's own business.
        if (Array.isArray(loop.steps)) loop.steps = [];
        own.loop = loop as Json;
      }
      out.push({ key, id: typeof raw.id === 'string' && raw.id ? raw.id : keys[i], own: own as Json });
      const inner = innerSteps(raw as never);
      if (inner) walk(inner as Json[], key);
    });
  };
  if (isObject(doc) && Array.isArray(doc.steps)) walk(doc.steps as Json[], '');
  return out;
}

/** Field by field; with `nested`, the fields of a mapping on both sides are compared one level down. */
function fieldDiffs(before: Json | undefined, after: Json | undefined, nested: (field: string) => boolean, prefix = ''): FieldDiff[] {
  if (!isObject(before) || !isObject(after)) {
    return deepEqual(before, after) ? [] : [{ field: prefix || 'value', change: 'changed' }];
  }
  const fields = [...Object.keys(after), ...Object.keys(before).filter((k) => !(k in after))];
  const out: FieldDiff[] = [];
  for (const f of fields) {
    const a = before[f];
    const b = after[f];
    const name = prefix ? `${prefix}.${f}` : f;
    if (a === undefined && b === undefined) continue;
    if (a === undefined) out.push({ field: name, change: 'added' });
    else if (b === undefined) out.push({ field: name, change: 'removed' });
    else if (!deepEqual(a, b)) {
      if (nested(name) && isObject(a) && isObject(b)) out.push(...fieldDiffs(a, b, () => false, name));
      else out.push({ field: name, change: 'changed' });
    }
  }
  return out;
}

function level(key: string): number {
  return key.split(SCOPE_SEP).length;
}

/** Removed steps listed where they stood: after the nearest step before them that is still listed. */
function insertRemoved(order: StepDiff[], removed: StepDiff[], earlier: FlatStep[]): StepDiff[] {
  const out = [...order];
  const position = new Map(earlier.map((s, i) => [s.key, i]));
  for (const r of removed) {
    const at = position.get(r.key) ?? 0;
    let index = 0;
    for (let i = at - 1; i >= 0; i--) {
      const found = out.findIndex((s) => s.key === earlier[i].key);
      if (found >= 0) {
        index = found + 1;
        break;
      }
    }
    // Past the inner steps of loops before it in its own list: those are listed under their loop.
    const scope = parentKey(r.key);
    const depth = level(r.key);
    while (index < out.length && level(out[index].key) > depth && (!scope || out[index].key.startsWith(scope + SCOPE_SEP))) index++;
    out.splice(index, 0, r);
  }
  return out;
}

export function compareDocs(before: WorkflowDoc | unknown, after: WorkflowDoc | unknown): DocDiff {
  const earlier = flatten(before);
  const later = flatten(after);
  const earlierByKey = new Map(earlier.map((s) => [s.key, s]));
  const laterKeys = new Set(later.map((s) => s.key));
  const order: StepDiff[] = later.map((s) => {
    const old = earlierByKey.get(s.key);
    if (!old) return { key: s.key, id: s.id, kind: 'added', fields: [], inside: 0 };
    // `loop` is compared field by field: "loop.maxIterations changed" says more than "loop changed".
    const fields = fieldDiffs(old.own, s.own, (f) => f === 'loop');
    return { key: s.key, id: s.id, kind: fields.length ? 'changed' : 'unchanged', fields, inside: 0 };
  });
  const removed: StepDiff[] = earlier.filter((s) => !laterKeys.has(s.key)).map((s) => ({ key: s.key, id: s.id, kind: 'removed', fields: [], inside: 0 }));
  const steps = insertRemoved(order, removed, earlier);

  const byKey = new Map(steps.map((s) => [s.key, s]));
  for (const s of steps) {
    if (s.kind === 'unchanged') continue;
    for (let p = parentKey(s.key); p; p = parentKey(p)) {
      const loop = byKey.get(p);
      if (loop) loop.inside++;
    }
  }

  const counts: Record<DiffKind, number> = { added: 0, removed: 0, changed: 0, unchanged: 0 };
  for (const s of steps) counts[s.kind]++;
  const rest = (doc: unknown): Json => {
    if (!isObject(doc)) return {};
    const copy: Record<string, Json | undefined> = { ...doc };
    delete copy.steps;
    return copy as Json;
  };
  // Agents, inputs and the like are mappings of named things: "agents.writer changed" names the one.
  const workflow = fieldDiffs(rest(before), rest(after), () => true);
  return { steps, workflow, counts };
}

/** Whether anything differs at all. */
export function hasChanges(diff: DocDiff): boolean {
  return diff.workflow.length > 0 || diff.steps.some((s) => s.kind !== 'unchanged');
}

const FIELD_WORDS: Record<FieldChange, string> = { added: 'added', removed: 'removed', changed: 'changed' };

/** "instructions changed, timeout added". */
export function fieldsText(fields: readonly FieldDiff[]): string {
  return fields.map((f) => `${f.field} ${FIELD_WORDS[f.change]}`).join(', ');
}

/** One line of the list of changes: "step `review`: instructions changed", "step `draft` added". */
export function describeStep(s: StepDiff): string {
  const where = parentKey(s.key);
  const name = `step \`${s.id}\`${where ? ` in \`${where}\`` : ''}`;
  if (s.kind === 'changed') return `${name}: ${fieldsText(s.fields)}`;
  if (s.kind === 'unchanged') return `${name}: unchanged${s.inside ? ` (${s.inside} inside changed)` : ''}`;
  return `${name} ${s.kind}`;
}

/** "workflow: agents.writer changed". */
export function describeWorkflow(f: FieldDiff): string {
  return `workflow: ${f.field} ${FIELD_WORDS[f.change]}`;
}
