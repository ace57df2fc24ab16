import { describe, expect, it } from 'vitest';
import type { Run } from '../api/types';
import { breakReasonLabel, elapsedMs, formatIterationId, idWords, iterationKind, iterationName, iterationTitle, ordinal, pausedTime, plural, pointWords, resumeWords, shortId, shownStatus, stepPlace } from './labels';
import { emptyRun, reduceEvents } from './reduce';
import { runEvent } from './testEvents';

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
  const end = runEvent('workflow_end', { seq: 9, data: { status: 'failed', reason: 'budget: max_tokens' } });

  it('takes workflow_end at once when the record still says running', () => {
    const state = reduceEvents(emptyRun(), [end]);
    expect(shownStatus({ status: 'running', reason: '' }, state)).toEqual({ status: 'failed', reason: 'budget: max_tokens' });
  });

  it('lets a final run record win over workflow_end', () => {
    const state = reduceEvents(emptyRun(), [end]);
    expect(shownStatus({ status: 'cancelled', reason: 'stopped' }, state)).toEqual({ status: 'cancelled', reason: 'stopped' });
  });

  it("reads the record's empty reason as none: workflow_end's reason shows", () => {
    const state = reduceEvents(emptyRun(), [end]);
    expect(shownStatus({ status: 'failed', reason: '' }, state)).toEqual({ status: 'failed', reason: 'budget: max_tokens' });
  });

  it('follows the record while the run goes on', () => {
    expect(shownStatus({ status: 'paused', reason: '' }, emptyRun())).toEqual({ status: 'paused', reason: null });
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

  it('leaves the pauses out of a finished run too, so the clock does not jump at the end', () => {
    expect(elapsedMs(1000, 9000, 20000, null, 3000)).toBe(5000);
    // Stopped while paused: the end wins over the pause.
    expect(elapsedMs(1000, 9000, 20000, 6000, 3000)).toBe(5000);
  });
});

describe('pausedTime', () => {
  const started = Date.parse('2026-11-23T10:00:00Z');
  const at = (s: number) => new Date(started + s * 1000).toISOString();
  const nothingSeen = { at: null, total: 0 };

  it('takes a page opened mid-pause from the record: frozen at paused_at, earlier pauses left out', () => {
    // Ran 10 s, paused 5 s, ran 20 s more, paused since then; the page opens 2 minutes later.
    const run = { paused_at: at(35), paused_ms: 5000 };
    const openedAt = started + 155_000;
    const seenHere = { at: openedAt, total: 0 }; // what this view saw: the pause starting as the page opened
    const pause = pausedTime(run, seenHere);
    expect(pause).toEqual({ at: started + 35_000, total: 5000 });
    expect(elapsedMs(started, null, openedAt, pause.at, pause.total)).toBe(30_000);
    expect(elapsedMs(started, null, openedAt + 2000, pause.at, pause.total)).toBe(30_000);
  });

  it('after a resume, counts only the time at work', () => {
    const pause = pausedTime({ paused_at: null, paused_ms: 125_000 }, nothingSeen);
    expect(pause).toEqual({ at: null, total: 125_000 });
    expect(elapsedMs(started, null, started + 160_000, pause.at, pause.total)).toBe(35_000);
  });

  it('a finished run leaves its pauses out', () => {
    const pause = pausedTime({ paused_at: null, paused_ms: 4000 }, { at: null, total: 1000 });
    expect(elapsedMs(started, started + 14_000, started + 99_000, pause.at, pause.total)).toBe(10_000);
  });

  it('falls back to what the view saw when the record has no paused fields (an older server), or there is no record', () => {
    const seen = { at: started + 7000, total: 2000 };
    // Today's server always sends them (RunOut): a record without them is an older one's.
    expect(pausedTime({} as Pick<Run, 'paused_at' | 'paused_ms'>, seen)).toBe(seen);
    expect(pausedTime(null, seen)).toBe(seen);
  });

  it('reads an unparsable paused_at as not paused rather than a broken clock', () => {
    expect(pausedTime({ paused_at: 'soon', paused_ms: 0 }, nothingSeen)).toEqual({ at: null, total: 0 });
  });
});

describe('shortId', () => {
  it('keeps the first block of a UUID, and any other id whole', () => {
    expect(shortId('5a730041-1f2e-4d3c-9b8a-0123456789ab')).toBe('#5a730041');
    expect(shortId('42')).toBe('#42');
  });
});

describe('the numbering rule', () => {
  it('says rounds and items from 1 and writes ids as the format does, from 0', () => {
    expect(iterationName('round', 2)).toBe('round 3');
    expect(iterationName('item', 4301)).toBe('item 4302');
    expect(iterationTitle('item', 0)).toBe('Item 1');
    expect(formatIterationId('write', 2, 'round')).toBe('write.2');
    expect(formatIterationId('each', 4301, 'item')).toBe('each[4301]');
    expect(iterationKind('forEach')).toBe('item');
    expect(iterationKind('repeat-until')).toBe('round');
  });

  it('places a step by its where, and by its id alone', () => {
    expect(stepPlace('rounds.10.draft', { loop: 'rounds', iteration: 10, inner: 'draft' })).toBe('draft in round 11 of rounds');
    expect(stepPlace('write.2.untilAgent', { loop: 'write', iteration: 2, inner: 'untilAgent' })).toBe('the judge of round 3 of write');
    expect(stepPlace('each[4301]', { loop: 'each', item: 4301 })).toBe('item 4302 of each');
    expect(stepPlace('deploy.build', { include: 'deploy', inner: 'build' })).toBe('build in deploy');
    expect(stepPlace('plan', null)).toBe('plan');
    expect(idWords('write.2.draft')).toBe('step draft of round 3 of write');
    expect(idWords('plan')).toBe('step plan');
  });

  it('says where a fork or a resume is, and why a run resumed', () => {
    expect(pointWords({ step: 'write', iteration: 3, kind: 'round' })).toBe('round 4 of write');
    expect(pointWords({ step: 'each', iteration: 1, kind: 'item' })).toBe('item 2 of each');
    expect(pointWords({ step: 'dev.2.draft', kind: 'step' })).toBe('step draft of round 3 of dev');
    expect(pointWords(null)).toBe('its start');
    expect(resumeWords({ reason: 'worker lost', attempt: 1, of: 3, after: { step: 'write', iteration: 2, kind: 'round' } })).toBe(
      'resumed after round 3 of write: worker lost (resume 1 of 3)',
    );
  });
});
