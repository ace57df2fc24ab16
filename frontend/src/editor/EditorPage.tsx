// The editor page: loads a workflow (or a blank one, or a kept draft), lays out
// canvas, YAML view, inspector and problems, and saves, exports and runs it.
// The state lives in hooks (hooks/): the Editor below only puts them together.
import { useState, type CSSProperties } from 'react';
import { ReactFlowProvider } from '@xyflow/react';
import { api } from '../api/client';
import { Canvas } from '../canvas/Canvas';
import { useSidePanel, type SidePanelState } from '../components/sidePanel';
import { EditorContext, useEditor, useEditorStore } from '../store/context';
import { createEditorStore } from '../store/editorStore';
import { EditorBanners } from './EditorBanners';
import { EditorToolbar } from './EditorToolbar';
import { ImportDialog } from './ImportDialog';
import { IncludeView } from './files/IncludeView';
import { MainIncludeScope } from '../nodes/folder/includeScope';
import { Inspector } from './Inspector';
import { ModelChoicesProvider } from './ModelChoices';
import { Palette } from './Palette';
import { ProblemsPanel } from './ProblemsPanel';
import { RunDialog } from './RunDialog';
import { useEditorKeys } from './useEditorKeys';
import { CommandPalette } from './commands/CommandPalette';
import { ShortcutHelp } from './commands/ShortcutHelp';
import { useEditorCommands, type EditorCommandHandlers } from './commands/useEditorCommands';
import { useDrafts } from './hooks/useDrafts';
import { useEditorAccess } from './hooks/useEditorAccess';
import { useEditorDialogs } from './hooks/useEditorDialogs';
import { useFileDrop } from './hooks/useFileDrop';
import { useLeaveGuard } from './hooks/useLeaveGuard';
import { useNotice } from './hooks/useNotice';
import { useSaving } from './hooks/useSaving';
import { useWorkflowBreakpoints } from './hooks/useWorkflowBreakpoints';
import { useWorkflowLoading } from './hooks/useWorkflowLoading';
import { useYamlPanel } from './hooks/useYamlPanel';
import { EditNoticeBar } from './selection/EditNoticeBar';
import { SelectionBar } from './selection/SelectionBar';
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

function Editor({ workflowId }: { workflowId: number | null }) {
  const store = useEditorStore();
  const access = useEditorAccess(workflowId);
  const { editDenied, runDenied, workspaceId } = access;
  const { notice, say, clear: clearNotice } = useNotice();
  // The hooks' effects run in this order: drafts are kept before the workflow loads over them.
  const drafts = useDrafts(store);
  const dialogs = useEditorDialogs();
  const { loadError, loading, viewingVersion, rerunFrom } = useWorkflowLoading(store, workflowId, {
    restoreDraft: drafts.restoreDraft,
    onLoaded: access.took,
    openRun: dialogs.openRun,
    newReadOnly: access.newReadOnly,
  });
  const { saving, save, exportAs, startRun } = useSaving(store, { workflowId, viewingVersion, editDenied, workspaceId, onSaved: access.took, say });
  useEditorKeys(store, save, dialogs.dialog !== null, dialogs.keyDialogs);
  const { showYaml, toggleYaml } = useYamlPanel(store);
  useLeaveGuard(store, drafts.discardKept);
  useWorkflowBreakpoints(store);
  const { dragOver, dropHandlers } = useFileDrop(store, editDenied, say);
  const inspector = useSidePanel('ld:panel:inspector', 340);
  // The YAML view's own width (beside the inspector from 1440 px); its edge's collapse hides the view.
  const yamlWidth = useSidePanel('ld:panel:yaml', 330);
  const yamlPanel: SidePanelState = {
    ...yamlWidth,
    collapsed: false,
    setCollapsed: (hide) => {
      if (hide) toggleYaml();
    },
  };

  const emptyDoc = useEditor((s) => Array.isArray(s.doc.steps) && s.doc.steps.length === 0);
  const readOnlyView = useEditor((s) => s.readOnly);
  const synced = useEditor((s) => s.synced);

  if (loadError) return <LoadError message={loadError} />;

  const { dialog, open, close } = dialogs;
  return (
    <div className={`editor${showYaml ? ' with-yaml' : ''}`} data-testid="editor" data-ready={loading ? '0' : '1'} data-synced={synced ? '1' : '0'} {...dropHandlers}>
      <EditorHeading />
      <EditorToolbar
        saving={saving}
        showYaml={showYaml}
        onToggleYaml={toggleYaml}
        onSave={() => void save()}
        onExport={(format, copy) => void exportAs(format, copy)}
        onImport={() => open('import')}
        onRun={() => open('run')}
        onOpenCommands={() => open('commands')}
        editDenied={editDenied}
        runDenied={runDenied}
      />
      <EditorBanners
        workflowId={workflowId}
        readOnlyBanner={access.readOnlyBanner}
        viewingVersion={viewingVersion}
        editDenied={editDenied}
        restored={drafts.restored}
        onDismissRestored={drafts.dismissRestored}
        onDiscardRestored={drafts.discardRestored}
        notice={notice}
        onCloseNotice={clearNotice}
      />
      <MainIncludeScope>
        <div className="editor-body" style={{ '--panel-w': `${inspector.width}px`, '--yaml-w': `${yamlWidth.width}px` } as CSSProperties}>
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
          {showYaml && <YamlView panel={yamlPanel} />}
          <ModelChoicesProvider workspaceId={workspaceId}>
            <Inspector panel={inspector} />
          </ModelChoicesProvider>
        </div>
      </MainIncludeScope>
      <ProblemsPanel />
      {dialog === 'import' && <ImportDialog onClose={close} />}
      {dialog === 'commands' && (
        <EditorCommandPalette
          onClose={close}
          save={() => void save()}
          exportAs={(format, copy) => void exportAs(format, copy)}
          openRun={() => open('run')}
          openImport={() => open('import')}
          toggleYaml={toggleYaml}
          showYaml={showYaml}
          showShortcuts={() => open('shortcuts')}
          editDenied={editDenied}
          runDenied={runDenied}
          saving={saving}
        />
      )}
      {dialog === 'shortcuts' && <ShortcutHelp onClose={close} />}
      {dialog === 'run' && (
        <RunDialog
          doc={store.getState().doc}
          workflowId={store.getState().workflowId}
          workspaceId={workspaceId}
          fromRunId={rerunFrom}
          onClose={close}
          onStart={startRun}
        />
      )}
    </div>
  );
}

function LoadError({ message }: { message: string }) {
  return (
    <div className="page-message">
      <h2>Could not open this workflow</h2>
      <p className="muted">{message}</p>
      <a className="btn" href="/">
        Back to workflows
      </a>
    </div>
  );
}

/** The page's heading for assistive technology: the toolbar already shows the workflow's name to the eye. */
function EditorHeading() {
  const name = useEditor((s) => (typeof s.doc.name === 'string' ? s.doc.name : ''));
  return <h1 className="visually-hidden">{name ? `Workflow ${name}` : 'New workflow'}</h1>;
}

/** The command palette over the editor's commands (built only while it is open). */
function EditorCommandPalette({ onClose, ...handlers }: EditorCommandHandlers & { onClose: () => void }) {
  const commands = useEditorCommands(handlers);
  return <CommandPalette commands={commands} onClose={onClose} />;
}
