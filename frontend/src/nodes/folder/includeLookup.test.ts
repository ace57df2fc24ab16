import { describe, expect, it } from 'vitest';
import { includeRef, stepsSummary } from './includeLookup';

describe('include lookup helpers', () => {
  it('folds an included workflow into one line of its step ids', () => {
    expect(stepsSummary({ steps: [{ id: 'build' }, { id: 'test' }, { id: 'ship' }] })).toBe('3 steps: build, test, ship');
    expect(stepsSummary({ steps: [{ id: 'one' }] })).toBe('1 step: one');
    expect(stepsSummary({ steps: ['a', 'b', 'c', 'd', 'e'].map((id) => ({ id })) })).toBe('5 steps: a, b, c, d, …');
    expect(stepsSummary({ steps: [] })).toBe('no steps');
    expect(stepsSummary(null)).toBe('no steps');
  });

  it('reads a name of the includes map, or takes the reference as a path', () => {
    expect(includeRef({ deploy: 'workflows/deploy.yaml' }, 'deploy')).toBe('workflows/deploy.yaml');
    expect(includeRef({ deploy: 'workflows/deploy.yaml' }, 'flows/x.yaml')).toBe('flows/x.yaml');
    expect(includeRef(undefined, 'x.yaml')).toBe('x.yaml');
  });
});
