// The big-run page's series: the server's buckets (runtime/live/view/rounds.py) read as the same points the
// run page's own rounds make, so one chart, legend and table draw both.
import { describe, expect, it } from 'vitest';
import type { ViewRounds } from '../view/merge';
import { chartColumns, COST, seriesOfBuckets, TIME, TOKENS } from './roundSeries';
import { markCounts, pointRounds, pointValue } from './roundWords';

const rounds: ViewRounds = {
  width: 32,
  span: 10_000,
  fields: [
    { source: 'judge', path: ['score'] },
    { source: 'result', path: ['a', 'b'] },
  ],
  buckets: {
    // Out of order and with string keys, as JSON brings them.
    '312': { n: 16, status: { completed: 15, failed: 1 }, tokens: 160, time: [16, 32_000, 1000, 3000] },
    '0': {
      n: 32,
      status: { completed: 32 },
      verdicts: { done: 2, not_done: 29, failed_open: 1 },
      tokens: 640,
      cost: 0.064,
      time: [32, 64_000, 500, 4000],
      fields: { '0': [31, 15.5, 0, 1] },
    },
    '5': { n: 0, status: {}, tokens: 12 },
  },
};

describe('seriesOfBuckets', () => {
  const series = seriesOfBuckets(rounds);

  it('makes one point per bucket with finished rounds, in order, numbered from 1', () => {
    expect(series.bucket).toBe(32);
    expect(series.points.map((p) => [p.from, p.to, p.rounds])).toEqual([
      [1, 32, 32],
      [9985, 10_000, 16],
    ]);
    expect(series.rounds).toBe(48);
    expect(pointRounds(series.points[1], 'Item')).toBe('Items 9,985–10,000');
  });

  it('reads time in seconds with its range, tokens and cost as means per round', () => {
    const [first] = series.points;
    expect([first.min[TIME.key], first.mean[TIME.key], first.max[TIME.key]]).toEqual([0.5, 2, 4]);
    expect(first.mean[TOKENS.key]).toBe(20);
    expect(first.max[TOKENS.key]).toBeNull();
    expect(first.mean[COST.key]).toBeCloseTo(0.002);
    expect(series.points[1].mean[COST.key]).toBeNull();
    expect(series.present.has(COST.key)).toBe(true);
    expect(pointValue(TIME, first, true)).toBe('2.00 s (0.50 s to 4.00 s)');
  });

  it('names the fields as the run page does, and plots them where a bucket has them', () => {
    expect(series.metrics.map((m) => m.label)).toEqual(['Time', 'Tokens', 'Cost', 'Judge: score', 'Result: a.b']);
    const score = series.fields[0];
    expect(series.points[0].mean[score.key]).toBe(0.5);
    expect(series.points[1].mean[score.key]).toBeNull();
    expect(series.present.has(series.fields[1].key)).toBe(false);
    expect(chartColumns(series, score)).toEqual([
      [1, 9985],
      [0.5, null],
      [0, null],
      [1, null],
    ]);
  });

  it("counts the judge's verdicts and the failed rounds as marks", () => {
    expect(series.points.map((p) => p.marks)).toEqual([
      { pass: 2, fail: 29, error: 1 },
      { pass: 0, fail: 0, error: 1 },
    ]);
    expect(markCounts(series.points[0], true)).toBe('2 done, 29 not done, 1 error');
  });

  it('draws nothing for a loop with no finished round, and survives a bad width', () => {
    expect(seriesOfBuckets({ width: 1, span: 0, fields: [], buckets: {} }).points).toEqual([]);
    const odd = seriesOfBuckets({ width: 0, span: 3, fields: [], buckets: { '2': { n: 1, status: { completed: 1 }, tokens: 5 } } });
    expect(odd.points.map((p) => [p.from, p.to])).toEqual([[3, 3]]);
  });
});
