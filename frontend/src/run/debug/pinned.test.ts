import { describe, expect, it } from 'vitest';
import type { PlaygroundInputs } from '../../api/types';
import { emptyRun, reduceEvents } from '../reduce';
import { runEvent } from '../testEvents';
import { playgroundEdits } from './PlaygroundDialog';

describe('a pinned step', () => {
  it('is marked pinned from its agent turns, and one asked of its model is not', () => {
    const events = [
      runEvent('agent_turn', { seq: 1, stepId: 'draft', agent: 'w', data: { phase: 'request', turn: 1, pinned: true, prompt: { system: 's', user: 'u' } } }),
      runEvent('agent_turn', { seq: 2, stepId: 'draft', agent: 'w', tokens: { prompt: 0, completion: 0, total: 0 }, data: { phase: 'response', turn: 1, pinned: true, content: 'kept' } }),
      runEvent('agent_turn', { seq: 3, stepId: 'review', agent: 'w', data: { phase: 'request', turn: 1, prompt: { system: 's', user: 'u' } } }),
    ];
    const state = reduceEvents(emptyRun(), events);
    expect(state.steps.draft?.pinned).toBe(true);
    expect(state.steps.review?.pinned).toBeUndefined();
    expect(state.tokens.total).toBe(0);
  });
});

const INPUTS: PlaygroundInputs = {
  run_id: 'r', workflow_id: 1, version: 1, step: 'review', kind: 'step', agent: 'writer', provider: 'openai', model: 'openai/gpt-test',
  temperature: null, system: 'sys', user: 'Review it.', inbox: [], tools: [], instructions: 'Review it.',
  original: { content: 'fine', result: null, status: 'completed', tokens: 3, cost_usd: 0, turns: 1, pinned: false },
};

describe('playgroundEdits', () => {
  it('sends only what differs from the recorded inputs', () => {
    const same = { instructions: 'Review it.', model: 'openai/gpt-test', temperature: '', system: 'sys', user: 'Review it.' };
    expect(playgroundEdits(INPUTS, same)).toEqual({});
    expect(playgroundEdits(INPUTS, { ...same, instructions: 'Be harsh.', temperature: '0.2' })).toEqual({ instructions: 'Be harsh.', temperature: 0.2 });
    expect(playgroundEdits(INPUTS, { ...same, model: ' other ' })).toEqual({ model: 'other' });
  });
  it('never sends instructions for a step whose instructions are not in the document', () => {
    expect(playgroundEdits({ ...INPUTS, instructions: null }, { instructions: 'x', model: '', temperature: '', system: 'sys', user: 'Review it.' })).toEqual({});
  });
});
