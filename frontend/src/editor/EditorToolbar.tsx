import { useCallback, useMemo, useState } from 'react';
import { useReactFlow } from '@xyflow/react';
import { blockingRun } from '../api/types';
import { tidyUp } from '../canvas/arrange';
import { useEditor, useEditorStore } from '../store/context';
import { isDirty } from '../store/editorStore';
import { bundleZipUrl } from '../nodes/folder/folderApi';
import { CompareVersionsLink } from '../versions/CompareVersionsLink';
import { Link } from '../components/Link';

/** Sizes the canvas has measured, by node id (what elk should lay out). */
function measuredSizes(nodes: { id: string; measured?: { width?: number; height?: number } }[]): Map<string, { width: number; height: number }> {
  const out = new Map<string, { width: number; height: number }>();
  for (const n of nodes) if (n.measured?.width && n.measured.height) out.set(n.id, { width: n.measured.width, height: n.measured.height });
  return out;
}

/** Tidy up: lays the steps out left to right by their dependencies (elk), then fits the view. The toolbar's button and the command palette. */
export function useTidy(): () => void {
  const store = useEditorStore();
  const flow = useReactFlow();
  return useCallback(() => void tidyUp(store, measuredSizes(flow.getNodes())).then(() => store.getState().requestFit()), [store, flow]);
}

/** Fit: the whole workflow in view, never so small that text cannot be read. */
export function useFit(): () => void {
  const store = useEditorStore();
  return useCallback(() => store.getState().requestFit(), [store]);
}

/** Whether Export and Run can be done now, and why not (the buttons' titles); shared by the toolbar and the command palette. */
export function useToolbarGates(runDenied: string | null = null) {
  const errors = useEditor((s) => s.errors.length);
  const warningList = useEditor((s) => s.warnings);
  const blocking = useMemo(() => blockingRun(warningList), [warningList]);
  const valid = useEditor((s) => s.valid);
  const current = useEditor((s) => s.checkedRevision === s.revision && !s.validating);
  const exportBlocked = valid !== true || !current;
  const errorWords = `${errors} error${errors === 1 ? '' : 's'}`;
  const exportTitle = valid === false ? `Fix ${errorWords} to export; Save keeps a draft.` : !current ? 'Checking…' : 'Download or copy the workflow';
  const runBlocked = !!runDenied || valid !== true || blocking.length > 0 || !current;
  const runTitle = runDenied
    ? runDenied
    : valid === false
      ? `Fix ${errorWords} first: only a valid workflow can run (see Problems).`
      : !current
        ? 'Checking…'
        : blocking.length > 0
          ? `Cannot run: ${blocking[0].message}. Fix it first (see Problems); the file still exports, as the format allows it.`
          : 'Run this workflow';
  return { errors, blocking, valid, exportBlocked, exportTitle, runBlocked, runTitle };
}

/** The editor's toolbar: the workflow's name, whether it is saved and valid, and what can be done with it. */
export function EditorToolbar({
  saving,
  showYaml,
  onToggleYaml,
  onSave,
  onExport,
  onImport,
  onRun,
  onOpenCommands,
  editDenied = null,
  runDenied = null,
}: {
  saving: boolean;
  showYaml: boolean;
  onToggleYaml: () => void;
  onSave: () => void;
  onExport: (format: 'yaml' | 'json', copy: boolean) => void;
  onImport: () => void;
  onRun: () => void;
  /** Opens the command palette (absent: no button). */
  onOpenCommands?: () => void;
  /** Why the user's role cannot change this workflow (null: it can): Save and Import are not offered. */
  editDenied?: string | null;
  /** Why the user's role cannot run it (null: it can). */
  runDenied?: string | null;
}) {
  const store = useEditorStore();
  const tidy = useTidy();
  const fit = useFit();
  const [exportOpen, setExportOpen] = useState(false);
  // Narrow subscriptions: a keystroke in the inspector must not re-render the whole toolbar.
  const docName = useEditor((s) => (typeof s.doc.name === 'string' ? s.doc.name : ''));
  const dirty = useEditor(isDirty);
  const version = useEditor((s) => s.savedVersion);
  const workflowId = useEditor((s) => s.workflowId);
  const { errors, blocking, valid, exportBlocked, exportTitle, runBlocked, runTitle } = useToolbarGates(runDenied);
  const canUndo = useEditor((s) => s.past.length > 0);
  const canRedo = useEditor((s) => s.future.length > 0);

  const exportAs = (format: 'yaml' | 'json', copy: boolean) => {
    setExportOpen(false);
    onExport(format, copy);
  };

  return (
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
        <CompareVersionsLink workflowId={workflowId} version={version} />
        {workflowId !== null && version ? (
          <Link to={`/workflows/${workflowId}/evaluations`} className="small" title="This workflow's datasets, experiments and the judge's agreement">
            Evaluations
          </Link>
        ) : null}
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
        <button className="btn ghost small" onClick={tidy} title="Arrange the steps left to right by their dependencies" data-testid="tidy">
          Tidy up
        </button>
        <button className="btn ghost small" onClick={fit} title="Fit the workflow in view (never so small that text cannot be read)" data-testid="fit">
          Fit
        </button>
        <button
          className={`btn ghost small${showYaml ? ' active' : ''}`}
          onClick={onToggleYaml}
          aria-pressed={showYaml}
          title={showYaml ? 'Hide the YAML view' : 'Show the YAML view beside the canvas'}
          data-testid="toggle-yaml"
        >
          YAML
        </button>
        {onOpenCommands && (
          <button className="btn ghost small" onClick={onOpenCommands} title="Search every command, step and agent (Ctrl+K)" aria-keyshortcuts="Control+K Meta+K" data-testid="open-command-palette">
            Commands <kbd className="command-keys">Ctrl+K</kbd>
          </button>
        )}
        <span className="sep" />
        <button className="btn ghost small" onClick={onImport} disabled={!!editDenied} title={editDenied ?? undefined} data-testid="import">
          Import
        </button>
        <div className="menu-wrap">
          <button className="btn ghost small" onClick={() => setExportOpen(!exportOpen)} disabled={exportBlocked} title={exportTitle} data-testid="export">
            Export ▾
          </button>
          {exportOpen && (
            <div className="menu" role="menu" onMouseLeave={() => setExportOpen(false)}>
              <button role="menuitem" onClick={() => exportAs('yaml', false)} data-testid="export-yaml">
                Download YAML
              </button>
              <button role="menuitem" onClick={() => exportAs('json', false)} data-testid="export-json">
                Download JSON
              </button>
              <button role="menuitem" onClick={() => exportAs('yaml', true)}>
                Copy YAML
              </button>
              {workflowId !== null && (
                <a
                  role="menuitem"
                  href={bundleZipUrl(workflowId)}
                  download
                  onClick={() => setExportOpen(false)}
                  title="The saved version's folder: the workflow and its files (prompts, includes, context files), as a zip"
                  data-testid="export-folder"
                >
                  Download the folder (.zip)
                </a>
              )}
            </div>
          )}
        </div>
        <button className="btn small" onClick={onSave} disabled={saving || !!editDenied} title={editDenied ?? 'Save a new version (Ctrl+S)'} data-testid="save">
          {saving ? 'Saving…' : 'Save'}
        </button>
        <button className="btn primary small" onClick={onRun} disabled={runBlocked} title={runTitle} data-testid="run">
          ▶ Run
        </button>
      </div>
    </div>
  );
}
