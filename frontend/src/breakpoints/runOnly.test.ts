import { describe, expect, it } from 'vitest';
import type { WorkflowDoc } from '../doc/types';
import { atWord, EMPTY_FORM, formBreakpoint, freeRunId, refusalWords, stepChoices, stepsFor } from './runOnly';

const DOC: WorkflowDoc = {
  name: 'wf',
  steps: [
    { id: 'plan', instructions: 'Plan.' },
    { id: 'write', instructions: 'Write.', loop: { maxIterations: 5 } },
    { id: 'dev', loop: { maxIterations: 3, untilAgent: 'judge', steps: [{ id: 'code', instructions: 'Code.' }] } },
    { id: 'each', loop: { forEach: ['a', 'b'], steps: [{ id: 'one', instructions: 'One.' }] } },
  ],
};

describe('stepChoices', () => {
  const choices = stepChoices(DOC);
  it('lists every step, inner ones after their loop, with the loop that numbers their executions', () => {
    expect(choices.map((c) => [c.id, c.loop, c.around, c.judge])).toEqual([
      ['plan', null, null, false],
      ['write', 'repeat', 'repeat', false],
      ['dev', 'repeat', 'repeat', true],
      ['code', null, 'repeat', false],
      ['each', 'forEach', 'forEach', false],
      ['one', null, 'forEach', false],
    ]);
  });
  it('offers loops for a round, judged loops for a judge, nothing to choose for a condition', () => {
    expect(stepsFor('round', choices).map((c) => c.id)).toEqual(['write', 'dev', 'each']);
    expect(stepsFor('judge', choices).map((c) => c.id)).toEqual(['dev']);
    expect(stepsFor('condition', choices)).toEqual([]);
  });
  it('numbers rounds of a repeat, items of a forEach, and nothing for a step no loop repeats', () => {
    expect(atWord({ kind: 'step', step: 'code' }, choices)).toBe('round');
    expect(atWord({ kind: 'step', step: 'one' }, choices)).toBe('item');
    expect(atWord({ kind: 'step', step: 'plan' }, choices)).toBeNull();
    expect(atWord({ kind: 'round', step: 'each' }, choices)).toBe('item');
    expect(atWord({ kind: 'judge', step: 'dev' }, choices)).toBeNull();
  });
});

describe('formBreakpoint', () => {
  const choices = stepChoices(DOC);
  it('makes each kind, rounds and items typed from 1 and sent 0-based', () => {
    expect(formBreakpoint({ ...EMPTY_FORM, kind: 'step', step: 'code', at: '2' }, choices, 'run-1')).toEqual({
      breakpoint: { id: 'run-1', kind: 'step', step: 'code', round: 1 },
    });
    expect(formBreakpoint({ ...EMPTY_FORM, kind: 'round', step: 'each', at: '1' }, choices, 'run-1')).toEqual({
      breakpoint: { id: 'run-1', kind: 'round', step: 'each', item: 0 },
    });
    expect(formBreakpoint({ ...EMPTY_FORM, kind: 'judge', step: 'dev', done: 'not-done' }, choices, 'run-2')).toEqual({
      breakpoint: { id: 'run-2', kind: 'judge', step: 'dev', done: false },
    });
    expect(formBreakpoint({ ...EMPTY_FORM, kind: 'judge', step: 'dev' }, choices, 'run-2')).toEqual({ breakpoint: { id: 'run-2', kind: 'judge', step: 'dev' } });
    expect(formBreakpoint({ ...EMPTY_FORM, kind: 'condition', condition: " steps.plan.content.contains('x') " }, choices, 'run-3')).toEqual({
      breakpoint: { id: 'run-3', kind: 'condition', condition: "steps.plan.content.contains('x')" },
    });
    expect(formBreakpoint({ ...EMPTY_FORM, kind: 'tool', tool: 'bash' }, choices, 'run-4')).toEqual({ breakpoint: { id: 'run-4', kind: 'tool', tool: 'bash' } });
  });
  it('says what to fix first, naming the field', () => {
    expect(formBreakpoint({ ...EMPTY_FORM, kind: 'step' }, choices, 'run-1')).toEqual({ error: 'step: choose the step it holds before' });
    expect(formBreakpoint({ ...EMPTY_FORM, kind: 'round', step: 'write', at: '0' }, choices, 'run-1')).toEqual({
      error: 'round: a whole number from 1 (the first round)',
    });
    expect(formBreakpoint({ ...EMPTY_FORM, kind: 'tool', tool: ' ' }, choices, 'run-1')).toEqual({ error: 'tool: the tool’s name' });
  });
});

describe('freeRunId and refusalWords', () => {
  it('never reuses an id of the run: its own would replace a saved one', () => {
    expect(freeRunId([])).toBe('run-1');
    expect(freeRunId(['run-1', 'at-a', 'run-3'])).toBe('run-2');
  });
  it('words the server’s refusal of the one breakpoint by its field', () => {
    expect(refusalWords("breakpoints[0].step: 'write' has no untilAgent judge")).toBe("step: 'write' has no untilAgent judge");
  });
});
