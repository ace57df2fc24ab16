import { describe, expect, it } from 'vitest';
import { readMetrics } from './metrics';

describe('readMetrics', () => {
  it('names a judge turn by its loop and iteration, counted from 1', () => {
    const m = readMetrics({
      steps: {
        plan: { tokens: { total: 12 }, duration_ms: 40, status: 'completed' },
        'dev.0.untilAgent': { kind: 'judge', loop: 'dev', iteration: 0, tokens: 3, status: 'completed' },
        'dev.2.draft': { tokens: 5, status: 'completed' },
      },
      cost_usd: 0.5,
      duration_s: 2,
    });
    expect(m.steps).toEqual([
      ['plan', { tokens: 12, durationMs: 40, status: 'completed', label: 'plan' }],
      ['dev.0.untilAgent', { tokens: 3, durationMs: null, status: 'completed', label: 'dev · the judge of round 1 (dev.0.untilAgent)' }],
      ['dev.2.draft', { tokens: 5, durationMs: null, status: 'completed', label: 'step draft of round 3 of dev (dev.2.draft)' }],
    ]);
    expect([m.costUsd, m.durationS]).toEqual([0.5, 2]);
  });

  it('reads loop summaries and leaves out what is not a figure', () => {
    const m = readMetrics({ loops: { dev: { rounds_completed: 3, duration_ms: { mean: 10, max: 'slow' }, break_reason: 'until' }, bad: 7 }, cost_usd: 'free' });
    expect(m.loops).toEqual([['dev', { iterations: 3, meanMs: 10, maxMs: null, breakReason: 'until' }]]);
    expect(m.costUsd).toBeNull();
  });

  it("names the coordinator's row as the coordinator, not as a step", () => {
    const m = readMetrics({ steps: { coordinator: { kind: 'coordinator', tokens: 40, status: null }, work: { tokens: 9, status: 'completed' } } });
    expect(m.steps.map(([, s]) => s.label)).toEqual(['the coordinator (no step)', 'work']);
  });
});
