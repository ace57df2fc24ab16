import { describe, expect, it } from 'vitest';
import { breakpointFor, breakpointWords, marginWords, stepBreakpoint, withBreakpoint } from './rules';

describe('breakpointFor', () => {
  it('holds a repeat-until before a round, a forEach before an item, a step before itself', () => {
    expect(breakpointFor('write', 'repeat', 3)).toEqual({ id: 'at-write', kind: 'round', step: 'write', round: 3 });
    expect(breakpointFor('each', 'forEach', 0)).toEqual({ id: 'at-each', kind: 'round', step: 'each', item: 0 });
    expect(breakpointFor('review', 'step', null)).toEqual({ id: 'at-review', kind: 'step', step: 'review' });
  });
});

describe('withBreakpoint', () => {
  const list = [
    { id: 'at-a', kind: 'step', step: 'a' },
    { id: 'bp2', kind: 'tool', tool: 'bash' },
  ];
  it('adds at the end, replaces in place, and takes out by id, leaving the others as they were', () => {
    expect(withBreakpoint(list, 'at-b', { id: 'at-b', kind: 'step', step: 'b' }).map((b) => b.id)).toEqual(['at-a', 'bp2', 'at-b']);
    expect(withBreakpoint(list, 'at-a', { id: 'at-a', kind: 'step', step: 'a', round: 1 })[0]).toEqual({ id: 'at-a', kind: 'step', step: 'a', round: 1 });
    expect(withBreakpoint(list, 'at-a', null)).toEqual([list[1]]);
    expect(list).toHaveLength(2);
  });
  it('finds a step’s own breakpoint by its id, whatever else is set on the step', () => {
    expect(stepBreakpoint([{ id: 'run-1', kind: 'step', step: 'a' }, ...list], 'a')).toBe(list[0]);
    expect(stepBreakpoint(null, 'a')).toBeNull();
  });
});

describe('breakpointWords', () => {
  it('words each kind as the page words rounds and items, the 0-based id beside', () => {
    expect(breakpointWords({ kind: 'round', step: 'write', round: 2 })).toBe('before round 3 of write (write.2)');
    expect(breakpointWords({ kind: 'round', step: 'each', item: 0 })).toBe('before item 1 of each (each[0])');
    expect(breakpointWords({ kind: 'round', step: 'write' })).toBe('before each round of write');
    expect(breakpointWords({ kind: 'step', step: 'review', round: 1 })).toBe('before step review in round 2');
    expect(breakpointWords({ kind: 'judge', step: 'dev', done: true })).toBe('when the judge of dev says done');
    expect(breakpointWords({ kind: 'condition', condition: "steps.review.content.contains('TODO')" })).toBe(
      "when steps.review.content.contains('TODO') holds",
    );
    expect(breakpointWords({ kind: 'tool', tool: 'bash' })).toBe('before a call of bash');
  });
});

describe('marginWords', () => {
  it('says what the dot holds before and what a click does, or that the role cannot change it', () => {
    const set = breakpointFor('review', 'step', null);
    expect(marginWords('review', 'step', set, true)).toBe('Breakpoint before step review: click to remove');
    expect(marginWords('review', 'step', set, false)).toBe('Breakpoint before step review: your role cannot change breakpoints');
    expect(marginWords('review', 'step', null, true)).toBe('Set a breakpoint before step review');
    expect(marginWords('write', 'repeat', null, true)).toBe('Set a breakpoint before each round of write');
    expect(marginWords('each', 'forEach', null, true)).toBe('Set a breakpoint before each item of each');
    expect(marginWords('write', 'repeat', breakpointFor('write', 'repeat', 2), true)).toBe('Breakpoint before round 3 of write (write.2): click to remove');
  });
});
