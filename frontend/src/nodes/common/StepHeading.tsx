import type { ReactNode } from 'react';
import { removeSteps, renameStep } from '../../doc/ops';
import { Field, RenameInput, Section } from '../../forms/fields';
import { HELP } from '../../forms/help';
import { str } from '../../forms/values';
import { useEditorStore } from '../../store/context';
import type { PanelProps } from '../types';
import type { FieldProblems } from './stepEdits';

/** The head of every step panel: what it is, Delete, where it sits, and its id (renaming carries into references). */
export function StepHeading({ title, stepKey, found, problems, children }: PanelProps & { title: string; problems: FieldProblems; children?: ReactNode }) {
  const store = useEditorStore();
  const renameTo = (next: string) => {
    const s = store.getState();
    const renamed = renameStep(s.doc, stepKey, next);
    s.renameKey(stepKey, renamed.key);
    s.applyDoc(renamed.doc, { select: { kind: 'step', key: renamed.key } });
  };
  const deleteButton = (
    <button className="btn small danger ghost" onClick={() => store.getState().applyDoc(removeSteps(store.getState().doc, [stepKey]), { select: null })}>
      Delete
    </button>
  );
  return (
    <Section title={title} actions={deleteButton}>
      {found.scope && <p className="muted small">Inner step of loop “{found.scope}”.</p>}
      <Field field="id" label="Id" help={HELP['step.id']} problems={problems('id')}>
        <RenameInput field="id" mono value={str(found.step.id)} onRename={renameTo} />
      </Field>
      {children}
    </Section>
  );
}
