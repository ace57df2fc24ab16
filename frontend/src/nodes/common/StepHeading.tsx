import { useRef, type FocusEvent, type ReactNode } from 'react';
import { removeSteps, renameStep } from '../../doc/ops';
import { Field, RenameInput, Section } from '../../forms/fields';
import { HELP } from '../../forms/help';
import { str } from '../../forms/values';
import { useEditorStore } from '../../store/context';
import type { PanelProps } from '../types';
import { focusPlace, restoreFocus } from './keepFocus';
import type { FieldProblems } from './stepEdits';

const INSPECTOR = '[data-testid=inspector]';

/** The head of every step panel: what it is, Delete, where it sits, and its id (renaming carries into references). */
export function StepHeading({ title, stepKey, found, problems, children }: PanelProps & { title: string; problems: FieldProblems; children?: ReactNode }) {
  const store = useEditorStore();
  // Where Tab was taking focus when the id field was left: the renamed step's panel is drawn anew.
  const headed = useRef(-1);
  const noteWhereFocusGoes = (e: FocusEvent) => {
    headed.current = focusPlace(e.currentTarget.closest(INSPECTOR), e.relatedTarget);
  };
  const renameTo = (next: string) => {
    const s = store.getState();
    const renamed = renameStep(s.doc, stepKey, next);
    s.renameKey(stepKey, renamed.key);
    s.applyDoc(renamed.doc, { select: { kind: 'step', key: renamed.key } });
    restoreFocus(INSPECTOR, headed.current, '#f-id');
  };
  const takenBy = (next: string) =>
    found.siblings.some((s) => s !== found.step && s && typeof s === 'object' && s.id === next)
      ? `Another step${found.scope ? ` of loop “${found.scope}”` : ''} is already called “${next}”: ids must differ (Escape keeps “${str(found.step.id)}”).`
      : null;
  const remove = () => {
    store.getState().applyDoc(removeSteps(store.getState().doc, [stepKey]), { select: null });
    // The inspector shows the workflow's tabs next: focus goes to the open one, not to the page body.
    restoreFocus(INSPECTOR, -1, '[role=tab][aria-selected=true]');
  };
  const deleteButton = (
    <button className="btn small danger ghost" onClick={remove}>
      Delete
    </button>
  );
  return (
    <Section title={title} actions={deleteButton}>
      {found.scope && <p className="muted small">Inner step of loop “{found.scope}”.</p>}
      <Field field="id" label="Id" help={HELP['step.id']} problems={problems('id')}>
        <div onBlurCapture={noteWhereFocusGoes}>
          <RenameInput field="id" mono value={str(found.step.id)} onRename={renameTo} taken={takenBy} />
        </div>
      </Field>
      {children}
    </Section>
  );
}
