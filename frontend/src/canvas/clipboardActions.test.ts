import { describe, expect, it } from 'vitest';
import type { WorkflowDoc } from '../doc/types';
import { stepHeight } from '../graph/mapping';
import { createEditorStore } from '../store/editorStore';
import { copyText, duplicateSelection, pasteText, unwrapSelection, wrapSelection } from './clipboardActions';
import { deleteSelection } from './deleteSelection';
import { placePasted, placeUnwrapped, placeWrapped } from './pastePlacement';

const sync = {
  validate: async () => ({ valid: true, runnable: true, errors: [], warnings: [], document: null, yaml: null, canonical: null }),
  render: async () => ({ text: '' }),
};

const DOC: WorkflowDoc = {
  name: 'wf',
  agents: { coder: { description: 'c' } },
  steps: [{ id: 'a', agent: 'coder' }, { id: 'b', dependsOn: ['a'] }, { id: 'c', dependsOn: ['b'] }],
};

function storeWith(doc: WorkflowDoc = DOC) {
  const store = createEditorStore(sync);
  const layout = { version: 1 as const, positions: { a: { x: 0, y: 0 }, b: { x: 320, y: 0 }, c: { x: 640, y: 0 } } };
  store.getState().load({ workflowId: 1, version: 1, doc, source: '', layout, errors: [], warnings: [], valid: true });
  return store;
}

describe('clipboard actions on the editor', () => {
  it('pastes as one undo step, selects what it pasted, and undo forgets that selection', () => {
    const store = storeWith();
    store.getState().selectSteps(['a', 'b']);
    const text = copyText(store)!;
    expect(pasteText(store, text, { x: 0, y: 400 })).toBe(true);
    const s = store.getState();
    expect(s.doc.steps.map((x) => x.id)).toEqual(['a', 'b', 'c', 'a_2', 'b_2']);
    expect(s.doc.steps[4].dependsOn).toEqual(['a_2']);
    expect(s.selectedKeys).toEqual(['a_2', 'b_2']);
    expect(s.layout.positions.a_2).toEqual({ x: 0, y: 400 });
    expect(s.layout.positions.b_2).toEqual({ x: 320, y: 400 });
    expect(s.past).toHaveLength(1);
    store.getState().undo();
    expect(store.getState().doc).toEqual(DOC);
    expect(store.getState().selectedKeys).toEqual([]);
    expect(store.getState().selection).toBeNull();
  });

  it('says why text is no steps, and changes nothing', () => {
    const store = storeWith();
    expect(pasteText(store, 'just words', { x: 0, y: 0 })).toBe(false);
    expect(store.getState().notice?.text).toMatch(/^The clipboard holds no zenflow steps/);
    expect(store.getState().past).toHaveLength(0);
  });

  it('duplicates beside the originals, never on top of them', () => {
    const store = storeWith();
    store.getState().selectSteps(['b']);
    duplicateSelection(store);
    // Offset from the original, then moved down until it covers nothing.
    const at = store.getState().layout.positions.b_2;
    expect(at.x).toBe(360);
    expect(at.y).toBeGreaterThanOrEqual(stepHeight(DOC.steps[1], 'step'));
    expect((at.y - 40) % 40).toBe(0);
    expect(store.getState().notice?.details).toEqual(['Dropped "b_2" depends on "a": that step was not pasted.']);
  });

  it('deletes every selected step as one undo step', () => {
    const store = storeWith();
    store.getState().selectSteps(['a', 'c']);
    deleteSelection(store);
    expect(store.getState().doc.steps.map((x) => x.id)).toEqual(['b']);
    expect(store.getState().past).toHaveLength(1);
  });

  it('wraps and unwraps, each one undo step that restores the state before it', () => {
    const store = storeWith();
    store.getState().selectSteps(['a', 'b', 'c']);
    wrapSelection(store, 'judge');
    const wrapped = store.getState().doc;
    expect(wrapped.steps.map((x) => x.id)).toEqual(['refine']);
    expect(store.getState().selection).toEqual({ kind: 'step', key: 'refine' });
    expect(store.getState().layout.positions['refine/b']).toEqual({ x: 344, y: 128 });
    unwrapSelection(store);
    expect(store.getState().doc.steps).toEqual(DOC.steps);
    expect(store.getState().layout.positions.b).toEqual({ x: 320, y: 0 });
    store.getState().undo();
    expect(store.getState().doc).toEqual(wrapped);
    store.getState().undo();
    expect(store.getState().doc).toEqual(DOC);
  });

  it('refuses to wrap a loop, with a notice and no edit', () => {
    const store = storeWith();
    store.getState().selectSteps(['a']);
    wrapSelection(store, 'repeat');
    store.getState().selectSteps(['repeat']);
    wrapSelection(store, 'forEach');
    expect(store.getState().notice?.text).toMatch(/^Cannot wrap in a forEach loop: "repeat" is a loop/);
    expect(store.getState().past).toHaveLength(1);
  });
});

describe('placement', () => {
  it('lays steps without positions out in columns by dependency', () => {
    const layout = placePasted({ version: 1, positions: {} }, { x: 'x', y: 'y', z: 'z' }, {}, [{ id: 'x' }, { id: 'y', dependsOn: ['x'] }, { id: 'z' }], { x: 10, y: 20 });
    expect(layout.positions).toEqual({ x: { x: 10, y: 20 }, y: { x: 330, y: 20 }, z: { x: 10, y: 180 } });
  });

  it('moves a paste off steps it would cover exactly', () => {
    const layout = placePasted({ version: 1, positions: { x: { x: 0, y: 0 }, x_2: { x: 40, y: 40 } } }, { x: 'x_3' }, { x: { x: 0, y: 0 } }, [{ id: 'x' }], { x: 0, y: 0 });
    expect(layout.positions.x_3).toEqual({ x: 80, y: 80 });
  });

  it('puts a wrapped step inside its loop where it was drawn, and back again', () => {
    const start = { version: 1 as const, positions: { a: { x: 100, y: 300 }, b: { x: 400, y: 300 }, other: { x: 0, y: 0 } } };
    const wrapped = placeWrapped(start, { a: 'l/a', b: 'l/b' }, 'l');
    expect(wrapped.positions).toEqual({ other: { x: 0, y: 0 }, l: { x: 76, y: 172 }, 'l/a': { x: 24, y: 128 }, 'l/b': { x: 324, y: 128 } });
    expect(placeUnwrapped(wrapped, { 'l/a': 'a', 'l/b': 'b' }, 'l').positions).toEqual(start.positions);
  });
});
