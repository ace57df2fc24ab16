import { describe, expect, it } from 'vitest';
import type { EventType, RunEventOf } from '../api/events.gen';
import { eventRows } from './eventRows';
import { runEvent } from './testEvents';

const at = '2026-11-23T10:00:00.000Z';
const ev = <T extends EventType>(seq: number, type: T, extra: Partial<RunEventOf<T>> = {}): RunEventOf<T> => runEvent(type, { seq, timestamp: at, ...extra });

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
    expect(rows[0]).toMatchObject({ text: 'judge of round 2: not done — needs sources', tone: 'verdict' });
    expect(rows[1]).toMatchObject({ tone: 'control' });
    expect(rows[1].text).toContain('paused');
    expect(rows[2]).toMatchObject({ text: 'boom', tone: 'error' });
  });

  it('says the plan as the steps in the order they can run', () => {
    const rows = eventRows([
      ev(2, 'plan_ready', { data: { workflow: { name: 'w', steps: ['start', 'left', 'report'], edges: [{ source: 'start', target: 'left' }] } } }),
    ]);
    expect(rows[0]).toMatchObject({ type: 'plan_ready', text: 'plan: 3 steps in order start → left → report', tone: 'plain' });
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

  it('says tool calls, approvals and workspace snapshots in words', () => {
    const rows = eventRows([
      ev(1, 'tool_call', { stepId: 'build', data: { phase: 'start', tool_name: 'bash', tool_call_id: 'c1', input: { command: 'make test' } } }),
      ev(2, 'tool_call', { stepId: 'build', durationMs: 1200, data: { phase: 'end', tool_name: 'bash', tool_call_id: 'c1', output: 'ok', truncated: true } }),
      ev(3, 'tool_call', { stepId: 'build', error: 'no such file', data: { phase: 'end', tool_name: 'read', tool_call_id: 'c2' } }),
      ev(4, 'tool_approval', { stepId: 'build', data: { phase: 'denied', tool_name: 'bash', tool_call_id: 'c3', actor: 'alice', reason: 'too risky' } }),
      ev(5, 'workspace_snapshot', { data: { snapshot: 2, label: 'build', step_id: 'build', added: 1, modified: 2, removed: 0 } }),
    ]);
    expect(rows.map((r) => [r.text, r.tone])).toEqual([
      ['bash make test', 'plain'],
      ['bash done in 1.2 s (output truncated)', 'plain'],
      ['read failed: no such file', 'error'],
      ['bash: denied by alice: too risky', 'control'],
      ['snapshot #2 after step build (+1 ~2 -0)', 'plain'],
    ]);
  });

  it('says when a snapshot did not keep every file’s content, and why', () => {
    const note = "not stored: this run's snapshot storage (200 MB) is full";
    const rows = eventRows([ev(1, 'workspace_snapshot', { data: { snapshot: 3, label: 'build', step_id: 'build', added: 5, modified: 0, removed: 0, not_stored: 2, note } })]);
    expect(rows.map((r) => r.text)).toEqual([`snapshot #3 after step build (+5 ~0 -0) (${note})`]);
  });

  it("marks a lost attempt's events superseded, from the server or from the resume seen live, and names the resume", () => {
    const rows = eventRows(
      [
        ev(5, 'judge_verdict', { stepId: 'w', data: { iteration: 0, done: false } }),
        ev(6, 'iteration_start', { stepId: 'w', superseded: true, data: { iteration: 1 } }),
        ev(7, 'agent_turn', { stepId: 'w.1.draft', data: { phase: 'request' } }),
        ev(8, 'workflow_start', { data: { total: 1 } }),
        ev(9, 'message', { message: 'run resumed after round 1 of w (event 5): worker lost (resume 1 of 3)', data: { level: 'info', resumed: { reason: 'worker lost', attempt: 1, of: 3, from_seq: 5 } } }),
      ],
      new Set([7]),
    );
    expect(rows.map((r) => [r.seq, r.superseded])).toEqual([[5, false], [6, true], [7, true], [8, false], [9, false]]);
    expect(rows[4]).toMatchObject({ tone: 'resume', text: 'run resumed after round 1 of w (event 5): worker lost (resume 1 of 3)' });
  });
});
