import { describe, expect, it } from 'vitest';
import type { WorkflowDoc } from '../../doc/types';
import {
  buildInput,
  buildPatch,
  docFields,
  ForkEditError,
  forkBody,
  forkKind,
  forkPointWords,
  forkTestId,
  forkTitle,
  inheritedFigures,
  inheritedWords,
  inputText,
  parentComparePath,
  pointerToken,
  scriptText,
} from './forkEdits';

const DOC: WorkflowDoc = {
  name: 'ten rounds',
  agents: { judge: { description: 'Judges.', prompt: 'Be fair.' }, 'team/writer': { description: 'Writes.' } },
  steps: [
    { id: 'plan', instructions: 'Plan.', agent: 'team/writer' },
    { id: 'write', instructions: 'Write.', loop: { maxIterations: 10, untilAgent: 'judge' } },
    { id: 'each', loop: { forEach: ['a', 'b'], steps: [{ id: 'draft', instructions: 'Draft.' }, { id: 'check' }] } },
  ],
};

describe('what a fork starts at', () => {
  it('tells a round, an item and a step apart from the document', () => {
    expect(forkKind(DOC, { step: 'write', iteration: 2 })).toBe('round');
    expect(forkKind(DOC, { step: 'each', iteration: 0 })).toBe('item');
    expect(forkKind(DOC, { step: 'plan' })).toBe('step');
  });

  it('says where in 1-based words', () => {
    expect(forkTitle({ step: 'write', iteration: 2 }, 'round')).toBe('Re-run from round 3 of write');
    expect(forkTitle({ step: 'each', iteration: 0 }, 'item')).toBe('Re-run from item 1 of each');
    expect(forkTitle({ step: 'plan' }, 'step')).toBe('Re-run from step plan');
    expect(forkPointWords({ step: 'write', iteration: 4, kind: 'round' })).toBe('from round 5 of write');
    expect(inheritedWords({ step: 'write', iteration: 3 }, 'round')).toContain('Rounds 1 to 3 and their verdicts are kept');
    expect(inheritedWords({ step: 'write', iteration: 0 }, 'round')).toContain('starts again at round 1');
    expect(forkTestId({ step: 'write', iteration: 3 })).toBe('fork-from-write.3');
    expect(forkTestId({ step: 'plan' })).toBe('fork-from-plan');
  });

  it('links a fork to the comparison with its parent, and nothing else', () => {
    expect(parentComparePath({ id: 'b', parent: 'a' })).toBe('/runs/a/compare/b');
    expect(parentComparePath({ id: 'b', parent: null })).toBeNull();
  });
});

describe('the fields that matter there', () => {
  it('offers a round its loop instructions, its judge prompt, until and maxIterations', () => {
    const fields = docFields(DOC, { step: 'write', iteration: 2 }, 'round');
    expect(fields.map((f) => [f.label, f.pointer, f.value, f.present])).toEqual([
      ['write: instructions', '/steps/1/instructions', 'Write.', true],
      ['judge judge: prompt', '/agents/judge/prompt', 'Be fair.', true],
      ['until (CEL)', '/steps/1/loop/until', '', false],
      ['maxIterations', '/steps/1/loop/maxIterations', '10', true],
    ]);
  });

  it("offers an item its loop's inner instructions, and a step its own with its agent's prompt", () => {
    expect(docFields(DOC, { step: 'each', iteration: 1 }, 'item').map((f) => f.pointer)).toEqual([
      '/steps/2/loop/steps/0/instructions',
      '/steps/2/loop/steps/1/instructions',
    ]);
    expect(docFields(DOC, { step: 'plan' }, 'step').map((f) => f.pointer)).toEqual(['/steps/0/instructions', '/agents/team~1writer/prompt']);
    expect(pointerToken('a~b/c')).toBe('a~0b~1c');
  });

  it('offers nothing for a step the document does not have at the top level', () => {
    expect(docFields(DOC, { step: 'write.3.draft' }, 'step')).toEqual([]);
  });
});

describe('the request', () => {
  const fields = docFields(DOC, { step: 'write', iteration: 2 }, 'round');

  it('patches only what changed: replace what is there, add what is not', () => {
    const patch = buildPatch(fields, { 'agent:judge': 'Be strict.', until: 'content.contains("x")', instructions: 'Write.', maxIterations: ' 12 ' });
    expect(patch).toEqual([
      { op: 'replace', path: '/agents/judge/prompt', value: 'Be strict.' },
      { op: 'add', path: '/steps/1/loop/until', value: 'content.contains("x")' },
      { op: 'replace', path: '/steps/1/loop/maxIterations', value: 12 },
    ]);
    expect(buildPatch(fields, { until: '' })).toEqual([]);
  });

  it('refuses a count that is not a whole number of at least 1', () => {
    expect(() => buildPatch(fields, { maxIterations: 'many' })).toThrow(ForkEditError);
    expect(() => buildPatch(fields, { maxIterations: '0' })).toThrow('maxIterations must be a whole number of at least 1.');
  });

  it('sends the edited input only when it changed, and an item as JSON', () => {
    expect(buildInput('round', 'draft 1', 'draft 1')).toBeUndefined();
    expect(buildInput('round', 'draft 1', 'better')).toEqual({ previous_output: 'better' });
    expect(buildInput('item', '"a"', '{"name": "z"}')).toEqual({ item: { name: 'z' } });
    expect(() => buildInput('item', '"a"', '{name')).toThrow('The item is not valid JSON');
    expect(inputText('item', { item: { a: 1 } })).toBe('{\n  "a": 1\n}');
    expect(inputText('round', { previousOutput: 'x' })).toBe('x');
  });

  it('leaves out what was not changed', () => {
    const run = { provider: 'simulated', model: null };
    expect(forkBody({ step: 'write', iteration: 2 }, { patch: [], provider: 'simulated', model: '' }, run)).toEqual({
      at: { step: 'write', iteration: 2 },
    });
    expect(forkBody({ step: 'plan' }, { patch: [], provider: 'openai', model: 'gpt-x' }, run)).toEqual({
      at: { step: 'plan' },
      provider: 'openai',
      model: 'gpt-x',
    });
    expect(forkBody({ step: 'plan' }, { patch: [], script: 'replies: {plan: [again]}' }, run)).toEqual({
      at: { step: 'plan' },
      script: 'replies: {plan: [again]}',
    });
  });

  it('shows the parent’s script as text, a mapping as YAML', () => {
    expect(scriptText('replies: {a: [x]}')).toBe('replies: {a: [x]}');
    expect(scriptText({ replies: { a: ['x'] } })).toBe('replies:\n  a:\n    - x\n');
    expect(scriptText(null)).toBe('');
  });
});

describe("a fork's inherited part, said apart from its own", () => {
  it('counts the rounds, tokens, cost and the time of the parent it took', () => {
    const part = { events: 30, iterations: 2, tokens: 1200, costUsd: 0.0042, firstAt: '2026-11-27T10:00:00.000Z', lastAt: '2026-11-27T10:00:06.500Z' };
    expect(inheritedFigures(part, 'round')).toBe("2 rounds · 1,200 tokens · $0.004200 · 6.5 s of the parent's time");
    expect(inheritedFigures({ ...part, costUsd: 0 }, 'step')).toBe("1,200 tokens · 6.5 s of the parent's time");
    expect(inheritedFigures({ ...part, events: 0 }, 'round')).toBeNull();
  });
});

