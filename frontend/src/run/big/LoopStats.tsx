import { formatMs } from '../reduce';
import type { ViewLoop } from '../view/merge';
import { ITEM_STATUSES, statusWord, type LoopCounts } from './bigLabels';
import { eta, overallRate, rateText } from './throughput';
import { useRate } from './useRate';

export interface LoopStatsProps {
  loop: ViewLoop;
  counts: LoopCounts;
  /** The run is still going. */
  active: boolean;
  paused: boolean;
  word?: string;
  /** Throughput and ETA: a repeat-until has no known end to estimate. */
  pace?: boolean;
}

/** A loop's counts by status (the grid's legend), how fast items finish, and when the rest should be done. */
export function LoopStats({ loop, counts, active, paused, word = 'item', pace = true }: LoopStatsProps) {
  return (
    <div className="loop-stats">
      <ul className="big-legend" aria-label={`${word}s by status`}>
        {ITEM_STATUSES.filter((s) => counts[s] > 0 || s === 'completed' || s === 'failed' || s === 'queued').map((s) => (
          <li key={s} data-testid={`count-${s}`} data-count={counts[s]}>
            <span className={`swatch swatch-${s}`} aria-hidden="true" />
            {statusWord(s, !active)} <strong>{counts[s].toLocaleString()}</strong>
          </li>
        ))}
      </ul>
      <p className="loop-pace small">
        {pace && <LoopPace loop={loop} counts={counts} active={active} paused={paused} word={word} />}
        <span data-testid="loop-running">{counts.running.toLocaleString()} running</span>
        {loop.tokens > 0 && (
          <>
            <span className="muted"> · </span>
            <span>{loop.tokens.toLocaleString()} tokens</span>
          </>
        )}
      </p>
    </div>
  );
}

/** Throughput (over the last ten seconds; over the whole loop once it ended) and the time left at that pace. */
function LoopPace({ loop, counts, active, paused, word }: Required<Omit<LoopStatsProps, 'pace'>>) {
  const ended = !!loop.ended || !active;
  const liveRate = useRate(counts.done, !ended && !paused);
  const rate = ended ? overallRate(counts.done, loop.started, loop.ended) : liveRate;
  const seconds = ended ? null : eta(counts.total - counts.done, rate);
  const etaText = loop.ended
    ? 'done'
    : ended
      ? '—'
      : paused
        ? 'paused'
        : seconds === null
          ? 'measuring…'
          : seconds === 0
            ? 'any moment'
            : `≈ ${formatMs(seconds * 1000)} left`;
  const over = ended ? 'over the whole loop' : 'over the last ten seconds';
  return (
    <>
      <span data-testid="loop-throughput" data-per-second={rate ?? ''} title={`${word}s finished a second, ${over}`}>
        {rate === null ? (ended ? '—' : 'measuring…') : `${rateText(rate)}${ended ? ' on average' : ''}`}
      </span>
      <span className="muted"> · </span>
      <span data-testid="loop-eta" data-seconds={seconds === null ? '' : Math.round(seconds)}>
        {etaText}
      </span>
      <span className="muted"> · </span>
    </>
  );
}
