import { CelInput } from '../../components/CelInput';
import { celVariables } from '../../doc/celScope';
import { isObject, type Json, type JsonObject } from '../../doc/types';
import { Field, NumberInput, Section } from '../../forms/fields';
import { HELP } from '../../forms/help';
import { str } from '../../forms/values';
import { useEditor } from '../../store/context';
import { AgentFields } from '../common/AgentFields';
import { LoopSettings } from '../common/LoopSettings';
import { StepHeading } from '../common/StepHeading';
import { StepSettings } from '../common/StepSettings';
import { useSetLoopField, useSetStepField, useStepProblems } from '../common/stepEdits';
import type { PanelProps } from '../types';
import { ItemsInput } from './ItemsInput';

/** The loop fields this panel shows (with their problems). */
const FIELDS = ['loop.forEach', 'loop.maxConcurrency'];

export function ForEachPanel({ stepKey, found }: PanelProps) {
  const doc = useEditor((s) => s.doc);
  const problems = useStepProblems(stepKey);
  const set = useSetStepField(stepKey);
  const setLoop = useSetLoopField(stepKey);
  const step = found.step;
  const loop: JsonObject = isObject(step.loop) ? step.loop : {};
  const items = loop.forEach;
  const listMode = Array.isArray(items);
  return (
    <div className="insp-body">
      <StepHeading title="forEach loop" stepKey={stepKey} found={found} problems={problems} />
      <LoopSettings stepKey={stepKey} step={step} problems={problems} fields={FIELDS}>
        <Field field="loop.forEach" label="Items" help={HELP['loop.forEach']} problems={problems('loop.forEach')}>
          <div className="segmented small" role="group" aria-label="Items source">
            <button className={listMode ? 'active' : ''} onClick={() => !listMode && setLoop('forEach')(['first', 'second'])}>
              Static list
            </button>
            <button className={!listMode ? 'active' : ''} onClick={() => listMode && setLoop('forEach')('steps.plan.result.items')}>
              CEL expression
            </button>
          </div>
          {listMode ? (
            <ItemsInput value={items as Json[]} onChange={(v) => setLoop('forEach')(v)} />
          ) : (
            <CelInput value={str(items)} variables={celVariables(doc, stepKey, 'forEach')} id="f-loop.forEach" onChange={(v) => setLoop('forEach')(v)} />
          )}
        </Field>
        <Field field="loop.maxConcurrency" label="Max concurrency" help={HELP['loop.maxConcurrency']} problems={problems('loop.maxConcurrency')}>
          <NumberInput field="loop.maxConcurrency" integer value={loop.maxConcurrency} placeholder="all" onChange={setLoop('maxConcurrency')} />
        </Field>
      </LoopSettings>
      <Section title="Step settings">
        <StepSettings stepKey={stepKey} found={found} problems={problems} set={set} lead={<AgentFields step={step} problems={problems} set={set} />} />
      </Section>
    </div>
  );
}
