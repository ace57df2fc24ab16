import { shortId } from '../run/labels';
import { useEffect, useState } from 'react';
import { api, errorText } from '../api/client';
import type { Run, SocketMessage } from '../api/types';
import { Banner } from '../components/Banner';
import { Link } from '../components/Link';
import { when } from '../format/dates';

export function RunsList() {
  const [runs, setRuns] = useState<Run[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    api.listRuns().then(setRuns, (e) => setError(errorText(e)));
    // Live status changes of the user's runs.
    const proto = window.location.protocol === 'https:' ? 'wss' : 'ws';
    let ws: WebSocket | null = null;
    try {
      ws = new WebSocket(`${proto}://${window.location.host}/ws/runs/`);
      ws.onmessage = (m) => {
        try {
          const msg = JSON.parse(String(m.data)) as SocketMessage;
          if (msg.kind !== 'run') return;
          setRuns((prev) => {
            if (!prev) return prev;
            const i = prev.findIndex((r) => r.id === msg.run.id);
            if (i < 0) return [msg.run, ...prev];
            const next = [...prev];
            next[i] = msg.run;
            return next;
          });
        } catch {
          /* ignore malformed messages */
        }
      };
    } catch {
      ws = null;
    }
    return () => ws?.close();
  }, []);

  return (
    <div className="page">
      <div className="page-head">
        <div>
          <h1>Runs</h1>
          <p className="muted">Every run of your workflows, live or finished. Open one to watch it or replay it.</p>
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
