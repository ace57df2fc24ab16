import type { Step } from '../../doc/types';

export function defaultStep(id: string, agent?: string): Step {
  const step: Step = { id, instructions: 'Describe what this step should do.' };
  if (agent) step.agent = agent;
  return step;
}
