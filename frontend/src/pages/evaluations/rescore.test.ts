import { describe, expect, it } from 'vitest';
import { agreementWords, fieldOf, judgeOf, rescoreEdits } from './rescore';

const DOC = {
  name: 'judged',
  agents: { writer: { description: 'Writes.' }, strict: { description: 'Judges.', prompt: 'Be strict.', model: 'openai/gpt-judge' } },
  steps: [
    { id: 'intro', agent: 'writer', instructions: 'Write.' },
    { id: 'outer', loop: { forEach: ['a'], steps: [{ id: 'dev', loop: { maxIterations: 3, untilAgent: 'strict', steps: [] } }] } },
  ],
};

describe('judgeOf', () => {
  it('finds the first judged loop, nested ones too, with its agent’s prompt and model', () => {
    expect(judgeOf(DOC)).toEqual({ name: 'strict', prompt: 'Be strict.', model: 'openai/gpt-judge' });
  });

  it('gives empty texts for a judge the document does not define, and null without a judged loop', () => {
    expect(judgeOf({ steps: [{ id: 'dev', loop: { untilAgent: 'judge' } }] })).toEqual({ name: 'judge', prompt: '', model: '' });
    expect(judgeOf({ steps: [{ id: 'a', instructions: 'x' }] })).toBeNull();
    expect(judgeOf(null)).toBeNull();
  });
});

describe('rescoreEdits', () => {
  const judge = { name: 'strict', prompt: 'Be strict.', model: 'openai/gpt-judge' };

  it('sends nothing when nothing changed: the same judge asked again', () => {
    expect(rescoreEdits(judge, { prompt: 'Be strict.', model: 'openai/gpt-judge' })).toEqual({});
  });

  it('sends the changed prompt (even emptied) and a changed model, trimmed; an empty model keeps the judge’s', () => {
    expect(rescoreEdits(judge, { prompt: 'Be kind.', model: ' openai/gpt-lenient ' })).toEqual({ prompt: 'Be kind.', model: 'openai/gpt-lenient' });
    expect(rescoreEdits(judge, { prompt: '', model: '' })).toEqual({ prompt: '' });
    expect(rescoreEdits(null, { prompt: 'New.', model: '' })).toEqual({ prompt: 'New.' });
  });
});

describe('fieldOf', () => {
  it('names the form field a refusal starts with, and none for another', () => {
    expect(fieldOf('model: name a model (at most 200 characters)', ['prompt', 'model'])).toBe('model');
    expect(fieldOf('labels: no labelled round with a verdict', ['prompt', 'model'])).toBeNull();
    expect(fieldOf('Something broke', ['prompt', 'model'])).toBeNull();
  });
});

describe('agreementWords', () => {
  it('says the agreement as the labelling view does', () => {
    const row = { labelled: 3, right: 2, too_early: 0, too_late: 1, wasted_tokens: 30, wasted_cost_usd: 0, agreement: 0.666667 };
    expect(agreementWords(row)).toBe('67 % over 3 labelled rounds: 2 right, 0 too early, 1 too late (30 tokens wasted)');
    expect(agreementWords({ ...row, labelled: 0, right: 0, too_late: 0, wasted_tokens: 0, agreement: null })).toContain('– over 0 labelled');
  });
});
