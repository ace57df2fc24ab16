import { setOption } from '../../doc/ops';
import { isObject, type Json, type JsonObject } from '../../doc/types';
import { Field, NumberInput, Section, SelectInput, TextInput } from '../../forms/fields';
import { HELP } from '../../forms/help';
import { useApplyDoc } from '../../forms/useApplyDoc';
import { useFieldProblems } from '../../forms/useFieldProblems';
import { NO_FIELDS, optStr, str } from '../../forms/values';
import { useEditor } from '../../store/context';

export function OptionsPanel() {
  const options: JsonObject = useEditor((s) => (isObject(s.doc.options) ? s.doc.options : NO_FIELDS));
  const apply = useApplyDoc();
  const problems = useFieldProblems({ kind: 'options' });
  const set = (field: string) => (v: Json | undefined) => apply((d) => setOption(d, field, v), `opt.${field}`);
  return (
    <div className="insp-body">
      <Section title="Options">
        <Field field="maxConcurrency" label="Max concurrency" help={HELP['options.maxConcurrency']} problems={problems('maxConcurrency')}>
          <NumberInput field="maxConcurrency" integer value={options.maxConcurrency} placeholder="5" onChange={set('maxConcurrency')} />
        </Field>
        <Field field="onStepFailure" label="On step failure" help={HELP['options.onStepFailure']} problems={problems('onStepFailure')}>
          <SelectInput
            field="onStepFailure"
            value={options.onStepFailure as string | undefined}
            unsetLabel="(default: cascade)"
            options={['cascade', 'skip-dependents', 'abort'].map((v) => ({ value: v, label: v }))}
            onChange={set('onStepFailure')}
          />
        </Field>
        <Field field="timeout" label="Run timeout" help={HELP['options.timeout']} problems={problems('timeout')}>
          <TextInput field="timeout" mono value={str(options.timeout)} placeholder="e.g. 1h" onChange={(v) => set('timeout')(optStr(v))} />
        </Field>
        <Field field="stepTimeout" label="Step timeout" help={HELP['options.stepTimeout']} problems={problems('stepTimeout')}>
          <TextInput field="stepTimeout" mono value={str(options.stepTimeout)} placeholder="e.g. 30m" onChange={(v) => set('stepTimeout')(optStr(v))} />
        </Field>
        <Field field="scheduler" label="Scheduler" help={HELP['options.scheduler']} problems={problems('scheduler')}>
          <SelectInput
            field="scheduler"
            value={options.scheduler as string | undefined}
            unsetLabel="(default: dependency-first)"
            options={['dependency-first', 'round-robin', 'least-busy'].map((v) => ({ value: v, label: v }))}
            onChange={set('scheduler')}
          />
        </Field>
        <Field field="isolation" label="Isolation" help={HELP['options.isolation']} problems={problems('isolation')}>
          <TextInput field="isolation" value={str(options.isolation)} onChange={(v) => set('isolation')(optStr(v))} />
        </Field>
        <Field field="maxRetries" label="Max tool-call retries" help={HELP['options.maxRetries']} problems={problems('maxRetries')}>
          <NumberInput field="maxRetries" integer value={options.maxRetries} onChange={set('maxRetries')} />
        </Field>
      </Section>
    </div>
  );
}
