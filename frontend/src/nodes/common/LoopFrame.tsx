// The frame both loop kinds draw: a header with the loop's key settings, the
// iteration strip of a run, and the body that holds the inner steps.
import type { ReactNode } from 'react';
import { useEditor, useEditorStore } from '../../store/context';
import type { StepNodeData } from '../../graph/mapping';
import { truncate } from '../../graph/nodeSize';
import { addInnerStep } from '../add';
import { BreakpointMargin } from './BreakpointMargin';
import { IterationStrip } from './IterationStrip';
import { NodeLabels } from './NodeLabels';
import { Handles, ProblemBadges, RunStatus, useRunClass } from './parts';

export function LoopFrame({
  data,
  selected,
  variant,
  label,
  icon,
  settings,
}: {
  data: StepNodeData;
  selected: boolean;
  variant: 'forEach' | 'repeat' | 'judge';
  label: string;
  icon: string;
  settings: ReactNode;
}) {
  const { step, key, hasInnerSteps, childCount } = data;
  const store = useEditorStore();
  const readOnly = useEditor((s) => s.readOnly);
  const runClass = useRunClass(key);
  return (
    <div className={`node loop loop-${variant}${selected ? ' selected' : ''}${runClass}`} data-testid={`node-${key}`}>
      <Handles />
      <BreakpointMargin data={data} />
      <NodeLabels data={data} />
      <div className="loop-head">
        <div className="node-head">
          <span className="node-icon" aria-hidden>
            {icon}
          </span>
          <span className="node-title" title={String(step.id ?? '(no id)')}>
            {String(step.id ?? '(no id)')}
          </span>
          <span className="loop-kind" title={label}>
            {label}
          </span>
          <ProblemBadges nodeKey={key} />
          <RunStatus nodeKey={key} />
        </div>
        <div className="chips loop-settings">{settings}</div>
        {typeof step.condition === 'string' && (
          <div className="chips">
            <span className="chip mono" title={step.condition}>
              <span className="chip-label">if</span>
              <span className="chip-value">{truncate(step.condition, 40)}</span>
            </span>
          </div>
        )}
        <IterationStrip loopKey={key} />
      </div>
      {!hasInnerSteps || childCount === 0 ? (
        <div className="loop-single">
          <div className="node-sub">
            <span className="muted">single-step loop · agent</span>{' '}
            {typeof step.agent === 'string' ? step.agent : <em className="muted">default</em>}
          </div>
          {typeof step.instructions === 'string' && <div className="node-text">{truncate(step.instructions, 110)}</div>}
        </div>
      ) : null}
      {!readOnly && (
        <button
          className="loop-add nodrag"
          title="Add an inner step to this loop"
          onClick={(e) => {
            e.stopPropagation();
            addInnerStep(store, key);
          }}
        >
          + inner step
        </button>
      )}
    </div>
  );
}
