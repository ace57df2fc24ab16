import { describe, expect, it } from 'vitest';
import type { ValidateResult, Workflow } from '../api/types';
import type { WorkflowDoc } from '../doc/types';
import { createEditorStore, isDirty, type SyncApi } from '../store/editorStore';
import { seedApplyUndo, type ApplyUndoApi } from './applyUndo';

const OLD: WorkflowDoc = { name: 'wf', steps: [{ id: 'review', instructions: 'Review it.' }] };
const APPLIED: WorkflowDoc = { name: 'wf', steps: [{ id: 'review', instructions: 'Review it line by line.' }] };
const text = (doc: WorkflowDoc) => `name: wf\nsteps:\n  - id: review\n    instructions: ${String(doc.steps[0].instructions)}\n`;

/** A server that parses the one-step texts above back into their documents. */
const sync: SyncApi = {
  validate: async (body) => {
    const doc = 'document' in body ? body.document : body.source.includes('line by line') ? APPLIED : OLD;
    return { valid: true, runnable: true, errors: [], warnings: [], document: doc, yaml: null, canonical: null } as ValidateResult;
  },
  render: async (body) => ({ text: text(body.document) }),
};

function workflow(version: number, doc: WorkflowDoc, appliedFrom: number | null): Workflow {
  return { id: 7, version, document: doc, source: text(doc), layout: {}, applied_from: appliedFrom } as unknown as Workflow;
}

function opened(wf: Workflow, readOnly = false) {
  const store = createEditorStore(sync);
  store.getState().load({ workflowId: wf.id, version: wf.version, doc: wf.document as WorkflowDoc, source: wf.source, layout: null, readOnly });
  return store;
}

const api: ApplyUndoApi = {
  version: async (_id, n) => workflow(n, OLD, null),
  render: async (body) => ({ text: text(body.document) }),
};

describe('the playground’s Apply as one undo step', () => {
  it('opens the applied version with one undo step back to the version it changed, as an unsaved draft', async () => {
    const store = opened(workflow(3, APPLIED, 2));
    await store.getState().whenSynced();
    expect(isDirty(store.getState())).toBe(false);
    expect(await seedApplyUndo(store, api, workflow(3, APPLIED, 2))).toBe(true);
    expect(isDirty(store.getState())).toBe(false); // the seed is no edit
    expect(store.getState().notice?.text).toContain('brings back version 2');
    store.getState().undo();
    await store.getState().whenSynced();
    expect(store.getState().doc.steps[0].instructions).toBe('Review it.');
    expect(store.getState().source).toBe(text(OLD));
    expect(isDirty(store.getState())).toBe(true);
    expect(store.getState().past).toHaveLength(0); // one step, no more
    store.getState().redo();
    await store.getState().whenSynced();
    expect(store.getState().doc.steps[0].instructions).toBe('Review it line by line.');
  });

  it('gives no step to a version saved any other way, to a reader, or once another version is open', async () => {
    expect(await seedApplyUndo(opened(workflow(3, APPLIED, null)), api, workflow(3, APPLIED, null))).toBe(false);
    expect(await seedApplyUndo(opened(workflow(3, APPLIED, 2), true), api, workflow(3, APPLIED, 2))).toBe(false);
    const moved = opened(workflow(3, APPLIED, 2));
    moved.getState().markSaved(7, 4, 0, 0);
    expect(await seedApplyUndo(moved, api, workflow(3, APPLIED, 2))).toBe(false);
    expect(moved.getState().past).toHaveLength(0);
  });
});
