import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { ReactFlowProvider, useReactFlow } from '@xyflow/react';
import { api, errorText, type StartRunBody } from '../api/client';
import { blockingRun } from '../api/types';
import { Banner } from '../components/Banner';
import { isLayout, isObject, type WorkflowDoc } from '../doc/types';
import { navigate, setLeaveGuard } from '../router';
import { EditorContext, useEditor, useEditorStore } from '../store/context';
import { blankDocument, createEditorStore, isDirty, type EditorState, type EditorStore } from '../store/editorStore';
import { keepDrafts, readDraft, type Draft, type DraftKeeper } from '../store/drafts';
import { deleteSelection, layoutMissing, needsLayout, tidyUp } from './actions';
import { Canvas, READABLE_ZOOM } from './Canvas';
import { preloadElk } from '../layout/elk';
import { ImportDialog, importText, fileText } from './ImportDialog';
import { Inspector } from './Inspector';
import { Palette } from './Palette';
import { ProblemsPanel } from './ProblemsPanel';
import { RunDialog } from './RunDialog';
import { YamlView } from './YamlView';

type LoadInput = Parameters<EditorState['load']>[0];

function isEditable(el: EventTarget | null): boolean {
  if (!(el instanceof HTMLElement)) return false;
  return el.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName) || !!el.closest('.cm-editor');
}

function download(name: string, text: string, type: string) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** Sizes the canvas has measured, by node id (what elk should lay out). */
function measuredSizes(nodes: { id: string; measured?: { width?: number; height?: number } }[]): Map<string, { width: number; height: number }> {
  const out = new Map<string, { width: number; height: number }>();
  for (const n of nodes) if (n.measured?.width && n.measured.height) out.set(n.id, { width: n.measured.width, height: n.measured.height });
  return out;
}

const YAML_PREF = 'ld:show-yaml';

/** The YAML panel: as the user last left it, else open only on wide windows (it squeezes the canvas below ~1440 px). */
function initialShowYaml(): boolean {
  try {
    const saved = window.localStorage.getItem(YAML_PREF);
    if (saved === '1' || saved === '0') return saved === '1';
  } catch {
    // storage unavailable: fall back to the width
  }
  return window.innerWidth >= 1440;
}

function rememberShowYaml(show: boolean): void {
  try {
    window.localStorage.setItem(YAML_PREF, show ? '1' : '0');
  } catch {
    // not remembered; still toggled
  }
}

function fileBase(doc: WorkflowDoc): string {
  const name = typeof doc.name === 'string' && doc.name.trim() ? doc.name.trim() : 'workflow';
  return name.replace(/[^A-Za-z0-9_.-]+/g, '-');
}

/** Saves a new version (or creates the workflow); returns its id and version. */
export async function saveWorkflow(store: EditorStore): Promise<{ id: number; version: number }> {
  await store.getState().whenSynced();
  const s = store.getState();
  const revision = s.revision;
  const layoutRevision = s.layoutRevision;
  const body = s.source.trim() ? { source: s.source, layout: s.layout } : { document: s.doc, layout: s.layout };
  const wf = s.workflowId === null ? await api.createWorkflow(body) : await api.saveWorkflow(s.workflowId, body);
  store.getState().markSaved(wf.id, wf.version, revision, layoutRevision);
  return { id: wf.id, version: wf.version };
}

export function EditorPage({ workflowId }: { workflowId: number | null }) {
  const [store] = useState(() => createEditorStore(api));
  return (
    <EditorContext.Provider value={store}>
      <ReactFlowProvider>
        <Editor workflowId={workflowId} />
      </ReactFlowProvider>
    </EditorContext.Provider>
  );
}

function Editor({ workflowId }: { workflowId: number | null }) {
  const store = useEditorStore();
  const flow = useReactFlow();
  const [loadError, setLoadError] = useState<string | null>(null);
  const [loading, setLoading] = useState(workflowId !== null);
  const [notice, setNotice] = useState<{ kind: 'error' | 'info'; text: string } | null>(null);
  const [restored, setRestored] = useState<Draft | null>(null);
  const keeper = useRef<DraftKeeper | null>(null);
  const [dialog, setDialog] = useState<'import' | 'run' | null>(null);
  const [showYaml, setShowYaml] = useState(initialShowYaml);
  const [saving, setSaving] = useState(false);
  const [exportOpen, setExportOpen] = useState(false);
  const [dragOver, setDragOver] = useState(false);

  // Narrow subscriptions: a keystroke in the inspector must not re-render the whole editor.
  const docName = useEditor((s) => (typeof s.doc.name === 'string' ? s.doc.name : ''));
  const emptyDoc = useEditor((s) => Array.isArray(s.doc.steps) && s.doc.steps.length === 0);
  const dirty = useEditor(isDirty);
  const version = useEditor((s) => s.savedVersion);
  const errors = useEditor((s) => s.errors.length);
  const warningList = useEditor((s) => s.warnings);
  const blocking = useMemo(() => blockingRun(warningList), [warningList]);
  const valid = useEditor((s) => s.valid);
  const current = useEditor((s) => s.checkedRevision === s.revision && !s.validating);
  const canUndo = useEditor((s) => s.past.length > 0);
  const canRedo = useEditor((s) => s.future.length > 0);
  const readOnlyView = useEditor((s) => s.readOnly);
  const viewingVersion = new URLSearchParams(window.location.search).get('version');
  // "Edit and run" from a finished run: the run dialog opens with that run's settings once loaded.
  const rerunFrom = new URLSearchParams(window.location.search).get('rerun');

  // Unsaved edits are kept in localStorage until saved, so a crash or a reload loses nothing.
  useEffect(() => {
    const k = keepDrafts(store);
    keeper.current = k;
    return () => {
      k.stop();
      if (keeper.current === k) keeper.current = null;
    };
  }, [store]);

  // What the server gave on load, so that "Discard" can go back to it.
  const loaded = useRef<LoadInput | null>(null);
  const restoreDraft = (draft: Draft) => {
    loaded.current = {
      workflowId: store.getState().workflowId,
      version: store.getState().savedVersion,
      doc: store.getState().doc,
      source: store.getState().source,
      layout: store.getState().layout,
    };
    store.getState().replaceAll(draft.doc, draft.source, draft.layout);
    setRestored(draft);
  };
  const discardRestored = () => {
    keeper.current?.discard();
    if (loaded.current) store.getState().load(loaded.current);
    store.getState().requestFit();
    setRestored(null);
  };

  // Load the workflow (or a blank one). The server re-checks it on load.
  useEffect(() => {
    if (workflowId !== null && store.getState().workflowId === workflowId) return; // just saved: same editor
    let cancelled = false;
    if (workflowId === null) {
      const draft = readDraft(null);
      store.getState().load({ workflowId: null, version: null, doc: blankDocument(), source: '', layout: null });
      if (draft) restoreDraft(draft);
      void layoutMissing(store);
      setLoading(false);
      return;
    }
    setLoading(true);
    preloadElk(); // in parallel with the fetch: imported documents may need a layout
    const n = Number(viewingVersion);
    const fetch = viewingVersion && Number.isInteger(n) ? api.version(workflowId, n) : api.getWorkflow(workflowId);
    fetch
      .then(async (wf) => {
        if (cancelled) return;
        performance.mark('ld:fetched');
        const parsed = isObject(wf.document) ? (wf.document as WorkflowDoc) : { name: wf.name, steps: [] };
        // The server judged the saved version already: its diagnostics come with it.
        const judged = Array.isArray(wf.errors) && Array.isArray(wf.warnings) && typeof wf.valid === 'boolean';
        store.getState().load({
          workflowId: wf.id,
          version: wf.version,
          doc: parsed,
          source: wf.source ?? '',
          layout: isLayout(wf.layout) ? wf.layout : null,
          ...(judged ? { errors: wf.errors, warnings: wf.warnings, valid: wf.valid, iterationOutputs: wf.iteration_outputs ?? {} } : {}),
        });
        if (viewingVersion) store.getState().markSaved(wf.id, wf.version, -1, -1);
        else {
          const draft = readDraft(wf.id);
          if (draft) restoreDraft(draft);
        }
        // Interactive at once; a missing layout comes from elkjs (in a worker) just after.
        setLoading(false);
        if (rerunFrom && !viewingVersion) setDialog('run');
        store.getState().requestFit();
        if (needsLayout(store)) {
          void layoutMissing(store).then(() => {
            performance.mark('ld:laid-out');
            if (!cancelled) store.getState().requestFit();
          });
        }
      })
      .catch((e) => {
        if (!cancelled) {
          setLoadError(errorText(e));
          setLoading(false);
        }
      });
    return () => {
      cancelled = true;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [workflowId, store]);

  const save = useCallback(async () => {
    const current = store.getState();
    if (!isDirty(current) && !viewingVersion) {
      setNotice({ kind: 'info', text: `No changes since version ${current.savedVersion}: nothing to save.` });
      return;
    }
    setSaving(true);
    try {
      const { id, version: v } = await saveWorkflow(store);
      setNotice({ kind: 'info', text: `Saved as version ${v}.` });
      if (workflowId !== id || viewingVersion) void navigate(`/workflows/${id}`, { replace: true, force: true });
    } catch (e) {
      setNotice({ kind: 'error', text: `Could not save: ${errorText(e)}` });
    } finally {
      setSaving(false);
    }
  }, [store, workflowId, viewingVersion]);

  const exportAs = async (format: 'yaml' | 'json', copy = false) => {
    setExportOpen(false);
    try {
      await store.getState().whenSynced();
      const s = store.getState();
      if (!s.valid) {
        setNotice({ kind: 'error', text: 'Fix the errors first: only a valid workflow can be exported. You can still save it as a draft.' });
        return;
      }
      const { text } = await api.render({ document: s.doc, format, source: format === 'yaml' ? s.source : undefined });
      if (copy) {
        await navigator.clipboard.writeText(text);
        setNotice({ kind: 'info', text: `Copied the ${format.toUpperCase()} to the clipboard.` });
      } else {
        download(`${fileBase(s.doc)}.${format}`, text, format === 'yaml' ? 'application/yaml' : 'application/json');
      }
    } catch (e) {
      setNotice({ kind: 'error', text: `Could not export: ${errorText(e)}` });
    }
  };

  const startRun = async (body: Omit<StartRunBody, 'workflow_id'>) => {
    // Only a valid workflow runs: never save a version just to have the run refused.
    await store.getState().whenSynced();
    const checked = store.getState();
    if (checked.valid !== true) {
      const n = checked.errors.length;
      throw new Error(`Fix the ${n === 1 ? 'error' : `${n} errors`} in the Problems panel first: only a valid workflow can run.`);
    }
    const blocked = blockingRun(checked.warnings);
    if (blocked.length) throw new Error(`Fix this first (see Problems): ${blocked[0].message}`);
    let id = store.getState().workflowId;
    let v = store.getState().savedVersion ?? undefined;
    if (id === null || isDirty(store.getState())) {
      const saved = await saveWorkflow(store);
      id = saved.id;
      v = saved.version;
    }
    const run = await api.startRun({ ...body, workflow_id: id, version: v });
    void navigate(`/runs/${run.id}`, { force: true });
  };

  // Keyboard: undo/redo, save, delete.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const mod = e.ctrlKey || e.metaKey;
      if (mod && e.key.toLowerCase() === 's') {
        e.preventDefault();
        void save();
        return;
      }
      if (isEditable(e.target) || dialog) return;
      if (mod && e.key.toLowerCase() === 'z') {
        e.preventDefault();
        if (e.shiftKey) store.getState().redo();
        else store.getState().undo();
      } else if (mod && e.key.toLowerCase() === 'y') {
        e.preventDefault();
        store.getState().redo();
      } else if (e.key === 'Delete' || e.key === 'Backspace') {
        e.preventDefault();
        deleteSelection(store);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [store, save, dialog]);

  // The canvas changes width with the YAML panel: fit the graph to it again.
  const firstYaml = useRef(true);
  useEffect(() => {
    if (firstYaml.current) {
      firstYaml.current = false;
      return;
    }
    store.getState().requestFit();
  }, [showYaml, store]);

  // Do not lose work on leaving: closing the tab, or going elsewhere in the app.
  useEffect(() => {
    const unsaved = () => isDirty(store.getState()) && store.getState().revision > 0;
    const onUnload = (e: BeforeUnloadEvent) => {
      if (unsaved()) e.preventDefault();
    };
    window.addEventListener('beforeunload', onUnload);
    const removeGuard = setLeaveGuard(
      () => (unsaved() ? 'This workflow has changes that are not saved. Leaving the editor discards them.' : null),
      () => keeper.current?.discard(),
    );
    return () => {
      window.removeEventListener('beforeunload', onUnload);
      removeGuard();
    };
  }, [store]);

  if (loadError) {
    return (
      <div className="page-message">
        <h2>Could not open this workflow</h2>
        <p className="muted">{loadError}</p>
        <a className="btn" href="/">
          Back to workflows
        </a>
      </div>
    );
  }

  const exportBlocked = valid !== true || !current;
  const errorWords = `${errors} error${errors === 1 ? '' : 's'}`;
  const exportTitle = valid === false ? `Fix ${errorWords} to export; Save keeps a draft.` : !current ? 'Checking…' : 'Download or copy the workflow';
  const runBlocked = valid !== true || blocking.length > 0 || !current;
  const runTitle =
    valid === false
      ? `Fix ${errorWords} first: only a valid workflow can run (see Problems).`
      : !current
        ? 'Checking…'
        : blocking.length > 0
          ? `Cannot run: ${blocking[0].message}. Fix it first (see Problems); the file still exports, as the format allows it.`
          : 'Run this workflow';

  return (
    <div
      className={`editor${showYaml ? ' with-yaml' : ''}`}
      data-testid="editor"
      data-ready={loading ? '0' : '1'}
      onDragOver={(e) => {
        if (e.dataTransfer.types.includes('Files')) {
          e.preventDefault();
          setDragOver(true);
        }
      }}
      onDragLeave={(e) => e.currentTarget === e.target && setDragOver(false)}
      onDrop={(e) => {
        const file = e.dataTransfer.files[0];
        setDragOver(false);
        if (!file) return;
        e.preventDefault();
        fileText(file)
          .then((t) => importText(store, t))
          .then((problem) => problem && setNotice({ kind: 'error', text: `Could not import ${file.name}: ${problem}` }))
          .catch((err) => setNotice({ kind: 'error', text: errorText(err) }));
      }}
    >
      <div className="toolbar">
        <div className="toolbar-title">
          <span className="wf-name" title={docName} data-testid="wf-name">
            {docName || 'Untitled'}
          </span>
          {dirty && (
            <span className="dirty" title="Unsaved changes" data-testid="dirty">
              ●
            </span>
          )}
          <span className="muted small">{version ? `v${version}` : 'not saved yet'}</span>
          <span
            className={`pill ${valid === true && blocking.length === 0 ? 'pill-ok' : valid === null ? '' : 'pill-bad'}`}
            data-testid="validity"
            title={valid === true && blocking.length > 0 ? 'Valid zenflow v1, so it exports; it cannot run until the problem marked "blocks Run" is fixed.' : undefined}
          >
            {valid === true ? (blocking.length > 0 ? "valid · can't run" : 'valid') : valid === false ? `${errors} error${errors === 1 ? '' : 's'}` : 'checking'}
          </span>
        </div>
        <div className="toolbar-actions">
          <button className="btn ghost small" onClick={() => store.getState().undo()} disabled={!canUndo} title="Undo (Ctrl+Z)">
            ↶ Undo
          </button>
          <button className="btn ghost small" onClick={() => store.getState().redo()} disabled={!canRedo} title="Redo (Ctrl+Shift+Z)">
            ↷ Redo
          </button>
          <span className="sep" />
          <button className="btn ghost small" onClick={() => void tidyUp(store, measuredSizes(flow.getNodes())).then(() => store.getState().requestFit())} title="Arrange the steps left to right by their dependencies" data-testid="tidy">
            Tidy up
          </button>
          <button className="btn ghost small" onClick={() => void flow.fitView({ padding: 0.15, maxZoom: 1, minZoom: READABLE_ZOOM })} title="Fit the workflow in view (never so small that text cannot be read)" data-testid="fit">
            Fit
          </button>
          <button
            className={`btn ghost small${showYaml ? ' active' : ''}`}
            onClick={() => {
              rememberShowYaml(!showYaml);
              setShowYaml(!showYaml);
            }}
            aria-pressed={showYaml}
            title={showYaml ? 'Hide the YAML view' : 'Show the YAML view beside the canvas'}
            data-testid="toggle-yaml"
          >
            YAML
          </button>
          <span className="sep" />
          <button className="btn ghost small" onClick={() => setDialog('import')} data-testid="import">
            Import
          </button>
          <div className="menu-wrap">
            <button className="btn ghost small" onClick={() => setExportOpen(!exportOpen)} disabled={exportBlocked} title={exportTitle} data-testid="export">
              Export ▾
            </button>
            {exportOpen && (
              <div className="menu" role="menu" onMouseLeave={() => setExportOpen(false)}>
                <button role="menuitem" onClick={() => void exportAs('yaml')} data-testid="export-yaml">
                  Download YAML
                </button>
                <button role="menuitem" onClick={() => void exportAs('json')} data-testid="export-json">
                  Download JSON
                </button>
                <button role="menuitem" onClick={() => void exportAs('yaml', true)}>
                  Copy YAML
                </button>
              </div>
            )}
          </div>
          <button className="btn small" onClick={() => void save()} disabled={saving} title="Save a new version (Ctrl+S)" data-testid="save">
            {saving ? 'Saving…' : 'Save'}
          </button>
          <button className="btn primary small" onClick={() => setDialog('run')} disabled={runBlocked} title={runTitle} data-testid="run">
            ▶ Run
          </button>
        </div>
      </div>
      {viewingVersion && (
        <Banner kind="info">
          You are looking at version {viewingVersion}. Save to make it the latest version again.
        </Banner>
      )}
      {restored && (
        <Banner kind="info" onClose={() => setRestored(null)}>
          <span data-testid="draft-restored">
            Restored your unsaved edits from {new Date(restored.savedAt).toLocaleString()}
            {restored.basedOn !== null ? ` (made on version ${restored.basedOn})` : ''}. Save to keep them.
          </span>{' '}
          <button className="btn small ghost" onClick={discardRestored} data-testid="discard-draft">
            Discard them
          </button>
        </Banner>
      )}
      {notice && (
        <Banner kind={notice.kind} onClose={() => setNotice(null)}>
          {notice.text}
        </Banner>
      )}
      <div className="editor-body">
        <div className={`canvas-wrap${readOnlyView ? '' : ' has-palette'}`}>
          {loading ? <div className="canvas-empty muted">Loading…</div> : <Canvas />}
          <Palette />
          {!loading && emptyDoc && (
            <div className="canvas-hint">
              <strong>An empty workflow.</strong> Add a step or a loop from the palette, or import a YAML file.
            </div>
          )}
          {dragOver && <div className="drop-overlay">Drop a YAML or JSON file to import it</div>}
        </div>
        {showYaml && <YamlView />}
        <Inspector />
      </div>
      <ProblemsPanel />
      {dialog === 'import' && <ImportDialog onClose={() => setDialog(null)} />}
      {dialog === 'run' && (
        <RunDialog doc={store.getState().doc} workflowId={store.getState().workflowId} fromRunId={rerunFrom} onClose={() => setDialog(null)} onStart={startRun} />
      )}
    </div>
  );
}
