import { memo } from 'react';
import type { NodeProps } from '@xyflow/react';
import { stepChips, truncate } from '../../graph/nodeSize';
import { BreakpointMargin } from '../common/BreakpointMargin';
import { NodeLabels } from '../common/NodeLabels';
import { Chip, Handles, ProblemBadges, RunStatus, useRunClass } from '../common/parts';
import { STEP_ITEM } from './defaults';
import type { StepNode as StepNodeType } from './types';

export const StepNode = memo(function StepNode({ data, selected }: NodeProps<StepNodeType>) {
  const { step, key } = data;
  const runClass = useRunClass(key);
  return (
    <div className={`node node-step${selected ? ' selected' : ''}${runClass}`} data-testid={`node-${key}`}>
      <Handles />
      <BreakpointMargin data={data} />
      <NodeLabels data={data} />
      <div className="node-head">
        <span className="node-icon" aria-hidden>
          {STEP_ITEM.icon}
        </span>
        <span className="node-title" title={String(step.id ?? '(no id)')}>
            {String(step.id ?? '(no id)')}
          </span>
        <ProblemBadges nodeKey={key} />
      </div>
      <div className="node-sub">
        <span className="muted">agent</span> {typeof step.agent === 'string' ? step.agent : <em className="muted">default</em>}
      </div>
      {typeof step.instructions === 'string' && <div className="node-text">{truncate(step.instructions, 90)}</div>}
      <div className="chips">
        {stepChips(step, 'step').map((c) => (
          <Chip key={c.label} label={c.label} value={c.value} title={c.title} mono={c.mono} />
        ))}
        <RunStatus nodeKey={key} />
      </div>
    </div>
  );
});
