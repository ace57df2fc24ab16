import type { Step } from '../../doc/types';

export function defaultInclude(id: string, include: string): Step {
  return { id, include };
}
