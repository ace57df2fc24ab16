import { describe, expect, it } from 'vitest';
import { conditionExample } from './examples';

describe('conditionExample', () => {
  it('names a step this one depends on, marked as an example', () => {
    expect(conditionExample(['draft', 'plan'])).toBe("e.g. steps.draft.status == 'completed'");
    expect(conditionExample(['write-up'])).toBe("e.g. steps['write-up'].status == 'completed'");
  });

  it('names no step when the step depends on none (a condition reads only its dependencies)', () => {
    expect(conditionExample([])).toBe('a CEL expression over the steps this one depends on');
  });
});
