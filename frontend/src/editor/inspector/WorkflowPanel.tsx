import { setDocField } from '../../doc/ops';
import { Field, NumberInput, Section, TextInput } from '../../forms/fields';
import { HELP } from '../../forms/help';
import { useApplyDoc } from '../../forms/useApplyDoc';
import { useFieldProblems } from '../../forms/useFieldProblems';
import { optStr, str } from '../../forms/values';
import { useEditor } from '../../store/context';

export function WorkflowPanel() {
  const doc = useEditor((s) => s.doc);
  const apply = useApplyDoc();
  const problems = useFieldProblems({ kind: 'workflow' });
  return (
    <div className="insp-body">
      <Section title="Workflow">
        <Field field="name" label="Name" help={HELP['workflow.name']} problems={problems('name')}>
          <TextInput field="name" value={str(doc.name)} onChange={(v) => apply((d) => setDocField(d, 'name', v), 'wf.name')} />
        </Field>
        <Field field="description" label="Description" help={HELP['workflow.description']} problems={problems('description')}>
          <TextInput field="description" multiline value={str(doc.description)} onChange={(v) => apply((d) => setDocField(d, 'description', optStr(v)), 'wf.description')} />
        </Field>
        <Field field="version" label="Version" help={HELP['workflow.version']} problems={problems('version')}>
          <NumberInput field="version" integer value={doc.version} placeholder="1" onChange={(v) => apply((d) => setDocField(d, 'version', v), 'wf.version')} />
        </Field>
      </Section>
      <p className="muted small">Select a step on the canvas to edit it. Click empty canvas to come back here.</p>
    </div>
  );
}
