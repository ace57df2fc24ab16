import { describe, expect, it } from 'vitest';
import type { WorkflowDoc } from '../doc/types';
import { EMPTY_POLICIES, loopIdsOf, newRule, policiesForRequest, type RunPolicies } from './PoliciesForm';

describe('policiesForRequest', () => {
  it('is undefined when nothing is set', () => {
    expect(policiesForRequest(EMPTY_POLICIES)).toBeUndefined();
    expect(policiesForRequest(undefined)).toBeUndefined();
    expect(policiesForRequest(null)).toBeUndefined();
  });

  it('is undefined when only combine or loops are set (they change nothing alone)', () => {
    expect(policiesForRequest({ ...EMPTY_POLICIES, combine: 'all' })).toBeUndefined();
    expect(policiesForRequest({ ...EMPTY_POLICIES, loops: ['dev'] })).toBeUndefined();
  });

  it('carries the stop rules, combine and error policy', () => {
    const value: RunPolicies = {
      stop_rules: [{ kind: 'converged', threshold: 0.95 }, { kind: 'output_contains', marker: 'DONE' }, { kind: 'approval' }],
      combine: 'all',
      on_iteration_error: 'retry',
    };
    expect(policiesForRequest(value)).toEqual(value);
  });

  it('an error policy alone is enough', () => {
    expect(policiesForRequest({ ...EMPTY_POLICIES, on_iteration_error: 'skip' })).toEqual({
      stop_rules: [],
      combine: 'any',
      on_iteration_error: 'skip',
    });
  });

  it('leaves out an empty threshold and an empty loop list; keeps the loops named, once each', () => {
    const out = policiesForRequest({
      stop_rules: [{ kind: 'converged', threshold: Number.NaN }, { kind: 'converged' }],
      combine: 'any',
      on_iteration_error: 'abort',
      loops: [],
    });
    expect(out).toEqual({ stop_rules: [{ kind: 'converged' }, { kind: 'converged' }], combine: 'any', on_iteration_error: 'abort' });
    expect(out && 'loops' in out).toBe(false);
    const named = policiesForRequest({ stop_rules: [{ kind: 'approval' }], combine: 'any', on_iteration_error: 'abort', loops: ['dev', 'dev', 'each'] });
    expect(named?.loops).toEqual(['dev', 'each']);
  });

  it('passes values as typed: the server judges them (an empty marker, a threshold out of range)', () => {
    const out = policiesForRequest({
      stop_rules: [{ kind: 'output_contains', marker: '' }, { kind: 'converged', threshold: 1.5 }],
      combine: 'any',
      on_iteration_error: 'abort',
    });
    expect(out?.stop_rules).toEqual([{ kind: 'output_contains', marker: '' }, { kind: 'converged', threshold: 1.5 }]);
  });

  it('drops fields a rule of another kind left behind', () => {
    const stale = { kind: 'approval', marker: 'x', threshold: 0.5 } as unknown as RunPolicies['stop_rules'][number];
    expect(policiesForRequest({ ...EMPTY_POLICIES, stop_rules: [stale] })?.stop_rules).toEqual([{ kind: 'approval' }]);
  });

  it('does not change its input', () => {
    const value: RunPolicies = { stop_rules: [{ kind: 'approval' }], combine: 'any', on_iteration_error: 'abort', loops: [] };
    const copy = JSON.parse(JSON.stringify(value));
    policiesForRequest(value);
    expect(value).toEqual(copy);
  });
});

describe('newRule', () => {
  it('makes an empty rule of each kind', () => {
    expect(newRule('converged')).toEqual({ kind: 'converged' });
    expect(newRule('output_contains')).toEqual({ kind: 'output_contains', marker: '' });
    expect(newRule('approval')).toEqual({ kind: 'approval' });
  });
});

describe('loopIdsOf', () => {
  it('lists the top-level loop steps', () => {
    const doc = {
      name: 'x',
      steps: [
        { id: 'plan', agent: 'a' },
        { id: 'dev', loop: { maxIterations: 3, until: 'true', steps: [{ id: 'inner', loop: { forEach: [1] } }] } },
        { id: 'each', loop: { forEach: ['a'] }, instructions: 'x' },
      ],
    } as unknown as WorkflowDoc;
    expect(loopIdsOf(doc)).toEqual(['dev', 'each']);
    expect(loopIdsOf(null)).toEqual([]);
  });
});
