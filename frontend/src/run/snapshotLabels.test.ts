import { describe, expect, it } from 'vitest';
import { changeCounts, copyWords, placeWords, snapshotWords } from './snapshotLabels';

describe('snapshot labels in words', () => {
  it('says start and end as they are', () => {
    expect(snapshotWords({ label: 'start', step_id: null })).toBe('start');
    expect(snapshotWords({ label: 'end', step_id: null })).toBe('end');
  });

  it('says which step, iteration or item a snapshot follows (counting from 1, as the run view does)', () => {
    expect(snapshotWords({ label: 'build', step_id: 'build' })).toBe('after step build');
    expect(snapshotWords({ label: 'refine.2', step_id: 'refine.2' })).toBe('after round 3 of refine');
    expect(snapshotWords({ label: 'batch[3]', step_id: null })).toBe('after item 4 of batch');
    expect(snapshotWords({ label: 'refine.0.draft', step_id: 'refine.0.draft' })).toBe('after step draft of round 1 of refine');
    expect(placeWords('outer[1].inner.0.work')).toBe('step work of round 1 of inner of item 2 of outer');
  });

  it('reads a step named like a moment as a step when the snapshot names it', () => {
    expect(snapshotWords({ label: 'end', step_id: 'end' })).toBe('after step end');
  });

  it('counts changes and names a step’s own copy', () => {
    expect(changeCounts({ added: 2, modified: 1, removed: 0 })).toEqual({ added: '+2', modified: '~1', removed: '-0' });
    expect(copyWords('run')).toBeNull();
    expect(copyWords('build')).toBe('build’s own copy');
  });
});
