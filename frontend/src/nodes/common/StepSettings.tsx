import type { ReactNode } from 'react';
import { CelInput } from '../../components/CelInput';
import { celVariables } from '../../doc/celScope';
import { isObject } from '../../doc/types';
import { Field, ListInput, NumberInput, TextInput } from '../../forms/fields';
import { HELP } from '../../forms/help';
import { ContextFilesList } from '../folder/FileLinks';
import { optStr, str } from '../../forms/values';
import { useEditor } from '../../store/context';
import type { PanelProps } from '../types';
import { DependsOnField } from './DependsOnField';
import { conditionExample } from './examples';
import type { FieldProblems, FieldSetter } from './stepEdits';

/**
 * The settings every step has, after the kind's own (`lead`): dependencies,
 * condition, timeout and retries, model, context files. `sparse` shows the
 * fields an include does not use only when they are set.
 */
export function StepSettings({ stepKey, found, problems, set, lead, sparse }: PanelProps & { problems: FieldProblems; set: FieldSetter; lead: ReactNode; sparse?: boolean }) {
  const doc = useEditor((s) => s.doc);
  const step = found.step;
  const siblings = found.siblings.filter((s, i) => i !== found.index && isObject(s) && typeof s.id === 'string').map((s) => s.id);
  const raw = Array.isArray(step.dependsOn) ? step.dependsOn : [];
  const deps = raw.filter((d): d is string => typeof d === 'string');
  const toggle = (id: string, on: boolean) => {
    const next = on ? [...raw, id] : raw.filter((d) => d !== id);
    set('dependsOn')(next.length ? next : undefined);
  };
  const shows = (field: string) => !sparse || step[field] !== undefined;
  return (
    <>
      {lead}
      <DependsOnField siblings={siblings} deps={deps} help={HELP['step.dependsOn']} problems={problems('dependsOn')} onToggle={toggle} />
      {shows('condition') && (
        <Field field="condition" label="Condition (CEL)" help={HELP['step.condition']} problems={problems('condition')}>
          <CelInput value={str(step.condition)} variables={celVariables(doc, stepKey, 'condition')} id="f-condition" onChange={(v) => set('condition')(optStr(v))} placeholder={conditionExample(deps)} />
        </Field>
      )}
      <div className="grid2">
        <Field field="timeout" label="Timeout" help={HELP['step.timeout']} problems={problems('timeout')}>
          <TextInput field="timeout" mono value={str(step.timeout)} placeholder="e.g. 10m" onChange={(v) => set('timeout')(optStr(v))} />
        </Field>
        <Field field="retries" label="Retries" help={HELP['step.retries']} problems={problems('retries')}>
          <NumberInput field="retries" integer value={step.retries} onChange={set('retries')} />
        </Field>
      </div>
      <Field field="maxRetries" label="Max tool-call retries" help={HELP['step.maxRetries']} problems={problems('maxRetries')}>
        <NumberInput field="maxRetries" integer value={step.maxRetries} onChange={set('maxRetries')} />
      </Field>
      {shows('model') && (
        <Field field="model" label="Model override" help={HELP['step.model']} problems={problems('model')}>
          <TextInput field="model" mono value={str(step.model)} onChange={(v) => set('model')(optStr(v))} />
        </Field>
      )}
      {shows('contextFiles') && (
        <Field field="contextFiles" label="Context files" help={HELP['step.contextFiles']} problems={problems('contextFiles')}>
          <ListInput field="contextFiles" value={step.contextFiles} placeholder="e.g. docs/architecture.md" onChange={(v) => set('contextFiles')(v)} />
          <ContextFilesList value={step.contextFiles} />
        </Field>
      )}
    </>
  );
}
