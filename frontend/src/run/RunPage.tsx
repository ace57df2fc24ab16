// The run view: the workflow's canvas (read only) coloured by live events,
// loop iteration strips, judge verdicts, streamed output, prompts, metrics.
// A finished run replays the same way, from its stored events.
import { useEffect, useMemo, useRef, useState } from 'react';
import { ReactFlowProvider } from '@xyflow/react';
import { api, errorText, type StartRunBody } from '../api/client';
import { navigate } from '../router';
import type { Run } from '../api/types';
import { Banner } from '../components/Banner';
import { Link } from '../components/Link';
import { isLayout, isObject, type JsonObject, type WorkflowDoc } from '../doc/types';
import { locate } from '../graph/keys';
import { Canvas } from '../editor/Canvas';
import { layoutMissing } from '../editor/actions';
import { useIterationSources } from '../nodes/loopShared';
import { eventRows } from './eventRows';
import { EditorContext, useEditor, useEditorStore } from '../store/context';
import { createEditorStore } from '../store/editorStore';
import { formatMs, type IterationRun, type LoopRun, type StepRun } from './reduce';
import { isTerminal, RunStream } from './socket';
import { breakReasonLabel, elapsedMs, ordinal, plural, shownStatus } from './labels';
import { when } from '../format/dates';

/** Run ids are UUIDs: the first block is enough to tell runs apart on screen. */
export function shortId(id: string): string {
  return /^[0-9a-f]{8}-/i.test(id) ? `#${id.slice(0, 8)}` : `#${id}`;
}

const CUMULATIVE_SEPARATOR = '\n\n---\n\n';

export function RunPage({ runId }: { runId: string }) {
  const [store] = useState(() => createEditorStore(api));
  return (
    <EditorContext.Provider value={store}>
      <ReactFlowProvider>
        <RunView runId={runId} />
      </ReactFlowProvider>
    </EditorContext.Provider>
  );
}

/** The status and reason the run view shows: `workflow_end` at once, a final record when it comes. */
function useShownStatus(): { status: string | undefined; reason: string | null } {
  const run = useEditor((s) => s.run);
  const end = useEditor((s) => s.runState.end);
  return shownStatus(run, { end });
}

function RunView({ runId }: { runId: string }) {
  const store = useEditorStore();
  const run = useEditor((s) => s.run);
  const lastSeq = useEditor((s) => s.runState.lastSeq);
  const applied = useEditor((s) => s.runState.applied);
  const [error, setError] = useState<string | null>(null);
  const [ready, setReady] = useState(false);
  const [conn, setConn] = useState('connecting');
  const [actionError, setActionError] = useState<string | null>(null);

  useEffect(() => {
    let stream: RunStream | null = null;
    let cancelled = false;
    (async () => {
      try {
        const r = await api.getRun(runId);
        if (cancelled) return;
        store.getState().setRun(r);
        const wf =
          r.version !== null
            ? await api.version(r.workflow_id, r.version).catch(() => api.getWorkflow(r.workflow_id))
            : await api.getWorkflow(r.workflow_id);
        if (cancelled) return;
        const doc = isObject(wf.document) ? (wf.document as WorkflowDoc) : { name: wf.name, steps: [] };
        store.getState().load({
          workflowId: wf.id,
          version: wf.version,
          doc,
          source: wf.source ?? '',
          layout: isLayout(wf.layout) ? wf.layout : null,
          errors: wf.errors ?? [],
          warnings: wf.warnings ?? [],
          valid: wf.valid,
          iterationOutputs: wf.iteration_outputs ?? {},
          readOnly: true,
        });
        await layoutMissing(store);
        setReady(true);
        store.getState().requestFit();
        stream = new RunStream(runId, {
          onEvents: (events) => store.getState().addEvents(events),
          onRun: (next) => store.getState().setRun(next),
          onState: setConn,
          lastSeq: () => store.getState().runState.lastSeq,
        });
        stream.start();
      } catch (e) {
        if (!cancelled) setError(errorText(e));
      }
    })();
    return () => {
      cancelled = true;
      stream?.stop();
    };
  }, [runId, store]);

  const control = async (action: 'pause' | 'resume' | 'stop') => {
    setActionError(null);
    try {
      store.getState().setRun(await api.control(runId, action));
    } catch (e) {
      setActionError(`Could not ${action} the run: ${errorText(e)}`);
    }
  };

  // Hooks before any early return (rules of hooks): the "could not open" page must not crash.
  const { status, reason } = useShownStatus();
  const [rerunning, setRerunning] = useState(false);

  const runAgain = async () => {
    if (!run) return;
    setRerunning(true);
    try {
      const again = await api.startRun({
        workflow_id: run.workflow_id,
        version: run.version ?? undefined,
        provider: (run.provider as StartRunBody['provider']) ?? 'simulated',
        model: run.model || undefined,
        script: run.script ?? undefined,
        budgets: run.budgets && Object.keys(run.budgets).length ? run.budgets : undefined,
        policies: run.policies ?? undefined,
      });
      void navigate(`/runs/${again.id}`);
    } catch (e) {
      setActionError(`Could not run again: ${errorText(e)}`);
    } finally {
      setRerunning(false);
    }
  };

  if (error) {
    return (
      <div className="page-message">
        <h2>Could not open this run</h2>
        <p className="muted">{error}</p>
        <Link to="/runs" className="btn">
          All runs
        </Link>
      </div>
    );
  }

  const finished = isTerminal(status);
  const connLabel = finished ? 'finished · replay' : conn === 'live' ? '● live' : conn === 'closed' ? 'offline' : conn;
  const connTitle = finished ? 'The run has finished: this view replays its stored events' : 'Live connection';
  const doneTitle = finished ? `The run has ${status === 'completed' ? 'completed' : status === 'failed' ? 'failed' : 'been stopped'}` : undefined;
  return (
    <div className="run-page" data-testid="run-page" data-last-seq={lastSeq} data-applied={applied} data-conn={conn}>
      <div className="toolbar">
        <div className="toolbar-title">
          <span className="wf-name">
            Run {shortId(runId)} · {run ? <Link to={`/workflows/${run.workflow_id}`} title={run.workflow_name}>
                {run.workflow_name}
              </Link> : '…'}
          </span>
          {run && <span className="muted small">v{run.version}</span>}
          {status && (
            <span className={`pill status-pill status-${status}`} data-testid="run-status">
              {status}
            </span>
          )}
          {reason && (
            <span className="muted small run-reason" title={reason}>
              {reason}
            </span>
          )}
        </div>
        <div className="toolbar-actions">
          <RunFigures run={run} status={status} />
          <span className={`conn conn-${finished ? 'finished' : conn}`} title={connTitle} data-testid="conn">
            {connLabel}
          </span>
          <button className="btn ghost small" disabled={status !== 'running'} title={doneTitle} onClick={() => void control('pause')} data-testid="pause">
            Pause
          </button>
          <button className="btn ghost small" disabled={status !== 'paused'} title={doneTitle} onClick={() => void control('resume')} data-testid="resume">
            Resume
          </button>
          {finished && run ? (
            <>
              <button className="btn small" onClick={() => void navigate(`/workflows/${run.workflow_id}?rerun=${run.id}`)} title="Open the workflow with this run's settings in the run dialog" data-testid="edit-and-run">
                Edit and run
              </button>
              <button className="btn primary small" disabled={rerunning} onClick={() => void runAgain()} title="Start a new run of the same version with the same settings" data-testid="run-again">
                {rerunning ? 'Starting…' : '▶ Run again'}
              </button>
            </>
          ) : (
            <button className="btn ghost small danger" disabled={!status || finished} title={doneTitle} onClick={() => void control('stop')} data-testid="stop">
              Stop
            </button>
          )}
        </div>
      </div>
      {actionError && (
        <Banner kind="error" onClose={() => setActionError(null)}>
          {actionError}
        </Banner>
      )}
      <div className="run-body">
        <div className="canvas-wrap">{ready ? <Canvas /> : <div className="canvas-empty muted">Loading the run…</div>}</div>
        <RunSide runId={runId} />
      </div>
    </div>
  );
}

function RunFigures({ run, status }: { run: Run | null; status: string | undefined }) {
  const tokens = useEditor((s) => s.runState.tokens);
  const lastEventAt = useEditor((s) => {
    const last = s.runState.log[s.runState.log.length - 1];
    return last?.timestamp ? Date.parse(last.timestamp) : null;
  });
  const [now, setNow] = useState(Date.now());
  // The clock stops while paused: when it paused, and how long it was paused before.
  const pause = useRef<{ at: number | null; total: number }>({ at: null, total: 0 });
  const paused = status === 'paused';
  if (paused && pause.current.at === null) pause.current.at = Date.now();
  if (!paused && pause.current.at !== null) {
    pause.current.total += Date.now() - pause.current.at;
    pause.current.at = null;
  }
  const ticking = !!run && !isTerminal(status) && !paused;
  useEffect(() => {
    if (!ticking) return;
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, [ticking]);
  if (!run) return null;
  const start = run.started_at ? Date.parse(run.started_at) : null;
  const finishedAt = run.finished_at ? Date.parse(run.finished_at) : isTerminal(status) ? (lastEventAt ?? now) : null;
  const elapsed = elapsedMs(start, finishedAt, Math.max(now, start ?? 0), pause.current.at, pause.current.total);
  // Tokens add up live from agent turns; the run record's total is final once the run is.
  const total = Math.max(run.tokens?.total ?? 0, tokens.total);
  return (
    <span className="figures muted small" data-testid="run-figures">
      {elapsed !== null ? formatMs(elapsed) : 'queued'}
      {paused ? ' (paused)' : ''} · {total.toLocaleString()} tokens
      {typeof run.cost_usd === 'number' ? ` · $${run.cost_usd.toFixed(4)}` : ''} · {run.provider}
    </span>
  );
}

type SideTab = 'live' | 'details' | 'metrics' | 'events';

function RunSide({ runId }: { runId: string }) {
  const selection = useEditor((s) => s.selection);
  const focus = useEditor((s) => s.iterationFocus);
  const [tab, setTab] = useState<SideTab>('live');
  useEffect(() => {
    if (selection?.kind === 'step' || focus) setTab('details');
  }, [selection, focus]);
  return (
    <aside className="run-side" data-testid="run-side">
      <div className="tabs" role="tablist">
        {(['live', 'details', 'metrics', 'events'] as SideTab[]).map((t) => (
          <button key={t} role="tab" aria-selected={tab === t} className={`tab${tab === t ? ' active' : ''}`} onClick={() => setTab(t)}>
            {t[0].toUpperCase() + t.slice(1)}
          </button>
        ))}
      </div>
      <div className="run-side-body">
        {tab === 'live' && <LivePanel />}
        {tab === 'details' && <DetailsPanel />}
        {tab === 'metrics' && <MetricsPanel runId={runId} />}
        {tab === 'events' && <EventsPanel />}
      </div>
    </aside>
  );
}

function Pre({ text, testId, empty }: { text: string | undefined; testId?: string; empty?: string }) {
  // Model output is untrusted: shown as text, never as HTML.
  if (!text) return <p className="muted small">{empty ?? 'Nothing yet.'}</p>;
  return (
    <pre className="output" data-testid={testId}>
      {text}
    </pre>
  );
}

/** The loop's `outputMode` in the document: cumulative, or last (the default). */
function useOutputMode(key: string): 'cumulative' | 'last' {
  return useEditor((s) => {
    const found = locate(s.doc, key);
    const loop = found && isObject(found.step.loop) ? found.step.loop : null;
    return loop && loop.outputMode === 'cumulative' ? 'cumulative' : 'last';
  });
}

/** What the loop step outputs so far: every finished iteration (cumulative) or the latest one. */
function loopOutput(loop: LoopRun, mode: 'cumulative' | 'last'): string {
  if (loop.cumulative !== undefined && loop.ended) return loop.cumulative;
  const done = loop.iterations.filter((it) => it.status === 'completed' && it.content);
  if (mode === 'last') return done.length ? (done[done.length - 1].content as string) : '';
  return done.map((it) => it.content as string).join(CUMULATIVE_SEPARATOR);
}

/** " of critic": the inner step(s) an iteration's output comes from (the server's rule), for labels. */
function sourceWords(sources: readonly string[]): string {
  return sources.length ? ` of ${sources.join(' + ')}` : '';
}

/** The format's own id of an iteration: `loop.N` (repeat-until) or `loop[N]` (forEach), zero-based. */
function iterationId(loopKey: string, it: IterationRun): string {
  const base = loopKey.split('/').pop() ?? loopKey;
  return it.item !== undefined ? `${base}[${it.iteration}]` : `${base}.${it.iteration}`;
}

function LoopOutput({ loopKey, loop, testId }: { loopKey: string; loop: LoopRun; testId?: string }) {
  const mode = useOutputMode(loopKey);
  const from = sourceWords(useIterationSources(loopKey));
  return (
    <>
      <div className="muted small" data-testid="loop-output-label">
        {mode === 'cumulative' ? `Cumulative output${from}: every finished iteration` : `Loop output${from}: the latest finished iteration`}
      </div>
      <Pre text={loopOutput(loop, mode)} testId={testId} empty="Nothing yet: appears as iterations finish." />
    </>
  );
}

function LivePanel() {
  const live = useEditor((s) => s.runState.live);
  const loops = useEditor((s) => s.runState.loops);
  const { status, reason } = useShownStatus();
  const errors = useEditor((s) => s.runState.errors);
  const streamRef = useRef<HTMLPreElement>(null);
  useEffect(() => {
    if (streamRef.current) streamRef.current.scrollTop = streamRef.current.scrollHeight;
  }, [live?.text]);
  return (
    <div>
      {status === 'queued' && <p className="muted">Waiting for a worker to pick the run up…</p>}
      {isTerminal(status) && (
        <div className={`banner banner-${status === 'completed' ? 'info' : 'error'}`} data-testid="run-finished">
          Run {status}
          {reason ? `: ${reason}` : ''}.
        </div>
      )}
      <h4 className="side-title">
        {live && !live.done ? 'Streaming' : 'Last output'}
        {live && (
          <span className="muted small">
            {' '}
            · {live.stepId}
            {live.agent ? ` (${live.agent})` : ''}
          </span>
        )}
      </h4>
      {live?.text ? (
        <pre className="output stream" ref={streamRef} data-testid="live-output">
          {live.text}
          {!live.done && <span className="caret">▍</span>}
        </pre>
      ) : (
        <p className="muted small">Agent output appears here as it streams.</p>
      )}
      {Object.entries(loops).map(([key, loop]) => (
        <div key={key} className="loop-summary">
          <h4 className="side-title">
            Loop {key}{' '}
            <span className="muted small" data-testid={`loop-summary-${key}`}>
              · {plural(loop.iterations.length, 'iteration')}
              {loop.ended ? ` · ${breakReasonLabel(loop.ended.reason)}` : ''}
            </span>
          </h4>
          <VerdictList iterations={loop.iterations} />
          <LoopOutput loopKey={key} loop={loop} testId={`cumulative-${key}`} />
        </div>
      ))}
      {errors.length > 0 && (
        <>
          <h4 className="side-title">Errors</h4>
          {errors.map((e, i) => (
            <div key={i} className="field-problem error">
              {e}
            </div>
          ))}
        </>
      )}
    </div>
  );
}

function VerdictList({ iterations }: { iterations: IterationRun[] }) {
  const withVerdict = iterations.filter((it) => it.verdict);
  if (!withVerdict.length) return null;
  return (
    <ul className="verdicts" data-testid="verdicts">
      {withVerdict.map((it) => {
        const v = it.verdict!;
        return (
          <li key={it.iteration} className={`verdict ${v.failedOpen ? 'failed-open' : v.done ? 'done' : 'not-done'}`} data-testid="verdict">
            <span className="verdict-round">iteration {ordinal(it.iteration)}</span>
            <strong>{v.failedOpen ? 'failed open' : v.done ? 'done' : 'not done'}</strong>
            {v.reason && <span className="verdict-reason">{v.reason}</span>}
          </li>
        );
      })}
    </ul>
  );
}

function StepDetails({ title, run }: { title: string; run: StepRun }) {
  return (
    <div className="step-details">
      <h4 className="side-title">
        {title} <span className={`status status-${run.status}`}>{run.status}</span>
      </h4>
      <div className="muted small">
        {[run.agent && `agent ${run.agent}`, run.model && `model ${run.model}`, run.duration, run.tokens && `${run.tokens.total} tokens`].filter(Boolean).join(' · ')}
      </div>
      {run.error && <div className="field-problem error">{run.error}</div>}
      <details open>
        <summary>Output</summary>
        <Pre text={run.content ?? run.output} />
      </details>
      {run.result !== undefined && run.result !== null && (
        <details>
          <summary>Result</summary>
          <Pre text={JSON.stringify(run.result, null, 2)} />
        </details>
      )}
      <details>
        <summary>Prompt the agent saw</summary>
        <Pre text={run.prompt} testId="prompt" empty="No prompt recorded." />
      </details>
    </div>
  );
}

function DetailsPanel() {
  const selection = useEditor((s) => s.selection);
  const focus = useEditor((s) => s.iterationFocus);
  const steps = useEditor((s) => s.runState.steps);
  const loops = useEditor((s) => s.runState.loops);
  const iteration = focus ? loops[focus.loop]?.iterations.find((it) => it.iteration === focus.iteration) : undefined;
  const iterationSources = useIterationSources(focus?.loop ?? '');
  if (iteration && focus) {
    return (
      <div data-testid="iteration-details">
        <h4 className="side-title">
          {focus.loop} · iteration {ordinal(iteration.iteration)} <span className="mono muted small" title="The id the format gives this iteration">{iterationId(focus.loop, iteration)}</span>{' '}
          <span className={`status status-${iteration.status}`}>{iteration.status}</span>
        </h4>
        <div className="muted small">{formatMs(iteration.durationMs)}</div>
        {iteration.item !== undefined && (
          <>
            <div className="muted small">Item</div>
            <Pre text={JSON.stringify(iteration.item, null, 2)} />
          </>
        )}
        {iteration.verdict && <VerdictList iterations={[iteration]} />}
        <div className="muted small" data-testid="iteration-output-label">
          Iteration output{sourceWords(iterationSources)}
        </div>
        <Pre text={iteration.content} />
        {Object.entries(iteration.steps).map(([id, run]) => (
          <StepDetails key={id} title={id || focus.loop} run={run} />
        ))}
      </div>
    );
  }
  if (selection?.kind === 'step') {
    const run = steps[selection.key];
    const loop = loops[selection.key];
    return (
      <div>
        {run ? <StepDetails title={selection.key} run={run} /> : <p className="muted">“{selection.key}” has not started.</p>}
        {loop && (
          <>
            <VerdictList iterations={loop.iterations} />
            <LoopOutput loopKey={selection.key} loop={loop} testId={`loop-output-${selection.key}`} />
          </>
        )}
      </div>
    );
  }
  return <p className="muted">Click a step, or a cell of a loop’s iteration strip, to see its output, result and prompt.</p>;
}

interface StepMetric {
  tokens: number | null;
  durationMs: number | null;
  status: string;
  /** What the row is called on screen (the judge's turns are named by their loop and iteration). */
  label: string;
}
interface LoopMetric {
  iterations: number | null;
  meanMs: number | null;
  maxMs: number | null;
  breakReason: string | null;
}

function numOrNull(v: unknown): number | null {
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

/** Reads GET /runs/{id}/metrics defensively: the figures are shown, never trusted to be complete. */
function readMetrics(m: JsonObject): { steps: [string, StepMetric][]; loops: [string, LoopMetric][]; costUsd: number | null; durationS: number | null } {
  const steps: [string, StepMetric][] = [];
  if (isObject(m.steps)) {
    for (const [id, raw] of Object.entries(m.steps)) {
      if (!isObject(raw)) continue;
      const tokens = isObject(raw.tokens) ? numOrNull(raw.tokens.total) : numOrNull(raw.tokens);
      const judged = raw.kind === 'judge' && typeof raw.loop === 'string' && typeof raw.iteration === 'number';
      const label = judged ? `${raw.loop} · judge, iteration ${ordinal(raw.iteration as number)}` : id;
      steps.push([id, { tokens, durationMs: numOrNull(raw.duration_ms), status: typeof raw.status === 'string' ? raw.status : '', label }]);
    }
  }
  const loops: [string, LoopMetric][] = [];
  if (isObject(m.loops)) {
    for (const [id, raw] of Object.entries(m.loops)) {
      if (!isObject(raw)) continue;
      const d = isObject(raw.duration_ms) ? raw.duration_ms : {};
      loops.push([
        id,
        {
          iterations: numOrNull(raw.iterations) ?? numOrNull(raw.rounds_completed),
          meanMs: numOrNull(d.mean),
          maxMs: numOrNull(d.max),
          breakReason: typeof raw.break_reason === 'string' ? raw.break_reason : null,
        },
      ]);
    }
  }
  return { steps, loops, costUsd: numOrNull(m.cost_usd), durationS: numOrNull(m.duration_s) };
}

function MetricsPanel({ runId }: { runId: string }) {
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

function EventsPanel() {
  const log = useEditor((s) => s.runState.log);
  const rows = useMemo(() => eventRows(log), [log]);
  const run = useEditor((s) => s.run);
  return (
    <div>
      <p className="muted small">
        {plural(log.length, 'event')}{run?.created_at ? ` · created ${when(run.created_at)}` : ''}
      </p>
      <ol className="event-log" data-testid="event-log">
        {rows.slice(-300).map((r) => (
          <li key={r.seq} className={`event-row event-${r.tone}`} data-type={r.type}>
            <span className="mono muted">{r.seq === r.lastSeq ? r.seq : `${r.seq}–${r.lastSeq}`}</span>{' '}
            <time className="mono muted small">{r.time}</time> <strong>{r.type}</strong> <span className="mono">{r.stepId}</span>{' '}
            <span className={r.tone === 'plain' ? 'muted' : undefined}>{r.text}</span>
          </li>
        ))}
      </ol>
    </div>
  );
}
