import { shortId } from '../run/labels';
import { useEffect, useRef, useState } from 'react';
import { api, errorText } from '../api/client';
import type { Run, SocketMessage } from '../api/types';
import { Banner } from '../components/Banner';
import { Link } from '../components/Link';
import { when } from '../format/dates';
import { useCurrentWorkspace, useWorkspaces, useWorkspaceScope } from '../workspaces/current';

export function RunsList() {
  // The runs with the workspace they were asked for: another workspace's are never shown as this one's.
  const [loaded, setLoaded] = useState<{ scope: number | null; runs: Run[] } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const scope = useWorkspaceScope();
  const workspace = useCurrentWorkspace();
  const me = useWorkspaces((s) => s.username);
  const runs = loaded && loaded.scope === scope.id ? loaded.runs : null;
  const asked = useRef(0);
  // Who started the runs: a column when the workspace is shared (or not known).
  const showStarter = !!runs && (!workspace || !workspace.personal || runs.some((r) => r.started_by && r.started_by !== me));

  useEffect(() => {
    if (!scope.ready) return;
    const id = scope.id;
    const n = ++asked.current;
    api.listRuns(undefined, id).then(
      (list) => n === asked.current && setLoaded({ scope: id, runs: list }),
      (e) => n === asked.current && setError(errorText(e)),
    );
    // Live status changes of the runs the user may see (this workspace's only).
    const proto = window.location.protocol === 'https:' ? 'wss' : 'ws';
    let ws: WebSocket | null = null;
    try {
      ws = new WebSocket(`${proto}://${window.location.host}/ws/runs/`);
      ws.onmessage = (m) => {
        try {
          const msg = JSON.parse(String(m.data)) as SocketMessage;
          if (msg.kind !== 'run') return;
          if (id !== null && msg.run.workspace_id !== undefined && msg.run.workspace_id !== id) return;
          setLoaded((prev) => {
            if (!prev || prev.scope !== id) return prev;
            const i = prev.runs.findIndex((r) => r.id === msg.run.id);
            if (i < 0) return { scope: id, runs: [msg.run, ...prev.runs] };
            const next = [...prev.runs];
            next[i] = msg.run;
            return { scope: id, runs: next };
          });
        } catch {
          /* ignore malformed messages */
        }
      };
    } catch {
      ws = null;
    }
    return () => ws?.close();
  }, [scope.ready, scope.id]);

  return (
    <div className="page">
      <div className="page-head">
        <div>
          <h1>Runs</h1>
          <p className="muted">
            Every run of {workspace && !workspace.personal ? `the workflows in ${workspace.name}` : 'your workflows'}, live or finished. Open one to watch it or
            replay it.
          </p>
        </div>
      </div>
      {error && <Banner kind="error">{error}</Banner>}
      {runs === null && !error && <p className="muted">Loading…</p>}
      {runs && runs.length === 0 && (
        <div className="empty">
          <div className="empty-icon" aria-hidden>
            ▶
          </div>
          <h2>No runs yet</h2>
          <p className="muted">Open a workflow and press Run. A simulated run costs nothing and shows every iteration live.</p>
          <Link to="/" className="btn primary">
            Go to workflows
          </Link>
        </div>
      )}
      {runs && runs.length > 0 && (
        <table className="table" data-testid="run-table">
          <thead>
            <tr>
              <th>Run</th>
              <th>Workflow</th>
              <th>Status</th>
              {showStarter && <th>Started by</th>}
              <th>Provider</th>
              <th>Tokens</th>
              <th>Cost</th>
              <th>Started</th>
            </tr>
          </thead>
          <tbody>
            {runs.map((r) => (
              <tr key={r.id}>
                <td>
                  <Link to={`/runs/${r.id}`} className="strong">
                    {shortId(r.id)}
                  </Link>
                </td>
                <td className="cell-name">
                  <span className="name-with-version">
                    <span className="ellipsis" title={r.workflow_name}>
                      {r.workflow_name}
                    </span>
                    <span className="muted small">v{r.version}</span>
                  </span>
                </td>
                <td>
                  <span className={`pill status-pill status-${r.status}`}>{r.status}</span>
                </td>
                {showStarter && (
                  <td className="nowrap" data-testid="run-started-by">
                    {r.started_by ? (r.started_by === me ? `${r.started_by} (you)` : r.started_by) : ''}
                  </td>
                )}
                <td>{r.provider}</td>
                <td>{r.tokens?.total ?? 0}</td>
                <td>{typeof r.cost_usd === 'number' ? `$${r.cost_usd.toFixed(4)}` : ''}</td>
                <td className="muted nowrap">{when(r.started_at ?? r.created_at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
