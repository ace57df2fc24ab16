// What the judge re-scoring form needs besides the server: the judge it starts from (the first judged loop's
// untilAgent in the workflow's current document), the edits to send (only what was changed), the field a refusal
// names, and an agreement in words. Pure, so it tests without a page.
import type { AgreementRowOut } from '../../api/openapi.gen';
import { isObject, type Json, type WorkflowDoc } from '../../doc/types';

export interface JudgeNow {
  /** The judge agent's name. */
  name: string;
  /** Its prompt (its instructions), as the document writes it ('' when it has none). */
  prompt: string;
  /** Its model ('' : the run's default). */
  model: string;
}

function firstJudge(steps: Json | undefined): string | null {
  if (!Array.isArray(steps)) return null;
  for (const step of steps) {
    if (!isObject(step) || !isObject(step.loop)) continue;
    if (typeof step.loop.untilAgent === 'string' && step.loop.untilAgent) return step.loop.untilAgent;
    const inner = firstJudge(step.loop.steps);
    if (inner) return inner;
  }
  return null;
}

/** The judge of the document's first judged loop (depth first), or null when it has none. */
export function judgeOf(document: Pick<WorkflowDoc, 'steps' | 'agents'> | { [key: string]: unknown } | null | undefined): JudgeNow | null {
  if (!isObject(document)) return null;
  const name = firstJudge(document.steps as Json | undefined);
  if (!name) return null;
  const agent = isObject(document.agents) ? document.agents[name] : undefined;
  const text = (key: string) => (isObject(agent) && typeof agent[key] === 'string' ? (agent[key] as string) : '');
  return { name, prompt: text('prompt'), model: text('model') };
}

/** Only what differs from the judge as it is: nothing changed asks the same judge again (how consistent is it?). */
export function rescoreEdits(judge: JudgeNow | null, form: { prompt: string; model: string }): { prompt?: string; model?: string } {
  const edits: { prompt?: string; model?: string } = {};
  if (form.prompt !== (judge?.prompt ?? '')) edits.prompt = form.prompt;
  const model = form.model.trim();
  if (model && model !== (judge?.model ?? '')) edits.model = model;
  return edits;
}

/** The form field a refusal names (`prompt: must be text` → `prompt`), or null when it names none of `fields`. */
export function fieldOf(message: string, fields: readonly string[]): string | null {
  const found = /^([a-z_]+):/.exec(message);
  return found && fields.includes(found[1]) ? found[1] : null;
}

export function percent(value: number | null | undefined): string {
  return value === null || value === undefined ? '–' : `${Math.round(value * 100)} %`;
}

/** "67 % over 3 labelled rounds: 2 right, 0 too early, 1 too late (120 tokens wasted)". */
export function agreementWords(row: AgreementRowOut): string {
  return (
    `${percent(row.agreement)} over ${row.labelled} labelled rounds: ${row.right} right, ${row.too_early} too early, ` +
    `${row.too_late} too late (${row.wasted_tokens} tokens wasted)`
  );
}
