// Copy and paste of steps as text: the clipboard holds a zenflow fragment (a
// `steps:` list and the `agents:` those steps use), so steps travel between
// workflows, tabs and other programs, and zenflow YAML from anywhere pastes.
// Pasting renames ids that clash (the house rule of uniqueStepId: `review_2`)
// and makes `dependsOn` and CEL references among the pasted steps follow;
// what cannot follow is dropped or kept and always said in a notice. Pure.

import { parse, stringify } from 'yaml';
import { innerSteps, joinKey, localKeys, locate, parentKey, SCOPE_SEP } from './keys';
import { celStepRefs, forEachCel, renameCelRefsMany } from './ops';
import { clone, deepEqual, isObject, type Agent, type Position, type Step, type WorkflowDoc } from './types';

export interface Snippet {
  steps: Step[];
  agents: Record<string, Agent>;
  /** Where the copied steps sat relative to each other (key in the snippet -> position), when known. */
  positions: Record<string, Position>;
}

export interface PasteResult {
  doc: WorkflowDoc;
  /** Keys of the pasted steps (top level of the snippet), in order. */
  keys: string[];
  /** The scope they went into. */
  scope: string;
  /** Snippet key -> key in the document, for the pasted steps and their inner steps. */
  keyMap: Record<string, string>;
  notices: string[];
}

const LAYOUT_TAG = '# loop-designer-layout: ';
const NO_STEPS = 'The clipboard holds no zenflow steps: ';

/** The selected keys without those inside a selected loop (the loop carries them), in document order. */
export function topmostKeys(doc: WorkflowDoc, keys: readonly string[]): string[] {
  const chosen = new Set(keys);
  const order = new Map<string, number>();
  let n = 0;
  const walk = (steps: Step[], scope: string) => {
    localKeys(steps).forEach((local, i) => {
      const key = joinKey(scope, local);
      order.set(key, n++);
      const inner = isObject(steps[i]) ? innerSteps(steps[i]) : null;
      if (inner) walk(inner, key);
    });
  };
  if (Array.isArray(doc.steps)) walk(doc.steps, '');
  const covered = (key: string) => {
    for (let p = parentKey(key); p; p = parentKey(p)) if (chosen.has(p)) return true;
    return false;
  };
  return [...chosen].filter((k) => order.has(k) && !covered(k)).sort((a, b) => order.get(a)! - order.get(b)!);
}

function agentNamesOf(step: Step, out: Set<string>): void {
  if (typeof step.agent === 'string') out.add(step.agent);
  if (isObject(step.loop) && typeof step.loop.untilAgent === 'string') out.add(step.loop.untilAgent);
  for (const s of innerSteps(step) ?? []) if (isObject(s)) agentNamesOf(s, out);
}

/** The snippet for the steps `keys` name, with the agents they use and their positions relative to each other. */
export function makeSnippet(doc: WorkflowDoc, keys: readonly string[], positions: Record<string, Position> = {}): Snippet {
  const steps: Step[] = [];
  const rel: Record<string, Position> = {};
  const top = topmostKeys(doc, keys);
  const at = top.map((k) => positions[k]).filter((p): p is Position => !!p);
  const minX = Math.min(...at.map((p) => p.x));
  const minY = Math.min(...at.map((p) => p.y));
  for (const key of top) {
    const found = locate(doc, key);
    if (!found || !isObject(found.step)) continue;
    steps.push(clone(found.step));
    const p = positions[key];
    if (p) rel[String(found.step.id)] = { x: p.x - minX, y: p.y - minY };
    // Inner positions are relative to their loop already.
    for (const [k, q] of Object.entries(positions)) {
      if (k.startsWith(key + SCOPE_SEP)) rel[String(found.step.id) + k.slice(key.length)] = q;
    }
  }
  const names = new Set<string>();
  steps.forEach((s) => agentNamesOf(s, names));
  const agents: Record<string, Agent> = {};
  const defined = isObject(doc.agents) ? doc.agents : {};
  for (const name of names) if (isObject(defined[name])) agents[name] = clone(defined[name]);
  return { steps, agents, positions: rel };
}

/** The snippet as clipboard text: zenflow YAML, and the positions in a comment no zenflow reader looks at. */
export function snippetText(snippet: Snippet): string {
  const body: Record<string, unknown> = {};
  if (Object.keys(snippet.agents).length > 0) body.agents = snippet.agents;
  body.steps = snippet.steps;
  const text = stringify(body, { lineWidth: 0 });
  return Object.keys(snippet.positions).length > 0 ? `${LAYOUT_TAG}${JSON.stringify(snippet.positions)}\n${text}` : text;
}

function readPositions(text: string): Record<string, Position> {
  const line = text.split('\n').find((l) => l.startsWith(LAYOUT_TAG));
  if (!line) return {};
  try {
    const raw: unknown = JSON.parse(line.slice(LAYOUT_TAG.length));
    const out: Record<string, Position> = {};
    if (isObject(raw)) {
      for (const [k, p] of Object.entries(raw)) {
        if (isObject(p) && typeof p.x === 'number' && typeof p.y === 'number') out[k] = { x: p.x, y: p.y };
      }
    }
    return out;
  } catch {
    // A damaged comment only loses the arrangement.
    return {};
  }
}

function looksLikeStep(value: unknown): boolean {
  return isObject(value) && typeof value.id === 'string' && value.id !== '';
}

/**
 * Reads clipboard text: a fragment or a whole workflow (`steps:` and maybe `agents:`), a bare list of
 * steps, or one step. Anything else gives a sentence saying why.
 */
export function parseSnippet(text: string): { snippet: Snippet } | { error: string } {
  if (!text.trim()) return { error: `${NO_STEPS}it is empty.` };
  let data: unknown;
  try {
    data = parse(text);
  } catch (e) {
    const why = e instanceof Error ? e.message.split('\n')[0] : String(e);
    return { error: `${NO_STEPS}it is not YAML (${why}).` };
  }
  let steps: unknown;
  let agents: unknown = undefined;
  if (Array.isArray(data)) steps = data;
  else if (isObject(data) && Array.isArray(data.steps)) {
    steps = data.steps;
    agents = data.agents;
  } else if (looksLikeStep(data)) steps = [data];
  else return { error: `${NO_STEPS}expected a \`steps:\` list, a list of steps or one step with an \`id\`.` };
  const list = steps as unknown[];
  if (list.length === 0) return { error: `${NO_STEPS}the list of steps is empty.` };
  const bad = list.findIndex((s) => !looksLikeStep(s));
  if (bad >= 0) return { error: `${NO_STEPS}item ${bad + 1} of the list is not a step with an \`id\`.` };
  const agentMap: Record<string, Agent> = {};
  if (isObject(agents)) {
    for (const [name, a] of Object.entries(agents)) if (isObject(a)) agentMap[name] = a as Agent;
  }
  return { snippet: { steps: list as Step[], agents: agentMap, positions: readPositions(text) } };
}

/** The next free id after `id`: `review` -> `review_2`, `review_2` -> `review_3`. */
export function nextFreeId(id: string, used: ReadonlySet<string>): string {
  if (!used.has(id)) return id;
  const m = /^(.*)_(\d+)$/.exec(id);
  const base = m ? m[1] : id;
  for (let n = m ? Number(m[2]) + 1 : 2; ; n++) if (!used.has(`${base}_${n}`)) return `${base}_${n}`;
}

function usedIds(steps: readonly Step[] | null): Set<string> {
  return new Set((steps ?? []).map((s) => (isObject(s) && typeof s.id === 'string' ? s.id : '')).filter(Boolean));
}

function rewriteAgent(step: Step, from: string, to: string): void {
  if (step.agent === from) step.agent = to;
  if (isObject(step.loop) && step.loop.untilAgent === from) step.loop.untilAgent = to;
  for (const s of innerSteps(step) ?? []) if (isObject(s)) rewriteAgent(s, from, to);
}

/** Merges the snippet's agents: the same definition is the same agent; another under a taken name is renamed. */
function mergeAgents(doc: WorkflowDoc, snippet: Snippet, steps: Step[], notices: string[]): void {
  const agents: Record<string, Agent> = isObject(doc.agents) ? (doc.agents as Record<string, Agent>) : {};
  for (const [name, agent] of Object.entries(snippet.agents)) {
    if (!(name in agents)) {
      agents[name] = clone(agent);
      continue;
    }
    if (deepEqual(agents[name], agent)) continue;
    let n = 2;
    while (`${name}_${n}` in agents && !deepEqual(agents[`${name}_${n}`], agent)) n++;
    const renamed = `${name}_${n}`;
    if (!(renamed in agents)) agents[renamed] = clone(agent);
    steps.forEach((s) => rewriteAgent(s, name, renamed));
    notices.push(`Agent "${name}" here is defined differently, so the pasted one is "${renamed}".`);
  }
  if (Object.keys(agents).length > 0) doc.agents = agents;
  const missing = new Set<string>();
  const names = new Set<string>();
  steps.forEach((s) => agentNamesOf(s, names));
  for (const name of names) if (!(name in agents)) missing.add(name);
  if (missing.size > 0) notices.push(`Not defined in this workflow: agent ${[...missing].map((m) => `"${m}"`).join(', ')}. Add it under Agents.`);
}

/**
 * Gives the pasted steps ids free in their scope, re-points `dependsOn` and CEL among them, and
 * drops dependencies on steps that did not come along (each said in `notices`). Mutates `steps`.
 */
function renameForScope(steps: Step[], used: Set<string>, notices: string[]): Map<string, string> {
  const rename = new Map<string, string>();
  for (const s of steps) {
    const id = nextFreeId(s.id, used);
    used.add(id);
    if (!rename.has(s.id)) rename.set(s.id, id);
    s.id = id;
  }
  const pasted = new Set(rename.values());
  for (const s of steps) {
    if (Array.isArray(s.dependsOn)) {
      const kept: string[] = [];
      for (const dep of s.dependsOn) {
        const to = typeof dep === 'string' ? rename.get(dep) : undefined;
        if (to) kept.push(to);
        else notices.push(`Dropped "${s.id}" depends on "${String(dep)}": that step was not pasted.`);
      }
      if (kept.length > 0) s.dependsOn = kept;
      else delete s.dependsOn;
    }
    forEachCel(s, (field, expr, set) => {
      const next = renameCelRefsMany(expr, rename);
      set(next);
      // A loop's `until` reads its own inner steps, which came along with it.
      const own = field === 'until' ? usedIds(innerSteps(s)) : new Set<string>();
      const strays = celStepRefs(next).filter((ref) => !pasted.has(ref) && !own.has(ref));
      if (strays.length > 0) notices.push(`The ${field} of "${s.id}" reads ${strays.map((r) => `steps.${r}`).join(', ')}, which was not pasted: fix it.`);
    });
  }
  return rename;
}

/**
 * Pastes a snippet into `scope` (a loop's key, or '' for the top level). A snippet holding a loop goes to
 * the top level, as zenflow v1 has no nested loops.
 */
export function pasteSnippet(doc: WorkflowDoc, snippet: Snippet, scope = ''): PasteResult {
  const notices: string[] = [];
  const next = clone(doc);
  const steps = clone(snippet.steps);
  let where = scope;
  if (where && steps.some((s) => isObject(s.loop))) {
    notices.push('Pasted at the top level: a loop cannot go inside a loop.');
    where = '';
  }
  let list: Step[] | null;
  if (!where) {
    if (!Array.isArray(next.steps)) next.steps = [];
    list = next.steps;
  } else {
    const found = locate(next, where);
    const loop = found && isObject(found.step.loop) ? found.step.loop : null;
    if (!loop) return pasteSnippet(doc, snippet, '');
    if (!Array.isArray(loop.steps)) loop.steps = [];
    list = loop.steps as Step[];
  }
  const originals = steps.map((s) => s.id);
  mergeAgents(next, snippet, steps, notices);
  renameForScope(steps, usedIds(list), notices);
  const start = list.length;
  list.push(...steps);
  const locals = localKeys(list);
  const keys: string[] = [];
  const keyMap: Record<string, string> = {};
  steps.forEach((s, i) => {
    const key = joinKey(where, locals[start + i]);
    keys.push(key);
    keyMap[originals[i]] = key;
    const inner = innerSteps(s);
    if (inner) localKeys(inner).forEach((local) => (keyMap[`${originals[i]}${SCOPE_SEP}${local}`] = joinKey(key, local)));
  });
  return { doc: next, keys, scope: where, keyMap, notices: dedupe(notices) };
}

function dedupe(list: string[]): string[] {
  return [...new Set(list)];
}

/** The scope a paste goes into with `selected` chosen: the selected loop, or the loop of a selected inner step. */
export function pasteScope(doc: WorkflowDoc, selected: string | null): string {
  if (!selected) return '';
  const found = locate(doc, selected);
  if (!found) return '';
  if (isObject(found.step.loop) && Array.isArray(found.step.loop.steps)) return selected;
  return found.scope;
}
