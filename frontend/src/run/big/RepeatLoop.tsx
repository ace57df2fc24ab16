import { memo, useMemo, useState } from 'react';
import { breakReasonLabel, plural } from '../labels';
import { loopCounts } from './bigLabels';
import { BigRoundsChart } from './BigRoundsChart';
import type { LoopProps } from './ForEachLoop';
import { ItemDetails } from './ItemDetails';
import { LoopStats } from './LoopStats';
import { LoopTail } from './LoopTail';
import { RoundStrip } from './RoundStrip';
import { stripAround, type StripPos } from './stripWindow';

/** A repeat-until: its rounds as a windowed strip with the judge's verdicts, and the chosen round's details. */
export const RepeatLoop = memo(function RepeatLoop({ runId, loop, letters, rounds: buckets, active, paused }: LoopProps) {
  // Rounds so far, not the max iterations: a loop that stops early never runs the rest.
  const counts = useMemo(() => loopCounts({ ...loop, total: letters.length }, letters.length), [loop, letters.length]);
  const [pos, setPos] = useState<StripPos>('end');
  const [opened, setOpened] = useState<number | null>(null);
  const select = (n: number) => {
    setOpened(n);
    setPos(stripAround(letters.length, pos, n));
  };
  const verdict = opened !== null ? loop.verdicts.find((v) => v.iteration === opened) : undefined;
  const failure = opened !== null ? loop.failed.find((f) => f.index === opened) : undefined;
  const rounds = loop.rounds_completed ?? counts.done;
  return (
    <section className="big-loop" aria-label={`Loop ${loop.id}`} data-testid={`big-loop-${loop.id}`}>
      <h3 className="big-loop-title">
        Loop {loop.id}{' '}
        <span className="muted small">
          · repeat-until · {plural(rounds, 'round')}
          {loop.total ? ` of at most ${loop.total.toLocaleString()}` : ''}
          {loop.ended ? ` · ${breakReasonLabel(loop.break_reason)}` : ''}
        </span>
      </h3>
      <LoopStats loop={loop} counts={counts} active={active} paused={paused} word="round" pace={false} />
      <RoundStrip loopId={loop.id} letters={letters} verdicts={loop.verdicts} pos={pos} onPos={setPos} selected={opened} onSelect={select} />
      {opened !== null && (
        <ItemDetails
          runId={runId}
          loopId={loop.id}
          at={{ iteration: opened }}
          letter={letters[opened]}
          error={failure?.error}
          verdict={verdict}
          onClose={() => setOpened(null)}
        />
      )}
      <BigRoundsChart loopId={loop.id} rounds={buckets} xWord="Round" />
      <LoopTail loopId={loop.id} output={loop.output} truncated={loop.output_truncated} />
    </section>
  );
});
