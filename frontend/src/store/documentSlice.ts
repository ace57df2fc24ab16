// The workflow being edited: its document, layout and YAML text, and the
// revisions that tell what is saved. Every edit is recorded for undo, then
// checked by the server (validationSlice).
import { renameInLayout } from '../doc/ops';
import { emptyLayout, type WorkflowDoc } from '../doc/types';
import { withLines } from './diagnostics';
import { recordHistory } from './historySlice';
import { keysOf } from './selectionSlice';
import type { SyncEngine } from './validationSlice';
import type { DocumentSlice, EditorState, GetEditor, SetEditor } from './types';

export function blankDocument(): WorkflowDoc {
  return {
    name: 'untitled-workflow',
    description: 'Describe what this workflow does.',
    agents: { worker: { description: 'Does the work.' } },
    steps: [{ id: 'start', agent: 'worker', instructions: 'Describe what this step should do.' }],
  };
}

export function createDocumentSlice(set: SetEditor, get: GetEditor, sync: SyncEngine): DocumentSlice {
  return {
    workflowId: null,
    savedVersion: null,
    doc: blankDocument(),
    layout: emptyLayout(),
    source: '',
    sourceNonce: 0,
    revision: 0,
    savedRevision: 0,
    layoutRevision: 0,
    savedLayoutRevision: 0,
    parseFailed: false,
    readOnly: false,

    load(input) {
      sync.forget();
      set({
        workflowId: input.workflowId,
        savedVersion: input.version,
        doc: input.doc,
        layout: input.layout ?? emptyLayout(),
        source: input.source,
        sourceNonce: get().sourceNonce + 1,
        revision: 0,
        savedRevision: 0,
        layoutRevision: 0,
        savedLayoutRevision: 0,
        parseFailed: false,
        readOnly: input.readOnly ?? false,
        errors: input.errors ?? [],
        warnings: input.warnings ?? [],
        iterationOutputs: input.iterationOutputs ?? {},
        valid: input.valid ?? null,
        checkedRevision: input.errors ? 0 : -1,
        past: [],
        future: [],
        selection: null,
        selectedKeys: [],
        notice: null,
      });
      if (!input.errors) {
        if (input.source) sync.afterTextEdit();
        else sync.afterDocEdit();
      } else if (input.source) {
        set({ errors: withLines(input.errors, input.source), warnings: withLines(input.warnings ?? [], input.source) });
      } else {
        // Saved as a document (through the API): the server renders its text.
        sync.afterDocEdit();
      }
    },

    applyDoc(doc, opts = {}) {
      if (get().readOnly) return;
      recordHistory(set, get, opts.coalesce ?? null);
      const patch: Partial<EditorState> = { doc, revision: get().revision + 1 };
      if (opts.layout) {
        patch.layout = opts.layout;
        patch.layoutRevision = get().layoutRevision + 1;
      }
      if (opts.select !== undefined) {
        patch.selection = opts.select;
        patch.selectedKeys = opts.selectKeys ?? keysOf(opts.select);
      }
      set(patch);
      sync.afterDocEdit();
    },

    setSource(text) {
      if (get().readOnly || text === get().source) return;
      recordHistory(set, get, 'yaml');
      set({ source: text, revision: get().revision + 1 });
      sync.afterTextEdit();
    },

    setLayout(layout, opts = {}) {
      // Read only, nodes still move (to look closer), but that is no edit: nothing to undo or save.
      const history = !!opts.history && !get().readOnly;
      if (history) recordHistory(set, get, null);
      set({ layout, layoutRevision: get().layoutRevision + (history ? 1 : 0) });
    },

    renameKey(oldKey, newKey) {
      set({ layout: renameInLayout(get().layout, oldKey, newKey) });
      const moved = (k: string) => (k === oldKey || k.startsWith(oldKey + '/') ? newKey + k.slice(oldKey.length) : k);
      const sel = get().selection;
      if (sel?.kind === 'step' && moved(sel.key) !== sel.key) set({ selection: { kind: 'step', key: moved(sel.key) } });
      set({ selectedKeys: get().selectedKeys.map(moved) });
    },

    replaceAll(doc, source, layout) {
      if (get().readOnly) return;
      recordHistory(set, get, null);
      set({
        doc,
        source,
        sourceNonce: get().sourceNonce + 1,
        layout: layout ?? emptyLayout(),
        revision: get().revision + 1,
        layoutRevision: get().layoutRevision + 1,
        selection: null,
        selectedKeys: [],
        lastCoalesce: null,
      });
      sync.afterTextEdit();
    },

    markSaved(workflowId, version, revision, layoutRevision) {
      set({ workflowId, savedVersion: version, savedRevision: revision, savedLayoutRevision: layoutRevision });
    },
  };
}
