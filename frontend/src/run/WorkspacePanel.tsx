// The Workspace tab: how the agents' tools were confined, the snapshots of the run's files, and
// for the chosen one its files (a tree and a viewer) or what changed since the one before.
import { useMemo, useState } from 'react';
import { api, workspaceZipUrl } from '../api/client';
import type { RunWorkspace, SnapshotFiles } from '../api/types';
import { ChangesView } from './ChangesView';
import { buildTree } from './fileTree';
import { FileTree } from './FileTree';
import { FileViewer } from './FileViewer';
import { SnapshotList } from './SnapshotList';
import type { WorkspaceLoad } from './useRunWorkspace';
import { useSnapshotData } from './useSnapshotData';

export function WorkspacePanel({ runId, load }: { runId: string; load: WorkspaceLoad }) {
  // null: follow the latest snapshot as new ones come.
  const [chosen, setChosen] = useState<number | null>(null);
  const [view, setView] = useState<'files' | 'changes'>('files');
  const [path, setPath] = useState<string | null>(null);
  const { info, error, missing } = load;
  if (missing) return <p className="muted">This run keeps no workspace.</p>;
  if (!info) return error ? <div className="field-problem error">Could not read the workspace: {error}</div> : <p className="muted">Loading the workspace…</p>;
  const latest = info.snapshots.length ? info.snapshots[info.snapshots.length - 1].number : null;
  const shown = chosen ?? latest;
  return (
    <div className="workspace-panel" data-testid="workspace-panel">
      {!info.uses_tools && <p className="muted small">No agent in this run was given tools.</p>}
      <Confinement info={info} />
      {error && <div className="field-problem warning">Could not refresh: {error}</div>}
      <div className="row">
        <h4 className="side-title">Snapshots</h4>
        <span className="spacer" />
        <a className="btn small" href={workspaceZipUrl(runId)} download data-testid="workspace-zip">
          Download zip
        </a>
      </div>
      <SnapshotList snapshots={info.snapshots} chosen={shown} onChoose={setChosen} />
      {shown !== null && (
        <>
          <div className="segmented small" role="group" aria-label="Show">
            <button className={view === 'files' ? 'active' : ''} aria-pressed={view === 'files'} onClick={() => setView('files')} data-testid="ws-view-files">
              Files
            </button>
            <button className={view === 'changes' ? 'active' : ''} aria-pressed={view === 'changes'} onClick={() => setView('changes')} data-testid="ws-view-changes">
              Changes
            </button>
          </div>
          {view === 'files' ? <SnapshotFilesView key={shown} runId={runId} snapshot={shown} path={path} onPath={setPath} /> : <ChangesView key={shown} runId={runId} snapshot={shown} />}
        </>
      )}
    </div>
  );
}

/** Sandbox, network, isolation and the gated tools, in a line each. */
function Confinement({ info }: { info: RunWorkspace }) {
  return (
    <ul className="confinement small" data-testid="workspace-confinement">
      <li className={info.sandbox === 'off' ? 'confinement-off' : undefined}>
        {info.sandbox === 'off' ? 'Not sandboxed: commands run on the server as it is (AGENT_SANDBOX=off).' : 'Sandboxed: commands run in bubblewrap, confined to the workspace.'}
      </li>
      <li>{info.network ? 'Network allowed.' : 'No network.'}</li>
      <li>{info.isolation === 'step' ? 'Steps with isolation: step work in their own copy of the workspace.' : 'One workspace for the whole run.'}</li>
      <li>{info.ask_before.length ? `Asks before: ${info.ask_before.join(', ')}.` : 'No tool asks before running.'}</li>
    </ul>
  );
}

function SnapshotFilesView({ runId, snapshot, path, onPath }: { runId: string; snapshot: number; path: string | null; onPath: (p: string) => void }) {
  const files = useSnapshotData<SnapshotFiles>(`${runId}/${snapshot}/files`, () => api.snapshotFiles(runId, snapshot));
  const tree = useMemo(() => (files.data ? buildTree(files.data.files, files.data.links) : null), [files.data]);
  if (files.loading) return <p className="muted small">Loading…</p>;
  if (files.error) return <div className="field-problem error">{files.error}</div>;
  if (!tree || !files.data) return null;
  // The file chosen in another snapshot stays open when this one has it too.
  const open = path !== null && files.data.files.some((f) => f.path === path) ? path : null;
  return (
    <div className="snapshot-files">
      <FileTree tree={tree} chosen={open} onChoose={onPath} />
      {open ? <FileViewer runId={runId} snapshot={snapshot} path={open} /> : <p className="muted small">Choose a file to read it.</p>}
    </div>
  );
}
