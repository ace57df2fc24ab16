import { memo } from 'react';
import type { Diag } from '../api/types';
import { targetOf, type Target } from '../doc/pointer';
import { useEditor, useEditorStore } from '../store/context';
import type { Selection } from '../store/editorStore';

function where(t: Target): string {
  switch (t.kind) {
    case 'step':
      return `step ${t.key}${t.field ? ` › ${t.field}` : ''}`;
    case 'agent':
      return `agent ${t.name}${t.field ? ` › ${t.field}` : ''}`;
    case 'options':
      return `options${t.field ? ` › ${t.field}` : ''}`;
    case 'includes':
      return `includes › ${t.name}`;
    default:
      return t.field ? `workflow › ${t.field}` : 'document';
  }
}

function selectionOf(t: Target): { selection: Selection; field: string } {
  switch (t.kind) {
    case 'step':
      return { selection: { kind: 'step', key: t.key }, field: t.field };
    case 'agent':
      return { selection: { kind: 'agent', name: t.name }, field: t.field || 'name' };
    case 'options':
      return { selection: { kind: 'options' }, field: t.field };
    case 'includes':
      return { selection: { kind: 'includes' }, field: `includes.${t.name}` };
    default:
      return { selection: { kind: 'workflow' }, field: t.field };
  }
}

export const ProblemsPanel = memo(function ProblemsPanel() {
  const errors = useEditor((s) => s.errors);
  const warnings = useEditor((s) => s.warnings);
  const validating = useEditor((s) => s.validating);
  const syncError = useEditor((s) => s.syncError);
  const doc = useEditor((s) => s.doc);
  const valid = useEditor((s) => s.valid);
  const checkedRevision = useEditor((s) => s.checkedRevision);
  const revision = useEditor((s) => s.revision);
  const store = useEditorStore();
  const all: Diag[] = [...errors, ...warnings];
  // A warning that blocks Run is counted as what it does (the toolbar says "can't run"), not as a warning.
  const blockers = warnings.filter((d) => d.blocks_run).length;

  return (
    <section
      className="problems"
      data-testid="problems"
      aria-label="Problems"
      data-state={validating || checkedRevision !== revision ? 'checking' : 'idle'}
      data-revision={checkedRevision}
    >
      <header className="problems-head">
        <strong>Problems</strong>
        <span className={`count${errors.length ? ' count-error' : ''}`} data-testid="error-count">
          {errors.length} error{errors.length === 1 ? '' : 's'}
        </span>
        {blockers > 0 && (
          <span className="count count-error" data-testid="blocker-count" title="Valid zenflow v1 (it exports), but this runtime cannot run it until these are fixed">
            {blockers} block{blockers === 1 ? 's' : ''} Run
          </span>
        )}
        <span className={`count${warnings.length - blockers ? ' count-warning' : ''}`} data-testid="warning-count">
          {warnings.length - blockers} warning{warnings.length - blockers === 1 ? '' : 's'}
        </span>
        <span className="muted small problems-state" aria-live="polite">
          {validating ? 'Checking…' : valid === true ? (all.some((d) => d.blocks_run) ? 'Valid zenflow v1 (it exports) · fix what blocks Run to run it' : 'Valid zenflow v1') : ''}
        </span>
      </header>
      {syncError && (
        <div className="problem problem-error" role="alert">
          <span className="problem-icon">!</span>
          <span>The server could not check the document: {syncError}</span>
        </div>
      )}
      <ul className="problem-list" data-testid="problem-list">
        {all.length === 0 && !syncError && (
          <li className="problems-empty muted">{valid === null ? 'Checking the document…' : 'No problems. The workflow is valid and ready to export.'}</li>
        )}
        {all.map((d, i) => {
          const t = targetOf(doc, d.path);
          return (
            <li key={`${d.code}-${d.path}-${i}`}>
              <button
                className={`problem problem-${d.blocks_run ? 'error' : d.severity}`}
                data-testid="problem"
                onClick={() => {
                  const { selection, field } = selectionOf(t);
                  store.getState().select(selection, field, d.line);
                }}
              >
                <span className="problem-icon" aria-label={d.severity}>
                  {d.severity === 'error' ? '✕' : '!'}
                </span>
                <span className="problem-msg">
                  {d.message}
                  {d.blocks_run && (
                    <span className="problem-blocks" title={d.hint} data-testid="blocks-run">
                      blocks Run
                    </span>
                  )}
                </span>
                <span className="problem-where muted">
                  {where(t)}
                  {d.line ? ` · line ${d.line}` : ''}
                </span>
                <code className="problem-code">{d.code}</code>
              </button>
            </li>
          );
        })}
      </ul>
    </section>
  );
});
