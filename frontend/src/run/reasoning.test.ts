import { describe, expect, it } from 'vitest';
import type { EventType, RunEventOf } from '../api/events.gen';
import { emptyRun, reasoningOf, reduceEvents } from './reduce';
import { runEvent } from './testEvents';

let seq = 0;
function ev<T extends EventType>(type: T, stepId: string, rest: Partial<RunEventOf<T>> = {}): RunEventOf<T> {
  seq += 1;
  return runEvent(type, { seq, stepId, ...rest });
}

describe('reasoning shown folded in the agent turn', () => {
  it('keeps each response turn’s reasoning text and tokens on its step', () => {
    seq = 0;
    const state = reduceEvents(emptyRun(), [
      ev('step_start', 'plan', { agent: 'planner' }),
      ev('agent_turn', 'plan', { agent: 'planner', data: { phase: 'request', model: 'm', turn: 1 } }),
      ev('agent_turn', 'plan', { agent: 'planner', data: { phase: 'response', model: 'm', turn: 1, reasoning: 'First, list the files.', reasoning_tokens: 40 } }),
      ev('agent_turn', 'plan', { agent: 'planner', data: { phase: 'response', model: 'm', turn: 2, content: 'done' } }),
      ev('agent_turn', 'plan', { agent: 'planner', data: { phase: 'response', model: 'm', turn: 3, reasoning_tokens: 12 } }),
    ]);
    expect(state.steps.plan.reasoning).toEqual([
      { turn: 1, text: 'First, list the files.', tokens: 40 },
      { turn: 3, text: '', tokens: 12 },
    ]);
  });

  it('starts again when the step runs again', () => {
    seq = 0;
    const first = reduceEvents(emptyRun(), [
      ev('step_start', 'plan'),
      ev('agent_turn', 'plan', { data: { phase: 'response', turn: 1, reasoning: 'old' } }),
    ]);
    const again = reduceEvents(first, [ev('step_start', 'plan')]);
    expect(first.steps.plan.reasoning).toHaveLength(1);
    expect(again.steps.plan.reasoning).toBeUndefined();
  });

  it('reads nothing from a response without reasoning, or with a request’s', () => {
    expect(reasoningOf(undefined, undefined, 1)).toBeNull();
    expect(reasoningOf('', 0, 1)).toBeNull();
    expect(reasoningOf(42, 'many', 1)).toBeNull();
    expect(reasoningOf('why', null, 'x')).toEqual({ turn: null, text: 'why', tokens: null });
  });
});
