import { describe, expect, it } from 'vitest';
import { tickText } from './chartOptions';

describe('tickText', () => {
  it('keeps small values readable and large ones grouped', () => {
    expect([0, 0.000012345, 0.5, 12.345, 25000].map(tickText)).toEqual(['0', '0.0000123', '0.5', '12.3', '25,000']);
  });
});
