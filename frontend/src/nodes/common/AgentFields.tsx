import { isObject, type Step } from '../../doc/types';
import { Field, SelectInput, TextInput } from '../../forms/fields';
import { HELP } from '../../forms/help';
import { AtFileLink } from '../folder/FileLinks';
import { optStr, str } from '../../forms/values';
import { useEditor } from '../../store/context';
import type { FieldProblems, FieldSetter } from './stepEdits';

/** Who runs the step and what it is asked: a plain step's, and a single-step loop's, own work. */
export function AgentFields({ step, problems, set }: { step: Step; problems: FieldProblems; set: FieldSetter }) {
  const defined = useEditor((s) => s.doc.agents);
  const agents = isObject(defined) ? Object.keys(defined) : [];
  return (
    <>
      <Field field="agent" label="Agent" help={HELP['step.agent']} problems={problems('agent')}>
        <SelectInput field="agent" value={typeof step.agent === 'string' ? step.agent : undefined} unsetLabel="(default agent)" options={agents.map((a) => ({ value: a, label: a }))} onChange={set('agent')} />
      </Field>
      <Field field="instructions" label="Instructions" help={HELP['step.instructions']} problems={problems('instructions')}>
        <TextInput field="instructions" multiline rows={5} value={str(step.instructions)} onChange={(v) => set('instructions')(optStr(v))} />
        <AtFileLink value={step.instructions} />
      </Field>
    </>
  );
}
