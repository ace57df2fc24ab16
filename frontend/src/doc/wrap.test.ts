import { describe, expect, it } from 'vitest';
import { isJudge } from './ops';
import type { WorkflowDoc } from './types';
import { unwrapLoop, unwrapProblem, wrapInLoop, wrapProblem, type UnwrapResult, type WrapResult } from './wrap';

const DOC: WorkflowDoc = {
  name: 'w',
  agents: { coder: { description: 'c' } },
  steps: [
    { id: 'plan', agent: 'coder' },
    { id: 'implement', agent: 'coder', dependsOn: ['plan'] },
    { id: 'test', dependsOn: ['implement'] },
    { id: 'review', dependsOn: ['test'] },
    { id: 'ship', dependsOn: ['review'], condition: "steps.review.status == 'completed'" },
  ],
};

function wrapped(doc: WorkflowDoc, keys: string[], kind: 'forEach' | 'repeat' | 'judge'): WrapResult {
  const r = wrapInLoop(doc, keys, kind);
  if ('error' in r) throw new Error(r.error);
  return r;
}

function unwrapped(doc: WorkflowDoc, key: string): UnwrapResult {
  const r = unwrapLoop(doc, key);
  if ('error' in r) throw new Error(r.error);
  return r;
}

describe('wrapping in a loop', () => {
  it('puts the loop where the first wrapped step was and re-points the edges in and out', () => {
    const r = wrapped(DOC, ['review', 'implement', 'test'], 'repeat');
    expect(r.doc.steps.map((s) => s.id)).toEqual(['plan', 'repeat', 'ship']);
    const loop = r.doc.steps[1];
    expect(loop.dependsOn).toEqual(['plan']);
    expect(loop.loop?.steps?.map((s) => [s.id, s.dependsOn])).toEqual([
      ['implement', undefined],
      ['test', ['implement']],
      ['review', ['test']],
    ]);
    expect(loop.loop?.maxIterations).toBe(3);
    expect(loop.loop?.until).toBe("steps.review.content.contains('DONE')");
    expect(r.doc.steps[2].dependsOn).toEqual(['repeat']);
    expect(r.keyMap).toEqual({ review: 'repeat/review', implement: 'repeat/implement', test: 'repeat/test' });
  });

  it('reports a CEL reference from outside into the loop and keeps it as written', () => {
    const r = wrapped(DOC, ['implement', 'test', 'review'], 'repeat');
    expect(r.doc.steps[2].condition).toBe("steps.review.status == 'completed'");
    expect(r.notices).toContain('The condition of "ship" reads steps.review, inside "repeat" now: read steps.repeat instead.');
  });

  it('reports a CEL reference from a wrapped step to a step left outside', () => {
    const doc: WorkflowDoc = { name: 'w', steps: [{ id: 'a' }, { id: 'b', dependsOn: ['a'], condition: "steps.a.status == 'completed'" }] };
    const r = wrapped(doc, ['b'], 'repeat');
    expect(r.doc.steps[1].dependsOn).toEqual(['a']);
    expect(r.notices.some((n) => n.startsWith('The condition of "b" reads steps.a, outside the loop now'))).toBe(true);
  });

  it('makes a judge loop with a judge agent that meets the contract, reusing one there is', () => {
    const r = wrapped(DOC, ['implement', 'test', 'review'], 'judge');
    const loop = r.doc.steps[1];
    expect(loop.id).toBe('refine');
    expect(loop.loop?.untilAgent).toBe('judge');
    expect(isJudge(r.doc.agents?.judge ?? {})).toBe(true);
    expect(r.notices.some((n) => n.includes('agent "judge"'))).toBe(true);
    const again = wrapped(r.doc, ['ship'], 'judge');
    expect(again.doc.steps[2].loop?.untilAgent).toBe('judge');
    expect(Object.keys(again.doc.agents ?? {})).toEqual(['coder', 'judge']);
  });

  it('leaves a forEach to be filled in, and says so', () => {
    const r = wrapped(DOC, ['test'], 'forEach');
    expect(r.doc.steps[2].loop).toEqual({ forEach: '', steps: [{ id: 'test' }] });
    expect(r.notices).toEqual(['Set what "for_each" iterates over (its forEach).']);
  });

  it('refuses what would nest loops or mix scopes', () => {
    const doc = wrapped(DOC, ['test', 'review'], 'repeat').doc;
    expect(wrapProblem(doc, ['repeat'])).toMatch(/is a loop/);
    expect(wrapProblem(doc, ['repeat/test'])).toMatch(/inside a loop already/);
    expect(wrapProblem(doc, ['plan', 'repeat/test'])).toMatch(/one scope/);
    expect(wrapProblem(doc, [])).toMatch(/Select/);
    expect('error' in wrapInLoop(doc, ['repeat'], 'judge')).toBe(true);
  });
});

describe('unwrapping a loop', () => {
  it('gives back the document it was wrapped from, but for the CEL it reports', () => {
    const doc: WorkflowDoc = { ...DOC, steps: DOC.steps.map((s) => ({ ...s, condition: undefined })) };
    const clean = JSON.parse(JSON.stringify(doc)) as WorkflowDoc;
    const w = wrapped(clean, ['implement', 'test', 'review'], 'repeat');
    const u = unwrapped(w.doc, w.loopKey);
    expect(u.doc.steps).toEqual(clean.steps);
    expect(u.keys).toEqual(['implement', 'test', 'review']);
    expect(u.keyMap).toEqual({ 'repeat/implement': 'implement', 'repeat/test': 'test', 'repeat/review': 'review' });
    expect(u.notices).toEqual([`Dropped with the loop "repeat": until (steps.review.content.contains('DONE')).`]);
  });

  it('makes dependents wait for every last inner step and renames ids that are taken', () => {
    const doc: WorkflowDoc = {
      name: 'w',
      steps: [
        { id: 'a' },
        { id: 'loop', dependsOn: ['a'], loop: { forEach: '[1, 2]', steps: [{ id: 'a' }, { id: 'b', dependsOn: ['a'], condition: 'steps.a.status == "completed" && item > 0' }, { id: 'c' }] } },
        { id: 'z', dependsOn: ['loop'], condition: "steps.loop.content != ''" },
      ],
    };
    const u = unwrapped(doc, 'loop');
    expect(u.doc.steps.map((s) => [s.id, s.dependsOn])).toEqual([
      ['a', undefined],
      ['a_2', ['a']],
      ['b', ['a_2']],
      ['c', ['a']],
      ['z', ['b', 'c']],
    ]);
    expect(u.doc.steps[2].condition).toBe('steps.a_2.status == "completed" && item > 0');
    expect(u.doc.steps[4].condition).toBe("steps.loop.content != ''");
    expect(u.notices).toEqual([
      '"a" is now "a_2": the name was taken.',
      'The condition of "b" reads item, which only a loop gives.',
      'Dropped with the loop "loop": forEach ([1, 2]).',
      'The condition of "z" reads steps.loop, which is gone: choose one of "b", "c".',
    ]);
  });

  it('re-points a reference to the loop output when one inner step gave it', () => {
    const doc: WorkflowDoc = {
      name: 'w',
      steps: [
        { id: 'loop', loop: { maxIterations: 2, steps: [{ id: 'x' }, { id: 'y', dependsOn: ['x'] }] } },
        { id: 'z', dependsOn: ['loop'], condition: "steps.loop.content != ''" },
      ],
    };
    const u = unwrapped(doc, 'loop');
    expect(u.doc.steps[2]).toEqual({ id: 'z', dependsOn: ['y'], condition: "steps.y.content != ''" });
    expect(u.notices).toEqual(['The condition of "z" now reads steps.y instead of the loop\'s output.']);
  });

  it('says why a step cannot be unwrapped', () => {
    expect(unwrapProblem(DOC, 'plan')).toMatch(/not a loop/);
    expect(unwrapProblem({ name: 'w', steps: [{ id: 'l', loop: { maxIterations: 2 } }] }, 'l')).toMatch(/no inner steps/);
    expect(unwrapProblem(DOC, 'nope')).toMatch(/no step/);
  });
});
