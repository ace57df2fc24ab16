import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/client';
import type { EventType, JsonValue, RunEvent, RunEventOf, ToolApprovalData } from '../api/events.gen';
import { emptyRun, reduceEvents } from './reduce';
import { runEvent } from './testEvents';
import { approvalWords, argEntries, decisionErrorText, runningCalls, argsLine, capText, emptyToolLog, filterTurns, foldToolEvents, turnsOfStep } from './toolCalls';

// Shapes as runtime/engine/agent.py emits them: a response lists its calls, then each call's start
// and end (interleaved: a turn's calls run at once), then the conversation's next request.
let seq = 0;
function ev<T extends EventType>(type: T, agentId: string, data: RunEventOf<T>['data'], rest: Partial<RunEventOf<T>> = {}): RunEventOf<T> {
  seq += 1;
  const [agent, stepId] = agentId.split('@');
  return runEvent(type, { seq, stepId, agent, agentId, data, ...rest });
}
const response = (agentId: string, turn: number, calls: [string, string][]) =>
  ev('agent_turn', agentId, { phase: 'response', turn, tool_calls: calls.map(([id, name]) => ({ id, name })) });
const request = (agentId: string, turn: number) => ev('agent_turn', agentId, { phase: 'request', turn });
const start = (agentId: string, id: string, name: string, input: JsonValue) => ev('tool_call', agentId, { phase: 'start', tool_name: name, tool_call_id: id, input });
const end = (agentId: string, id: string, name: string, output: JsonValue, rest: Partial<RunEventOf<'tool_call'>> = {}, truncated = false) =>
  ev('tool_call', agentId, { phase: 'end', tool_name: name, tool_call_id: id, output, truncated }, rest);
const approval = (agentId: string, id: string, phase: ToolApprovalData['phase'], more: Partial<ToolApprovalData> = {}) =>
  ev('tool_approval', agentId, { phase, tool_name: 'bash', tool_call_id: id, input: { command: 'rm -rf build' }, ...more });

function twoTurns(): RunEvent[] {
  seq = 0;
  return [
    request('coder@build', 1),
    response('coder@build', 1, [
      ['c1', 'read'],
      ['c2', 'bash'],
    ]),
    start('coder@build', 'c1', 'read', { path: 'a.py' }),
    start('coder@build', 'c2', 'bash', { command: 'ls -la' }),
    end('coder@build', 'c2', 'bash', 'a.py\nb.py', { durationMs: 40, duration: '40ms' }),
    end('coder@build', 'c1', 'read', 'print(1)', { durationMs: 12 }, true),
    request('coder@build', 2),
    response('coder@build', 2, [['c3', 'write']]),
    start('coder@build', 'c3', 'write', { path: '/etc/x', content: 'a\nb' }),
    end('coder@build', 'c3', 'write', 'error: outside the workspace', { error: 'path is outside the workspace' }),
    request('coder@build', 3),
  ];
}

describe('foldToolEvents', () => {
  it('groups calls into the turn that asked for them, pairing interleaved starts and ends by id', () => {
    const log = foldToolEvents(emptyToolLog(), twoTurns());
    expect(log.turns.map((t) => [t.agentId, t.stepId, t.turn, t.calls.map((c) => c.id)])).toEqual([
      ['coder@build', 'build', 1, ['c1', 'c2']],
      ['coder@build', 'build', 2, ['c3']],
    ]);
    const [read, bash] = log.turns[0].calls;
    expect(read).toMatchObject({ name: 'read', input: { path: 'a.py' }, state: 'done', output: 'print(1)', durationMs: 12, truncated: true });
    expect(bash).toMatchObject({ name: 'bash', state: 'done', output: 'a.py\nb.py', durationMs: 40, truncated: false });
    expect(log.turns[1].calls[0]).toMatchObject({ state: 'failed', error: 'path is outside the workspace' });
    expect(log.calls).toBe(3);
    expect(log.open).toEqual({});
    expect(turnsOfStep(log, 'build')).toEqual(log.turns);
    expect(turnsOfStep(log, 'other')).toEqual([]);
  });

  it('shows a call as running while only its start has arrived, and one asked for as not started', () => {
    const log = foldToolEvents(emptyToolLog(), twoTurns().slice(0, 4));
    expect(log.turns[0].calls.map((c) => c.state)).toEqual(['running', 'running']);
    const listed = foldToolEvents(emptyToolLog(), twoTurns().slice(0, 2));
    expect(listed.turns[0].calls.map((c) => [c.name, c.state])).toEqual([
      ['read', 'asked'],
      ['bash', 'asked'],
    ]);
  });

  it('lists the calls under way now', () => {
    const events = twoTurns();
    expect(runningCalls(foldToolEvents(emptyToolLog(), events.slice(0, 4))).map((r) => [r.agentId, r.call.id])).toEqual([
      ['coder@build', 'c1'],
      ['coder@build', 'c2'],
    ]);
    expect(runningCalls(foldToolEvents(emptyToolLog(), events.slice(0, 5))).map((r) => r.call.id)).toEqual(['c1']);
    expect(runningCalls(foldToolEvents(emptyToolLog(), events))).toEqual([]);
  });

  it('does not list a call waiting for a person as running, and keeps the wait out of its time', () => {
    seq = 0;
    const events = [
      request('coder@build', 1),
      response('coder@build', 1, [['c1', 'bash']]),
      start('coder@build', 'c1', 'bash', { command: 'make' }),
      approval('coder@build', 'c1', 'asked'),
    ];
    const waiting = foldToolEvents(emptyToolLog(), events);
    expect(runningCalls(waiting)).toEqual([]);
    expect(waiting.pending.map((p) => p.callId)).toEqual(['c1']);
    const approved = foldToolEvents(waiting, [approval('coder@build', 'c1', 'approved', { actor: 'alice' })]);
    expect(runningCalls(approved).map((r) => r.call.id)).toEqual(['c1']);
    const ended = foldToolEvents(approved, [end('coder@build', 'c1', 'bash', 'ok', { durationMs: 30 })]);
    expect(ended.turns[0].calls[0]).toMatchObject({ state: 'done', durationMs: 30 });
    const timed = foldToolEvents(approved, [ev('tool_call', 'coder@build', { phase: 'end', tool_name: 'bash', tool_call_id: 'c1', output: 'ok', truncated: false, waited_ms: 4000 }, { durationMs: 30 })]);
    expect(timed.turns[0].calls[0]).toMatchObject({ durationMs: 30, waitedMs: 4000 });
  });

  it('keeps conversations apart when agents run at once', () => {
    seq = 0;
    const log = foldToolEvents(emptyToolLog(), [
      response('coder@a', 1, [['x1', 'bash']]),
      response('coder@b', 1, [['y1', 'bash']]),
      start('coder@b', 'y1', 'bash', { command: 'b' }),
      start('coder@a', 'x1', 'bash', { command: 'a' }),
      end('coder@a', 'x1', 'bash', 'from a'),
      end('coder@b', 'y1', 'bash', 'from b'),
    ]);
    expect(turnsOfStep(log, 'a')[0].calls[0]).toMatchObject({ input: { command: 'a' }, output: 'from a' });
    expect(turnsOfStep(log, 'b')[0].calls[0]).toMatchObject({ input: { command: 'b' }, output: 'from b' });
  });

  it("files calls whose turn's response it never saw in a turn of their own", () => {
    seq = 0;
    const log = foldToolEvents(emptyToolLog(), [start('coder@a', 'x1', 'glob', { pattern: '*.py' }), end('coder@a', 'x1', 'glob', { files: 2 })]);
    expect(log.turns).toHaveLength(1);
    expect(log.turns[0]).toMatchObject({ turn: null, agentId: 'coder@a' });
    expect(log.turns[0].calls[0]).toMatchObject({ name: 'glob', state: 'done', output: '{\n  "files": 2\n}' });
  });

  it('knows which calls wait for a person, and what was decided by whom', () => {
    seq = 0;
    const events = [
      response('coder@build', 1, [
        ['c1', 'bash'],
        ['c2', 'bash'],
        ['c3', 'bash'],
      ]),
      approval('coder@build', 'c1', 'asked'),
      approval('coder@build', 'c2', 'asked'),
      approval('coder@build', 'c3', 'asked'),
    ];
    const asked = foldToolEvents(emptyToolLog(), events);
    expect(asked.pending.map((p) => [p.callId, p.toolName, p.input])).toEqual([
      ['c1', 'bash', { command: 'rm -rf build' }],
      ['c2', 'bash', { command: 'rm -rf build' }],
      ['c3', 'bash', { command: 'rm -rf build' }],
    ]);
    expect(asked.turns[0].calls[0]).toMatchObject({ state: 'asked', input: { command: 'rm -rf build' }, approval: { phase: 'asked' } });
    const decided = foldToolEvents(asked, [
      approval('coder@build', 'c1', 'approved', { actor: 'alice' }),
      approval('', 'c2', 'denied', { actor: 'bob', reason: 'not now' }),
      approval('coder@build', 'c3', 'cancelled', { reason: 'run stopped' }),
    ]);
    expect(decided.pending).toEqual([]);
    expect(decided.turns[0].calls.map((c) => (c.approval ? approvalWords(c.approval) : ''))).toEqual([
      'approved by alice',
      'denied by bob: not now',
      'cancelled (run stopped)',
    ]);
    // The earlier log is untouched.
    expect(asked.pending).toHaveLength(3);
  });

  it('folds batch by batch to the same log, sharing the turns a batch did not touch', () => {
    const events = twoTurns();
    const once = foldToolEvents(emptyToolLog(), events);
    const first = foldToolEvents(emptyToolLog(), events.slice(0, 6));
    const second = foldToolEvents(first, events.slice(6));
    expect(second).toEqual(once);
    expect(second.turns[0]).toBe(first.turns[0]);
    expect(first.turns).toHaveLength(1);
    const quiet = [runEvent('output', { seq: 99, delta: 'x' })];
    expect(foldToolEvents(once, quiet)).toBe(once);
  });

  it('stays fast for a long run folded a frame at a time', () => {
    seq = 0;
    const events: RunEvent[] = [];
    for (let t = 1; t <= 3000; t++) {
      const who = `coder@s${t % 20}`;
      events.push(request(who, t), response(who, t, [[`a${t}`, 'bash'], [`b${t}`, 'read']]));
      events.push(start(who, `a${t}`, 'bash', { command: `echo ${t}` }), start(who, `b${t}`, 'read', { path: `f${t}` }));
      events.push(end(who, `b${t}`, 'read', 'text'), end(who, `a${t}`, 'bash', `${t}`));
    }
    const began = performance.now();
    let log = emptyToolLog();
    for (let i = 0; i < events.length; i += 20) log = foldToolEvents(log, events.slice(i, i + 20));
    expect(performance.now() - began).toBeLessThan(2000);
    expect(log.calls).toBe(6000);
    expect(log.turns.every((t) => t.calls.every((c) => c.state === 'done'))).toBe(true);
  });
});

describe('the run state keeps every tool call', () => {
  it("files a step's calls under the namespaced id it ran as", () => {
    seq = 0;
    const s = reduceEvents(emptyRun(), [
      runEvent('step_start', { seq: 1, stepId: 'refine.1.draft', where: { loop: 'refine', iteration: 1, inner: 'draft' } }),
      ...twoTurns().map((e) => ({ ...e, seq: e.seq + 1 })),
    ]);
    const node = s.steps['refine/draft'];
    expect(node.stepId).toBe('refine.1.draft');
    expect(s.loops.refine.iterations[0].steps.draft.stepId).toBe('refine.1.draft');
    expect(turnsOfStep(s.tools, 'build').map((t) => t.calls.length)).toEqual([2, 1]);
  });

  it('counts workspace snapshots as they are announced', () => {
    const s = reduceEvents(emptyRun(), [
      runEvent('workspace_snapshot', { seq: 1, data: { snapshot: 1, label: 'start' } }),
      runEvent('workspace_snapshot', { seq: 2, data: { snapshot: 2, label: 'build' } }),
    ]);
    expect(s.snapshots).toBe(2);
  });
});

describe('search', () => {
  const log = foldToolEvents(emptyToolLog(), twoTurns());

  it('finds calls by tool name, argument or output, in any case', () => {
    expect(filterTurns(log.turns, 'BASH').matches).toBe(1);
    expect(filterTurns(log.turns, 'a.py').turns.map((t) => t.calls.map((c) => c.id))).toEqual([['c1', 'c2']]);
    expect(filterTurns(log.turns, 'PRINT(1)').turns.map((t) => t.calls.map((c) => c.id))).toEqual([['c1']]);
    expect(filterTurns(log.turns, 'outside').turns.map((t) => t.turn)).toEqual([2]);
    expect(filterTurns(log.turns, 'nothing like it')).toEqual({ turns: [], matches: 0 });
  });

  it('shows everything for an empty query', () => {
    expect(filterTurns(log.turns, '  ')).toEqual({ turns: log.turns, matches: 3 });
  });
});

describe('how calls read', () => {
  it('puts arguments on one line: a lone argument as its value, several as pairs', () => {
    expect(argsLine({ command: 'ls -la' })).toBe('ls -la');
    expect(argsLine({ path: 'a.py', content: 'x\ny' })).toBe('path: a.py, content: x ⏎ y');
    expect(argsLine({ n: 3, flag: true })).toBe('n: 3, flag: true');
    expect(argsLine(undefined)).toBe('');
    expect(argsLine({ command: 'x'.repeat(300) }, 20)).toBe(`${'x'.repeat(19)}…`);
  });

  it('lists arguments in full, strings as written', () => {
    expect(argEntries({ path: 'a', content: 'line 1\nline 2', n: [1] })).toEqual([
      { name: 'path', text: 'a' },
      { name: 'content', text: 'line 1\nline 2' },
      { name: 'n', text: '[\n  1\n]' },
    ]);
    expect(argEntries('raw')).toEqual([{ name: '', text: 'raw' }]);
    expect(argEntries(null)).toEqual([]);
  });

  it('caps long text and says how much is left out', () => {
    expect(capText('abcdef', 4)).toEqual({ text: 'abcd', hidden: 2 });
    expect(capText('ab', 4)).toEqual({ text: 'ab', hidden: 0 });
  });

  it('says a decision in words', () => {
    expect(approvalWords({ phase: 'asked', actor: null, reason: null })).toBe('waiting for approval');
    expect(approvalWords({ phase: 'approved', actor: null, reason: null })).toBe('approved');
    expect(approvalWords({ phase: 'denied', actor: 'bo', reason: null })).toBe('denied by bo');
    expect(approvalWords({ phase: 'cancelled', actor: null, reason: null })).toBe('cancelled (run stopped)');
  });
});

describe('decision errors', () => {
  it('says a 409 was already decided, with the server\'s detail', () => {
    expect(decisionErrorText(new ApiError(409, 'the run has ended'), 'approve')).toBe('Already decided: the run has ended');
    expect(decisionErrorText(new ApiError(409, 'The request failed (HTTP 409).'), 'deny')).toBe('Already decided: someone answered first, or the run ended.');
    expect(decisionErrorText(new ApiError(0, 'Cannot reach the server.'), 'deny')).toBe('Could not deny the call: Cannot reach the server.');
  });
});
