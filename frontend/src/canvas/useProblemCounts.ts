import { useMemo } from 'react';
import { targetOf } from '../doc/pointer';
import type { ProblemCount } from '../nodes/common/problemCounts';
import { useEditor } from '../store/context';

/** Errors and warnings per step key, for the badges on the nodes. */
export function useProblemCounts(): Map<string, ProblemCount> {
  const errors = useEditor((s) => s.errors);
  const warnings = useEditor((s) => s.warnings);
  const doc = useEditor((s) => s.doc);
  return useMemo(() => {
    const map = new Map<string, ProblemCount>();
    const add = (path: string, kind: 'errors' | 'warnings') => {
      const t = targetOf(doc, path);
      if (t.kind !== 'step') return;
      const c = map.get(t.key) ?? { errors: 0, warnings: 0 };
      c[kind]++;
      map.set(t.key, c);
    };
    errors.forEach((d) => add(d.path, 'errors'));
    // What blocks Run counts with the errors on the node: it has to be fixed before the workflow runs.
    warnings.forEach((d) => add(d.path, d.blocks_run ? 'errors' : 'warnings'));
    return map;
  }, [errors, warnings, doc]);
}
