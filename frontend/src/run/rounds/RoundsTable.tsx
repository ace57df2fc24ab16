import { useState } from 'react';
import type { LoopSeries, Metric } from './roundSeries';
import { markCounts, pointRounds, pointValue } from './roundWords';

/**
 * The chart's points as a table, for screen readers and anyone who wants the numbers: one row per
 * point (so at most MAX_POINTS rows, whatever the loop's size). Rows are drawn only while open.
 */
export function RoundsTable({ loopKey, series, metric, xWord }: { loopKey: string; series: LoopSeries; metric: Metric; xWord: string }) {
  const [open, setOpen] = useState(false);
  const bucketed = series.bucket > 1;
  return (
    <details className="rounds-table" onToggle={(e) => setOpen(e.currentTarget.open)} data-testid={`rounds-table-${loopKey}`}>
      <summary>Show as table</summary>
      {open && (
        <table className="table compact">
          <caption className="sr-only">
            {metric.label} per {bucketed ? `group of ${series.bucket} ${xWord.toLowerCase()}s` : xWord.toLowerCase()} of loop {loopKey}
          </caption>
          <thead>
            <tr>
              <th scope="col">{bucketed ? `${xWord}s` : xWord}</th>
              <th scope="col">{bucketed ? `${metric.label}: mean (min to max)` : metric.label}</th>
              <th scope="col">Judge</th>
            </tr>
          </thead>
          <tbody>
            {series.points.map((p) => (
              <tr key={p.from} data-testid="rounds-row" data-rounds={p.rounds}>
                <th scope="row">{pointRounds(p, xWord)}</th>
                <td data-testid="rounds-value">{pointValue(metric, p, bucketed)}</td>
                <td data-testid="rounds-marks">{markCounts(p, bucketed)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </details>
  );
}
