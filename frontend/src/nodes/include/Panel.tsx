import { isObject } from '../../doc/types';
import { Field, TextInput } from '../../forms/fields';
import { HELP } from '../../forms/help';
import { str } from '../../forms/values';
import { useEditor } from '../../store/context';
import { useIncludeLook } from '../folder/includeScope';
import { StepHeading } from '../common/StepHeading';
import { OpenInclude } from './OpenInclude';
import { StepSettings } from '../common/StepSettings';
import { useSetStepField, useStepProblems } from '../common/stepEdits';
import type { PanelProps } from '../types';

export function IncludePanel({ stepKey, found }: PanelProps) {
  const problems = useStepProblems(stepKey);
  const set = useSetStepField(stepKey);
  const defined = useEditor((s) => s.doc.includes);
  const includes = isObject(defined) ? Object.keys(defined) : [];
  const { look, scope } = useIncludeLook(found.step);
  const lead = (
    <Field field="include" label="Include" help={HELP['step.include']} problems={problems('include')}>
      <TextInput field="include" mono value={str(found.step.include)} onChange={(v) => set('include')(v)} placeholder={`e.g. ${includes[0] ?? 'workflows/sub.yaml'}`} />
      {includes.length > 0 && <div className="field-help">Named includes: {includes.join(', ')}</div>}
      {look && (
        <div className="field-help include-look" data-testid="include-panel-look">
          <span>Runs {look.resolved.kind === 'file' ? `${look.resolved.file}: ${look.summary}` : look.summary}.</span>
          <OpenInclude step={found.step} look={look} scope={scope} where="panel" />
        </div>
      )}
    </Field>
  );
  return (
    <div className="insp-body">
      <StepHeading title="Include step" stepKey={stepKey} found={found} problems={problems}>
        {/* An include runs a sub-workflow: settings it does not use show only when set. */}
        <StepSettings stepKey={stepKey} found={found} problems={problems} set={set} lead={lead} sparse />
      </StepHeading>
    </div>
  );
}
