// A big run's loop as a chart of its rounds: the server keeps them in at most 500 buckets
// (runtime/live/view/rounds.py), so a forEach of 10,000 items draws at most 500 points. The chart, its
// metric picker, legend and table are the run page's own (run/rounds).
import { useMemo } from 'react';
import { SeriesChart } from '../rounds/RoundsChart';
import { seriesOfBuckets } from '../rounds/roundSeries';
import { useFrameValue } from '../rounds/useFrameValue';
import type { ViewRounds } from '../view/merge';

/** Patches come ten times a second; the chart follows four times a second, which reads as live. */
const REDRAW_MS = 250;

export function BigRoundsChart({ loopId, rounds, xWord }: { loopId: string; rounds: ViewRounds | undefined; xWord: 'Item' | 'Round' }) {
  const shown = useFrameValue(rounds, REDRAW_MS);
  const series = useMemo(() => (shown ? seriesOfBuckets(shown) : null), [shown]);
  if (!series || !series.points.length) {
    return (
      <p className="muted small" data-testid={`rounds-waiting-${loopId}`}>
        {rounds
          ? `The chart of this loop's ${xWord.toLowerCase()}s appears once the first one finishes.`
          : 'This run was stored before run pages kept a chart of their rounds; open it with ?raw=1 for its chart.'}
      </p>
    );
  }
  return <SeriesChart loopKey={loopId} series={series} xWord={xWord} />;
}
