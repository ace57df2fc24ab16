import { describe, expect, it } from 'vitest';
import { breakReasonLabel, elapsedMs, ordinal, plural, shortId, shownStatus } from './labels';
import { emptyRun, reduceEvents } from './reduce';
import type { RunEvent } from '../api/types';

describe('labels', () => {
  it('shows iterations 1-based', () => {
    expect(ordinal(0)).toBe(1);
    expect(ordinal(4)).toBe(5);
  });

  it('pluralises', () => {
    expect(plural(1, 'iteration')).toBe('1 iteration');
    expect(plural(0, 'iteration')).toBe('0 iterations');
    expect(plural(3, 'iteration')).toBe('3 iterations');
  });

  it('maps every engine break reason to plain words and keeps unknown ones', () => {
    expect(breakReasonLabel('items_exhausted')).toBe('all items done');
    expect(breakReasonLabel('until')).toBe('until condition met');
    expect(breakReasonLabel('judge')).toBe('judge said done');
    expect(breakReasonLabel('untilAgent')).toBe('judge said done');
    expect(breakReasonLabel('max_iterations')).toBe('reached max iterations');
    expect(breakReasonLabel('stopped')).toBe('stopped by request');
    expect(breakReasonLabel('policy')).not.toBe('policy');
    expect(breakReasonLabel('failed')).not.toBe('failed');
    expect(breakReasonLabel('something_new')).toBe('something_new');
    expect(breakReasonLabel('toString')).toBe('toString');
    expect(breakReasonLabel(null)).toBe('ended');
  });
});

describe('shownStatus', () => {
  const end: RunEvent = { type: 'workflow_end', seq: 9, data: { status: 'failed', reason: 'budget: max_tokens' } } as RunEvent;

  it('takes workflow_end at once when the record still says running', () => {
    const state = reduceEvents(emptyRun(), [end]);
    expect(shownStatus({ status: 'running', reason: null }, state)).toEqual({ status: 'failed', reason: 'budget: max_tokens' });
  });

  it('lets a final run record win over workflow_end', () => {
    const state = reduceEvents(emptyRun(), [end]);
    expect(shownStatus({ status: 'cancelled', reason: 'stopped' }, state)).toEqual({ status: 'cancelled', reason: 'stopped' });
  });

  it('follows the record while the run goes on', () => {
    expect(shownStatus({ status: 'paused', reason: null }, emptyRun())).toEqual({ status: 'paused', reason: null });
    expect(shownStatus(null, emptyRun())).toEqual({ status: undefined, reason: null });
  });
});

describe('elapsedMs', () => {
  it('stops the clock while paused and leaves paused time out after', () => {
    expect(elapsedMs(1000, null, 5000, null, 0)).toBe(4000);
    expect(elapsedMs(1000, null, 9000, 5000, 0)).toBe(4000);
    expect(elapsedMs(1000, null, 9000, null, 3000)).toBe(5000);
    expect(elapsedMs(1000, 4000, 9000, null, 0)).toBe(3000);
    expect(elapsedMs(null, null, 9000, null, 0)).toBeNull();
  });
});

describe('shortId', () => {
  it('keeps the first block of a UUID, and any other id whole', () => {
    expect(shortId('5a730041-1f2e-4d3c-9b8a-0123456789ab')).toBe('#5a730041');
    expect(shortId('42')).toBe('#42');
  });
});
