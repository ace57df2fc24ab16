import type { Mark } from './roundRecords';
import { MARKS, type LoopSeries } from './roundSeries';
import { MARK_SYMBOLS, MARK_WORDS } from './roundWords';

/** What the marks above the plot mean, in words beside their shapes. */
export function RoundsLegend({ series }: { series: LoopSeries }) {
  const total: Record<Mark, number> = { pass: 0, fail: 0, error: 0 };
  for (const p of series.points) for (const m of MARKS) total[m] += p.marks[m];
  return (
    <ul className="rounds-legend" data-testid="rounds-legend" aria-label="Marks above the chart">
      {MARKS.map((m) => (
        <li key={m} className={`rounds-mark rounds-mark-${m}`}>
          <span className="rounds-mark-shape" aria-hidden="true">
            {MARK_SYMBOLS[m]}
          </span>{' '}
          {MARK_WORDS[m]} <span className="muted">({total[m].toLocaleString('en-US')})</span>
        </li>
      ))}
    </ul>
  );
}
