import { uniqueStepId } from '../../doc/ops';
import { isObject, type Step } from '../../doc/types';
import type { PaletteItem } from '../types';

export function defaultInclude(id: string, include: string): Step {
  return { id, include };
}

export const INCLUDE_ITEM: PaletteItem = {
  kind: 'include',
  icon: '⤷',
  label: 'Include',
  hint: 'Runs a sub-workflow file.',
  inner: false,
  create(doc, scope) {
    const names = isObject(doc.includes) ? Object.keys(doc.includes) : [];
    return { doc, step: defaultInclude(uniqueStepId(doc, scope, 'include'), names[0] ?? 'workflows/sub.yaml') };
  },
};
