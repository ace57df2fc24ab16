import { describe, expect, it } from 'vitest';
import { holdWords } from './BreakpointHold';

describe('holdWords', () => {
  it('says where a hold is in words', () => {
    expect(holdWords({ kind: 'round', loop: 'write', round: 3 })).toBe('before round 4 of write (write.3)');
    expect(holdWords({ kind: 'round', loop: 'each', round: 1, item: true })).toBe('before item 2 of each (each[1])');
    expect(holdWords({ kind: 'judge', loop: 'dev', round: 2 })).toBe('after the judge of round 3 of dev (dev.2)');
    expect(holdWords({ kind: 'tool', step: 'work', tool: 'bash' })).toBe('before the bash call of work');
    expect(holdWords({ kind: 'step', step: 'dev.2.review' })).toBe('before step dev.2.review');
  });
});
