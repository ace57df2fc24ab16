import { describe, expect, it } from 'vitest';
import { formatBytes } from './bytes';

describe('formatBytes', () => {
  it('reads sizes in bytes, kB and MB', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(999)).toBe('999 B');
    expect(formatBytes(3400)).toBe('3.4 kB');
    expect(formatBytes(34_000)).toBe('34 kB');
    expect(formatBytes(999_600)).toBe('1.0 MB');
    expect(formatBytes(1_234_567)).toBe('1.2 MB');
    expect(formatBytes(-1)).toBe('');
  });
});
