import { describe, expect, it } from 'vitest';
import {
  addStep,
  agentUsers,
  connect,
  disconnect,
  makeJudge,
  removeSteps,
  renameAgent,
  renameCelRefs,
  renameInLayout,
  renameStep,
  setLoopField,
  setOption,
  setStepField,
  uniqueStepId,
} from './ops';
import { pointerOfKey, targetOf } from './pointer';
import type { WorkflowDoc } from './types';

const base: WorkflowDoc = {
  name: 'w',
  agents: { coder: { description: 'c' } },
  steps: [
    { id: 'a', agent: 'coder' },
    { id: 'b', dependsOn: ['a'] },
    { id: 'loop', dependsOn: ['b'], loop: { maxIterations: 2, untilAgent: 'coder', steps: [{ id: 'x' }, { id: 'y', dependsOn: ['x'] }] } },
  ],
};

describe('document edits', () => {
  it('never mutate their input', () => {
    const before = JSON.stringify(base);
    connect(base, 'a', 'loop');
    removeSteps(base, ['a']);
    renameStep(base, 'a', 'z');
    setLoopField(base, 'loop', 'maxIterations', 9);
    expect(JSON.stringify(base)).toBe(before);
  });

  it('connect adds a dependency once and only within a scope', () => {
    let doc = connect(base, 'a', 'loop');
    doc = connect(doc, 'a', 'loop');
    expect(doc.steps[2].dependsOn).toEqual(['b', 'a']);
    expect(connect(base, 'a', 'loop/x')).toBe(base);
    expect(connect(base, 'a', 'a')).toBe(base);
    expect(connect(base, 'loop/y', 'loop/x').steps[2].loop?.steps?.[0].dependsOn).toEqual(['y']);
  });

  it('disconnect removes the dependency and an emptied list', () => {
    const doc = disconnect(base, 'a', 'b');
    expect(doc.steps[1]).toEqual({ id: 'b' });
  });

  it('removing a step removes references to it', () => {
    const doc = removeSteps(base, ['b', 'loop/x']);
    expect(doc.steps.map((s) => s.id)).toEqual(['a', 'loop']);
    expect(doc.steps[1].dependsOn).toBeUndefined();
    expect(doc.steps[1].loop?.steps).toEqual([{ id: 'y' }]);
  });

  it('renaming a step renames references and layout keys', () => {
    const { doc, key } = renameStep(base, 'loop', 'cycle');
    expect(key).toBe('cycle');
    expect(doc.steps[2].id).toBe('cycle');
    const layout = renameInLayout({ version: 1, positions: { loop: { x: 1, y: 1 }, 'loop/x': { x: 2, y: 2 }, a: { x: 0, y: 0 } } }, 'loop', 'cycle');
    expect(Object.keys(layout.positions).sort()).toEqual(['a', 'cycle', 'cycle/x']);
    const inner = renameStep(base, 'loop/x', 'first');
    expect(inner.key).toBe('loop/first');
    expect(inner.doc.steps[2].loop?.steps?.[1].dependsOn).toEqual(['first']);
  });

  it('adds steps to the top level and into loops', () => {
    const id = uniqueStepId(base, '', 'a');
    expect(id).toBe('a_2');
    const top = addStep(base, '', { id });
    expect(top.key).toBe('a_2');
    const inner = addStep(base, 'loop', { id: 'z' });
    expect(inner.key).toBe('loop/z');
    expect(inner.doc.steps[2].loop?.steps?.map((s) => s.id)).toEqual(['x', 'y', 'z']);
  });

  it('sets and clears fields', () => {
    let doc = setStepField(base, 'a', 'timeout', '5m');
    expect(doc.steps[0].timeout).toBe('5m');
    doc = setStepField(doc, 'a', 'timeout', undefined);
    expect('timeout' in doc.steps[0]).toBe(false);
    doc = setOption(doc, 'scheduler', 'round-robin');
    expect(doc.options).toEqual({ scheduler: 'round-robin' });
    doc = setOption(doc, 'scheduler', undefined);
    expect(doc.options).toBeUndefined();
  });

  it('makes an agent a judge with the done/reason contract, keeping its schema', () => {
    const doc = makeJudge(
      { name: 'j', agents: { j: { description: 'd', resultSchema: { type: 'object', properties: { score: { type: 'number' } }, required: ['score'] } } }, steps: [] },
      'j',
    );
    expect(doc.agents?.j.resultSchema).toEqual({
      type: 'object',
      properties: { score: { type: 'number' }, done: { type: 'boolean' }, reason: { type: 'string' } },
      required: ['score', 'done'],
    });
    const fresh = makeJudge({ name: 'j', steps: [] }, 'judge');
    expect(fresh.agents?.judge.description).toBeTruthy();
  });

  it('renames an agent everywhere it is used', () => {
    const doc = renameAgent(base, 'coder', 'dev');
    expect(Object.keys(doc.agents ?? {})).toEqual(['dev']);
    expect(doc.steps[0].agent).toBe('dev');
    expect(doc.steps[2].loop?.untilAgent).toBe('dev');
    expect(agentUsers(doc, 'dev')).toBe(2);
  });
});

describe('pointers', () => {
  it('maps diagnostic paths to what the editor selects', () => {
    expect(targetOf(base, '/steps/2/loop/steps/1/dependsOn/0')).toEqual({ kind: 'step', key: 'loop/y', field: 'dependsOn.0' });
    expect(targetOf(base, '/steps/2/loop/maxIterations')).toEqual({ kind: 'step', key: 'loop', field: 'loop.maxIterations' });
    expect(targetOf(base, '/agents/coder/description')).toEqual({ kind: 'agent', name: 'coder', field: 'description' });
    expect(targetOf(base, '/options/timeout')).toEqual({ kind: 'options', field: 'timeout' });
    expect(targetOf(base, '/name')).toEqual({ kind: 'workflow', field: 'name' });
    expect(targetOf(base, '')).toEqual({ kind: 'workflow', field: '' });
    expect(targetOf(base, '/steps/9/id')).toEqual({ kind: 'workflow', field: 'steps.9.id' });
  });

  it('gives the pointer of a key', () => {
    expect(pointerOfKey(base, 'loop/y')).toBe('/steps/2/loop/steps/1');
    expect(pointerOfKey(base, 'b')).toBe('/steps/1');
    expect(pointerOfKey(base, 'nope')).toBeNull();
  });
});

describe('renaming a step carries into CEL', () => {
  const doc: WorkflowDoc = {
    name: 'w',
    steps: [
      { id: 'work', instructions: 'w' },
      { id: 'gate', dependsOn: ['work'], condition: "steps.work.status == 'completed' && steps['work'].content != ''" },
      { id: 'each', dependsOn: ['work'], loop: { forEach: 'steps.work.result.items', steps: [{ id: 'x' }] } },
      { id: 'workshop', condition: 'steps.workshop.status == "x"' },
      {
        id: 'refine',
        loop: { maxIterations: 3, until: "steps.draft.content.contains('DONE') && steps.drafter.status == 'ok'", steps: [{ id: 'draft' }, { id: 'drafter' }] },
      },
    ],
  };

  it('rewrites dot and bracket references in conditions and forEach, and nothing that only starts alike', () => {
    const out = renameStep(doc, 'work', 'draft').doc;
    expect(out.steps[1].condition).toBe("steps.draft.status == 'completed' && steps.draft.content != ''");
    expect(out.steps[1].dependsOn).toEqual(['draft']);
    expect((out.steps[2].loop as { forEach: string }).forEach).toBe('steps.draft.result.items');
    expect(out.steps[3].condition).toBe('steps.workshop.status == "x"');
    expect(doc.steps[1].condition).toContain('steps.work.status'); // the input is untouched
  });

  it("rewrites the loop's until when an inner step is renamed", () => {
    const out = renameStep(doc, 'refine/draft', 'writer').doc;
    expect((out.steps[4].loop as { until: string }).until).toBe("steps.writer.content.contains('DONE') && steps.drafter.status == 'ok'");
  });

  it('writes the bracket form for an id that CEL cannot read with a dot', () => {
    expect(renameCelRefs('steps.work.content', 'work', 'first-draft')).toBe("steps['first-draft'].content");
  });
});
