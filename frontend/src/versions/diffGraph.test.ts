import { describe, expect, it } from 'vitest';
import type { WorkflowDoc } from '../doc/types';
import { compareDocs } from './compareDocs';
import { diffGraph, REMOVED_GAP } from './diffGraph';

const BEFORE: WorkflowDoc = {
  name: 'w',
  steps: [
    { id: 'plan', instructions: 'Plan.' },
    { id: 'review', instructions: 'Review.', dependsOn: ['plan'] },
    { id: 'cycle', loop: { maxIterations: 2, steps: [{ id: 'code' }, { id: 'test', dependsOn: ['code'] }] } },
  ],
};
const AFTER: WorkflowDoc = {
  name: 'w',
  steps: [
    { id: 'review', instructions: 'Review twice.' },
    { id: 'draft', dependsOn: ['review'] },
  ],
};

function graph() {
  return diffGraph({ doc: BEFORE, layout: null }, { doc: AFTER, layout: null }, compareDocs(BEFORE, AFTER));
}

describe('diffGraph', () => {
  it('marks every node of the later version with what happened to it', () => {
    const g = graph();
    const marks = Object.fromEntries(g.nodes.map((n) => [n.id, n.data.diff]));
    expect(marks).toEqual({ review: 'changed', draft: 'added', plan: 'removed', cycle: 'removed', 'cycle/code': 'removed', 'cycle/test': 'removed' });
    const review = g.nodes.find((n) => n.id === 'review')!;
    expect(review.data.changes).toBe('instructions changed, dependsOn removed');
    expect(review.className).toBe('diff-changed');
    expect(review.ariaLabel).toContain('changed: instructions changed');
  });

  it('draws removed steps in a row below the later steps, keeping a removed loop and its inner steps together', () => {
    const g = graph();
    const later = g.nodes.filter((n) => n.data.diff !== 'removed');
    const bottom = Math.max(...later.map((n) => n.position.y + 96));
    const plan = g.nodes.find((n) => n.id === 'plan')!;
    const cycle = g.nodes.find((n) => n.id === 'cycle')!;
    const code = g.nodes.find((n) => n.id === 'cycle/code')!;
    expect(plan.position.y).toBeGreaterThanOrEqual(bottom + REMOVED_GAP - 96);
    expect(plan.parentId).toBeUndefined();
    expect(cycle.parentId).toBeUndefined();
    expect(cycle.position.y).toBe(plan.position.y);
    expect(cycle.position.x).toBeGreaterThan(plan.position.x);
    expect(code.parentId).toBe('cycle');
    // React Flow needs a parent before its children.
    expect(g.nodes.findIndex((n) => n.id === 'cycle')).toBeLessThan(g.nodes.findIndex((n) => n.id === 'cycle/code'));
  });

  it('marks new dependencies added and draws dropped ones whose ends are still drawn', () => {
    const edges = Object.fromEntries(graph().edges.map((e) => [e.id, e.className]));
    expect(edges).toEqual({
      'review->draft': 'diff-edge diff-edge-added',
      'plan->review': 'diff-edge diff-edge-removed',
      'cycle/code->cycle/test': 'diff-edge diff-edge-removed',
    });
  });

  it('says why when the later version cannot be drawn', () => {
    const g = diffGraph({ doc: BEFORE, layout: null }, { doc: { steps: [3] } as never, layout: null }, compareDocs(BEFORE, {}));
    expect(g.nodes).toEqual([]);
    expect(g.unmapped).toMatch(/not a step/);
  });
});
