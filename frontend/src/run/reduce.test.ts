import { describe, expect, it } from 'vitest';
import type { EventType, RunEvent, RunEventOf, Where } from '../api/events.gen';
import { emptyRun, placeOf, promptText, reduceEvents } from './reduce';
import { judgeCost } from './VerdictList';
import { foreignEvent, runEvent } from './testEvents';

// Shapes as runtime/engine emits them (see runtime/engine/loops.py, agent.py), with the `where` the
// server's emitter stamps from each namespaced id (runtime/contract.py, locate), written out here.
const WHERE: Record<string, Where> = {
  'dev.0.work': { loop: 'dev', iteration: 0, inner: 'work' },
  'dev.1.work': { loop: 'dev', iteration: 1, inner: 'work' },
  'dev.0.untilAgent': { loop: 'dev', iteration: 0, inner: 'untilAgent' },
  'each[1].deploy': { loop: 'each', item: 1, inner: 'deploy' },
};
let seq = 0;
function ev<T extends EventType>(type: T, stepId: string | undefined, rest: Partial<RunEventOf<T>> = {}): RunEventOf<T> {
  seq += 1;
  const where = stepId ? WHERE[stepId] : undefined;
  return runEvent(type, { seq, timestamp: `2026-11-22T02:00:0${Math.min(seq, 9)}.000Z`, ...(stepId ? { stepId } : {}), ...(where ? { where } : {}), ...rest });
}

function judgeRun(): RunEvent[] {
  seq = 0;
  return [
    ev('workflow_start', undefined, { data: { total: 1 } }),
    ev('step_start', 'dev', { data: { index: 0, total: 1, loop_type: 'repeat-until', max_iterations: 3 } }),
    ev('iteration_start', 'dev', { data: { iteration: 0 } }),
    ev('step_start', 'dev.0.work', { agent: 'worker' }),
    ev('agent_turn', 'dev.0.work', { agent: 'worker', data: { phase: 'request', model: 'simulated', prompt: { system: 'You are worker', user: 'Do it' } } }),
    ev('output', 'dev.0.work', { agent: 'worker', delta: 'draft ' }),
    ev('output', 'dev.0.work', { agent: 'worker', delta: 'one' }),
    ev('output', 'dev.0.work', { agent: 'worker', done: true }),
    ev('agent_turn', 'dev.0.work', { agent: 'worker', tokens: { prompt: 10, completion: 2, total: 12 }, data: { phase: 'response' } }),
    ev('step_end', 'dev.0.work', { duration: '51ms', tokens: { prompt: 10, completion: 2, total: 12 }, data: { status: 'completed', content: 'draft one', result: null } }),
    ev('iteration_end', 'dev', { data: { iteration: 0, status: 'completed', content: 'draft one', result: null } }),
    ev('judge_verdict', 'dev', { agent: 'judge', tokens: { prompt: 400, completion: 12, total: 412 }, data: { iteration: 0, done: false, reason: 'too thin', failed_open: false, content: 'no', cost_usd: 0.0012 } }),
    ev('iteration_start', 'dev', { data: { iteration: 1 } }),
    ev('step_start', 'dev.1.work', { agent: 'worker' }),
    ev('step_end', 'dev.1.work', { data: { status: 'completed', content: 'draft two' } }),
    ev('iteration_end', 'dev', { data: { iteration: 1, status: 'completed', content: 'draft two' } }),
    ev('judge_verdict', 'dev', { agent: 'judge', data: { iteration: 1, done: null, reason: null, failed_open: true, content: '' } }),
    ev('loop_end', 'dev', { data: { rounds_completed: 2, broke_early: true, break_reason: 'judge', content: 'draft one\n\n---\n\ndraft two' } }),
    ev('step_end', 'dev', { duration: '1.2s', data: { status: 'completed', content: 'draft one\n\n---\n\ndraft two' } }),
    ev('workflow_end', undefined, { data: { status: 'completed' } }),
  ];
}

describe('a partial run', () => {
  it('ends partial, as workflow_end says (some steps completed, some failed: zenflow\'s status)', () => {
    const s = reduceEvents(emptyRun(), [
      ev('workflow_start', undefined, { data: { total: 2 } }),
      ev('workflow_end', undefined, { error: "step 'b' failed: boom", data: { status: 'partial', reason: "step 'b' failed: boom", code: 'step_failed' } }),
    ]);
    expect(s.status).toBe('partial');
    expect(s.end).toEqual({ status: 'partial', reason: "step 'b' failed: boom" });
  });
});

describe('placeOf', () => {
  it('places top-level, repeat-until and forEach steps by their where', () => {
    expect(placeOf('plan', undefined)).toEqual({ key: 'plan' });
    expect(placeOf('dev.2.review', { loop: 'dev', iteration: 2, inner: 'review' })).toEqual({ key: 'dev/review', loop: 'dev', iteration: 2, inner: 'review' });
    expect(placeOf('dev.2', { loop: 'dev', iteration: 2 })).toEqual({ key: 'dev', loop: 'dev', iteration: 2, inner: '' });
    expect(placeOf('deploy-each[0]', { loop: 'deploy-each', item: 0 })).toEqual({ key: 'deploy-each', loop: 'deploy-each', iteration: 0, inner: '' });
    expect(placeOf('deploy-each[3].verify', { loop: 'deploy-each', item: 3, inner: 'verify' })).toEqual({ key: 'deploy-each/verify', loop: 'deploy-each', iteration: 3, inner: 'verify' });
  });

  it('shows an included step on its include node', () => {
    expect(placeOf('deploy.build', { include: 'deploy', inner: 'build' })).toEqual({ key: 'deploy' });
  });
});

describe('reduceEvents', () => {
  it("shows a loop's judge running, then completed, from its turns (it has no step events)", () => {
    seq = 0;
    const request = [ev('agent_turn', 'dev.0.untilAgent', { agent: 'judge', data: { phase: 'request', prompt: { system: 's', user: 'judge it' } } })];
    const running = reduceEvents(emptyRun(), request);
    expect(running.loops.dev.iterations[0].steps.untilAgent.status).toBe('running');
    const done = reduceEvents(running, [
      ev('agent_turn', 'dev.0.untilAgent', { agent: 'judge', tokens: { prompt: 4, completion: 2, total: 6 }, data: { phase: 'response', content: 'not yet' } }),
    ]);
    const judge = done.loops.dev.iterations[0].steps.untilAgent;
    expect([judge.status, judge.content, judge.tokens?.total]).toEqual(['completed', 'not yet', 6]);
  });

  it('builds iterations, verdicts, statuses and the cumulative output of a judge loop', () => {
    const s = reduceEvents(emptyRun(), judgeRun());
    expect(s.status).toBe('completed');
    const loop = s.loops.dev;
    expect(loop.loopType).toBe('repeat-until');
    expect(loop.iterations.map((it) => [it.iteration, it.status, it.content])).toEqual([
      [0, 'completed', 'draft one'],
      [1, 'completed', 'draft two'],
    ]);
    expect(loop.iterations[0].verdict).toEqual({ done: false, reason: 'too thin', failedOpen: false, content: 'no', tokens: 412, costUsd: 0.0012 });
    expect(loop.iterations[1].verdict).toEqual({ done: null, reason: null, failedOpen: true });
    expect(judgeCost(loop.iterations[0].verdict!)).toBe('judge: 412 tokens · $0.001200');
    expect(judgeCost(loop.iterations[1].verdict!)).toBe('');
    expect(judgeCost({ done: true, reason: null, failedOpen: false, tokens: 1234, costUsd: 0.25 })).toBe('judge: 1,234 tokens · $0.2500');
    expect(loop.ended).toEqual({ reason: 'judge', rounds: 2 });
    expect(loop.cumulative).toBe('draft one\n\n---\n\ndraft two');
    expect(s.steps.dev.status).toBe('completed');
    expect(s.steps['dev/work'].status).toBe('completed');
    expect(loop.iterations[0].steps.work.prompt).toBe('System:\nYou are worker\n\nUser:\nDo it');
    expect(loop.iterations[0].steps.work.output).toBe('draft one');
    expect(s.tokens.total).toBe(12);
  });

  it('applies each seq once, so a replay after a reconnect changes nothing', () => {
    const events = judgeRun();
    const once = reduceEvents(emptyRun(), events);
    const half = reduceEvents(emptyRun(), events.slice(0, 9));
    const replayed = reduceEvents(half, events); // the server resends from an older seq
    expect(replayed.applied).toBe(events.length);
    expect(replayed.lastSeq).toBe(once.lastSeq);
    expect(replayed.loops).toEqual(once.loops);
    expect(replayed.tokens).toEqual(once.tokens);
    expect(reduceEvents(once, events)).toBe(once);
  });

  it('streams the running agent’s tokens as live text', () => {
    const events = judgeRun().slice(0, 7);
    const s = reduceEvents(emptyRun(), events);
    expect(s.live).toEqual({ stepId: 'dev.0.work', agent: 'worker', text: 'draft one', done: false, where: WHERE['dev.0.work'] });
  });

  it('keeps forEach items with their iteration', () => {
    seq = 0;
    const s = reduceEvents(emptyRun(), [
      ev('step_start', 'each', { data: { loop_type: 'forEach', items: 2 } }),
      ev('iteration_start', 'each', { data: { index: 0, item: { name: 'auth' } } }),
      ev('iteration_start', 'each', { data: { index: 1, item: { name: 'billing' } } }),
      ev('step_start', 'each[1].deploy'),
      ev('iteration_end', 'each', { data: { index: 1, item: { name: 'billing' }, status: 'failed', content: '' }, error: 'boom' }),
    ]);
    const loop = s.loops.each;
    expect(loop.loopType).toBe('forEach');
    expect(loop.iterations.map((it) => [it.iteration, it.item, it.status])).toEqual([
      [0, { name: 'auth' }, 'running'],
      [1, { name: 'billing' }, 'failed'],
    ]);
    expect(s.steps['each/deploy'].status).toBe('running');
  });

  it('skips unknown event types', () => {
    seq = 0;
    const s = reduceEvents(emptyRun(), [foreignEvent({ type: 'something_new', seq: ++seq, stepId: 'x', data: { a: 1 } })]);
    expect(s.applied).toBe(1);
    expect(s.steps).toEqual({});
  });
});

describe('helpers', () => {
  it('shows a prompt as text', () => {
    expect(promptText('hi')).toBe('hi');
    expect(promptText({ system: 's', user: 'u' })).toBe('System:\ns\n\nUser:\nu');
    expect(promptText(42)).toBeUndefined();
  });
});

import { sampleOf } from '../editor/RunDialog';

describe('sampleOf (starter script results)', () => {
  it('fills the required fields of a result schema', () => {
    const schema = {
      type: 'object',
      required: ['verdict', 'score', 'services'],
      properties: {
        verdict: { type: 'string', enum: ['pass', 'fail'] },
        score: { type: 'integer', minimum: 0 },
        services: { type: 'array', items: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } } },
        optional: { type: 'string' },
      },
    };
    expect(sampleOf(schema)).toEqual({ verdict: 'pass', score: 0, services: [{ name: 'sample' }] });
  });
});

describe('what the run page reads of a round, a resume and a fork', () => {
  const where = (loop: string, iteration: number, inner?: string): Where => ({ loop, iteration, ...(inner ? { inner } : {}) });

  it("keeps the loop's output as the last output once its judge has answered", () => {
    seq = 0;
    const s = reduceEvents(emptyRun(), [
      ev('output', 'dev.0.work', { agent: 'worker', delta: 'draft one', done: true }),
      ev('output', 'dev.0.untilAgent', { agent: 'judge', delta: 'not yet', where: where('dev', 0, 'untilAgent') }),
    ]);
    expect(s.judging?.text).toBe('not yet'); // streaming now: shown
    expect(s.live?.text).toBe('draft one');
    const answered = reduceEvents(s, [ev('agent_turn', 'dev.0.untilAgent', { agent: 'judge', where: where('dev', 0, 'untilAgent'), data: { phase: 'response' } })]);
    expect(answered.judging).toBeNull();
    expect(answered.live).toMatchObject({ stepId: 'dev.0.work', text: 'draft one', where: WHERE['dev.0.work'] });
  });

  it("starts a round's inner cards afresh: none shows the round before while this one runs", () => {
    const s = reduceEvents(emptyRun(), judgeRun().slice(0, 13)); // round 1 done, round 2 begun
    expect(s.steps['dev/work']).toEqual({ status: 'pending', output: '' });
    expect(s.loops.dev.iterations[0].steps.work.status).toBe('completed'); // round 1's own stays in its iteration
    const later = reduceEvents(emptyRun(), judgeRun());
    expect(later.steps['dev/work'].status).toBe('completed');
  });

  it('marks what a lost attempt did past its boundary, whether the server said so or the page saw it live', () => {
    seq = 0;
    const s = reduceEvents(emptyRun(), [
      ev('workflow_start', undefined, { data: { total: 1 } }),
      ev('judge_verdict', 'dev', { data: { iteration: 0, done: false } }),
      ev('iteration_start', 'dev', { data: { iteration: 1 } }),
      ev('agent_turn', 'dev.1.work', { superseded: true, data: { phase: 'request' } }),
      ev('workflow_start', undefined, { data: { total: 1, from_checkpoint: 2 } }),
      ev('message', undefined, {
        message: 'run resumed after round 1 of dev (event 2): worker lost (resume 1 of 3)',
        data: { level: 'info', resumed: { reason: 'worker lost', attempt: 1, of: 3, from_seq: 2, after: { kind: 'round', step: 'dev', iteration: 0 } } },
      }),
      ev('step_start', 'dev', { data: { index: 0, total: 1, loop_type: 'repeat-until', started_at: '2026-11-22T01:00:00.000Z' } }),
    ]);
    expect([...s.superseded].sort()).toEqual([3, 4]);
    expect(s.resumed).toEqual({ seq: 6, reason: 'worker lost', attempt: 1, of: 3, fromSeq: 2, after: { kind: 'round', step: 'dev', iteration: 0 } });
    // The loop went on over the resume: its start is its first.
    expect(s.steps.dev).toMatchObject({ status: 'running', startedAt: '2026-11-22T01:00:00.000Z', resumed: true });
  });

  it("adds up what a fork inherited: its parent's tokens, cost, rounds and time, apart from its own", () => {
    seq = 0;
    const s = reduceEvents(emptyRun(), [
      ev('workflow_start', undefined, { inherited: true, timestamp: '2026-11-22T02:00:00.000Z', data: { total: 1 } }),
      ev('agent_turn', 'dev.0.work', { inherited: true, tokens: { prompt: 10, completion: 5, total: 15 }, data: { phase: 'response', cost_usd: 0.5 } }),
      ev('iteration_end', 'dev', { inherited: true, timestamp: '2026-11-22T02:00:06.000Z', data: { iteration: 0, status: 'completed' } }),
      ev('agent_turn', 'dev.1.work', { tokens: { prompt: 20, completion: 20, total: 40 }, data: { phase: 'response' } }),
    ]);
    expect(s.inherited).toEqual({ events: 3, iterations: 1, tokens: 15, costUsd: 0.5, firstAt: '2026-11-22T02:00:00.000Z', lastAt: '2026-11-22T02:00:06.000Z' });
    expect(s.tokens.total).toBe(55);
  });
});
