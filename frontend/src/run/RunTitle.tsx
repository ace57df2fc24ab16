import type { Run } from '../api/types';
import { Link } from '../components/Link';
import { shortId } from './labels';

/**
 * "Run #d2c4… · workflow" as the page's heading. The run's number never shrinks (it is how runs are told
 * apart); a long workflow name ends in an ellipsis, its whole name in the link's title.
 */
export function RunTitle({ runId, run }: { runId: string; run: Pick<Run, 'workflow_id' | 'workflow_name'> | null | undefined }) {
  return (
    <h1 className="wf-name run-title">
      <span className="run-number">Run {shortId(runId)}</span>
      <span aria-hidden>·</span>
      {run ? (
        <Link to={`/workflows/${run.workflow_id}`} title={run.workflow_name} className="ellipsis">
          {run.workflow_name}
        </Link>
      ) : (
        '…'
      )}
    </h1>
  );
}
