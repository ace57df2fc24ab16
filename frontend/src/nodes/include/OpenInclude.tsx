// The include's "Open" action, on its node and in its panel: a folder file opens read only over the canvas; a
// saved workflow is its own page ("Open that workflow"); nothing to open says why.
import { Link } from '../../components/Link';
import type { Step } from '../../doc/types';
import type { IncludeLook, IncludeScope } from '../folder/includeScope';

export function OpenInclude({ step, look, scope, where }: { step: Step; look: IncludeLook | null; scope: IncludeScope | null; where: 'node' | 'panel' }) {
  if (!look || !scope) return null;
  const id = typeof step.id === 'string' ? step.id : String(step.include ?? '');
  const { resolved } = look;
  const stop = (e: { stopPropagation(): void }) => e.stopPropagation();
  if (resolved.kind === 'file')
    return (
      <button
        type="button"
        className="btn small nodrag nopan"
        onClick={(e) => {
          stop(e);
          scope.open({ step: id, file: resolved.file });
        }}
        onKeyDown={stop}
        aria-label={`Open the included workflow ${resolved.file} of ${id}`}
        data-testid={`open-include-${where}`}
      >
        Open
      </button>
    );
  if (resolved.kind === 'saved')
    return (
      <span className="nodrag nopan" onClick={stop}>
        <Link to={`/workflows/${resolved.workflowId}`}>Open that workflow</Link>
      </span>
    );
  return null;
}
