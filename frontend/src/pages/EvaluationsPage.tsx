// A workflow's evaluations (/workflows/:id/evaluations): its datasets, experiments started over one, an
// experiment's results (`?experiment=N` in the address) with a progress bar while it runs, two experiments
// compared case by case, and the judge's agreement with people's labels, re-scored with new instructions or
// another model (evaluations/JudgeRescore).
// The server is the one judge of cases and scorers: what it refuses is shown in its words. What the user's role in
// the workflow's workspace cannot do (a viewer runs nothing, a runner makes no datasets) is off, saying why.
import { useCallback, useEffect, useState } from 'react';
import { api, errorText, requestJson } from '../api/client';
import { Link } from '../components/Link';
import { RoundLabels } from '../run/rounds/RoundLabels';
import { JudgeRescore } from './evaluations/JudgeRescore';
import { TrialsTable, type Trial } from './evaluations/TrialsTable';
import { replaceSearch } from './useLocationSearch';
import './evaluations/evaluations.css';
import { useWorkspace } from '../workspaces/current';
import { roleFallsShort } from '../workspaces/roles';

interface Dataset {
  id: number;
  name: string;
  version: number;
  cases_count: number;
  scorers: { name: string; kind: string }[];
}

interface Experiment {
  id: number;
  name: string;
  status: string;
  reason: string;
  version: number;
  dataset_id: number;
  dataset_version: number;
  trials: number;
}

interface Spread {
  mean: number | null;
  stdev: number | null;
  n: number;
}

interface Progress {
  total: number;
  done: number;
  running: number;
  failed: number;
}

interface Results {
  experiment: Experiment;
  progress: Progress;
  aggregate: { score: Spread; pass_rate: number | null; tokens: number; cost_usd: number };
  trials: Trial[];
}

interface Comparison {
  verdict: string;
  rows: { case_id: string; candidate: number | null; baseline: number | null; delta: number | null; change: string; candidate_run: string | null; baseline_run: string | null }[];
}

const EXAMPLE_CASES = '[{"id": "first", "files": {"brief.md": "Write about otters."}, "expected": {"content": "otters"}}]';
const EXAMPLE_SCORERS = '[{"name": "mentions", "kind": "contains"}]';

function num(v: number | null | undefined, digits = 2): string {
  return v === null || v === undefined ? '–' : v.toFixed(digits);
}

/** The experiment the address shows (`?experiment=12`): a shown experiment can be linked to and opened again. */
function experimentInAddress(): number | null {
  const found = Number(new URLSearchParams(window.location.search).get('experiment'));
  return Number.isInteger(found) && found > 0 ? found : null;
}

function parsed(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new Error(`${what}: not JSON`);
  }
}

export function EvaluationsPage({ workflowId }: { workflowId: number }) {
  const [datasets, setDatasets] = useState<Dataset[]>([]);
  const [experiments, setExperiments] = useState<Experiment[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [name, setName] = useState('golden');
  const [cases, setCases] = useState(EXAMPLE_CASES);
  const [scorers, setScorers] = useState(EXAMPLE_SCORERS);
  const [datasetId, setDatasetId] = useState<number | null>(null);
  const [trials, setTrials] = useState(1);
  const [concurrency, setConcurrency] = useState(4);
  const [shown, setShownState] = useState<number | null>(experimentInAddress);
  const [results, setResults] = useState<Results | null>(null);
  const [baseline, setBaseline] = useState<number | null>(null);
  const [comparison, setComparison] = useState<Comparison | null>(null);
  const [labelling, setLabelling] = useState<string | null>(null);
  const [labels, setLabels] = useState(0); // labels given here: the judge's agreement is read again
  // The user's role where the workflow lives: what it falls short of is held back here, as the server would refuse it.
  const [owner, setOwner] = useState<{ role: string | null; workspaceId: number | null }>({ role: null, workspaceId: null });
  const workspace = useWorkspace(owner.workspaceId);
  const where = workspace?.name ?? '';
  const cannotMakeDatasets = roleFallsShort(owner.role, where, 'edit', 'making datasets');
  const cannotRun = roleFallsShort(owner.role, where, 'run', 'running experiments');
  const cannotLabel = roleFallsShort(owner.role, where, 'run', 'labelling rounds');

  useEffect(() => {
    let live = true;
    api.getWorkflow(workflowId).then(
      (wf) => live && setOwner({ role: wf.role ?? null, workspaceId: wf.workspace_id ?? null }),
      () => undefined, // nothing held back: the server still decides, and says so in its words
    );
    return () => {
      live = false;
    };
  }, [workflowId]);

  const reload = useCallback(() => {
    requestJson<Dataset[]>('GET', `/workflows/${workflowId}/datasets`).then(setDatasets, (e) => setError(errorText(e)));
    requestJson<Experiment[]>('GET', `/workflows/${workflowId}/experiments`).then(setExperiments, (e) => setError(errorText(e)));
  }, [workflowId]);

  useEffect(reload, [reload]);

  const setShown = (id: number) => {
    setShownState(id);
    replaceSearch(`?experiment=${id}`);
  };

  // The shown experiment's results, polled while it runs (the progress bar), once more when it ends.
  useEffect(() => {
    if (shown === null) return;
    let live = true;
    let timer: number | undefined;
    const load = () => {
      requestJson<Results>('GET', `/experiments/${shown}`).then(
        (r) => {
          if (!live) return;
          setResults(r);
          if (r.experiment.status === 'running') timer = window.setTimeout(load, 1000);
          else reload();
        },
        (e) => live && setError(errorText(e)),
      );
    };
    load();
    return () => {
      live = false;
      window.clearTimeout(timer);
    };
  }, [shown, reload]);

  const createDataset = async () => {
    setError(null);
    try {
      const made = await requestJson<Dataset>('POST', '/datasets', {
        workflow_id: workflowId, name, cases: parsed(cases, 'cases'), scorers: parsed(scorers, 'scorers'),
      });
      setDatasetId(made.id);
      reload();
    } catch (e) {
      setError(errorText(e));
    }
  };

  const startExperiment = async () => {
    const chosen = datasetId ?? datasets[0]?.id;
    if (!chosen) return;
    setError(null);
    try {
      const started = await requestJson<Experiment>('POST', '/experiments', {
        workflow_id: workflowId, dataset_id: chosen, trials, concurrency,
      });
      setComparison(null);
      setShown(started.id);
      reload();
    } catch (e) {
      setError(errorText(e));
    }
  };

  const compare = async () => {
    if (shown === null || baseline === null) return;
    setError(null);
    try {
      setComparison(await requestJson<Comparison>('GET', `/experiments/${shown}/compare/${baseline}`));
    } catch (e) {
      setError(errorText(e));
    }
  };

  const progress = results?.progress;
  return (
    // data-role: the role the page holds back for, once the workflow says it (a test waits for it).
    <div className="page evaluations-page" data-testid="evaluations-page" data-role={owner.role ?? undefined}>
      <div className="page-head">
        <div>
          <h1>Evaluations</h1>
          <p className="muted">
            <Link to={`/workflows/${workflowId}`}>Back to the workflow</Link>
          </p>
        </div>
      </div>
      {error && (
        <p role="alert" className="error" data-testid="evaluations-error">
          {error}
        </p>
      )}

      <section aria-labelledby="datasets-head">
        <h2 id="datasets-head">Datasets</h2>
        <table className="table compact" data-testid="datasets">
          <thead>
            <tr>
              <th>Name</th>
              <th>Version</th>
              <th>Cases</th>
              <th>Scorers</th>
            </tr>
          </thead>
          <tbody>
            {datasets.map((d) => (
              <tr key={d.id}>
                <td>{d.name}</td>
                <td>{d.version}</td>
                <td>{d.cases_count}</td>
                <td>{d.scorers.map((s) => `${s.name} (${s.kind})`).join(', ')}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <details>
          <summary>New dataset</summary>
          <fieldset className="insp-fieldset eval-form" disabled={!!cannotMakeDatasets} title={cannotMakeDatasets ?? undefined}>
            <label>
              <span className="field-label">Name</span>
              <input className="input" value={name} onChange={(e) => setName(e.target.value)} data-testid="dataset-name" />
            </label>
            <label>
              <span className="field-label">Cases (JSON)</span>
              <textarea rows={4} value={cases} onChange={(e) => setCases(e.target.value)} data-testid="dataset-cases" />
            </label>
            <label>
              <span className="field-label">Scorers (JSON)</span>
              <textarea rows={3} value={scorers} onChange={(e) => setScorers(e.target.value)} data-testid="dataset-scorers" />
            </label>
            <button
              type="button"
              className="btn small"
              title={cannotMakeDatasets ?? undefined}
              onClick={() => void createDataset()}
              data-testid="create-dataset"
            >
              Create dataset
            </button>
          </fieldset>
          {cannotMakeDatasets && (
            <p className="muted small" data-testid="datasets-need-editor">
              {cannotMakeDatasets}
            </p>
          )}
        </details>
      </section>

      <section aria-labelledby="run-head">
        <h2 id="run-head">Run an experiment</h2>
        <div className="row">
          <label>
            Dataset{' '}
            <select value={datasetId ?? datasets[0]?.id ?? ''} onChange={(e) => setDatasetId(Number(e.target.value))} data-testid="experiment-dataset">
              {datasets.map((d) => (
                <option key={d.id} value={d.id}>
                  {d.name} (v{d.version})
                </option>
              ))}
            </select>
          </label>
          <label>
            Trials <input type="number" min={1} max={20} value={trials} onChange={(e) => setTrials(Number(e.target.value))} />
          </label>
          <label>
            At once <input type="number" min={1} max={50} value={concurrency} onChange={(e) => setConcurrency(Number(e.target.value))} />
          </label>
          <button
            type="button"
            className="btn primary small"
            disabled={!datasets.length || !!cannotRun}
            title={cannotRun ?? (datasets.length ? undefined : 'Make a dataset first: an experiment runs its cases.')}
            onClick={() => void startExperiment()}
            data-testid="start-experiment"
          >
            Run experiment
          </button>
        </div>
      </section>

      <section aria-labelledby="experiments-head">
        <h2 id="experiments-head">Experiments</h2>
        <ul data-testid="experiments">
          {experiments.map((x) => (
            <li key={x.id}>
              <button type="button" className="btn ghost small" onClick={() => setShown(x.id)}>
                #{x.id} {x.name}
              </button>{' '}
              <span className="muted">{x.status}</span>
            </li>
          ))}
        </ul>
      </section>

      {results && progress && (
        <section aria-labelledby="results-head" data-testid="experiment-results">
          <h2 id="results-head">
            Experiment #{results.experiment.id}: {results.experiment.status}
          </h2>
          <progress max={progress.total} value={progress.done} aria-label="Trials done" data-testid="experiment-progress" />{' '}
          <span className="muted">
            {progress.done} of {progress.total} done, {progress.running} running, {progress.failed} failed
          </span>
          <p data-testid="experiment-aggregate">
            Score {num(results.aggregate.score.mean)} ± {num(results.aggregate.score.stdev)} (n {results.aggregate.score.n}), pass rate{' '}
            {num(results.aggregate.pass_rate)}, {results.aggregate.tokens} tokens, ${num(results.aggregate.cost_usd, 4)}
          </p>
          <div className="row">
            <label>
              Compare with{' '}
              <select value={baseline ?? ''} onChange={(e) => setBaseline(Number(e.target.value))} data-testid="compare-baseline">
                <option value="">an experiment…</option>
                {experiments
                  .filter((x) => x.id !== results.experiment.id && x.dataset_id === results.experiment.dataset_id)
                  .map((x) => (
                    <option key={x.id} value={x.id}>
                      #{x.id} (version {x.version})
                    </option>
                  ))}
              </select>
            </label>
            <button type="button" className="btn small" disabled={baseline === null} onClick={() => void compare()} data-testid="compare-experiments">
              Compare
            </button>
          </div>
          {comparison && (
            <>
              <p data-testid="comparison-verdict">
                <strong>{comparison.verdict}</strong>
              </p>
              <table className="table compact">
                <thead>
                  <tr>
                    <th>Case</th>
                    <th>This</th>
                    <th>Baseline</th>
                    <th>Change</th>
                    <th />
                  </tr>
                </thead>
                <tbody>
                  {comparison.rows.map((r) => (
                    <tr key={r.case_id} data-change={r.change}>
                      <td>{r.case_id}</td>
                      <td>{num(r.candidate)}</td>
                      <td>{num(r.baseline)}</td>
                      <td>
                        {r.change} {r.delta !== null && r.delta !== 0 ? `(${r.delta > 0 ? '+' : ''}${num(r.delta)})` : ''}
                      </td>
                      <td>{r.candidate_run && r.baseline_run && <Link to={`/runs/${r.candidate_run}/compare/${r.baseline_run}`}>runs</Link>}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </>
          )}
          <TrialsTable trials={results.trials} onLabel={setLabelling} denied={cannotLabel} />
          {labelling && (
            <RoundLabels
              key={labelling}
              runId={labelling}
              workflowId={workflowId}
              experimentId={results.experiment.id}
              onLabelled={() => setLabels((n) => n + 1)}
              denied={cannotLabel}
            />
          )}
        </section>
      )}

      <JudgeRescore key={results?.experiment.id ?? 'all'} workflowId={workflowId} experimentId={results?.experiment.id ?? null} refreshKey={labels} />
    </div>
  );
}
