import { describe, expect, it } from 'vitest';
import type { Step } from '../../doc/types';
import { countWords, iterationGlyph, iterationWords, listWords, nodeKeysHint, nodeName, statusGlyph, type NameFacts } from './accessibleNames';

function facts(step: Step, more: Partial<NameFacts> = {}): NameFacts {
  return { kind: 'step', step, scope: '', hasInnerSteps: false, childCount: 0, ...more };
}

describe('a node name', () => {
  it('says the kind and the id of a plain step, and nothing more when there is nothing more', () => {
    expect(nodeName(facts({ id: 'first' }))).toBe('step first');
  });

  it('says where an inner step is, what it waits for and how many problems it has', () => {
    const review = facts({ id: 'review', dependsOn: ['draft'] }, { scope: 'refine' });
    expect(nodeName(review, { errors: 2 })).toBe('step review in refine, depends on draft, 2 problems');
    expect(nodeName(review, { errors: 1, warnings: 1 })).toBe('step review in refine, depends on draft, 1 problem, 1 warning');
  });

  it('lists several dependencies as a sentence does, and leaves out entries that are not ids', () => {
    const step = facts({ id: 'ship', dependsOn: ['build', 7 as unknown as string, 'test', 'docs'] });
    expect(nodeName(step)).toBe('step ship, depends on build, test and docs');
  });

  it('tells a judge loop by its inner steps and its judge', () => {
    const loop = facts({ id: 'refine', loop: { maxIterations: 3, untilAgent: 'critic', steps: [] } }, { kind: 'repeat', hasInnerSteps: true, childCount: 2 });
    expect(nodeName(loop)).toBe('repeat-until loop refine, 2 inner steps, judge critic');
  });

  it('tells a single-step loop stopped by a condition', () => {
    const loop = facts({ id: 'poll', loop: { maxIterations: 5, until: "content.contains('OK')" } }, { kind: 'repeat' });
    expect(nodeName(loop)).toBe('repeat-until loop poll, single step, until a condition');
  });

  it('tells a forEach loop by what it goes over', () => {
    const list = facts({ id: 'each', loop: { forEach: ['a', 'b', 'c'], steps: [] } }, { kind: 'forEach', hasInnerSteps: true, childCount: 1 });
    expect(nodeName(list)).toBe('forEach loop each, over 3 items, 1 inner step');
    const expr = facts({ id: 'each', loop: { forEach: 'steps.plan.result.items' } }, { kind: 'forEach' });
    expect(nodeName(expr)).toBe('forEach loop each, over steps.plan.result.items, single step');
  });

  it('tells an include by what it runs', () => {
    expect(nodeName(facts({ id: 'deploy', include: 'shared/deploy.yaml' }, { kind: 'include' }))).toBe('include deploy, runs shared/deploy.yaml');
  });

  it('ends with the run status and how long the step took', () => {
    expect(nodeName(facts({ id: 'draft' }), { status: 'completed', duration: '1.2s' })).toBe('step draft, completed in 1.2s');
    expect(nodeName(facts({ id: 'draft' }), { status: 'failed' })).toBe('step draft, failed');
  });

  it('names a step without an id rather than saying nothing', () => {
    expect(nodeName(facts({ id: '' }))).toBe('step (no id)');
  });
});

describe('words and glyphs', () => {
  it('joins lists and counts as a sentence does', () => {
    expect(listWords([])).toBe('');
    expect(listWords(['a'])).toBe('a');
    expect(listWords(['a', 'b'])).toBe('a and b');
    expect(countWords(1, 'problem')).toBe('1 problem');
    expect(countWords(3, 'problem')).toBe('3 problems');
  });

  it('says which keys work, without Delete in a read-only view', () => {
    expect(nodeKeysHint(false)).toContain('Delete removes it');
    expect(nodeKeysHint(true)).not.toContain('Delete');
  });

  it('gives every run status its own glyph', () => {
    const statuses = ['pending', 'running', 'paused', 'completed', 'failed', 'cancelled', 'skipped'];
    const glyphs = statuses.map(statusGlyph);
    expect(new Set(glyphs).size).toBe(statuses.length);
    expect(statusGlyph('something new')).toBe('?');
  });

  it('shows a judged iteration by its verdict, any other by its status', () => {
    expect(iterationGlyph('completed', { done: true, reason: null, failedOpen: false })).toBe('⚑');
    expect(iterationGlyph('completed')).toBe('✓'); // finished, in every loop: a judge's "done" has its own mark
    expect(iterationGlyph('completed', { done: false, reason: 'thin', failedOpen: false })).toBe('↻');
    expect(iterationGlyph('completed', { done: null, reason: null, failedOpen: true })).toBe('⚠');
    expect(iterationGlyph('failed', { done: false, reason: null, failedOpen: false })).toBe('✕');
    expect(iterationGlyph('running')).toBe(statusGlyph('running'));
  });

  it('puts an iteration into words: its number, item, status, time and verdict', () => {
    expect(iterationWords({ n: 2, kind: 'round', status: 'completed', time: '1.2s', verdict: { done: false, reason: 'too thin', failedOpen: false } })).toBe(
      'Round 2, completed in 1.2s, judge said not done (too thin)',
    );
    expect(iterationWords({ n: 1, kind: 'item', status: 'running', item: 'b' })).toBe('Item 1, value "b", running');
  });
});
