import { useState } from 'react';
import { CelInput } from '../../components/CelInput';
import { celVariables } from '../../doc/celScope';
import { isJudge, makeJudge } from '../../doc/ops';
import { isObject, type JsonObject } from '../../doc/types';
import { truncate } from '../../graph/nodeSize';
import { Field, NumberInput, Section, SelectInput, TextInput } from '../../forms/fields';
import { HELP } from '../../forms/help';
import { useApplyDoc } from '../../forms/useApplyDoc';
import { optStr, str } from '../../forms/values';
import { useEditor } from '../../store/context';
import { AgentFields } from '../common/AgentFields';
import { LoopSettings } from '../common/LoopSettings';
import { StepHeading } from '../common/StepHeading';
import { StepSettings } from '../common/StepSettings';
import { restoreFocus } from '../common/keepFocus';
import { useSetLoopField, useSetStepField, useStepProblems } from '../common/stepEdits';
import type { PanelProps } from '../types';
import { PLACEHOLDER_UNTIL } from './defaults';

/** The offers under the judge's field go once taken: focus goes back to the judge's field. */
function backToJudge() {
  restoreFocus('[data-testid=inspector]', -1, '#f-loop\\.untilAgent');
}

/** The loop fields this panel shows (with their problems). */
const FIELDS = ['loop.maxIterations', 'loop.until', 'loop.untilAgent', 'loop.delay'];

/** A repeat-until loop; with `untilAgent`, the judge loop. */
export function RepeatPanel({ stepKey, found }: PanelProps) {
  const doc = useEditor((s) => s.doc);
  const apply = useApplyDoc();
  const problems = useStepProblems(stepKey);
  const set = useSetStepField(stepKey);
  const setLoop = useSetLoopField(stepKey);
  // "Keep both" hides the offer to clear `until` for the text it was given on.
  const [keptUntil, setKeptUntil] = useState<string | null>(null);
  const step = found.step;
  const loop: JsonObject = isObject(step.loop) ? step.loop : {};
  const agents = isObject(doc.agents) ? Object.keys(doc.agents) : [];
  const judge = typeof loop.untilAgent === 'string' ? loop.untilAgent : undefined;
  const judgeAgent = judge && isObject(doc.agents) && isObject(doc.agents[judge]) ? doc.agents[judge] : null;
  return (
    <div className="insp-body">
      <StepHeading title={judge !== undefined ? 'Judge loop (repeat-until)' : 'Repeat-until loop'} stepKey={stepKey} found={found} problems={problems} />
      <LoopSettings stepKey={stepKey} step={step} problems={problems} fields={FIELDS}>
        <Field field="loop.maxIterations" label="Max iterations" help={HELP['loop.maxIterations']} problems={problems('loop.maxIterations')}>
          <NumberInput field="loop.maxIterations" integer value={loop.maxIterations} onChange={setLoop('maxIterations')} />
        </Field>
        <Field field="loop.until" label="Until (CEL)" help={HELP['loop.until']} problems={problems('loop.until')}>
          <CelInput value={str(loop.until)} variables={celVariables(doc, stepKey, 'until')} id="f-loop.until" testId="until-input" onChange={(v) => setLoop('until')(optStr(v))} placeholder="steps.review.content.contains('LGTM')" />
        </Field>
        <Field field="loop.untilAgent" label="Judge agent" help={HELP['loop.untilAgent']} problems={problems('loop.untilAgent')}>
          <SelectInput field="loop.untilAgent" value={judge} unsetLabel="(no judge)" options={agents.map((a) => ({ value: a, label: a }))} onChange={setLoop('untilAgent')} />
          {judge && typeof loop.until === 'string' && loop.until.trim() !== '' && keptUntil !== loop.until && (
            <div className="insp-note" data-testid="judge-until-offer" role="status">
              <p className="small">
                {loop.until === PLACEHOLDER_UNTIL ? 'The placeholder ' : 'This '}
                <code>until</code> still stops the loop too: it ends when <code>{truncate(loop.until, 60)}</code> is true, before the judge is asked.
              </p>
              <button
                className="btn small"
                data-testid="clear-until"
                onClick={() => {
                  setLoop('until')(undefined);
                  backToJudge();
                }}
              >
                Clear until (let the judge decide)
              </button>{' '}
              <button
                className="btn small ghost"
                data-testid="keep-until"
                onClick={() => {
                  setKeptUntil(String(loop.until));
                  backToJudge();
                }}
              >
                Keep both
              </button>
            </div>
          )}
          {judge && (!judgeAgent || !isJudge(judgeAgent)) && (
            <button
              className="btn small"
              onClick={() => {
                apply((d) => makeJudge(d, judge));
                backToJudge();
              }}
            >
              Make “{judge}” a judge (adds done/reason)
            </button>
          )}
        </Field>
        <Field field="loop.delay" label="Delay" help={HELP['loop.delay']} problems={problems('loop.delay')}>
          <TextInput field="loop.delay" mono value={str(loop.delay)} placeholder="e.g. 10s" onChange={(v) => setLoop('delay')(optStr(v))} />
        </Field>
      </LoopSettings>
      <Section title="Step settings">
        <StepSettings stepKey={stepKey} found={found} problems={problems} set={set} lead={<AgentFields step={step} problems={problems} set={set} />} />
      </Section>
    </div>
  );
}
