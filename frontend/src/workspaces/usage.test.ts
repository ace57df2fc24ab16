import { describe, expect, it } from 'vitest';
import type { WorkspaceUsage } from '../api/types';
import { limitMessage, reserveLine, usageLine, usageParts, waitWords } from './usage';

const none = { limit: null, used: 0, left: null };
const reserve_without_budget = { max_tokens: 100000, max_cost_usd: 1 };

/** The server names every limit (a row without one: `none`); `set` are those that are set. */
const limits = (set: Partial<WorkspaceUsage['limits']>): WorkspaceUsage['limits'] => ({
  concurrent_runs: none,
  runs_per_day: none,
  tokens_per_day: none,
  cost_usd_per_day: none,
  ...set,
});

describe('the run dialog usage line', () => {
  it('names only the limits that are set', () => {
    const usage: WorkspaceUsage = {
      limits: {
        concurrent_runs: { limit: 3, used: 2, left: 1 },
        runs_per_day: { limit: 50, used: 40, left: 10 },
        tokens_per_day: { limit: 200000, used: 80000, left: 120000 },
        cost_usd_per_day: none,
      },
      resets_in_s: 5 * 3600 + 10 * 60,
      reserve_without_budget,
    };
    expect(usageLine(usage)).toBe('This workspace: 2 of 3 runs at once · 40 of 50 runs today · 120,000 tokens left today (resets in 5 h 10 min)');
  });

  it('says nothing when the workspace has no limits', () => {
    expect(usageLine({ limits: limits({}), resets_in_s: 100, reserve_without_budget })).toBeNull();
  });

  it('leaves out the reset when only runs at once are limited, and shows money in dollars', () => {
    expect(usageLine({ limits: limits({ concurrent_runs: { limit: 1, used: 0, left: 1 } }), resets_in_s: 999, reserve_without_budget })).toBe('This workspace: 0 of 1 runs at once');
    expect(usageLine({ limits: limits({ cost_usd_per_day: { limit: 5, used: 1.2, left: 3.8 } }), resets_in_s: 600, reserve_without_budget })).toBe(
      'This workspace: $3.80 left today (resets in 10 min)',
    );
  });

  it('marks what is used up', () => {
    const parts = usageParts({ limits: limits({ runs_per_day: { limit: 5, used: 5, left: 0 }, tokens_per_day: { limit: 10, used: 2, left: 8 } }), resets_in_s: 60, reserve_without_budget });
    expect(parts.map((p) => [p.key, p.exhausted])).toEqual([
      ['runs_per_day', true],
      ['tokens_per_day', false],
    ]);
  });
});

describe('what running runs hold of the day', () => {
  it('says what is held beside what is left', () => {
    const usage: WorkspaceUsage = {
      limits: limits({ tokens_per_day: { limit: 2000, used: 1000, reserved: 900, left: 100 }, cost_usd_per_day: { limit: 5, used: 1, reserved: 0.5, left: 3.5 } }),
      resets_in_s: 600,
      reserve_without_budget,
    };
    expect(usageLine(usage)).toBe('This workspace: 100 tokens left today (900 held by running runs) · $3.50 left today ($0.50 held by running runs) (resets in 10 min)');
    expect(reserveLine(usage)).toBe(
      'A run holds its token and cost budget of the day while it runs; without one, 100,000 tokens and $1.00 (at most what is left), and it stops there.',
    );
  });

  it('says nothing about holding without a daily token or cost limit', () => {
    expect(reserveLine({ limits: limits({ runs_per_day: { limit: 5, used: 1, left: 4 } }), resets_in_s: 60, reserve_without_budget })).toBeNull();
    expect(reserveLine({ limits: limits({ tokens_per_day: { limit: 10, used: 0, left: 10 } }), resets_in_s: 60, reserve_without_budget })).toBe(
      'A run holds its token budget of the day while it runs; without one, 100,000 tokens (at most what is left), and it stops there.',
    );
  });
});

describe('waits in words', () => {
  it('rounds up to the minute like the server', () => {
    expect(waitWords(5 * 3600 + 10 * 60)).toBe('5 h 10 min');
    expect(waitWords(5 * 3600 + 9 * 60 + 1)).toBe('5 h 10 min');
    expect(waitWords(3600)).toBe('1 h');
    expect(waitWords(3599)).toBe('1 h');
    expect(waitWords(125)).toBe('3 min');
    expect(waitWords(40)).toBe('40 s');
    expect(waitWords(0)).toBe('0 min');
  });

  it('turns a 429 into a sentence with the wait', () => {
    expect(limitMessage("this workspace's limit of 50 runs a day is used up; it resets at midnight UTC, in 2 h 5 min", 7500)).toBe(
      "This workspace's limit of 50 runs a day is used up; it resets at midnight UTC, in 2 h 5 min. You can start a run again in 2 h 5 min.",
    );
    expect(limitMessage('this workspace may have 1 run(s) at once and has 1: wait for one to finish or stop one', null)).toBe(
      'This workspace may have 1 run(s) at once and has 1: wait for one to finish or stop one.',
    );
  });
});
