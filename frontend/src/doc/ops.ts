// Edits of a document, as pure functions: each takes a document and returns a
// new one (the input is never mutated). Graph gestures (connect, delete, add)
// and inspector fields all end here. No validation: the server judges.

import { innerSteps, joinKey, localKeys, locate, parentKey, SCOPE_SEP } from './keys';
import { clone, isObject, type Agent, type Json, type JsonObject, type Layout, type Step, type WorkflowDoc } from './types';

type Mutable = WorkflowDoc;

function edit(doc: WorkflowDoc, fn: (copy: Mutable) => void): WorkflowDoc {
  const copy = clone(doc);
  fn(copy);
  return copy;
}

/** Sets (or, with undefined, removes) a top-level field. */
export function setDocField(doc: WorkflowDoc, field: string, value: Json | undefined): WorkflowDoc {
  return edit(doc, (d) => {
    if (value === undefined) delete d[field];
    else d[field] = value;
  });
}

/** Sets a field of a nested object (options, a loop ...), creating it; drops it when empty. */
function setIn(obj: JsonObject, field: string, value: Json | undefined): void {
  if (value === undefined) delete obj[field];
  else obj[field] = value;
}

export function setOption(doc: WorkflowDoc, field: string, value: Json | undefined): WorkflowDoc {
  return edit(doc, (d) => {
    const options: JsonObject = isObject(d.options) ? d.options : {};
    setIn(options, field, value);
    if (Object.keys(options).length === 0) delete d.options;
    else d.options = options;
  });
}

export function updateStep(doc: WorkflowDoc, key: string, fn: (step: Step) => void): WorkflowDoc {
  return edit(doc, (d) => {
    const found = locate(d, key);
    if (found) fn(found.step);
  });
}

export function setStepField(doc: WorkflowDoc, key: string, field: string, value: Json | undefined): WorkflowDoc {
  return updateStep(doc, key, (s) => setIn(s, field, value));
}

export function setLoopField(doc: WorkflowDoc, key: string, field: string, value: Json | undefined): WorkflowDoc {
  return updateStep(doc, key, (s) => {
    const loop: JsonObject = isObject(s.loop) ? s.loop : {};
    setIn(loop, field, value);
    s.loop = loop;
  });
}

/** An id not yet used in the scope: base, base_2, base_3 ... */
export function uniqueStepId(doc: WorkflowDoc, scope: string, base: string): string {
  const siblings = scopeSteps(doc, scope) ?? [];
  const used = new Set(siblings.map((s) => (isObject(s) ? s.id : undefined)));
  if (!used.has(base)) return base;
  for (let n = 2; ; n++) if (!used.has(`${base}_${n}`)) return `${base}_${n}`;
}

export function uniqueAgentName(doc: WorkflowDoc, base: string): string {
  const used = isObject(doc.agents) ? doc.agents : {};
  if (!(base in used)) return base;
  for (let n = 2; ; n++) if (!(`${base}_${n}` in used)) return `${base}_${n}`;
}

/** The list of steps of a scope ('' = top level, or a loop step's key). */
export function scopeSteps(doc: WorkflowDoc, scope: string): Step[] | null {
  if (!scope) return Array.isArray(doc.steps) ? doc.steps : null;
  const found = locate(doc, scope);
  return found ? innerSteps(found.step) : null;
}

/** Appends a step to a scope; a loop without inner steps gets its first. */
export function addStep(doc: WorkflowDoc, scope: string, step: Step): { doc: WorkflowDoc; key: string } {
  let key = '';
  const next = edit(doc, (d) => {
    let list: Step[] | null;
    if (!scope) {
      if (!Array.isArray(d.steps)) d.steps = [];
      list = d.steps;
    } else {
      const found = locate(d, scope);
      if (!found) return;
      const loop: JsonObject = isObject(found.step.loop) ? found.step.loop : {};
      if (!Array.isArray(loop.steps)) loop.steps = [];
      found.step.loop = loop;
      list = loop.steps as Step[];
    }
    list.push(step);
    key = joinKey(scope, localKeys(list)[list.length - 1]);
  });
  return { doc: next, key };
}

/** Removes steps and every `dependsOn` reference to them in their scope. */
export function removeSteps(doc: WorkflowDoc, keys: readonly string[]): WorkflowDoc {
  // Deepest and last first, so indexes stay right while removing.
  const sorted = [...keys].sort((a, b) => b.split(SCOPE_SEP).length - a.split(SCOPE_SEP).length || b.localeCompare(a));
  return edit(doc, (d) => {
    for (const key of sorted) {
      const found = locate(d, key);
      if (!found) continue;
      const id = found.step.id;
      found.siblings.splice(found.index, 1);
      for (const s of found.siblings) {
        if (isObject(s) && Array.isArray(s.dependsOn)) {
          s.dependsOn = s.dependsOn.filter((dep) => dep !== id);
          if (s.dependsOn.length === 0) delete s.dependsOn;
        }
      }
    }
  });
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** `steps.old` and `steps['old']` in a CEL expression, rewritten to name `newId` (bracketed when it is no identifier). */
export function renameCelRefs(expression: string, oldId: string, newId: string): string {
  const ref = /^[A-Za-z_][A-Za-z0-9_]*$/.test(newId) ? `steps.${newId}` : `steps['${newId}']`;
  const old = escapeRegExp(oldId);
  return expression
    .replace(new RegExp(`\\bsteps\\.${old}(?![A-Za-z0-9_-])`, 'g'), ref)
    .replace(new RegExp(`\\bsteps\\[\\s*(['"])${old}\\1\\s*\\]`, 'g'), ref);
}

/** The step ids a CEL expression reads (`steps.x`, `steps['x']`), each once, in order. */
export function celStepRefs(expression: string): string[] {
  const out: string[] = [];
  for (const m of expression.matchAll(/\bsteps(?:\.([A-Za-z_][A-Za-z0-9_-]*)|\[\s*(['"])([^'"]+)\2\s*\])/g)) {
    const id = m[1] ?? m[3];
    if (id && !out.includes(id)) out.push(id);
  }
  return out;
}

/** Several renames at once, so that `a -> b` and `b -> c` do not turn `a` into `c`. */
export function renameCelRefsMany(expression: string, renames: ReadonlyMap<string, string>): string {
  const pairs = [...renames].filter(([from, to]) => from !== to);
  let out = expression;
  pairs.forEach(([from], i) => (out = renameCelRefs(out, from, `__rename_${i}__`)));
  pairs.forEach(([, to], i) => (out = renameCelRefs(out, `__rename_${i}__`, to)));
  return out;
}

export type CelFieldName = 'condition' | 'forEach' | 'until';

/** Calls `fn` with each CEL expression of a step (its condition, its loop's forEach and until) and a setter for it. */
export function forEachCel(step: Step, fn: (field: CelFieldName, expression: string, set: (next: string) => void) => void): void {
  if (typeof step.condition === 'string') fn('condition', step.condition, (v) => (step.condition = v));
  const loop = step.loop;
  if (!isObject(loop)) return;
  if (typeof loop.forEach === 'string') fn('forEach', loop.forEach, (v) => (loop.forEach = v));
  if (typeof loop.until === 'string') fn('until', loop.until, (v) => (loop.until = v));
}

/** The CEL fields of a step that may name its siblings: its condition and its loop's forEach and until. */
function renameInCelFields(step: Step, oldId: string, newId: string): void {
  if (typeof step.condition === 'string') step.condition = renameCelRefs(step.condition, oldId, newId);
  const loop = step.loop;
  if (!isObject(loop)) return;
  if (typeof loop.forEach === 'string') loop.forEach = renameCelRefs(loop.forEach, oldId, newId);
  if (typeof loop.until === 'string') loop.until = renameCelRefs(loop.until, oldId, newId);
}

/**
 * Renames a step and every reference to it: its siblings' `dependsOn` and CEL (conditions, forEach,
 * until) and, for a step inside a loop, the loop's `until`, which reads the iteration's inner steps.
 */
export function renameStep(doc: WorkflowDoc, key: string, newId: string): { doc: WorkflowDoc; key: string } {
  let newKey = key;
  const next = edit(doc, (d) => {
    const found = locate(d, key);
    if (!found) return;
    const oldId = found.step.id;
    found.step.id = newId;
    for (const s of found.siblings) {
      if (!isObject(s)) continue;
      if (Array.isArray(s.dependsOn)) s.dependsOn = s.dependsOn.map((dep) => (dep === oldId ? newId : dep));
      if (typeof oldId === 'string') renameInCelFields(s, oldId, newId);
    }
    if (found.scope && typeof oldId === 'string') {
      const parent = locate(d, found.scope);
      const loop = parent && isObject(parent.step.loop) ? parent.step.loop : null;
      if (loop && typeof loop.until === 'string') loop.until = renameCelRefs(loop.until, oldId, newId);
    }
    newKey = joinKey(found.scope, localKeys(found.siblings)[found.index]);
  });
  return { doc: next, key: newKey };
}

/** Renames the keys of a step and its inner steps in a layout. */
export function renameInLayout(layout: Layout, oldKey: string, newKey: string): Layout {
  if (oldKey === newKey) return layout;
  const positions: Layout['positions'] = {};
  for (const [k, p] of Object.entries(layout.positions)) {
    if (k === oldKey) positions[newKey] = p;
    else if (k.startsWith(oldKey + SCOPE_SEP)) positions[newKey + k.slice(oldKey.length)] = p;
    else positions[k] = p;
  }
  return { version: 1, positions };
}

/** Draws a dependency: `target` depends on `source`. Same scope only. */
export function connect(doc: WorkflowDoc, source: string, target: string): WorkflowDoc {
  if (source === target || parentKey(source) !== parentKey(target)) return doc;
  return edit(doc, (d) => {
    const from = locate(d, source);
    const to = locate(d, target);
    if (!from || !to || typeof from.step.id !== 'string') return;
    const deps = Array.isArray(to.step.dependsOn) ? to.step.dependsOn : [];
    if (!deps.includes(from.step.id)) deps.push(from.step.id);
    to.step.dependsOn = deps;
  });
}

export function disconnect(doc: WorkflowDoc, source: string, target: string): WorkflowDoc {
  return edit(doc, (d) => {
    const from = locate(d, source);
    const to = locate(d, target);
    if (!from || !to || !Array.isArray(to.step.dependsOn)) return;
    to.step.dependsOn = to.step.dependsOn.filter((dep) => dep !== from.step.id);
    if (to.step.dependsOn.length === 0) delete to.step.dependsOn;
  });
}

export function setAgent(doc: WorkflowDoc, name: string, agent: Agent): WorkflowDoc {
  return edit(doc, (d) => {
    const agents = isObject(d.agents) ? d.agents : {};
    agents[name] = agent;
    d.agents = agents;
  });
}

export function setAgentField(doc: WorkflowDoc, name: string, field: string, value: Json | undefined): WorkflowDoc {
  return edit(doc, (d) => {
    const agents = isObject(d.agents) ? d.agents : {};
    const agent: Agent = isObject(agents[name]) ? agents[name] : {};
    setIn(agent, field, value);
    agents[name] = agent;
    d.agents = agents;
  });
}

export function removeAgent(doc: WorkflowDoc, name: string): WorkflowDoc {
  return edit(doc, (d) => {
    if (!isObject(d.agents)) return;
    delete d.agents[name];
    if (Object.keys(d.agents).length === 0) delete d.agents;
  });
}

function forEachStep(steps: unknown, fn: (s: Step) => void): void {
  if (!Array.isArray(steps)) return;
  for (const s of steps) {
    if (!isObject(s)) continue;
    fn(s as Step);
    const inner = innerSteps(s as Step);
    if (inner) forEachStep(inner, fn);
  }
}

/** Renames an agent, keeping key order, and every step and judge that names it. */
export function renameAgent(doc: WorkflowDoc, oldName: string, newName: string): WorkflowDoc {
  if (oldName === newName) return doc;
  return edit(doc, (d) => {
    if (!isObject(d.agents)) return;
    const agents: Record<string, Agent> = {};
    for (const [k, v] of Object.entries(d.agents)) agents[k === oldName ? newName : k] = v;
    d.agents = agents;
    forEachStep(d.steps, (s) => {
      if (s.agent === oldName) s.agent = newName;
      if (isObject(s.loop) && s.loop.untilAgent === oldName) s.loop.untilAgent = newName;
    });
  });
}

/** The judge contract of untilAgent: a resultSchema with a required boolean `done` and a `reason`. */
export function makeJudge(doc: WorkflowDoc, name: string): WorkflowDoc {
  return edit(doc, (d) => {
    const agents = isObject(d.agents) ? d.agents : {};
    const agent: Agent = isObject(agents[name]) ? agents[name] : { description: 'Decides whether the loop is done.' };
    const schema: JsonObject = isObject(agent.resultSchema) ? agent.resultSchema : {};
    if (schema.type === undefined) schema.type = 'object';
    const required = Array.isArray(schema.required) ? schema.required : [];
    if (!required.includes('done')) required.push('done');
    schema.required = required;
    const props: JsonObject = isObject(schema.properties) ? schema.properties : {};
    props.done = { type: 'boolean' };
    if (!isObject(props.reason)) props.reason = { type: 'string' };
    schema.properties = props;
    agent.resultSchema = schema;
    agents[name] = agent;
    d.agents = agents;
  });
}

/** True when the agent meets the judge contract: a resultSchema with a required boolean `done`. */
export function isJudge(agent: JsonObject): boolean {
  const schema = agent.resultSchema;
  if (!isObject(schema) || !isObject(schema.properties)) return false;
  const done = schema.properties.done;
  return isObject(done) && done.type === 'boolean' && Array.isArray(schema.required) && schema.required.includes('done');
}

/** The first agent of the document (other than `avoid`): what a new step runs with. */
export function firstAgent(doc: WorkflowDoc, avoid?: string): string | undefined {
  if (!isObject(doc.agents)) return undefined;
  return Object.keys(doc.agents).find((n) => n !== avoid);
}

/** Steps that reference an agent (by `agent` or as a loop judge). */
export function agentUsers(doc: WorkflowDoc, name: string): number {
  let n = 0;
  forEachStep(doc.steps, (s) => {
    if (s.agent === name) n++;
    if (isObject(s.loop) && s.loop.untilAgent === name) n++;
  });
  return n;
}

export function setInclude(doc: WorkflowDoc, name: string, path: string | undefined, rename?: string): WorkflowDoc {
  return edit(doc, (d) => {
    const includes: Record<string, string> = {};
    const old = isObject(d.includes) ? (d.includes as Record<string, string>) : {};
    for (const [k, v] of Object.entries(old)) {
      if (k === name) {
        if (path !== undefined) includes[rename ?? k] = path;
      } else includes[k] = v;
    }
    if (!(name in old) && path !== undefined) includes[rename ?? name] = path;
    if (Object.keys(includes).length === 0) delete d.includes;
    else d.includes = includes;
  });
}
