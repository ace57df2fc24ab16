import { describe, expect, it } from 'vitest';
import type { EventType, RunEvent, RunEventOf, Where } from '../../api/events.gen';
import type { Json } from '../../doc/types';
import { emptyRun, reduceEvents } from '../reduce';
import { roundsOfLoop, type RoundRecord } from './roundRecords';
import { bucketSize, buildSeries, chartColumns, COST, discoverFields, metricOf, TIME, TOKENS } from './roundSeries';
import { markCounts, pointRounds, pointValue } from './roundWords';
import { runEvent } from '../testEvents';

// Events shaped as runtime/engine emits them (loops.py, agent.py), with the `where` the emitter stamps.
let seq = 0;
function where(stepId: string): Where | undefined {
  const m = /^([^.[\]]+)(?:\.(\d+)|\[(\d+)\])(?:\.(.+))?$/.exec(stepId);
  if (!m) return undefined;
  return { loop: m[1], ...(m[2] !== undefined ? { iteration: Number(m[2]) } : { item: Number(m[3]) }), ...(m[4] ? { inner: m[4] } : {}) };
}
function ev<T extends EventType>(type: T, stepId: string, rest: Partial<RunEventOf<T>> = {}): RunEventOf<T> {
  seq += 1;
  const w = where(stepId);
  return runEvent(type, { seq, stepId, ...(w ? { where: w } : {}), ...rest });
}

/** One round of a single-step judge loop `polish`: the writer's step, then the judge submitting `judged`. */
/** What the judge submits: its verdict's fields (the contract's types), and any more. */
type Judged = { done?: boolean | null; reason?: string | null; [k: string]: Json | undefined };

function round(n: number, judged: Judged | null, result: Json = null): RunEvent[] {
  const step = `polish.${n}`;
  const judge = `polish.${n}.untilAgent`;
  const agentId = `judge-${n}`;
  const events = [
    ev('iteration_start', 'polish', { data: { iteration: n } }),
    ev('step_start', step, { agent: 'writer' }),
    ev('step_end', step, { tokens: { prompt: 10, completion: 5 + n, total: 15 + n }, data: { status: 'completed', content: `draft ${n}`, result } }),
    ev('iteration_end', 'polish', { durationMs: 1000 * (n + 1), data: { iteration: n, status: 'completed', content: `draft ${n}` } }),
  ];
  if (judged === null) return events;
  return [
    ...events,
    ev('agent_turn', judge, { agent: 'judge', agentId, data: { phase: 'request', turn: 0 } }),
    ev('agent_turn', judge, { agent: 'judge', agentId, tokens: { prompt: 4, completion: 2, total: 6 }, data: { phase: 'response', turn: 0, tool_calls: [{ id: `c${n}`, name: 'submit_result' }] } }),
    ev('tool_call', judge, { agent: 'judge', agentId, data: { phase: 'start', tool_name: 'submit_result', tool_call_id: `c${n}`, input: judged } }),
    ev('tool_call', judge, { agent: 'judge', agentId, data: { phase: 'end', tool_name: 'submit_result', tool_call_id: `c${n}`, output: { status: 'ok' } } }),
    ev('judge_verdict', 'polish', { agent: 'judge', data: { iteration: n, done: judged.done ?? null, reason: judged.reason ?? null, failed_open: false, content: '' } }),
  ];
}

function stateOf(events: RunEvent[]) {
  return reduceEvents(emptyRun(), events);
}

describe('rounds of a judge loop with scores', () => {
  seq = 0;
  const state = stateOf([
    ...round(0, { done: false, reason: 'thin', score: 0.4 }),
    ...round(1, { done: false, reason: 'closer', score: 0.7 }),
    ...round(2, { done: true, reason: 'good', score: 0.9 }),
  ]);
  const rounds = roundsOfLoop('polish', state.loops.polish, state.tools);
  const series = buildSeries(rounds);

  it('reads time, tokens (writer and judge) and the verdict of each round', () => {
    expect(rounds.map((r) => [r.round, r.durationMs, r.tokens, r.mark])).toEqual([
      [0, 1000, 21, 'fail'],
      [1, 2000, 22, 'fail'],
      [2, 3000, 23, 'pass'],
    ]);
  });

  it("finds the judge's score and plots it against the 1-based round", () => {
    expect(series.fields.map((f) => f.label)).toEqual(['Judge: score']);
    const score = series.fields[0];
    expect(chartColumns(series, score)).toEqual([
      [1, 2, 3],
      [0.4, 0.7, 0.9],
    ]);
    expect(series.points.map((p) => pointValue(score, p, false))).toEqual(['0.4', '0.7', '0.9']);
    expect(series.points.map((p) => markCounts(p, false))).toEqual(['not done', 'not done', 'done']);
  });

  it('has no cost while agent turns do not report one, and says time in seconds', () => {
    expect(series.present.has(COST.key)).toBe(false);
    expect(series.present.has(TOKENS.key)).toBe(true);
    expect(chartColumns(series, TIME)[1]).toEqual([1, 2, 3]);
    expect(series.bucket).toBe(1);
  });

  it('falls back to time when the picked metric is not one of this loop', () => {
    expect(metricOf(series, 'judge:["nope"]')).toBe(TIME);
  });
});

describe('a forEach of 10,000 items', () => {
  const rounds: RoundRecord[] = Array.from({ length: 10_000 }, (_, i) => ({
    round: i,
    status: i % 7 === 0 ? 'failed' : 'completed',
    durationMs: i,
    tokens: 100,
    mark: i % 7 === 0 ? 'error' : undefined,
    result: { size: i % 10 },
  }));
  const series = buildSeries(rounds);

  it('draws at most 500 points, each a bucket of 20 items', () => {
    expect(series.bucket).toBe(20);
    expect(series.points.length).toBe(500);
    expect(series.points[0]).toMatchObject({ from: 1, to: 20, rounds: 20 });
    expect(series.points[499]).toMatchObject({ from: 9981, to: 10_000 });
  });

  it('keeps every item in some bucket: counts add up', () => {
    expect(series.points.reduce((n, p) => n + p.rounds, 0)).toBe(10_000);
    expect(series.points.reduce((n, p) => n + p.marks.error, 0)).toBe(Math.ceil(10_000 / 7));
  });

  it('gives min, mean and max per bucket', () => {
    const first = series.points[0];
    expect([first.min.time, first.mean.time, first.max.time]).toEqual([0, 0.0095, 0.019]);
    const size = series.fields[0];
    expect([first.min[size.key], first.max[size.key]]).toEqual([0, 9]);
    expect(chartColumns(series, size).length).toBe(4);
    expect(pointRounds(first)).toBe('Rounds 1–20');
    expect(pointRounds(first, 'Item')).toBe('Items 1–20');
    expect(pointValue(TIME, first, true)).toBe('0.01 s (0.00 s to 0.02 s)');
    expect(markCounts(first, true)).toBe('3 error');
  });

  it('picks the bucket size from the span of rounds', () => {
    expect(bucketSize(500)).toBe(1);
    expect(bucketSize(501)).toBe(2);
    expect(bucketSize(10_000)).toBe(20);
  });
});

describe('rounds while the loop runs', () => {
  it('plots a running round as a gap, not as zero', () => {
    seq = 0;
    const state = stateOf([...round(0, { done: false, score: 2 }), ev('iteration_start', 'polish', { data: { iteration: 1 } })]);
    const series = buildSeries(roundsOfLoop('polish', state.loops.polish, state.tools));
    expect(series.rounds).toBe(2);
    expect(chartColumns(series, TIME)).toEqual([
      [1, 2],
      [1, null],
    ]);
    expect(series.points[1].marks).toEqual({ pass: 0, fail: 0, error: 0 });
  });

  it('leaves out items not yet seen (a forEach finishes out of order)', () => {
    const series = buildSeries([
      { round: 0, status: 'completed', durationMs: 500 },
      { round: 4, status: 'completed', durationMs: 1500 },
    ]);
    expect(chartColumns(series, TIME)).toEqual([
      [1, 5],
      [0.5, 1.5],
    ]);
  });

  it('updates a round already read once its iteration changes', () => {
    seq = 0;
    const running = stateOf([ev('iteration_start', 'polish', { data: { iteration: 0 } })]);
    expect(roundsOfLoop('polish', running.loops.polish, running.tools)[0].durationMs).toBeUndefined();
    const done = reduceEvents(running, [ev('iteration_end', 'polish', { durationMs: 250, data: { iteration: 0, status: 'completed' } })]);
    expect(roundsOfLoop('polish', done.loops.polish, done.tools)[0].durationMs).toBe(250);
  });

  it('marks a judge that failed open as an error', () => {
    seq = 0;
    const state = stateOf([
      ...round(0, null),
      ev('judge_verdict', 'polish', { agent: 'judge', data: { iteration: 0, done: null, reason: null, failed_open: true, content: '' } }),
    ]);
    expect(roundsOfLoop('polish', state.loops.polish, state.tools)[0].mark).toBe('error');
  });
});

describe('result fields', () => {
  it('ignores text, booleans, arrays and non-finite numbers; follows nested objects by dotted path', () => {
    const rounds: RoundRecord[] = [
      { round: 0, status: 'completed', result: { title: 'x', ok: true, list: [1, 2], scores: { clarity: 3, note: 'n' } }, judge: { done: false, reason: 'r' } },
      { round: 1, status: 'completed', result: { title: 'y', words: 120 }, judge: { done: true, confidence: 0.8 } },
    ];
    expect(discoverFields(rounds).map((f) => f.label)).toEqual(['Result: scores.clarity', 'Judge: confidence', 'Result: words']);
  });

  it('plots a field numeric in some rounds only, with gaps in the others', () => {
    const series = buildSeries([
      { round: 0, status: 'completed', result: { words: 'many' } },
      { round: 1, status: 'completed', result: { words: 80 } },
    ]);
    expect(chartColumns(series, series.fields[0])[1]).toEqual([null, 80]);
  });

  it('caps the number of fields', () => {
    const wide = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`f${i}`, i]));
    expect(discoverFields([{ round: 0, status: 'completed', result: wide }]).length).toBe(12);
  });

  it("reads a multi-step round's inner results by step id", () => {
    seq = 0;
    const state = stateOf([
      ev('iteration_start', 'polish', { data: { iteration: 0 } }),
      ev('step_end', 'polish.0.review', { data: { status: 'completed', result: { score: 7 } } }),
      ev('iteration_end', 'polish', { data: { iteration: 0, status: 'completed' } }),
    ]);
    const fields = discoverFields(roundsOfLoop('polish', state.loops.polish, state.tools));
    expect(fields.map((f) => f.label)).toEqual(['Result: review.score']);
  });

  it('takes a rejected submit_result for nothing, and the accepted one after it', () => {
    seq = 0;
    const judge = 'polish.0.untilAgent';
    const state = stateOf([
      ...round(0, null),
      ev('agent_turn', judge, { agent: 'judge', agentId: 'j', data: { phase: 'response', turn: 0, tool_calls: [{ id: 'a', name: 'submit_result' }] } }),
      ev('tool_call', judge, { agent: 'judge', agentId: 'j', data: { phase: 'start', tool_name: 'submit_result', tool_call_id: 'a', input: { score: 'high' } } }),
      ev('tool_call', judge, { agent: 'judge', agentId: 'j', error: 'done is required', data: { phase: 'end', tool_name: 'submit_result', tool_call_id: 'a', output: { status: 'error' } } }),
      ev('agent_turn', judge, { agent: 'judge', agentId: 'j', data: { phase: 'response', turn: 1, tool_calls: [{ id: 'b', name: 'submit_result' }] } }),
      ev('tool_call', judge, { agent: 'judge', agentId: 'j', data: { phase: 'start', tool_name: 'submit_result', tool_call_id: 'b', input: { done: true, score: 5 } } }),
      ev('tool_call', judge, { agent: 'judge', agentId: 'j', data: { phase: 'end', tool_name: 'submit_result', tool_call_id: 'b', output: { status: 'ok' } } }),
      ev('judge_verdict', 'polish', { agent: 'judge', data: { iteration: 0, done: true, reason: null, failed_open: false } }),
    ]);
    expect(roundsOfLoop('polish', state.loops.polish, state.tools)[0].judge).toEqual({ done: true, score: 5 });
  });
});
