import { setLoopField } from '../../doc/ops';
import { useApplyDoc } from '../../forms/useApplyDoc';
import { AgentFields } from '../common/AgentFields';
import { StepHeading } from '../common/StepHeading';
import { restoreFocus } from '../common/keepFocus';
import { StepSettings } from '../common/StepSettings';
import { useSetStepField, useStepProblems } from '../common/stepEdits';
import type { PanelProps } from '../types';

export function StepPanel({ stepKey, found }: PanelProps) {
  const apply = useApplyDoc();
  const problems = useStepProblems(stepKey);
  const set = useSetStepField(stepKey);
  return (
    <div className="insp-body">
      <StepHeading title="Step" stepKey={stepKey} found={found} problems={problems}>
        <StepSettings stepKey={stepKey} found={found} problems={problems} set={set} lead={<AgentFields step={found.step} problems={problems} set={set} />} />
      </StepHeading>
      {/* Loops cannot nest (v1): only a top-level step can become one. */}
      {!found.scope && (
        <div className="row">
          <button
            className="btn small ghost"
            onClick={() => {
              apply((d) => setLoopField(d, stepKey, 'maxIterations', 3));
              // The loop's panel replaces this one: focus goes to its mode switch, at the top of the loop settings.
              restoreFocus('[data-testid=inspector]', -1, '[aria-label="Loop mode"] .active');
            }}
          >
            Turn into a repeat-until loop
          </button>
        </div>
      )}
    </div>
  );
}
