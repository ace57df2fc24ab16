// The editor page: loads a workflow (or a blank one, or a kept draft), lays out
// canvas, YAML view, inspector and problems, and saves, exports and runs it.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { ReactFlowProvider } from '@xyflow/react';
import { api, errorText, type StartRunBody } from '../api/client';
import { blockingRun, type Workflow } from '../api/types';
import { layoutMissing, needsLayout } from '../canvas/arrange';
import { Canvas } from '../canvas/Canvas';
import { Banner } from '../components/Banner';
import { isLayout, isObject, type WorkflowDoc } from '../doc/types';
import { preloadElk } from '../layout/elk';
import { navigate, setLeaveGuard } from '../router';
import { EditorContext, useEditor, useEditorStore } from '../store/context';
import { keepDrafts, readDraft, type Draft, type DraftKeeper } from '../store/drafts';
import { blankDocument, createEditorStore, isDirty, type LoadInput } from '../store/editorStore';
import { EditorToolbar } from './EditorToolbar';
import { download, fileBase } from './files';
import { ImportDialog, importText, fileText } from './ImportDialog';
import { IncludeView } from './files/IncludeView';
import { MainIncludeScope } from '../nodes/folder/includeScope';
import { Inspector } from './Inspector';
import { Palette } from './Palette';
import { ProblemsPanel } from './ProblemsPanel';
import { RunDialog } from './RunDialog';
import { saveWorkflow } from './saveWorkflow';
import { useEditorKeys, type KeyDialogs } from './useEditorKeys';
import { CommandPalette } from './commands/CommandPalette';
import { ShortcutHelp } from './commands/ShortcutHelp';
import { useEditorCommands, type EditorCommandHandlers } from './commands/useEditorCommands';
import { followWorkspace, useCurrentWorkspace } from '../workspaces/current';
import { Link } from '../components/Link';
import { compareUrl } from '../versions/links';
import { EditNoticeBar } from './selection/EditNoticeBar';
import { SelectionBar } from './selection/SelectionBar';
import { cannotEditReason, cannotRunReason, capabilities, readOnlyReason } from '../workspaces/roles';
import { initialShowYaml, rememberShowYaml } from './yamlPanelPreference';
import { YamlView } from './YamlView';

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

/** The workspace a workflow lives in and the user's role there (role null: unknown, nothing held back). */
interface Access {
  workspaceId: number | null;
  workspaceName: string;
  role: string | null;
}

function accessOf(wf: Workflow): Access {
  return { workspaceId: wf.workspace_id ?? null, workspaceName: wf.workspace_name ?? '', role: wf.role || null };
}

function Editor({ workflowId }: { workflowId: number | null }) {
  const store = useEditorStore();
  // A saved workflow's access comes with it; a new one is made in the current workspace.
  const [loadedAccess, setLoadedAccess] = useState<Access | null>(null);
  const current = useCurrentWorkspace();
  const access: Access | null =
    workflowId === null ? (current ? { workspaceId: current.id, workspaceName: current.name, role: current.role } : null) : loadedAccess;
  const caps = capabilities(access?.role);
  const readOnlyBanner = readOnlyReason(access?.role, access?.workspaceName ?? '');
  const newReadOnly = workflowId === null && !caps.edit;
  const [loadError, setLoadError] = useState<string | null>(null);
  const [notice, setNotice] = useState<{ kind: 'error' | 'info'; text: string } | null>(null);
  const [restored, setRestored] = useState<Draft | null>(null);
  const keeper = useRef<DraftKeeper | null>(null);
  const [dialog, setDialog] = useState<'import' | 'run' | 'commands' | 'shortcuts' | null>(null);
  const [showYaml, setShowYaml] = useState(initialShowYaml);
  const [saving, setSaving] = useState(false);
  const [dragOver, setDragOver] = useState(false);

  const emptyDoc = useEditor((s) => Array.isArray(s.doc.steps) && s.doc.steps.length === 0);
  const readOnlyView = useEditor((s) => s.readOnly);
  // Loading until the store holds the workflow this page is for (a new one is there at once).
  const loading = useEditor((s) => workflowId !== null && s.workflowId !== workflowId);
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
  const restoreDraft = useCallback(
    (draft: Draft) => {
      loaded.current = {
        workflowId: store.getState().workflowId,
        version: store.getState().savedVersion,
        doc: store.getState().doc,
        source: store.getState().source,
        layout: store.getState().layout,
      };
      store.getState().replaceAll(draft.doc, draft.source, draft.layout);
      setRestored(draft);
    },
    [store],
  );
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
      // The draft lives in localStorage, outside React: restoring it (and saying so) is this effect's job.
      // eslint-disable-next-line react-hooks/set-state-in-effect -- once per page opened, not per render
      if (draft) restoreDraft(draft);
      void layoutMissing(store);
      return;
    }
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
        // A runner or a viewer sees the document read only (the server would refuse a save anyway).
        const readOnly = !capabilities(wf.role).edit;
        setLoadedAccess(accessOf(wf));
        followWorkspace(wf.workspace_id);
        store.getState().load({
          readOnly,
          workflowId: wf.id,
          version: wf.version,
          doc: parsed,
          source: wf.source ?? '',
          layout: isLayout(wf.layout) ? wf.layout : null,
          ...(judged ? { errors: wf.errors, warnings: wf.warnings, valid: wf.valid, iterationOutputs: wf.iteration_outputs ?? {} } : {}),
        });
        if (viewingVersion) store.getState().markSaved(wf.id, wf.version, -1, -1);
        else if (!readOnly) {
          const draft = readDraft(wf.id);
          if (draft) restoreDraft(draft);
        }
        // Interactive at once; a missing layout comes from elkjs (in a worker) just after.
        if (rerunFrom && !viewingVersion && capabilities(wf.role).run) setDialog('run');
        store.getState().requestFit();
        if (needsLayout(store)) {
          void layoutMissing(store).then(() => {
            performance.mark('ld:laid-out');
            if (!cancelled) store.getState().requestFit();
          });
        }
      })
      .catch((e) => {
        if (!cancelled) setLoadError(errorText(e));
      });
    return () => {
      cancelled = true;
    };
  }, [workflowId, store, viewingVersion, rerunFrom, restoreDraft]);

  // A new workflow in a workspace where the role cannot create one: nothing to edit (the role may arrive after the load).
  useEffect(() => {
    if (workflowId === null && store.getState().workflowId === null) store.setState({ readOnly: newReadOnly });
  }, [workflowId, store, newReadOnly]);

  const editDenied = cannotEditReason(access?.role, access?.workspaceName);
  const runDenied = cannotRunReason(access?.role, access?.workspaceName);
  const workspaceId = access?.workspaceId ?? null;

  const save = useCallback(async () => {
    if (editDenied) {
      setNotice({ kind: 'error', text: `Cannot save: ${editDenied}` });
      return;
    }
    const current = store.getState();
    if (!isDirty(current) && !viewingVersion) {
      setNotice({ kind: 'info', text: `No changes since version ${current.savedVersion}: nothing to save.` });
      return;
    }
    setSaving(true);
    try {
      const { id, version: v, workflow } = await saveWorkflow(store, workspaceId);
      setLoadedAccess(accessOf(workflow));
      setNotice({ kind: 'info', text: `Saved as version ${v}.` });
      if (workflowId !== id || viewingVersion) void navigate(`/workflows/${id}`, { replace: true, force: true });
    } catch (e) {
      setNotice({ kind: 'error', text: `Could not save: ${errorText(e)}` });
    } finally {
      setSaving(false);
    }
  }, [store, workflowId, viewingVersion, editDenied, workspaceId]);

  const exportAs = async (format: 'yaml' | 'json', copy = false) => {
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
      if (editDenied) throw new Error(`These changes cannot be saved, so they cannot run: ${editDenied}`);
      const saved = await saveWorkflow(store, workspaceId);
      setLoadedAccess(accessOf(saved.workflow));
      id = saved.id;
      v = saved.version;
    }
    const run = await api.startRun({ ...body, workflow_id: id, version: v });
    void navigate(`/runs/${run.id}`, { force: true });
  };

  const keyDialogs = useMemo<KeyDialogs>(() => ({ openCommands: () => setDialog('commands'), openHelp: () => setDialog('shortcuts') }), []);
  useEditorKeys(store, save, dialog !== null, keyDialogs);

  const toggleYaml = () => {
    rememberShowYaml(!showYaml);
    setShowYaml(!showYaml);
  };

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
        if (store.getState().readOnly) {
          setNotice({ kind: 'error', text: `Could not import ${file.name}: ${editDenied ?? 'this workflow is read only.'}` });
          return;
        }
        fileText(file)
          .then((t) => importText(store, t))
          .then((problem) => problem && setNotice({ kind: 'error', text: `Could not import ${file.name}: ${problem}` }))
          .catch((err) => setNotice({ kind: 'error', text: errorText(err) }));
      }}
    >
      <EditorHeading />
      <EditorToolbar
        saving={saving}
        showYaml={showYaml}
        onToggleYaml={toggleYaml}
        onSave={() => void save()}
        onExport={(format, copy) => void exportAs(format, copy)}
        onImport={() => setDialog('import')}
        onRun={() => setDialog('run')}
        onOpenCommands={() => setDialog('commands')}
        editDenied={editDenied}
        runDenied={runDenied}
      />
      {readOnlyBanner && (
        <Banner kind="info">
          <span data-testid="read-only-banner">{readOnlyBanner}</span>
        </Banner>
      )}
      {viewingVersion && (
        <Banner kind="info">
          You are looking at version {viewingVersion}.{editDenied ? '' : ' Save to make it the latest version again.'}
          {workflowId !== null && (
            <>
              {' '}
              <Link to={compareUrl(workflowId, Number(viewingVersion))}>Compare it with the latest</Link>
            </>
          )}
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
      <MainIncludeScope>
        <div className="editor-body">
          <div className="canvas-wrap has-palette">
            {loading ? <div className="canvas-empty muted">Loading…</div> : <Canvas />}
            <Palette />
            {!loading && emptyDoc && !readOnlyView && (
              <div className="canvas-hint">
                <strong>An empty workflow.</strong> Add a step or a loop from the palette, or import a YAML file.
              </div>
            )}
            {dragOver && <div className="drop-overlay">Drop a YAML or JSON file to import it</div>}
            <EditNoticeBar />
            {!readOnlyView && <SelectionBar />}
            <IncludeView />
          </div>
          {showYaml && <YamlView />}
          <Inspector />
        </div>
      </MainIncludeScope>
      <ProblemsPanel />
      {dialog === 'import' && <ImportDialog onClose={() => setDialog(null)} />}
      {dialog === 'commands' && (
        <EditorCommandPalette
          onClose={() => setDialog(null)}
          save={() => void save()}
          exportAs={(format, copy) => void exportAs(format, copy)}
          openRun={() => setDialog('run')}
          openImport={() => setDialog('import')}
          toggleYaml={toggleYaml}
          showYaml={showYaml}
          showShortcuts={() => setDialog('shortcuts')}
          editDenied={editDenied}
          runDenied={runDenied}
          saving={saving}
        />
      )}
      {dialog === 'shortcuts' && <ShortcutHelp onClose={() => setDialog(null)} />}
      {dialog === 'run' && (
        <RunDialog
          doc={store.getState().doc}
          workflowId={store.getState().workflowId}
          workspaceId={workspaceId}
          fromRunId={rerunFrom}
          onClose={() => setDialog(null)}
          onStart={startRun}
        />
      )}
    </div>
  );
}

/** The command palette over the editor's commands (built only while it is open). */
/** The page's heading for assistive technology: the toolbar already shows the workflow's name to the eye. */
function EditorHeading() {
  const name = useEditor((s) => (typeof s.doc.name === 'string' ? s.doc.name : ''));
  return <h1 className="visually-hidden">{name ? `Workflow ${name}` : 'New workflow'}</h1>;
}

function EditorCommandPalette({ onClose, ...handlers }: EditorCommandHandlers & { onClose: () => void }) {
  const commands = useEditorCommands(handlers);
  return <CommandPalette commands={commands} onClose={onClose} />;
}
