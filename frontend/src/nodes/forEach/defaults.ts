import type { Step } from '../../doc/types';

/** A forEach loop over a static list, with one inner step. */
export function defaultForEach(id: string, agent?: string): Step {
  const inner: Step = { id: 'each', instructions: 'Handle this item.' };
  if (agent) inner.agent = agent;
  return { id, loop: { forEach: ['first', 'second'], maxConcurrency: 2, steps: [inner] } };
}
