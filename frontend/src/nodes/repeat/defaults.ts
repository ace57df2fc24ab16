import type { Step } from '../../doc/types';

/** A repeat-until loop with one inner step, stopped by a CEL condition. */
export function defaultRepeat(id: string, agent?: string): Step {
  const inner: Step = { id: 'work', instructions: 'Make progress on the task.' };
  if (agent) inner.agent = agent;
  return {
    id,
    loop: { maxIterations: 3, until: "steps.work.content.contains('DONE')", steps: [inner] },
  };
}

/** A repeat-until loop stopped by a judge agent (untilAgent). */
export function defaultJudgeLoop(id: string, judge: string, agent?: string): Step {
  const inner: Step = { id: 'work', instructions: 'Make progress on the task.' };
  if (agent) inner.agent = agent;
  return { id, loop: { maxIterations: 3, untilAgent: judge, outputMode: 'cumulative', steps: [inner] } };
}
