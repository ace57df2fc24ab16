// "Pin this output" on a step execution of a finished run: runs of the workflow take it instead of asking the model
// (POST /runs/{id}/pins). Off, saying why, for a role that cannot edit the workflow.
import { useState } from 'react';
import { api, errorText } from '../../api/client';
import { useEditor } from '../../store/context';
import { useWorkspace } from '../../workspaces/current';
import { cannotEditReason } from '../../workspaces/roles';
import { isTerminal } from '../socket';
import './debug.css';

export function PinButton({ stepId }: { stepId: string }) {
  const run = useEditor((s) => s.run);
  const workspace = useWorkspace(run?.workspace_id);
  const [state, setState] = useState<'idle' | 'busy' | 'pinned'>('idle');
  const [error, setError] = useState<string | null>(null);
  if (!run || !isTerminal(run.status)) return null;
  const denied = cannotEditReason(workspace?.role, workspace?.name);
  const pin = async () => {
    setState('busy');
    setError(null);
    try {
      await api.pinOutput(run.id, stepId);
      setState('pinned');
    } catch (e) {
      setError(errorText(e));
      setState('idle');
    }
  };
  return (
    <>
      <button
        type="button"
        className="btn ghost small nodrag"
        disabled={!!denied || state !== 'idle'}
        title={denied ?? 'Runs of this workflow take this output instead of asking the model (turn pins off in the run dialog)'}
        data-testid={`pin-${stepId}`}
        onClick={(e) => {
          e.stopPropagation();
          void pin();
        }}
      >
        {state === 'pinned' ? 'Pinned' : 'Pin this output'}
      </button>
      {error && (
        <span role="alert" className="field-problem error" data-testid="pin-error">
          {error}
        </span>
      )}
    </>
  );
}
