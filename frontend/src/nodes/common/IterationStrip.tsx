import { useEditor, useEditorStore } from '../../store/context';
import { formatMs } from '../../run/reduce';
import { breakReasonLabel, ordinal } from '../../run/labels';

/** A run's iterations of a loop, one cell each; a click opens the iteration in the run view. */
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
