// A step's margin on the canvas, like a debugger's gutter: a small target on the node's left edge that sets or
// clears the breakpoint before the step (the one its inspector toggle shows: the same list in the store, the same
// save). Shown on hover and on focus; always, as a filled red dot, when set. Read only (a viewer, a runner), the
// dot of a set breakpoint shows and nothing toggles (the server refuses them too). Only where the store holds the
// workflow's breakpoints (the editor): a run view or an include draws none.
import { api } from '../../api/client';
import { marginWords, stepBreakpoint } from '../../breakpoints/rules';
import { toggleStepBreakpoint } from '../../breakpoints/sync';
import type { StepNodeData } from '../../graph/mapping';
import { useEditor, useEditorStore } from '../../store/context';

export function BreakpointMargin({ data }: { data: StepNodeData }) {
  const store = useEditorStore();
  const stepId = typeof data.step.id === 'string' && data.step.id ? data.step.id : null;
  const set = useEditor((s) => (stepId === null ? null : stepBreakpoint(s.breakpoints, stepId)));
  const loaded = useEditor((s) => s.breakpoints !== null);
  const readOnly = useEditor((s) => s.readOnly);
  if (stepId === null || !loaded) return null;
  const words = marginWords(stepId, data.kind, set, !readOnly);
  if (readOnly) {
    return set ? <span className="bp-margin set" role="img" aria-label={words} title={words} data-testid={`bp-margin-${data.key}`} data-set="1" /> : null;
  }
  return (
    <button
      type="button"
      className={`bp-margin nodrag nopan${set ? ' set' : ''}`}
      aria-label={words}
      title={words}
      data-testid={`bp-margin-${data.key}`}
      data-set={set ? '1' : '0'}
      onClick={(e) => {
        e.stopPropagation();
        void toggleStepBreakpoint(store, api, stepId, data.kind);
      }}
      onKeyDown={(e) => {
        // Enter and Space press the button; the node around it would take them to select itself.
        if (e.key === 'Enter' || e.key === ' ') e.stopPropagation();
      }}
    />
  );
}
