import { firstAgent, uniqueStepId } from '../../doc/ops';
import type { Step } from '../../doc/types';
import type { PaletteItem } from '../types';

export function defaultStep(id: string, agent?: string): Step {
  const step: Step = { id, instructions: 'Describe what this step should do.' };
  if (agent) step.agent = agent;
  return step;
}

export const STEP_ITEM: PaletteItem = {
  kind: 'step',
  icon: '▣',
  label: 'Step',
  hint: 'An agent task. Drop it on a loop to make it an inner step.',
  inner: true,
  create: (doc, scope) => ({ doc, step: defaultStep(uniqueStepId(doc, scope, scope ? 'inner' : 'step'), firstAgent(doc)) }),
};
