import { useMemo } from 'react';
import type { Diag } from '../api/types';
import { targetOf, type Target } from '../doc/pointer';
import { useEditor } from '../store/context';

/** What a panel edits: the thing whose diagnostics it shows beside its fields. */
export type ProblemScope =
  | { kind: 'workflow' }
  | { kind: 'options' }
  | { kind: 'includes' }
  | { kind: 'step'; key: string }
  | { kind: 'agent'; name: string };

/** The field of its target a diagnostic is about ('' for the target as a whole); in `includes`, the include's name. */
function fieldOf(t: Target): string {
  return t.kind === 'includes' ? t.name : t.field;
}

/**
 * The server's diagnostics about one scope, as a lookup by field:
 * `problems('loop')` gives those about `loop` and below it, `problems('')`
 * those about the scope as a whole; in `includes`, `problems(name)` gives
 * those about one include.
 */
export function useFieldProblems(scope: ProblemScope): (field: string) => Diag[] {
  const errors = useEditor((s) => s.errors);
  const warnings = useEditor((s) => s.warnings);
  const doc = useEditor((s) => s.doc);
  const kind = scope.kind;
  const id = scope.kind === 'step' ? scope.key : scope.kind === 'agent' ? scope.name : '';
  const list = useMemo(() => {
    const out: { t: Target; d: Diag }[] = [];
    for (const d of [...errors, ...warnings]) {
      const t = targetOf(doc, d.path);
      const ours = t.kind === kind && (t.kind === 'step' ? t.key === id : t.kind === 'agent' ? t.name === id : true);
      if (ours) out.push({ t, d });
    }
    return out;
  }, [errors, warnings, doc, kind, id]);
  return (field: string) =>
    list
      .filter(({ t }) => {
        const f = fieldOf(t);
        if (field === '' || t.kind === 'includes') return f === field;
        return f === field || f.startsWith(field + '.');
      })
      .map(({ d }) => d);
}
