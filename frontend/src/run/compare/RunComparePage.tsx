// Two runs of one workflow side by side: per step and iteration, status, verdict, tokens, cost, time and a
// word diff of the outputs; where they parted first; a link to the diff of their workflow versions.
import { useEffect, useMemo, useState } from 'react';
import { CostFigure } from '../CostFigure';
import { api, errorText } from '../../api/client';
import type { Run } from '../../api/types';
import { Link } from '../../components/Link';
import { formatMs } from '../reduce';
import { shortId } from '../labels';
import { differenceWords, editedWords, figuresDiffer, forkStart, outputText, rowLabel, showsKey, verdictWords, wordDiff, type CompareRow, type RunComparison, type Unit } from './compareData';
import { JUDGE_DONE_GLYPH } from '../../nodes/common/accessibleNames';
import { useVersion, useYamlPair } from '../../versions/useVersions';
import { YamlDiffView } from '../../versions/YamlDiffView';
import './compare.css';

/** What changed in the workflow between the two runs' versions, folded until asked for. */
function VersionsDiff({ workflowId, a, b }: { workflowId: number; a: number; b: number }) {
  const [open, setOpen] = useState(false);
  const before = useVersion(workflowId, open ? a : null);
  const after = useVersion(workflowId, open ? b : null);
  const pair = useYamlPair(before.data, after.data);
  const error = before.error ?? after.error ?? pair.error;
  return (
    <details className="compare-versions" data-testid="compare-versions" onToggle={(e) => setOpen((e.target as HTMLDetailsElement).open)}>
      <summary>
        They ran different versions of the workflow (version {a} and version {b}): show what changed
      </summary>
      {error && <p role="alert">{error}</p>}
      {open && !error && !pair.data && <p className="muted">Loading both versions…</p>}
      {pair.data && <YamlDiffView before={pair.data[0]} after={pair.data[1]} labels={[`version ${a} (run A)`, `version ${b} (run B)`]} />}
      <p className="small">
        <Link to={`/workflows/${workflowId}/compare?a=${a}&b=${b}`}>Compare the versions on the canvas</Link>
      </p>
    </details>
  );
}

/** Rows drawn at first; more on request (a 10,000-item loop has 10,000 rows). */
const SHOWN = 200;

function RunCard({ run, side }: { run: Run; side: 'A' | 'B' }) {
  return (
    <div className="compare-card" data-testid={`compare-run-${side}`}>
      <div className="compare-card-head">
        <span className="compare-side" aria-hidden>
          {side}
        </span>
        <Link to={`/runs/${run.id}`}>Run {shortId(run.id)}</Link>
        <span className={`status status-${run.status}`}>{run.status}</span>
      </div>
      <div className="muted small">
        version {run.version ?? '?'} · {run.provider}
        {run.model ? ` · ${run.model}` : ''} · {(run.tokens?.total ?? 0).toLocaleString()} tokens
        <CostFigure cost={run.cost_usd} provider={run.provider} />
      </div>
    </div>
  );
}

function Cell({ unit }: { unit: Unit | null }) {
  if (!unit) return <td className="muted">did not get here</td>;
  // A fork's rows copied from its parent: the same work, not run again, so not a second measurement either.
  const inherited = unit.inherited ? (
    <span className="pill small muted" data-testid="compare-inherited" title="Copied from the parent run's events when the fork started: not run again">
      inherited
    </span>
  ) : null;
  const verdict = verdictWords(unit);
  // What a person changed here at a breakpoint, and a pinned output: the row is not the model's alone.
  const edited = unit.edited.length ? (
    <span className="pill small pill-warn" data-testid="compare-edited" title="Changed by a person at a breakpoint held before it">
      {editedWords(unit.edited)}
    </span>
  ) : null;
  const pinned = unit.pinned ? (
    <span className="pill small muted" data-testid="compare-pinned" title="A pinned output answered: its model was not asked">
      pinned
    </span>
  ) : null;
  return (
    <td>
      <div>
        {unit.status && <span className={`status status-${unit.status}`}>{unit.status}</span>}
        {verdict && (
          <span className={`verdict verdict-${unit.done ? 'done' : 'not-done'}`} data-testid="compare-verdict">
            {unit.done ? `${JUDGE_DONE_GLYPH} ` : '↻ '}
            {verdict}
          </span>
        )}{' '}
        {inherited} {edited} {pinned}
      </div>
      {unit.reason && <div className="small compare-reason">{unit.reason}</div>}
      <div className="muted small">
        {unit.tokens.toLocaleString()} tokens · ${unit.cost_usd.toFixed(4)}
        {unit.duration_ms !== null ? ` · ${formatMs(unit.duration_ms)}` : ''}
      </div>
    </td>
  );
}

function OutputDiff({ row }: { row: CompareRow }) {
  const { segments, cut } = useMemo(() => wordDiff(outputText(row.a), outputText(row.b)), [row]);
  return (
    <div className="compare-diff" data-testid="compare-output-diff">
      <p className="muted small">
        Words only run A has are struck through (<del>like this</del>); words only run B has are underlined (<ins>like this</ins>).
        {cut && ' The outputs are long: only their beginnings are compared.'}
      </p>
      <pre>
        {segments.map((s, i) =>
          s.kind === 'removed' ? <del key={i}>{s.text}</del> : s.kind === 'added' ? <ins key={i}>{s.text}</ins> : <span key={i}>{s.text}</span>,
        )}
      </pre>
    </div>
  );
}

function Row({ row, diverged, forkBegan }: { row: CompareRow; diverged: boolean; forkBegan: 'A' | 'B' | null }) {
  const [open, setOpen] = useState(false);
  const outputsDiffer = row.differs.includes('output') || row.differs.includes('result');
  return (
    <>
      <tr id={`row-${row.key}`} className={`${row.differs.length ? 'compare-differs' : ''}${diverged ? ' compare-diverged' : ''}`} data-key={row.key}>
        <th scope="row">
          <code>{rowLabel(row)}</code>
          {showsKey(row) && (
            <span className="mono muted small" title="The id the format gives it (counted from 0)">
              {' '}
              {row.key}
            </span>
          )}
          {forkBegan && (
            <div className="small compare-fork-began" data-testid="compare-fork-began">
              run {forkBegan} (the fork) began here
            </div>
          )}
          {diverged && <div className="small compare-first">first difference</div>}
        </th>
        <Cell unit={row.a} />
        <Cell unit={row.b} />
        <td>
          {row.differs.length ? (
            <span className="small">≠ {differenceWords(row.differs)}</span>
          ) : figuresDiffer(row) ? (
            <span className="small" data-testid="compare-figures-differ">
              = same outcome; tokens or cost differ
            </span>
          ) : (
            <span className="muted small">= same</span>
          )}
          {outputsDiffer && row.a && row.b && (
            <div>
              <button type="button" className="btn ghost small" aria-expanded={open} onClick={() => setOpen(!open)}>
                {open ? 'Hide output diff' : 'Show output diff'}
              </button>
            </div>
          )}
        </td>
      </tr>
      {open && (
        <tr className="compare-diff-row">
          <td colSpan={4}>
            <OutputDiff row={row} />
          </td>
        </tr>
      )}
    </>
  );
}

export function RunComparePage({ a, b }: { a: string; b: string }) {
  const [data, setData] = useState<RunComparison | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [onlyDiffering, setOnlyDiffering] = useState(false);
  const [shown, setShown] = useState(SHOWN);
  useEffect(() => {
    const ctl = new AbortController();
    // The answer as compareData narrows it (each override checked against the schema by Narrowed).
    api.compareRuns(a, b, ctl.signal).then((answer) => setData(answer as RunComparison), (e) => {
      if (!ctl.signal.aborted) setError(errorText(e));
    });
    return () => ctl.abort();
  }, [a, b]);
  const rows = useMemo(() => (data ? (onlyDiffering ? data.rows.filter((r) => r.differs.length) : data.rows) : []), [data, onlyDiffering]);

  if (error)
    return (
      <div className="page-message" role="alert">
        <h1>Could not compare these runs</h1>
        <p>{error}</p>
        <Link to="/runs">Back to the runs</Link>
      </div>
    );
  if (!data) return <div className="page-message muted">Comparing the runs…</div>;
  const diverged = data.diverged_at;
  const differing = data.rows.filter((r) => r.differs.length).length;
  const figures = data.rows.filter(figuresDiffer).length;
  const fork = forkStart(data.a, data.b);
  const reveal = (key: string) => {
    const at = data.rows.findIndex((r) => r.key === key);
    if (onlyDiffering) setShown(Math.max(shown, data.rows.filter((r, i) => i <= at && r.differs.length).length));
    else setShown(Math.max(shown, at + 1));
    requestAnimationFrame(() => document.getElementById(`row-${key}`)?.scrollIntoView({ block: 'center' }));
  };
  return (
    <div className="compare-page" data-testid="run-compare">
      <h1>
        Compare runs of <Link to={`/workflows/${data.a.workflow_id}`}>{data.a.workflow_name}</Link>
      </h1>
      <div className="compare-cards">
        <RunCard run={data.a} side="A" />
        <RunCard run={data.b} side="B" />
      </div>
      {!data.same_version && data.a.version !== null && data.b.version !== null && (
        <VersionsDiff workflowId={data.a.workflow_id} a={data.a.version} b={data.b.version} />
      )}
      <div className="compare-summary" role="status" data-testid="compare-diverged">
        {diverged ? (
          <>
            They part first at <code>{rowLabel(data.rows.find((r) => r.key === diverged.key) ?? { key: diverged.key, where: {} })}</code>:{' '}
            {differenceWords(diverged.fields)}.{' '}
            <button type="button" className="btn ghost small" onClick={() => reveal(diverged.key)}>
              Show it
            </button>
            <span className="muted small"> {differing.toLocaleString()} of {data.rows.length.toLocaleString()} rows differ.</span>
          </>
        ) : figures ? (
          <>
            The two runs agree on every step's status, output and verdict, but not on what it took: tokens or cost differ at{' '}
            {figures.toLocaleString()} of {data.rows.length.toLocaleString()} rows.
          </>
        ) : (
          <>The two runs agree on every step and iteration, tokens and cost included.</>
        )}
        {fork && (
          <div className="small" data-testid="compare-fork-note">
            Run {fork.side} is a fork of the other: it began at <code>{fork.key}</code>; the rows marked inherited before it were copied
            from the parent, not run again.
          </div>
        )}
      </div>
      <label className="compare-filter">
        <input type="checkbox" checked={onlyDiffering} onChange={(e) => setOnlyDiffering(e.target.checked)} /> Only rows that differ
      </label>
      <table className="compare-table">
        <thead>
          <tr>
            <th scope="col">Step or iteration</th>
            <th scope="col">Run A</th>
            <th scope="col">Run B</th>
            <th scope="col">Difference</th>
          </tr>
        </thead>
        <tbody>
          {rows.slice(0, shown).map((r) => (
            <Row key={r.key} row={r} diverged={r.key === diverged?.key} forkBegan={fork && r.key === fork.key ? fork.side : null} />
          ))}
        </tbody>
      </table>
      {rows.length > shown && (
        <button type="button" className="btn" onClick={() => setShown(shown + SHOWN)}>
          Show {Math.min(SHOWN, rows.length - shown).toLocaleString()} more of {(rows.length - shown).toLocaleString()}
        </button>
      )}
    </div>
  );
}
