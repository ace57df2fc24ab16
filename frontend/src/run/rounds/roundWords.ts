// How the rounds chart's facts read on screen: marks in words and shapes (never colour alone),
// values with their units, a point's rounds.
import type { Mark } from './roundRecords';
import { COST, MARKS, TIME, TOKENS, type Metric, type Point } from './roundSeries';

export const MARK_WORDS: Record<Mark, string> = {
  pass: 'judge said done',
  fail: 'judge said not done',
  error: 'judge failed open, or the round failed',
};

/** Short words for a table cell. */
const MARK_SHORT: Record<Mark, string> = { pass: 'done', fail: 'not done', error: 'error' };

/** The shape each mark is drawn with, and shown with in the legend. */
export const MARK_SHAPES: Record<Mark, 'triangle' | 'circle' | 'cross'> = { pass: 'triangle', fail: 'circle', error: 'cross' };
export const MARK_SYMBOLS: Record<Mark, string> = { pass: '▲', fail: '●', error: '✕' };

export function formatValue(metric: Metric, v: number | null | undefined): string {
  if (v === null || v === undefined) return '—';
  if (metric.key === TIME.key) return `${v < 10 ? v.toFixed(2) : v.toFixed(1)} s`;
  if (metric.key === TOKENS.key) return Math.round(v).toLocaleString('en-US');
  if (metric.key === COST.key) return `$${v.toFixed(v < 0.01 ? 6 : 4)}`;
  return Number.isInteger(v) ? String(v) : String(Number(v.toPrecision(4)));
}

/** "Round 3", or "Rounds 21–40" for a bucket; a forEach's are "Item 3", "Items 21–40". */
export function pointRounds(p: Point, word = 'Round'): string {
  return p.from === p.to ? `${word} ${p.from.toLocaleString('en-US')}` : `${word}s ${p.from.toLocaleString('en-US')}–${p.to.toLocaleString('en-US')}`;
}

/** "2 done, 1 not done" ('' when the judge said nothing on these rounds). */
export function markCounts(p: Point, bucketed: boolean): string {
  const parts: string[] = [];
  for (const m of MARKS) {
    const n = p.marks[m];
    if (!n) continue;
    parts.push(bucketed ? `${n.toLocaleString('en-US')} ${MARK_SHORT[m]}` : MARK_SHORT[m]);
  }
  return parts.join(', ');
}

/** A point's value: the mean, and its range when the point is a bucket of rounds. */
export function pointValue(metric: Metric, p: Point, bucketed: boolean): string {
  const mean = formatValue(metric, p.mean[metric.key]);
  if (!bucketed || p.mean[metric.key] === null) return mean;
  return `${mean} (${formatValue(metric, p.min[metric.key])} to ${formatValue(metric, p.max[metric.key])})`;
}
