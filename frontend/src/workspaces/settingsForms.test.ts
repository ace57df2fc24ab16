import { describe, expect, it } from 'vitest';
import { actionWords, detailWords, limitsText, parseLimits } from './settingsForms';

describe('the limits form', () => {
  it('shows blanks for no limit and reads blanks back as null', () => {
    const text = limitsText({ max_concurrent_runs: 3, max_runs_per_day: null, max_tokens_per_day: 100000, max_cost_usd_per_day: null });
    expect(text).toEqual({ max_concurrent_runs: '3', max_runs_per_day: '', max_tokens_per_day: '100000', max_cost_usd_per_day: '' });
    expect(parseLimits({ ...text, max_tokens_per_day: '120,000', max_cost_usd_per_day: ' $2.50 ' })).toEqual({
      limits: { max_concurrent_runs: 3, max_runs_per_day: null, max_tokens_per_day: 120000, max_cost_usd_per_day: 2.5 },
    });
  });

  it('names the field that is wrong', () => {
    const blank = limitsText(null);
    expect(parseLimits({ ...blank, max_runs_per_day: '2.5' })).toEqual({ field: 'max_runs_per_day', error: expect.stringContaining('whole number') });
    expect(parseLimits({ ...blank, max_cost_usd_per_day: '-1' })).toMatchObject({ field: 'max_cost_usd_per_day' });
    expect(parseLimits({ ...blank, max_concurrent_runs: 'lots' })).toMatchObject({ field: 'max_concurrent_runs' });
    expect(parseLimits({ ...blank, max_concurrent_runs: '0' })).toEqual({
      limits: { max_concurrent_runs: 0, max_runs_per_day: null, max_tokens_per_day: null, max_cost_usd_per_day: null },
    });
  });
});

describe('the audit log in words', () => {
  it('names actions and details', () => {
    expect(actionWords('role_changed')).toBe('Role changed');
    expect(actionWords('something_new')).toBe('Something new');
    expect(detailWords({ user: 'bob', before: 'viewer', after: 'editor' })).toBe('user: bob · viewer → editor');
    expect(detailWords({ provider: 'openai' })).toBe('provider: openai');
    expect(detailWords({ max_runs_per_day: null })).toBe('max runs per day: none');
    expect(detailWords(null)).toBe('');
    expect(detailWords('plain')).toBe('plain');
  });
});
