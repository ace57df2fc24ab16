// A row of the runs list: a box to pick it for comparing, the run, its workflow (and the run's summary, when its
// coordinator wrote one), status, starter, provider, tokens, cost and start time.
import type { Run } from '../../api/types';
import { CostFigure } from '../../run/CostFigure';
import { Link } from '../../components/Link';
import { when } from '../../format/dates';
import { shortId } from '../../run/labels';

/** The header cells over RunRow's. */
export function RunColumns({ showStarter }: { showStarter: boolean }) {
  return (
    <>
      <th>
        <span className="visually-hidden">Pick two to compare</span>
      </th>
      <th>Run</th>
      <th>Workflow</th>
      <th>Status</th>
      {showStarter && <th>Started by</th>}
      <th>Provider</th>
      <th>Tokens</th>
      <th>Cost</th>
      <th>Started</th>
    </>
  );
}

interface Props {
  r: Run;
  showStarter: boolean;
  /** The signed-in user's name (their runs say "(you)"). */
  me: string | null;
  picked: boolean;
  onPick(): void;
}

export function RunRow({ r, showStarter, me, picked, onPick }: Props) {
  return (
    <tr>
      <td>
        <input type="checkbox" checked={picked} onChange={onPick} aria-label={`Pick run ${shortId(r.id)} of ${r.workflow_name} to compare`} data-testid="pick-run" />
      </td>
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
        {r.summary && (
          <span className="ellipsis muted small run-row-summary" title={r.summary} data-testid="run-row-summary">
            {r.summary}
          </span>
        )}
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
      <td>
        <CostFigure cost={r.cost_usd} provider={r.provider} bare />
      </td>
      <td className="muted nowrap">{when(r.started_at ?? r.created_at)}</td>
    </tr>
  );
}
