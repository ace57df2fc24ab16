// "Re-run from here": what the fork dialog offers to edit at a step, a round or an item, and the
// request it sends (POST /runs/{id}/fork). Edits to the workflow go as a JSON Patch (RFC 6902) on the
// run's own document: only the fields changed, each at its JSON Pointer.
import { stringify } from 'yaml';
import type { Json, WorkflowDoc } from '../../doc/types';
import { ordinal, plural, pointWords } from '../labels';
import { formatMs, type InheritedPart } from '../reduce';

export interface ForkAt {
  step: string;
  iteration?: number;
}

export type ForkKind = 'step' | 'round' | 'item';

/** One editable text field of the document, where it lives, and what it says now. */
export interface DocField {
  key: string;
  label: string;
  /** A JSON Pointer into the document. */
  pointer: string;
  value: string;
  /** Whether the document has the field now (replace) or not (add). */
  present: boolean;
  kind: 'text' | 'line' | 'count';
}

export interface PatchOp {
  op: 'add' | 'replace';
  path: string;
  value: Json;
}

export interface ForkBody {
  at: ForkAt;
  patch?: PatchOp[];
  input?: { item: Json } | { previous_output: string };
  provider?: string;
  model?: string;
  /** A new simulated script (YAML or JSON text); absent: the parent's. */
  script?: string;
}

/** The step `at` names among the document's top-level steps, with its index. */
function topStep(doc: WorkflowDoc, id: string) {
  const steps = Array.isArray(doc.steps) ? doc.steps : [];
  const index = steps.findIndex((s) => s && typeof s === 'object' && s.id === id);
  return index < 0 ? null : { index, step: steps[index] };
}

/** A forEach item, a repeat-until round, or a step: what the fork starts at. */
export function forkKind(doc: WorkflowDoc, at: ForkAt): ForkKind {
  if (at.iteration === undefined) return 'step';
  const found = topStep(doc, at.step);
  return found?.step.loop && found.step.loop.forEach !== undefined ? 'item' : 'round';
}

/** "Re-run from round 3 of write": the dialog's title (rounds and items are 1-based on screen). */
export function forkTitle(at: ForkAt, kind: ForkKind): string {
  if (kind === 'step' || at.iteration === undefined) return `Re-run from step ${at.step}`;
  return `Re-run from ${kind === 'item' ? 'item' : 'round'} ${ordinal(at.iteration)} of ${at.step}`;
}

/** What the fork keeps from the run, in words. */
export function inheritedWords(at: ForkAt, kind: ForkKind): string {
  if (kind === 'round' && at.iteration !== undefined) {
    return at.iteration === 0
      ? `Everything before ${at.step} started is kept from this run; the loop starts again at round 1.`
      : `Rounds 1 to ${at.iteration} and their verdicts are kept from this run, not run or billed again.`;
  }
  if (kind === 'item' && at.iteration !== undefined) {
    return `The other items are kept from this run; only item ${ordinal(at.iteration)} runs again, then what waited for the loop.`;
  }
  return `Steps that finished before ${at.step} started are kept from this run; ${at.step} and what follows run again.`;
}

/** A JSON Pointer token: `~` and `/` escaped. */
export function pointerToken(name: string): string {
  return name.replace(/~/g, '~0').replace(/\//g, '~1');
}

function field(key: string, label: string, pointer: string, value: unknown, kind: DocField['kind']): DocField {
  const present = value !== undefined && value !== null;
  return { key, label, pointer, value: present ? String(value) : '', present, kind };
}

function agentPrompt(doc: WorkflowDoc, agent: unknown, label: string): DocField[] {
  if (typeof agent !== 'string' || !agent) return [];
  const agents = doc.agents && typeof doc.agents === 'object' ? (doc.agents as Record<string, unknown>) : {};
  const found = agents[agent];
  if (!found || typeof found !== 'object') return [];
  const prompt = (found as Record<string, unknown>).prompt;
  return [field(`agent:${agent}`, label, `/agents/${pointerToken(agent)}/prompt`, typeof prompt === 'string' ? prompt : undefined, 'text')];
}

/** The fields of the document that matter at this point: the loop's instructions and its judge for a round,
 * its instructions for an item, a step's instructions and its agent's prompt. */
export function docFields(doc: WorkflowDoc, at: ForkAt, kind: ForkKind): DocField[] {
  const found = topStep(doc, at.step);
  if (!found) return [];
  const { index, step } = found;
  const base = `/steps/${index}`;
  const out: DocField[] = [];
  const inner = step.loop && Array.isArray(step.loop.steps) ? step.loop.steps : [];
  if (kind !== 'step' && inner.length) {
    inner.forEach((s, j) => out.push(field(`inner:${s.id}`, `${s.id}: instructions`, `${base}/loop/steps/${j}/instructions`, s.instructions, 'text')));
  } else {
    out.push(field('instructions', `${step.id}: instructions`, `${base}/instructions`, step.instructions, 'text'));
  }
  if (kind === 'step') return [...out, ...agentPrompt(doc, step.agent, `agent ${String(step.agent)}: prompt`)];
  if (kind === 'round' && step.loop) {
    if (step.loop.untilAgent) out.push(...agentPrompt(doc, step.loop.untilAgent, `judge ${step.loop.untilAgent}: prompt`));
    out.push(field('until', 'until (CEL)', `${base}/loop/until`, step.loop.until, 'line'));
    out.push(field('maxIterations', 'maxIterations', `${base}/loop/maxIterations`, step.loop.maxIterations, 'count'));
  }
  return out;
}

export class ForkEditError extends Error {}

/** The JSON Patch for the fields whose text changed; a count that is not a whole number of at least 1 is refused. */
export function buildPatch(fields: DocField[], edited: Record<string, string>): PatchOp[] {
  const ops: PatchOp[] = [];
  for (const f of fields) {
    const text = edited[f.key];
    if (text === undefined || text === f.value) continue;
    if (!f.present && text === '') continue;
    let value: Json = text;
    if (f.kind === 'count') {
      if (!/^\s*\d+\s*$/.test(text) || Number(text) < 1) throw new ForkEditError(`${f.label} must be a whole number of at least 1.`);
      value = Number(text);
    }
    ops.push({ op: f.present ? 'replace' : 'add', path: f.pointer, value });
  }
  return ops;
}

/** The iteration's edited input, or undefined when it was left as it was. */
export function buildInput(kind: ForkKind, original: string, edited: string): ForkBody['input'] {
  if (edited === original) return undefined;
  if (kind === 'round') return { previous_output: edited };
  if (kind === 'item') {
    try {
      return { item: JSON.parse(edited) as Json };
    } catch (e) {
      throw new ForkEditError(`The item is not valid JSON: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  return undefined;
}

/** The request body: only what was changed goes with it. */
export function forkBody(
  at: ForkAt,
  edits: { patch: PatchOp[]; input?: ForkBody['input']; provider?: string; model?: string; script?: string },
  run: { provider: string; model: string | null },
): ForkBody {
  const body: ForkBody = { at: at.iteration === undefined ? { step: at.step } : { step: at.step, iteration: at.iteration } };
  if (edits.patch.length) body.patch = edits.patch;
  if (edits.input) body.input = edits.input;
  if (edits.provider && edits.provider !== run.provider) body.provider = edits.provider;
  if (edits.model !== undefined && edits.model !== (run.model ?? '')) body.model = edits.model;
  // Only a script that was changed: the fork keeps its parent's otherwise (and says "script" among its edits only then).
  if (edits.script !== undefined) body.script = edits.script;
  return body;
}

/** The text the input editor starts from: the previous round's output, or the item as JSON. */
export function inputText(kind: ForkKind, value: { previousOutput?: string; item?: Json }): string {
  if (kind === 'round') return value.previousOutput ?? '';
  if (kind === 'item') return JSON.stringify(value.item ?? null, null, 2);
  return '';
}

/** The button's test id: `fork-from-write.3`, `fork-from-publish`. */
export function forkTestId(at: ForkAt): string {
  return `fork-from-${at.iteration === undefined ? at.step : `${at.step}.${at.iteration}`}`;
}

/** "from round 3 of write" (1-based), "from item 2 of each", "from step publish". */
export function forkPointWords(point: { step: string; iteration?: number; kind: ForkKind }): string {
  return `from ${pointWords(point)}`;
}

/** The comparison page of a fork's parent and the fork; null for a run that is not a fork. */
export function parentComparePath(run: { id: string; parent?: string | null }): string | null {
  return run.parent ? `/runs/${run.parent}/compare/${run.id}` : null;
}

/** The parent's script as the fork dialog's editor shows it: its text, or its mapping written as YAML. */
export function scriptText(script: unknown): string {
  if (typeof script === 'string') return script;
  if (script === null || script === undefined) return '';
  return stringify(script);
}

/**
 * A fork's header counts its own work (time, tokens, cost); what it inherited from its parent is said apart,
 * each figure beside the others: "4 rounds · 800 tokens · $0.0012 · 6.0 s of the parent's". Null for a run
 * that inherited nothing.
 */
export function inheritedFigures(part: InheritedPart, kind?: string): string | null {
  if (!part.events) return null;
  const spanMs = part.firstAt && part.lastAt ? Date.parse(part.lastAt) - Date.parse(part.firstAt) : NaN;
  const words = [
    part.iterations && (kind === 'round' || kind === 'item') ? plural(part.iterations, kind) : null,
    `${part.tokens.toLocaleString()} tokens`,
    part.costUsd ? `$${part.costUsd.toFixed(part.costUsd < 0.01 ? 6 : 4)}` : null,
    Number.isFinite(spanMs) ? `${formatMs(Math.max(0, spanMs))} of the parent's time` : null,
  ];
  return words.filter(Boolean).join(' · ');
}
