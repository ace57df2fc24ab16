import { describe, expect, it } from 'vitest';
import type { WorkflowDoc } from '../doc/types';
import { createEditorStore } from '../store/editorStore';
import { addInnerStep, addNode } from './add';
import { NODE_KINDS, PALETTE, paletteItem } from './registry';

const sync = {
  validate: async () => ({ valid: true, runnable: true, errors: [], warnings: [], document: null, yaml: null, canonical: null }),
  render: async () => ({ text: '' }),
};

function storeWith(doc: WorkflowDoc) {
  const store = createEditorStore(sync);
  store.getState().load({ workflowId: 1, version: 1, doc, source: '', layout: null, errors: [], warnings: [], valid: true });
  return store;
}

const LOOP: WorkflowDoc = {
  name: 'wf',
  agents: { writer: { description: 'writes' } },
  steps: [{ id: 'dev', loop: { maxIterations: 2, steps: [{ id: 'work' }] } }],
};

describe('the node registry', () => {
  it('offers the palette in its order, the judge loop beside repeat-until', () => {
    expect(PALETTE.map((item) => item.kind)).toEqual(['step', 'forEach', 'repeat', 'judge', 'include']);
  });

  it('gives every node kind a node and a panel', () => {
    for (const spec of Object.values(NODE_KINDS)) {
      expect(spec.Node).toBeTruthy();
      expect(spec.Panel).toBeTruthy();
    }
    expect(paletteItem('nothing')).toBeUndefined();
  });
});

describe('adding a node', () => {
  it('puts a step into the loop it is added to, with the first agent', () => {
    const store = storeWith(LOOP);
    const key = addInnerStep(store, 'dev');
    expect(key).toBe('dev/inner');
    const loop = store.getState().doc.steps[0].loop;
    expect(loop?.steps?.map((s) => [s.id, s.agent])).toEqual([
      ['work', undefined],
      ['inner', 'writer'],
    ]);
    expect(store.getState().selection).toEqual({ kind: 'step', key: 'dev/inner' });
    expect(store.getState().layout.positions['dev/inner']).toBeDefined();
  });

  it('puts a loop or an include added into a loop at the top level: loops do not nest', () => {
    const store = storeWith(LOOP);
    expect(addNode(store, paletteItem('forEach')!, { x: 10, y: 10 }, 'dev')).toBe('for_each');
    expect(addNode(store, paletteItem('include')!, { x: 10, y: 300 }, 'dev')).toBe('include');
    expect(store.getState().doc.steps.map((s) => s.id)).toEqual(['dev', 'for_each', 'include']);
    expect(store.getState().layout.positions.include).toEqual({ x: 10, y: 300 });
  });

  it('brings a judge agent with the judge contract along with a judge loop', () => {
    const store = storeWith(LOOP);
    addNode(store, paletteItem('judge')!);
    const doc = store.getState().doc;
    const refine = doc.steps.find((s) => s.id === 'refine');
    expect(refine?.loop?.untilAgent).toBe('judge');
    expect(refine?.loop?.steps?.[0].agent).toBe('writer');
    expect(doc.agents?.judge?.resultSchema).toMatchObject({ required: ['done'], properties: { done: { type: 'boolean' } } });
  });

  it('adds nothing to a read-only view', () => {
    const store = createEditorStore(sync);
    store.getState().load({ workflowId: 1, version: 1, doc: LOOP, source: '', layout: null, errors: [], warnings: [], valid: true, readOnly: true });
    expect(addNode(store, paletteItem('step')!)).toBeNull();
    expect(store.getState().doc).toBe(LOOP);
  });
});
