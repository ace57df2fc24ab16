import type { Step } from '../../doc/types';

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
