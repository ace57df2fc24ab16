import { memo, useCallback, useMemo, useState } from 'react';
import { breakReasonLabel, plural } from '../labels';
import type { ViewLoop, ViewRounds } from '../view/merge';
import { countsText, loopCounts } from './bigLabels';
import { BigRoundsChart } from './BigRoundsChart';
import { FailedItems } from './FailedItems';
import { ItemDetails } from './ItemDetails';
import { ItemGrid } from './ItemGrid';
import { LoopStats } from './LoopStats';
import { LoopTail } from './LoopTail';

export interface LoopProps {
  runId: string;
  loop: ViewLoop;
  /** One status letter per item or round. */
  letters: string;
  /** Its rounds in buckets, for the chart (absent in views stored before the chart). */
  rounds?: ViewRounds;
  /** The run is going (not finished) and not paused. */
  active: boolean;
  paused: boolean;
}

/**
 * A forEach (or a loop nested in an iteration, whose kind the view was not told): its counts and
 * pace, the failed items, every item on one canvas, and the chosen item's details.
 */
export const ForEachLoop = memo(function ForEachLoop({ runId, loop, letters, rounds, active, paused }: LoopProps) {
  const counts = useMemo(() => loopCounts(loop, letters.length), [loop, letters.length]);
  const [cursor, setCursor] = useState<number | null>(null);
  const [opened, setOpened] = useState<number | null>(null);
  const choose = useCallback((index: number) => {
    setCursor(index);
    setOpened(index);
  }, []);
  const failure = opened !== null ? loop.failed.find((f) => f.index === opened) : undefined;
  const shownOpen = opened !== null && opened < letters.length ? opened : null;
  return (
    <section className="big-loop" aria-label={`Loop ${loop.id}`} data-testid={`big-loop-${loop.id}`}>
      <h3 className="big-loop-title">
        Loop {loop.id}{' '}
        <span className="muted small">
          · {loop.type || 'loop'} · {plural(counts.total, loop.type === 'repeat-until' ? 'round' : 'item')}
          {loop.ended ? ` · ${breakReasonLabel(loop.break_reason)}` : ''}
        </span>
      </h3>
      <LoopStats loop={loop} counts={counts} active={active} paused={paused} />
      <FailedItems loopId={loop.id} failed={loop.failed} count={counts.failed} onSelect={choose} />
      <ItemGrid
        loopId={loop.id}
        letters={letters}
        summary={countsText(counts, 'item', !active)}
        counts={loop.counts}
        cursor={cursor}
        onCursor={setCursor}
        onOpen={setOpened}
        ended={!active}
      />
      {shownOpen !== null && (
        <ItemDetails
          runId={runId}
          loopId={loop.id}
          at={{ index: shownOpen }}
          letter={letters[shownOpen]}
          error={failure?.error}
          onClose={() => setOpened(null)}
          ended={!active}
        />
      )}
      <BigRoundsChart loopId={loop.id} rounds={rounds} xWord="Item" />
      <LoopTail loopId={loop.id} output={loop.output} truncated={loop.output_truncated} />
    </section>
  );
});
