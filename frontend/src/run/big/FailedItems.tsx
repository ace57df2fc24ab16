import { memo } from 'react';
import { formatIterationId, iterationName } from '../labels';
import type { LoopFailure } from '../view/merge';

/** The failed items first, each a button that shows it; the view keeps the first hundred. */
export const FailedItems = memo(function FailedItems({ loopId, failed, count, onSelect }: { loopId: string; failed: LoopFailure[]; count: number; onSelect(index: number): void }) {
  if (!failed.length) return null;
  return (
    <div className="failed-block">
      <h4 className="side-title">Failed items</h4>
      <ul className="failed-items">
        {failed.map((f) => (
          <li key={f.index}>
            <button className="failed-item" data-testid="failed-item" data-index={f.index} onClick={() => onSelect(f.index)}>
              <span className="failed-n">
                {iterationName('item', f.index)} <span className="mono muted small">{formatIterationId(loopId, f.index, 'item')}</span>
              </span>
              <span className="failed-error">{f.error || f.status}</span>
            </button>
          </li>
        ))}
      </ul>
      {count > failed.length && <p className="muted small">and {(count - failed.length).toLocaleString()} more, in the grid</p>}
    </div>
  );
});
