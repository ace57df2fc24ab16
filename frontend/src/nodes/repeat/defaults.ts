import { firstAgent, makeJudge, uniqueAgentName, uniqueStepId } from '../../doc/ops';
import { isObject, type Step } from '../../doc/types';
import type { PaletteItem } from '../types';

/** The `until` a new repeat-until loop starts with: a placeholder to replace (or clear, once a judge decides). */
export const PLACEHOLDER_UNTIL = "steps.work.content.contains('DONE')";

/** A repeat-until loop with one inner step, stopped by a CEL condition. */
export function defaultRepeat(id: string, agent?: string): Step {
  const inner: Step = { id: 'work', instructions: 'Make progress on the task.' };
  if (agent) inner.agent = agent;
  return {
    id,
    loop: { maxIterations: 3, until: PLACEHOLDER_UNTIL, steps: [inner] },
  };
}

/** A repeat-until loop stopped by a judge agent (untilAgent). */
export function defaultJudgeLoop(id: string, judge: string, agent?: string): Step {
  const inner: Step = { id: 'work', instructions: 'Make progress on the task.' };
  if (agent) inner.agent = agent;
  return { id, loop: { maxIterations: 3, untilAgent: judge, outputMode: 'cumulative', steps: [inner] } };
}

export const REPEAT_ITEM: PaletteItem = {
  kind: 'repeat',
  icon: '↻',
  label: 'Repeat-until',
  hint: 'Repeats its inner steps until a CEL condition is true.',
  inner: false,
  create: (doc, scope) => ({ doc, step: defaultRepeat(uniqueStepId(doc, scope, 'repeat'), firstAgent(doc)) }),
};

export const JUDGE_ITEM: PaletteItem = {
  kind: 'judge',
  icon: '⚖',
  label: 'Judge loop',
  hint: 'Repeats until a judge agent says done (adds the judge agent).',
  inner: false,
  create(doc, scope) {
    // An agent named "judge" is taken as the judge (and given the contract); otherwise a new one is added.
    const judge = isObject(doc.agents) && isObject(doc.agents.judge) ? 'judge' : uniqueAgentName(doc, 'judge');
    const withJudge = makeJudge(doc, judge);
    return { doc: withJudge, step: defaultJudgeLoop(uniqueStepId(withJudge, scope, 'refine'), judge, firstAgent(withJudge, judge)) };
  },
};
