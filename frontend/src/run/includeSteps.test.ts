import { describe, expect, it } from 'vitest';
import { innerStepRows } from './includeSteps';

describe('innerStepRows', () => {
  it('lists an include result\'s inner steps by namespaced id (zenflow include_test.go)', () => {
    const result = {
      summary: 'built',
      innerSteps: {
        'do_build.compile': { content: 'compiled', status: 'completed' },
        'do_build.test': { content: null, status: 'skipped' },
        'do_build.meta': { content: { ok: true }, status: 'completed' },
      },
    };
    expect(innerStepRows(result)).toEqual([
      { id: 'do_build.compile', status: 'completed', content: 'compiled' },
      { id: 'do_build.test', status: 'skipped', content: '' },
      { id: 'do_build.meta', status: 'completed', content: '{"ok":true}' },
    ]);
  });

  it('gives nothing for a result without innerSteps, or not an object', () => {
    expect(innerStepRows(undefined)).toEqual([]);
    expect(innerStepRows(null)).toEqual([]);
    expect(innerStepRows(['a'])).toEqual([]);
    expect(innerStepRows({ innerSteps: ['x'] })).toEqual([]);
    expect(innerStepRows({ done: true })).toEqual([]);
  });
});
