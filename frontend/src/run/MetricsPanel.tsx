import { useEffect, useMemo, useState } from 'react';
import { api, errorText } from '../api/client';
import type { JsonObject } from '../doc/types';
import { useEditor } from '../store/context';
import { breakReasonLabel, ordinal, plural } from './labels';
import { readMetrics } from './metrics';
import { Pre } from './Pre';
import { formatMs } from './reduce';
import { isTerminal } from './socket';
import { useShownStatus } from './useShownStatus';

/** Tokens, cost and time: live from events while the run goes, the server's figures once they come. */
export function MetricsPanel({ runId }: { runId: string }) {
  const { status } = useShownStatus();
  const tokens = useEditor((s) => (isTerminal(s.run?.status) && s.run?.tokens && s.run.tokens.total >= s.runState.tokens.total ? s.run.tokens : s.runState.tokens));
  const steps = useEditor((s) => s.runState.steps);
  const loops = useEditor((s) => s.runState.loops);
  const [server, setServer] = useState<JsonObject | null>(null);
  const [error, setError] = useState<string | null>(null);
  const finished = isTerminal(status);
  useEffect(() => {
    api.metrics(runId).then(setServer, (e) => setError(errorText(e)));
  }, [runId, finished]);
  const read = server ? readMetrics(server) : null;
  const liveRows = useMemo(() => Object.entries(steps).sort(([a], [b]) => a.localeCompare(b)), [steps]);
  return (
    <div data-testid="metrics">
      <div className="metric-cards">
        <div className="metric">
          <span className="metric-value">{tokens.total.toLocaleString()}</span>
          <span className="metric-label">tokens ({tokens.prompt.toLocaleString()} in, {tokens.completion.toLocaleString()} out)</span>
        </div>
        <div className="metric">
          <span className="metric-value">{read?.costUsd != null ? `$${read.costUsd.toFixed(4)}` : '—'}</span>
          <span className="metric-label">cost</span>
        </div>
        <div className="metric">
          <span className="metric-value">{read?.durationS != null ? formatMs(read.durationS * 1000) : '—'}</span>
          <span className="metric-label">wall time</span>
        </div>
      </div>
      <h4 className="side-title">Time and tokens per step{read ? '' : ' (live)'}</h4>
      <table className="table compact">
        <thead>
          <tr>
            <th>Step</th>
            <th>Status</th>
            <th>Time</th>
            <th>Tokens</th>
          </tr>
        </thead>
        <tbody>
          {read
            ? read.steps.map(([id, m]) => (
                <tr key={id}>
                  <td className="mono">{m.label}</td>
                  <td>{m.status && <span className={`status status-${m.status.replace(' ', '-')}`}>{m.status}</span>}</td>
                  <td>{m.durationMs != null ? formatMs(m.durationMs) : ''}</td>
                  <td>{m.tokens ?? ''}</td>
                </tr>
              ))
            : liveRows.map(([key, st]) => (
                <tr key={key}>
                  <td className="mono">{key}</td>
                  <td>
                    <span className={`status status-${st.status}`}>{st.status}</span>
                  </td>
                  <td>{st.duration ?? ''}</td>
                  <td>{st.tokens?.total ?? ''}</td>
                </tr>
              ))}
        </tbody>
      </table>
      {Object.entries(loops).map(([key, loop]) => {
        const summary = read?.loops.find(([id]) => id === key)?.[1];
        return (
          <div key={key}>
            <h4 className="side-title">
              Loop {key}
              {summary && (
                <span className="muted small">
                  {' '}
                  · {plural(summary.iterations ?? loop.iterations.length, 'iteration')}
                  {summary.meanMs != null ? ` · mean ${formatMs(summary.meanMs)}` : ''}
                  {summary.maxMs != null ? ` · max ${formatMs(summary.maxMs)}` : ''}
                  {summary.breakReason ? ` · ${breakReasonLabel(summary.breakReason)}` : ''}
                </span>
              )}
            </h4>
            <table className="table compact">
              <thead>
                <tr>
                  <th>#</th>
                  <th>Status</th>
                  <th>Time</th>
                  <th>Verdict</th>
                </tr>
              </thead>
              <tbody>
                {loop.iterations.map((it) => (
                  <tr key={it.iteration}>
                    <td>{ordinal(it.iteration)}</td>
                    <td>
                      <span className={`status status-${it.status}`}>{it.status}</span>
                    </td>
                    <td>{formatMs(it.durationMs)}</td>
                    <td>{it.verdict ? (it.verdict.failedOpen ? 'failed open' : it.verdict.done ? 'done' : 'not done') : ''}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        );
      })}
      {error && <p className="muted small">Server metrics unavailable: {error}</p>}
      {server && (
        <details>
          <summary>Server metrics (JSON)</summary>
          <Pre text={JSON.stringify(server, null, 2)} />
        </details>
      )}
    </div>
  );
}
