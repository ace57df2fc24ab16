import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../api/types';
import { eventRows } from './eventRows';

const at = '2026-11-23T10:00:00.000Z';
const ev = (seq: number, type: string, extra: Partial<RunEvent> = {}): RunEvent => ({ seq, type, timestamp: at, ...extra });

describe('event rows', () => {
  it('joins one turn of streamed output into one row, per step, even when steps interleave', () => {
    const rows = eventRows([
      ev(1, 'step_start', { stepId: 'a' }),
      ev(2, 'output', { stepId: 'a', delta: 'Hel' }),
      ev(3, 'output', { stepId: 'b', delta: 'Other ' }),
      ev(4, 'output', { stepId: 'a', delta: 'lo wor' }),
      ev(5, 'output', { stepId: 'a', delta: 'ld', done: true }),
      ev(6, 'output', { stepId: 'b', delta: 'text', done: true }),
    ]);
    expect(rows.map((r) => [r.type, r.stepId, r.text])).toEqual([
      ['step_start', 'a', ''],
      ['output', 'a', 'Hello world'],
      ['output', 'b', 'Other text'],
    ]);
    expect(rows[1].lastSeq).toBe(5);
    expect(rows[1].time).toMatch(/^\d\d:\d\d:\d\d\.\d{3}$/);
  });

  it('says verdicts and control actions in words', () => {
    const rows = eventRows([
      ev(1, 'judge_verdict', { stepId: 'refine', data: { iteration: 1, done: false, reason: 'needs sources' } }),
      ev(2, 'run_control', { message: 'run paused: running steps finish, nothing new starts', data: { action: 'pause' } }),
      ev(3, 'error', { stepId: 'x', error: 'boom' }),
    ]);
    expect(rows[0]).toMatchObject({ text: 'judge after iteration 2: not done — needs sources', tone: 'verdict' });
    expect(rows[1]).toMatchObject({ tone: 'control' });
    expect(rows[1].text).toContain('paused');
    expect(rows[2]).toMatchObject({ text: 'boom', tone: 'error' });
  });

  it('says who paused, resumed or stopped the run', () => {
    const rows = eventRows([
      ev(1, 'run_control', { message: 'run paused: running steps finish, nothing new starts (by alice)', data: { action: 'pause', actor: 'alice' } }),
      ev(2, 'run_control', { message: 'run resumed', data: { action: 'resume', actor: 'bob' } }),
      ev(3, 'run_control', { data: { action: 'stop', actor: 'carol' } }),
      ev(4, 'run_control', { data: { action: 'stop', actor: null } }),
    ]);
    expect(rows.map((r) => r.text)).toEqual([
      'run paused: running steps finish, nothing new starts (by alice)',
      'run resumed (by bob)',
      'run stopped (by carol)',
      'run stopped',
    ]);
  });
});
