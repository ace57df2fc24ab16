import { describe, expect, it } from 'vitest';
import type { WorkflowDoc } from '../doc/types';
import { compareDocs, describeStep, describeWorkflow, hasChanges } from './compareDocs';

const V1: WorkflowDoc = {
  name: 'review-loop',
  agents: { writer: { description: 'writes' }, judge: { description: 'judges' } },
  steps: [
    { id: 'plan', instructions: 'Plan it.' },
    { id: 'review', instructions: 'Review it.', dependsOn: ['plan'] },
    {
      id: 'cycle',
      dependsOn: ['review'],
      loop: { maxIterations: 3, until: 'done', steps: [{ id: 'code', instructions: 'Code.' }, { id: 'test', instructions: 'Test.' }] },
    },
    { id: 'ship' },
  ],
};

function v2(): WorkflowDoc {
  return structuredClone(V1);
}

function kinds(a: WorkflowDoc, b: WorkflowDoc): Record<string, string> {
  return Object.fromEntries(compareDocs(a, b).steps.map((s) => [s.key, s.kind]));
}

describe('compareDocs', () => {
  it('finds nothing between a document and itself, whatever its key order', () => {
    const reordered: WorkflowDoc = { steps: V1.steps.map((s) => Object.fromEntries(Object.entries(s).reverse())) as never, agents: V1.agents, name: V1.name };
    const diff = compareDocs(V1, reordered);
    expect(hasChanges(diff)).toBe(false);
    expect(diff.counts).toEqual({ added: 0, removed: 0, changed: 0, unchanged: 6 });
  });

  it('names the field that changed in a changed step', () => {
    const b = v2();
    b.steps[1].instructions = 'Review it twice.';
    b.steps[1].timeout = '5m';
    const review = compareDocs(V1, b).steps.find((s) => s.key === 'review');
    expect(review?.kind).toBe('changed');
    expect(review?.fields).toEqual([
      { field: 'instructions', change: 'changed' },
      { field: 'timeout', change: 'added' },
    ]);
    expect(describeStep(review!)).toBe('step `review`: instructions changed, timeout added');
  });

  it('marks an added step added and a removed one removed, listing the removed one where it stood', () => {
    const b = v2();
    b.steps.splice(0, 1, { id: 'draft', instructions: 'Draft.' });
    const diff = compareDocs(V1, b);
    expect(kinds(V1, b)).toMatchObject({ draft: 'added', plan: 'removed', review: 'unchanged' });
    // A replaced step reads as in a line diff: the removed one, then the one added in its place.
    expect(diff.steps.slice(0, 3).map((s) => s.key)).toEqual(['plan', 'draft', 'review']);
    expect(describeStep(diff.steps[0])).toBe('step `plan` removed');
    expect(describeStep(diff.steps[1])).toBe('step `draft` added');
  });

  it('compares inner steps of a loop by their namespaced key and counts them on the loop', () => {
    const b = v2();
    const loop = b.steps[2].loop!;
    loop.steps![0].instructions = 'Code carefully.';
    loop.steps!.push({ id: 'lint' });
    const diff = compareDocs(V1, b);
    expect(kinds(V1, b)).toMatchObject({ cycle: 'unchanged', 'cycle/code': 'changed', 'cycle/test': 'unchanged', 'cycle/lint': 'added' });
    expect(diff.steps.find((s) => s.key === 'cycle')?.inside).toBe(2);
    expect(describeStep(diff.steps.find((s) => s.key === 'cycle/lint')!)).toBe('step `lint` in `cycle` added');
  });

  it('reports a loop setting by its own name, not the whole loop', () => {
    const b = v2();
    b.steps[2].loop!.maxIterations = 5;
    const cycle = compareDocs(V1, b).steps.find((s) => s.key === 'cycle');
    expect(cycle?.kind).toBe('changed');
    expect(cycle?.fields).toEqual([{ field: 'loop.maxIterations', change: 'changed' }]);
  });

  it('counts a step moved into a loop as removed at the top and added inside', () => {
    const b = v2();
    const [ship] = b.steps.splice(3, 1);
    b.steps[2].loop!.steps!.push(ship);
    expect(kinds(V1, b)).toMatchObject({ ship: 'removed', 'cycle/ship': 'added' });
  });

  it('lists a removed top-level step after the inner steps of the loop before it', () => {
    const b = v2();
    b.steps.splice(3, 1);
    b.steps[2].loop!.steps!.push({ id: 'lint' });
    const keys = compareDocs(V1, b).steps.map((s) => s.key);
    expect(keys).toEqual(['plan', 'review', 'cycle', 'cycle/code', 'cycle/test', 'cycle/lint', 'ship']);
  });

  it('lists the inner steps of a removed loop under it', () => {
    const b = v2();
    b.steps.splice(2, 1);
    const diff = compareDocs(V1, b);
    expect(diff.steps.map((s) => `${s.key}:${s.kind}`)).toEqual([
      'plan:unchanged',
      'review:unchanged',
      'cycle:removed',
      'cycle/code:removed',
      'cycle/test:removed',
      'ship:unchanged',
    ]);
  });

  it('reports changes outside the steps one named thing deep', () => {
    const b = v2();
    b.agents!.writer = { description: 'writes well' };
    delete b.agents!.judge;
    b.name = 'review-loop-2';
    const diff = compareDocs(V1, b);
    expect(diff.workflow).toEqual([
      { field: 'name', change: 'changed' },
      { field: 'agents.writer', change: 'changed' },
      { field: 'agents.judge', change: 'removed' },
    ]);
    expect(describeWorkflow(diff.workflow[2])).toBe('workflow: agents.judge removed');
    expect(hasChanges(diff)).toBe(true);
  });

  it('copes with documents that are broken or not documents at all', () => {
    expect(compareDocs(null, { steps: 'no' }).steps).toEqual([]);
    const broken = compareDocs({ steps: [{ id: 'a' }, 'text', { id: 'a' }] }, { steps: [{ id: 'a' }, 7] });
    expect(broken.steps.map((s) => `${s.key}:${s.kind}`)).toEqual(['a:unchanged', '#1:changed', 'a#2:removed']);
  });
});
