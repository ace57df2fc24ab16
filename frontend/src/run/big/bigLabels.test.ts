import { describe, expect, it } from 'vitest';
import type { Run } from '../../api/types';
import type { ViewRun } from '../view/merge';
import { viewLoop as loop } from '../view/testLoops';
import { bigStatus, countsText, failedItemCount, letterStatus, loopCounts, statusWord } from './bigLabels';

const viewRun = (status: string, reason = ''): ViewRun => ({
  status,
  tokens: { prompt: 0, completion: 0, total: 0 },
  cost_usd: null,
  started: null,
  ended: null,
  reason,
  total_steps: null,
  paused: false,
  tools_running: 0,
});

describe('letterStatus', () => {
  it('reads every letter', () => {
    expect(['.', 'r', 'c', 'f', 's', 'x'].map(letterStatus)).toEqual(['queued', 'running', 'completed', 'failed', 'skipped', 'cancelled']);
    expect(letterStatus(undefined)).toBe('queued');
    expect(letterStatus('?')).toBe('queued');
  });
});

describe('loopCounts', () => {
  it('counts the queued as what is neither done nor running', () => {
    const c = loopCounts(loop({ counts: { completed: 60, failed: 2 }, running_count: 8 }), 100);
    expect(c).toMatchObject({ completed: 60, failed: 2, running: 8, queued: 30, total: 100, done: 62 });
  });

  it('takes the letters when the size was not announced', () => {
    expect(loopCounts(loop({ total: null, counts: { completed: 3 } }), 5)).toMatchObject({ total: 5, queued: 2 });
  });

  it('says it in words', () => {
    const c = loopCounts(loop({ counts: { completed: 1200, failed: 3 }, running_count: 8, total: 20_000 }), 20_000);
    expect(countsText(c)).toBe('20,000 items: 1,200 completed, 3 failed, 8 running, 18,789 queued');
    expect(countsText(loopCounts(loop({ total: 0 }), 0), 'round')).toBe('0 rounds');
  });
});

describe('bigStatus', () => {
  const record = (status: string, reason: string | null = null) => ({ status, reason }) as Run;

  it('shows the record while the run goes', () => {
    expect(bigStatus(record('paused'), viewRun('running')).status).toBe('paused');
  });

  it('shows how the view says the run ended before the record catches up', () => {
    expect(bigStatus(record('running'), viewRun('failed', 'budget'))).toEqual({ status: 'failed', reason: 'budget' });
  });

  it('lets a final record win', () => {
    expect(bigStatus(record('cancelled', 'stopped'), viewRun('completed')).status).toBe('cancelled');
  });

  it('falls back to the view without a record', () => {
    expect(bigStatus(null, viewRun('running')).status).toBe('running');
    expect(bigStatus(null, null).status).toBeUndefined();
  });
});

describe('failedItemCount', () => {
  it('adds the failed items and rounds of every loop', () => {
    expect(failedItemCount({ a: { counts: { completed: 10, failed: 2 } }, b: { counts: { failed: 1 } }, c: { counts: {} } })).toBe(3);
    expect(failedItemCount({})).toBe(0);
  });
});

describe('items a finished run never reached', () => {
  it('are "not run", not "queued", once the run has ended', () => {
    const c = loopCounts(loop({ counts: { completed: 368 }, running_count: 0, total: 20_000 }), 20_000);
    expect(countsText(c)).toBe('20,000 items: 368 completed, 19,632 queued');
    expect(countsText(c, 'item', true)).toBe('20,000 items: 368 completed, 19,632 not run');
    expect(statusWord('queued', true)).toBe('not run');
    expect(statusWord('failed', true)).toBe('failed');
  });
});
