// The frame both loop node types share: header with key settings, the
// iteration strip of a run, and the body that holds the inner steps.
import type { ReactNode } from 'react';
import { useEditor, useEditorStore } from '../store/context';
import { addInnerStep } from '../editor/actions';
import { formatMs } from '../run/reduce';
import { breakReasonLabel, ordinal } from '../run/labels';
import { Handles, ProblemBadges, RunStatus, truncate, useRunClass } from './shared';
import type { StepNodeData } from '../graph/mapping';
import { pointerOfKey } from '../doc/pointer';
import { Chip } from './shared';

const NO_SOURCES: readonly string[] = Object.freeze([]);

/** The inner steps whose output is each iteration's output, as the server computed them (empty for a single-step loop). */
export function useIterationSources(loopKey: string): readonly string[] {
  return useEditor((s) => {
    const at = pointerOfKey(s.doc, loopKey);
    return (at && s.iterationOutputs[at]) || NO_SOURCES;
  });
}

/** What a loop hands on: the mode, and for inner steps the step(s) each iteration's output comes from. */
export function OutputChip({ loopKey, mode }: { loopKey: string; mode: string }) {
  const sources = useIterationSources(loopKey);
  const from = sources.length > 0 ? ` of ${sources.join(' + ')}` : '';
  const title =
    sources.length > 0
      ? `Each iteration's output is the output of ${sources.join(' and ')} (the inner step${sources.length === 1 ? '' : 's'} no other inner step depends on). ` +
        (mode === 'cumulative' ? 'The loop joins every iteration’s output.' : 'The loop hands on the last iteration’s output.')
      : mode === 'cumulative'
        ? 'The loop joins every iteration’s output.'
        : 'The loop hands on the last iteration’s output.';
  return (
    <span data-testid={`iteration-output-${loopKey}`}>
      <Chip label="output" value={`${mode}${from}`} title={title} />
    </span>
  );
}

export function IterationStrip({ loopKey }: { loopKey: string }) {
  const loop = useEditor((s) => s.runState.loops[loopKey]);
  const focus = useEditor((s) => s.iterationFocus);
  const store = useEditorStore();
  if (!loop || loop.iterations.length === 0) return null;
  return (
    <div className="iter-strip nodrag" data-testid={`iterations-${loopKey}`}>
      {loop.iterations.map((it) => {
        const v = it.verdict;
        const verdict = v ? (v.failedOpen ? '⚠' : v.done ? '✓' : '↻') : '';
        const active = focus?.loop === loopKey && focus.iteration === it.iteration;
        const title = [
          `Iteration ${ordinal(it.iteration)}${it.item !== undefined ? ` · item ${JSON.stringify(it.item)}` : ''}`,
          it.status,
          formatMs(it.durationMs),
          v ? `judge: ${v.failedOpen ? 'failed open' : v.done ? 'done' : 'not done'}${v.reason ? ` — ${v.reason}` : ''}` : '',
        ]
          .filter(Boolean)
          .join('\n');
        return (
          <button
            key={it.iteration}
            className={`iter-cell iter-${it.status}${active ? ' active' : ''}`}
            title={title}
            data-testid="iteration-cell"
            onClick={(e) => {
              e.stopPropagation();
              store.getState().focusIteration({ loop: loopKey, iteration: it.iteration });
            }}
          >
            <span className="iter-n">{ordinal(it.iteration)}</span>
            {verdict && <span className="iter-verdict">{verdict}</span>}
            {it.durationMs !== undefined && <span className="iter-time">{formatMs(it.durationMs)}</span>}
          </button>
        );
      })}
      {loop.ended && (
        <span className="iter-end muted" title={loop.ended.reason ?? undefined}>
          {breakReasonLabel(loop.ended.reason)}
        </span>
      )}
    </div>
  );
}

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
      <div className="loop-head">
        <div className="node-head">
          <span className="node-icon" aria-hidden>
            {icon}
          </span>
          <span className="node-title">{String(step.id ?? '(no id)')}</span>
          <span className="loop-kind">{label}</span>
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
