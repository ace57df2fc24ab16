import { useEffect, useMemo, useState } from 'react';
import { api, errorText } from '../api/client';
import type { MetricsOut } from '../api/openapi.gen';
import { VirtualRows, type RowProps } from '../components/VirtualRows';
import { useEditor } from '../store/context';
import { breakReasonLabel, formatIterationId, iterationKind, iterationName, plural } from './labels';
import { readMetrics } from './metrics';
import { compareStepIds } from './metricsOrder';
import { Pre } from './Pre';
import { formatMs } from './reduce';
import { isTerminal } from './socket';
import { useShownStatus } from './useShownStatus';

/** A compact table row with a status badge, in pixels: the first guess, before rows are measured. */
const ROW_PX = 33;

const STEP_HEAD = (
  <tr>
    <th>Step</th>
    <th>Status</th>
    <th>Time</th>
    <th>Tokens</th>
  </tr>
);

const ITERATION_HEAD = (
  <tr>
    <th>Round or item</th>
    <th>Status</th>
    <th>Time</th>
    <th>Verdict</th>
  </tr>
);

/** Tokens, cost and time: live from events while the run goes, the server's figures once they come. */
export function MetricsPanel({ runId }: { runId: string }) {
  const { status } = useShownStatus();
  const tokens = useEditor((s) => (isTerminal(s.run?.status) && s.run?.tokens && s.run.tokens.total >= s.runState.tokens.total ? s.run.tokens : s.runState.tokens));
  const steps = useEditor((s) => s.runState.steps);
  const loops = useEditor((s) => s.runState.loops);
  const [server, setServer] = useState<MetricsOut | null>(null);
  const [error, setError] = useState<string | null>(null);
  const finished = isTerminal(status);
  useEffect(() => {
    api.metrics(runId).then(setServer, (e) => setError(errorText(e)));
  }, [runId, finished]);
  const read = server ? readMetrics(server) : null;
  const liveRows = useMemo(() => Object.entries(steps).sort(([a], [b]) => compareStepIds(a, b)), [steps]);
  const stepRow = (i: number, props: RowProps) => {
    if (read) {
      const [id, m] = read.steps[i];
      return (
        <tr key={id} {...props}>
          <td className="mono">{m.label}</td>
          <td>{m.status && <span className={`status status-${m.status.replace(' ', '-')}`}>{m.status}</span>}</td>
          <td>{m.durationMs != null ? formatMs(m.durationMs) : ''}</td>
          <td>{m.tokens ?? ''}</td>
        </tr>
      );
    }
    const [key, st] = liveRows[i];
    return (
      <tr key={key} {...props}>
        <td className="mono">{key}</td>
        <td>
          <span className={`status status-${st.status}`}>{st.status}</span>
        </td>
        <td>{st.duration ?? ''}</td>
        <td>{st.tokens?.total ?? ''}</td>
      </tr>
    );
  };
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
      <VirtualRows
        as="table"
        className="table compact"
        head={STEP_HEAD}
        columns={4}
        count={read ? read.steps.length : liveRows.length}
        estimateSize={ROW_PX}
        renderRow={stepRow}
        label="Time and tokens per step"
      />
      {Object.entries(loops).map(([key, loop]) => {
        const summary = read?.loops.find(([id]) => id === key)?.[1];
        return (
          <div key={key}>
            <h4 className="side-title">
              Loop {key}
              {summary && (
                <span className="muted small">
                  {' '}
                  · {plural(summary.iterations ?? loop.iterations.length, iterationKind(loop.loopType))}
                  {summary.meanMs != null ? ` · mean ${formatMs(summary.meanMs)}` : ''}
                  {summary.maxMs != null ? ` · max ${formatMs(summary.maxMs)}` : ''}
                  {summary.breakReason ? ` · ${breakReasonLabel(summary.breakReason)}` : ''}
                </span>
              )}
            </h4>
            <VirtualRows
              as="table"
              className="table compact"
              head={ITERATION_HEAD}
              columns={4}
              count={loop.iterations.length}
              estimateSize={ROW_PX}
              label={`Loop ${key} iterations`}
              renderRow={(i, props) => {
                const it = loop.iterations[i];
                const kind = iterationKind(loop.loopType);
                return (
                  <tr key={it.iteration} {...props}>
                    <td>
                      {iterationName(kind, it.iteration)} <span className="mono muted small">{formatIterationId(key, it.iteration, kind)}</span>
                    </td>
                    <td>
                      <span className={`status status-${it.status}`}>{it.status}</span>
                    </td>
                    <td>{formatMs(it.durationMs)}</td>
                    <td>{it.verdict ? (it.verdict.failedOpen ? 'judge failed open' : it.verdict.done ? 'judge said done' : 'judge said not done') : ''}</td>
                  </tr>
                );
              }}
            />
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
