// On a fork's header: where it came from, and "Compare with the parent".
import type { Run } from '../../api/types';
import { Link } from '../../components/Link';
import { shortId } from '../labels';
import { forkPointWords, parentComparePath } from './forkEdits';

export function ParentLink({ run }: { run: Pick<Run, 'id' | 'parent' | 'fork_point'> | null }) {
  const compare = run ? parentComparePath(run) : null;
  if (!run?.parent || !compare) return null;
  return (
    <span className="muted small nowrap" data-testid="fork-parent">
      fork of <Link to={`/runs/${run.parent}`}>run {shortId(run.parent)}</Link>
      {run.fork_point ? ` ${forkPointWords(run.fork_point)}` : ''} ·{' '}
      <span data-testid="compare-with-parent">
        <Link to={compare}>Compare with the parent</Link>
      </span>
    </span>
  );
}
