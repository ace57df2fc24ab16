import { useEditor, useEditorStore } from '../../store/context';
import { formatMs } from '../../run/reduce';
import { breakReasonLabel, iterationKind, ordinal } from '../../run/labels';
import { iterationGlyph, iterationWords } from './accessibleNames';
import { VisuallyHidden } from './VisuallyHidden';

/** A run's iterations of a loop, one cell each; a click opens the iteration in the run view. */
export function IterationStrip({ loopKey }: { loopKey: string }) {
  const loop = useEditor((s) => s.runState.loops[loopKey]);
  const focus = useEditor((s) => s.iterationFocus);
  const store = useEditorStore();
  if (!loop || loop.iterations.length === 0) return null;
  return (
    <div className="iter-strip nodrag" role="group" aria-label={`Iterations of ${loopKey}`} data-testid={`iterations-${loopKey}`}>
      {loop.iterations.map((it) => {
        const v = it.verdict;
        const active = focus?.loop === loopKey && focus.iteration === it.iteration;
        const time = it.durationMs !== undefined ? formatMs(it.durationMs) : undefined;
        // The colour tells the status at a glance; the glyph and the words tell it to everyone.
        const words = iterationWords({ n: ordinal(it.iteration), kind: iterationKind(loop.loopType), status: it.status, item: it.item, time, verdict: v });
        return (
          <button
            key={it.iteration}
            className={`iter-cell iter-${it.status}${active ? ' active' : ''}`}
            title={words}
            aria-current={active ? 'true' : undefined}
            data-testid="iteration-cell"
            data-status={it.status}
            onClick={(e) => {
              e.stopPropagation();
              store.getState().focusIteration({ loop: loopKey, iteration: it.iteration });
            }}
          >
            <span className="iter-n" aria-hidden="true">
              {ordinal(it.iteration)}
            </span>
            <span className="iter-verdict" aria-hidden="true">
              {iterationGlyph(it.status, v)}
            </span>
            {time !== undefined && (
              <span className="iter-time" aria-hidden="true">
                {time}
              </span>
            )}
            <VisuallyHidden>{words}</VisuallyHidden>
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
