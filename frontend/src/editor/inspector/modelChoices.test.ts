import { describe, expect, it } from 'vitest';
import { choiceLabel } from './modelChoices';

const flash = {
  model: 'google/gemini-2.5-flash',
  provider: 'google',
  label: 'Gemini 2.5 Flash',
  input_usd_per_mtok: 0.3,
  output_usd_per_mtok: 2.5,
  context_window: 1048576,
};

describe('choiceLabel', () => {
  it('names the model and both prices per million tokens', () => {
    expect(choiceLabel(flash)).toBe('Gemini 2.5 Flash · $0.30 in / $2.50 out per M tokens');
  });

  it('keeps small prices readable and whole dollars short', () => {
    expect(choiceLabel({ ...flash, input_usd_per_mtok: 0.035, output_usd_per_mtok: 15 })).toBe('Gemini 2.5 Flash · $0.035 in / $15 out per M tokens');
  });

  it('leaves out an input price it does not know', () => {
    expect(choiceLabel({ ...flash, input_usd_per_mtok: null })).toBe('Gemini 2.5 Flash · $2.50 out per M tokens');
  });
});
