import { describe, expect, it } from 'vitest';
import type { Diag, Run, ValidateResult } from '../api/types';
import type { WorkflowDoc } from '../doc/types';
import { createEditorStore, isDirty, withLines, type SyncApi } from './editorStore';
import { nextPauseClock } from './runSlice';

function diag(path: string, message = 'wrong'): Diag {
  return { code: 'X', class: 'schema', severity: 'error', path, message, line: null, column: null };
}

function verdict(document: WorkflowDoc | null, errors: Diag[] = []): ValidateResult {
  return { valid: errors.length === 0, runnable: errors.length === 0, errors, warnings: [], document, yaml: null, canonical: null };
}

/** A server that judges and renders at once: the text is `name: <name>` and one line per step. */
function server(judge: (doc: WorkflowDoc) => Diag[] = () => []): SyncApi & { calls: string[] } {
  const calls: string[] = [];
  const render = (doc: WorkflowDoc) => [`name: ${String(doc.name)}`, 'steps:', ...(doc.steps ?? []).map((s) => `  - id: ${String(s.id)}`)].join('\n') + '\n';
  return {
    calls,
    async validate(body) {
      if ('source' in body) {
        calls.push('validate-text');
        const name = /^name: (.*)$/m.exec(body.source)?.[1];
        if (name === undefined) return verdict(null, [diag('', 'not a mapping')]);
        const doc: WorkflowDoc = { name, steps: [...body.source.matchAll(/- id: (\S+)/g)].map((m) => ({ id: m[1] })) };
        return verdict(doc, judge(doc));
      }
      calls.push('validate-doc');
      return verdict(body.document, judge(body.document));
    },
    async render(body) {
      calls.push('render');
      return { text: render(body.document) };
    },
  };
}

const DOC: WorkflowDoc = { name: 'wf', steps: [{ id: 'a' }, { id: 'b' }] };

function loaded(sync: SyncApi = server()) {
  const store = createEditorStore(sync);
  store.getState().load({ workflowId: 1, version: 1, doc: DOC, source: '', layout: null });
  return store;
}

describe('editor store', () => {
  it('renders the text of a structured edit and puts line numbers on its diagnostics', async () => {
    const store = loaded(server((doc) => (doc.steps.length > 2 ? [diag('/steps/2/id', 'bad id')] : [])));
    await store.getState().whenSynced();
    store.getState().applyDoc({ ...store.getState().doc, steps: [...DOC.steps, { id: 'c' }] });
    expect(store.getState().validating).toBe(true);
    await store.getState().whenSynced();
    const s = store.getState();
    expect(s.source).toBe('name: wf\nsteps:\n  - id: a\n  - id: b\n  - id: c\n');
    expect(s.valid).toBe(false);
    expect(s.errors.map((d) => [d.message, d.line])).toEqual([['bad id', 5]]);
    expect(s.checkedRevision).toBe(s.revision);
    expect(s.validating).toBe(false);
  });

  it('drops the answer to an edit that a later edit replaced', async () => {
    let release: () => void = () => {};
    const slow = server();
    const sync: SyncApi = {
      validate: (body, signal) =>
        'document' in body && body.document.name === 'first'
          ? new Promise((resolve) => {
              release = () => resolve(verdict(body.document, [diag('/name', 'stale')]));
            })
          : slow.validate(body, signal),
      render: slow.render,
    };
    const store = loaded(sync);
    await store.getState().whenSynced();
    store.getState().applyDoc({ ...DOC, name: 'first' });
    await new Promise((r) => setTimeout(r, 40));
    store.getState().applyDoc({ ...DOC, name: 'second' });
    release();
    await store.getState().whenSynced();
    expect(store.getState().errors).toEqual([]);
    expect(store.getState().source).toContain('name: second');
  });

  it('parses a text edit on the server and takes its document', async () => {
    const store = loaded();
    await store.getState().whenSynced();
    store.getState().setSource('name: typed\nsteps:\n  - id: x\n');
    await store.getState().whenSynced();
    expect(store.getState().doc).toEqual({ name: 'typed', steps: [{ id: 'x' }] });
    expect(store.getState().parseFailed).toBe(false);
    store.getState().setSource('no mapping here');
    await store.getState().whenSynced();
    expect(store.getState().parseFailed).toBe(true);
    expect(store.getState().doc).toEqual({ name: 'typed', steps: [{ id: 'x' }] });
  });

  it('keeps typing in one field as one undo step, and redoes it', async () => {
    const store = loaded();
    await store.getState().whenSynced();
    store.getState().applyDoc({ ...DOC, name: 'w' }, { coalesce: 'wf.name' });
    store.getState().applyDoc({ ...DOC, name: 'wo' }, { coalesce: 'wf.name' });
    store.getState().applyDoc({ ...DOC, name: 'wor' }, { coalesce: 'wf.name' });
    expect(store.getState().past).toHaveLength(1);
    await store.getState().whenSynced();
    store.getState().applyDoc({ ...DOC, name: 'wor', description: 'd' });
    expect(store.getState().past).toHaveLength(2);
    await store.getState().whenSynced();
    store.getState().undo();
    expect(store.getState().doc.name).toBe('wor');
    expect(store.getState().doc.description).toBeUndefined();
    store.getState().undo();
    expect(store.getState().doc.name).toBe('wf');
    expect(store.getState().future).toHaveLength(2);
    store.getState().redo();
    expect(store.getState().doc.name).toBe('wor');
    await store.getState().whenSynced();
    expect(store.getState().source).toContain('name: wor');
  });

  it('changes nothing in a read-only view', async () => {
    const store = createEditorStore(server());
    store.getState().load({ workflowId: 1, version: 1, doc: DOC, source: '', layout: null, readOnly: true });
    await store.getState().whenSynced();
    const before = store.getState().doc;
    store.getState().applyDoc({ ...DOC, name: 'changed' });
    store.getState().setSource('name: typed\n');
    store.getState().undo();
    expect(store.getState().doc).toBe(before);
    expect(store.getState().revision).toBe(0);
  });

  it('lets nodes move in a read-only view without making the workflow unsaved', async () => {
    const store = createEditorStore(server());
    store.getState().load({ workflowId: 1, version: 1, doc: DOC, source: '', layout: null, readOnly: true });
    await store.getState().whenSynced();
    store.getState().setLayout({ version: 1, positions: { a: { x: 9, y: 9 } } }, { history: true });
    expect(store.getState().layout.positions.a).toEqual({ x: 9, y: 9 });
    expect(isDirty(store.getState())).toBe(false);
    expect(store.getState().past).toHaveLength(0);
  });

  it('carries the selection and the position of a renamed step', () => {
    const store = loaded();
    store.getState().setLayout({ version: 1, positions: { a: { x: 1, y: 2 }, 'a/inner': { x: 3, y: 4 } } });
    store.getState().select({ kind: 'step', key: 'a/inner' });
    store.getState().renameKey('a', 'z');
    expect(store.getState().selection).toEqual({ kind: 'step', key: 'z/inner' });
    expect(store.getState().layout.positions).toEqual({ z: { x: 1, y: 2 }, 'z/inner': { x: 3, y: 4 } });
  });

  it('forgets the chosen loop iteration when another node is chosen', () => {
    const store = loaded();
    store.getState().focusIteration({ loop: 'a', iteration: 1 });
    expect(store.getState().iterationFocus).toEqual({ loop: 'a', iteration: 1 });
    store.getState().select({ kind: 'step', key: 'b' }, 'instructions');
    expect(store.getState().iterationFocus).toBeNull();
    expect(store.getState().focusField).toBe('instructions');
  });

  it('is dirty until saved, and after a move of a node', async () => {
    const store = loaded();
    await store.getState().whenSynced();
    expect(isDirty(store.getState())).toBe(false);
    store.getState().applyDoc({ ...DOC, name: 'x' });
    expect(isDirty(store.getState())).toBe(true);
    const { revision, layoutRevision } = store.getState();
    store.getState().markSaved(1, 2, revision, layoutRevision);
    expect(isDirty(store.getState())).toBe(false);
    store.getState().setLayout({ version: 1, positions: { a: { x: 9, y: 9 } } }, { history: true });
    expect(isDirty(store.getState())).toBe(true);
  });

  it('folds run events into the run state and resets it', () => {
    const store = loaded();
    store.getState().addEvents([{ seq: 1, type: 'step_start', stepId: 'a', timestamp: '2026-11-23T08:00:00Z', runId: 'r1' }]);
    expect(store.getState().runState.steps.a?.status).toBe('running');
    store.getState().resetRun();
    expect(store.getState().runState.steps).toEqual({});
    expect(store.getState().run).toBeNull();
  });
});

describe('withLines', () => {
  it('shows a finding reported twice once', () => {
    const d = diag('/name');
    expect(withLines([d, { ...d }], 'name: x\n')).toHaveLength(1);
  });
});

describe('the run clock', () => {
  // A run record as the server writes it (runtime.live.serializers.run_dict): nothing spent yet.
  const run = (status: Run['status']): Run => ({
    id: '00000000-0000-4000-8000-000000000001',
    workflow_id: 1,
    workflow_name: 'wf',
    workspace_id: 1,
    started_by: 'ada',
    version: 1,
    status,
    reason: '',
    provider: 'simulated',
    model: '',
    budgets: {},
    policies: null,
    script: null,
    backend: 'inline',
    created_at: '2026-11-23T08:00:00Z',
    started_at: '2026-11-23T08:00:00Z',
    finished_at: null,
    paused_at: null,
    paused_ms: 0,
    tokens: { prompt: 0, completion: 0, total: 0 },
    cost_usd: 0,
    unpriced_models: [],
    loops: {},
    last_seq: 0,
    ask_before: [],
    workspace_seed: null,
    parent: null,
    fork_point: null,
    start_seq: 0,
    resumes: 0,
    resumed: null,
    summary: '',
    coordinator: 'off',
    shared_memory: false,
    pins: [],
    model_override: false,
    permissions: {},
    thinking: null,
    trace_id: null,
    trace_url: null,
  });

  it('stops while the run is paused and keeps the time paused before', () => {
    expect(nextPauseClock({ at: null, total: 0 }, true, 1000)).toEqual({ at: 1000, total: 0 });
    expect(nextPauseClock({ at: 1000, total: 0 }, true, 5000)).toEqual({ at: 1000, total: 0 });
    expect(nextPauseClock({ at: 1000, total: 0 }, false, 4000)).toEqual({ at: null, total: 3000 });
    expect(nextPauseClock({ at: null, total: 3000 }, false, 9000)).toEqual({ at: null, total: 3000 });
  });

  it('starts timing a pause when the shown status becomes paused, and forgets it with the run', () => {
    const store = loaded();
    store.getState().setRun(run('running'));
    expect(store.getState().pauseClock.at).toBeNull();
    store.getState().setRun(run('paused'));
    expect(store.getState().pauseClock.at).not.toBeNull();
    store.getState().setRun(run('running'));
    expect(store.getState().pauseClock.at).toBeNull();
    expect(store.getState().pauseClock.total).toBeGreaterThanOrEqual(0);
    store.getState().resetRun();
    expect(store.getState().pauseClock).toEqual({ at: null, total: 0 });
  });
});
