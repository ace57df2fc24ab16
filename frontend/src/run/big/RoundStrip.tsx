import { useMemo } from 'react';
import { formatIterationId, iterationTitle, ordinal } from '../labels';
import type { LoopVerdict } from '../view/merge';
import { letterStatus } from './bigLabels';
import { stripStep, stripWindow, type StripPos } from './stripWindow';

function verdictWords(v: LoopVerdict | undefined): string {
  if (!v) return '';
  const said = v.failed_open ? 'judge failed open' : v.done ? 'judge said done' : 'judge said not done';
  return ` · ${said}${v.reason ? ` — ${v.reason}` : ''}`;
}

export interface RoundStripProps {
  loopId: string;
  letters: string;
  verdicts: LoopVerdict[];
  pos: StripPos;
  onPos(pos: StripPos): void;
  selected: number | null;
  onSelect(round: number): void;
}

/** A repeat-until's rounds, a window of them at a time (a loop can run thousands); the window follows the last round until moved. */
export function RoundStrip({ loopId, letters, verdicts, pos, onPos, selected, onSelect }: RoundStripProps) {
  const count = letters.length;
  const win = stripWindow(count, pos);
  const byRound = useMemo(() => new Map(verdicts.filter((v) => v.iteration !== null).map((v) => [v.iteration as number, v])), [verdicts]);
  const rounds: number[] = [];
  for (let n = win.start; n < win.end; n++) rounds.push(n);
  const range = count ? `Rounds ${ordinal(win.start).toLocaleString()}–${win.end.toLocaleString()} of ${count.toLocaleString()}` : 'No rounds yet';
  return (
    <div className="round-strip" data-testid={`round-strip-${loopId}`} data-start={win.start} data-end={win.end} data-rounds={count}>
      <div className="round-strip-nav">
        <button className="btn ghost small" disabled={win.atStart} onClick={() => onPos(stripStep(count, pos, -1))} data-testid="strip-prev" aria-label="Earlier rounds">
          ‹ Earlier
        </button>
        <span className="muted small" aria-live="polite">
          {range}
        </span>
        <button className="btn ghost small" disabled={win.atEnd} onClick={() => onPos(stripStep(count, pos, 1))} data-testid="strip-next" aria-label="Later rounds">
          Later ›
        </button>
        <button className="btn ghost small" disabled={pos === 'end'} onClick={() => onPos('end')} data-testid="strip-last" title="Show the last rounds, and follow new ones">
          Last »
        </button>
      </div>
      <div className="iter-strip round-cells" role="group" aria-label={range}>
        {rounds.map((n) => {
          const status = letterStatus(letters[n]);
          const words = `${iterationTitle('round', n)} (${formatIterationId(loopId, n, 'round')}): ${status}${verdictWords(byRound.get(n))}`;
          return (
            <button
              key={n}
              className={`iter-cell iter-${status}${selected === n ? ' active' : ''}`}
              title={words}
              aria-label={words}
              aria-pressed={selected === n}
              data-testid="round-cell"
              data-iteration={n}
              data-status={status}
              onClick={() => onSelect(n)}
            >
              <span className="iter-n">{ordinal(n)}</span>
            </button>
          );
        })}
      </div>
    </div>
  );
}
