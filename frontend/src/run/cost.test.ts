import { describe, expect, it } from 'vitest';
import { costText } from './cost';

describe('costText', () => {
  it('shows a real run’s cost as money spent', () => {
    expect(costText(0.00031, 'openai')).toEqual({ text: '$0.0003' });
  });
  it('shows a simulated run’s cost as an estimate, with why', () => {
    const c = costText(0.00031, 'simulated');
    expect(c?.text).toBe('≈$0.0003 if real');
    expect(c?.title).toMatch(/nothing was spent/);
  });
  it('has nothing to say without a figure', () => {
    expect(costText(null, 'openai')).toBeNull();
    expect(costText(undefined, 'simulated')).toBeNull();
  });
});
