import { firstAgent, uniqueStepId } from '../../doc/ops';
import type { Step } from '../../doc/types';
import type { PaletteItem } from '../types';

/** A forEach loop over a static list, with one inner step. */
export function defaultForEach(id: string, agent?: string): Step {
  const inner: Step = { id: 'each', instructions: 'Handle this item.' };
  if (agent) inner.agent = agent;
  return { id, loop: { forEach: ['first', 'second'], maxConcurrency: 2, steps: [inner] } };
}

export const FOR_EACH_ITEM: PaletteItem = {
  kind: 'forEach',
  icon: '⇉',
  label: 'forEach',
  hint: 'Runs its inner steps once per item, in parallel.',
  inner: false,
  create: (doc, scope) => ({ doc, step: defaultForEach(uniqueStepId(doc, scope, 'for_each'), firstAgent(doc)) }),
};
