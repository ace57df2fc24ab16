import { memo } from 'react';
import type { NodeProps } from '@xyflow/react';
import { stepChips } from '../../graph/nodeSize';
import { useEditor } from '../../store/context';
import { BreakpointMargin } from '../common/BreakpointMargin';
import { NodeLabels } from '../common/NodeLabels';
import { Chip, Handles, ProblemBadges, RunStatus, useRunClass } from '../common/parts';
import { useIncludeLook } from '../folder/includeScope';
import { INCLUDE_ITEM } from './defaults';
import { OpenInclude } from './OpenInclude';
import type { IncludeNode as IncludeNodeType } from './types';

export const IncludeNode = memo(function IncludeNode({ data, selected }: NodeProps<IncludeNodeType>) {
  const { step, key } = data;
  const target = typeof step.include === 'string' ? step.include : '';
  const path = useEditor((s) => (s.doc.includes && typeof s.doc.includes[target] === 'string' ? s.doc.includes[target] : null));
  const runClass = useRunClass(key);
  const { look, scope } = useIncludeLook(step);
  return (
    <div className={`node node-include${selected ? ' selected' : ''}${runClass}`} data-testid={`node-${key}`}>
      <Handles />
      <BreakpointMargin data={data} />
      <NodeLabels data={data} />
      <div className="node-head">
        <span className="node-icon" aria-hidden>
          {INCLUDE_ITEM.icon}
        </span>
        <span className="node-title" title={String(step.id ?? '(no id)')}>
            {String(step.id ?? '(no id)')}
          </span>
        <ProblemBadges nodeKey={key} />
      </div>
      <div className="node-sub">
        <span className="muted">includes</span> <strong>{target || '—'}</strong>
      </div>
      <div className="node-text mono">{path ?? (target.includes('/') || target.endsWith('.yaml') ? 'file path' : 'not in includes')}</div>
      {look && (
        <div className="node-text include-look">
          {/* Its inner steps, collapsed into one line: Open shows them. */}
          <span className="include-summary muted" data-testid="include-summary" title={look.summary}>
            {look.summary}
          </span>
          <OpenInclude step={step} look={look} scope={scope} where="node" />
        </div>
      )}
      <div className="chips">
        {stepChips(step, 'include').map((c) => (
          <Chip key={c.label} label={c.label} value={c.value} title={c.title} mono={c.mono} />
        ))}
        <RunStatus nodeKey={key} />
      </div>
    </div>
  );
});
