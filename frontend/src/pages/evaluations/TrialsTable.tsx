// An experiment's trials, one row each (600 and more): memoised, so that opening a run's labelling panel, or any
// other change of the page around it, does not draw every row again.
import { memo } from 'react';
import { Link } from '../../components/Link';

export interface Trial {
  case_id: string;
  trial: number;
  status: string;
  run_id: string | null;
  score: number | null;
  rounds: number;
  stop_reason: string;
  tokens: number;
  cost_usd: number;
  duration_s: number | null;
}

function num(v: number | null | undefined, digits = 2): string {
  return v === null || v === undefined ? '–' : v.toFixed(digits);
}

/** `onLabel`: the run whose rounds to label (keep it stable: a new function draws every row again); `denied`: why the
 * user's role cannot label rounds (the buttons are off, the reason in their title). */
export const TrialsTable = memo(function TrialsTable({
  trials,
  onLabel,
  denied = null,
}: {
  trials: Trial[];
  onLabel: (runId: string) => void;
  denied?: string | null;
}) {
  return (
    <table className="table compact" data-testid="trials">
      <thead>
        <tr>
          <th>Case</th>
          <th>Trial</th>
          <th>Score</th>
          <th>Rounds</th>
          <th>Stopped</th>
          <th>Tokens</th>
          <th>Cost</th>
          <th>Time</th>
          <th>Run</th>
        </tr>
      </thead>
      <tbody>
        {trials.map((t) => (
          <tr key={`${t.case_id}/${t.trial}`}>
            <td>{t.case_id}</td>
            <td>{t.trial}</td>
            <td>{t.status === 'scored' ? num(t.score) : t.status}</td>
            <td>{t.rounds}</td>
            <td>{t.stop_reason}</td>
            <td>{t.tokens}</td>
            <td>{num(t.cost_usd, 4)}</td>
            <td>{t.duration_s === null ? '–' : `${t.duration_s} s`}</td>
            <td>
              {t.run_id && <Link to={`/runs/${t.run_id}`}>open</Link>}{' '}
              {t.run_id && (
                <button
                  type="button"
                  className="btn ghost small"
                  disabled={!!denied}
                  title={denied ?? undefined}
                  onClick={() => t.run_id && onLabel(t.run_id)}
                  data-testid="label-rounds"
                >
                  label rounds
                </button>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
});
