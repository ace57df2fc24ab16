// Edits a step's panel makes, and the problems it shows beside its fields.
import type { Diag } from '../../api/types';
import { setLoopField, setStepField } from '../../doc/ops';
import type { Json } from '../../doc/types';
import { useApplyDoc } from '../../forms/useApplyDoc';
import { useFieldProblems } from '../../forms/useFieldProblems';

export type FieldProblems = (field: string) => Diag[];
export type FieldSetter = (field: string) => (v: Json | undefined) => void;

export function useStepProblems(stepKey: string): FieldProblems {
  return useFieldProblems({ kind: 'step', key: stepKey });
}

/** Sets a field of the step; typing in one field undoes as one edit. */
export function useSetStepField(stepKey: string): FieldSetter {
  const apply = useApplyDoc();
  return (field) => (v) => apply((d) => setStepField(d, stepKey, field, v), `step.${stepKey}.${field}`);
}

/** Sets a field of the step's `loop`. */
export function useSetLoopField(stepKey: string): FieldSetter {
  const apply = useApplyDoc();
  return (field) => (v) => apply((d) => setLoopField(d, stepKey, field, v), `loop.${stepKey}.${field}`);
}
