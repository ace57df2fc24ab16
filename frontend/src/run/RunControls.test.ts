import { describe, expect, it } from 'vitest';
import { controlsOffTitle } from './RunControls';

describe('controlsOffTitle', () => {
  it('says nothing while the run goes and the user may control it', () => {
    expect(controlsOffTitle(null, 'running', false)).toBeUndefined();
  });
  it("puts the role's reason first, then the run's end in words", () => {
    expect(controlsOffTitle('viewers watch runs', 'completed', true)).toBe('viewers watch runs');
    expect(controlsOffTitle(null, 'completed', true)).toBe('The run has completed');
    expect(controlsOffTitle(null, 'partial', true)).toBe('The run has ended: some steps completed, some failed');
    expect(controlsOffTitle(null, 'failed', true)).toBe('The run has failed');
    expect(controlsOffTitle(null, 'cancelled', true)).toBe('The run has been stopped');
  });
});
