// "Re-run from here": on a step, on the focused cell of a loop's iteration strip, on a judge's verdict.
// It shows only for a finished run, and is off (saying why) for a role that cannot start runs.
import { useState } from 'react';
import { createPortal } from 'react-dom';
import type { Run } from '../../api/types';
import { useEditor } from '../../store/context';
import { useWorkspace } from '../../workspaces/current';
import { cannotRunReason } from '../../workspaces/roles';
import { isTerminal } from '../socket';
import { ForkDialog, type ForkDialogProps } from './ForkDialog';
import { forkTestId, type ForkAt } from './forkEdits';

export function ForkButton({ at, run: given, testId }: { at: ForkAt; run?: ForkDialogProps['run'] & Pick<Run, 'status'>; testId?: string }) {
  const stored = useEditor((s) => s.run);
  const run = given ?? stored;
  const workspace = useWorkspace(run?.workspace_id);
  const [open, setOpen] = useState(false);
  if (!run || !isTerminal(run.status)) return null;
  const denied = cannotRunReason(workspace?.role, workspace?.name);
  return (
    <>
      <button
        type="button"
        className="btn ghost small fork-button nodrag"
        disabled={!!denied}
        title={denied ?? 'Start a new run from here, keeping what came before; edit first if you like'}
        data-testid={testId ?? forkTestId(at)}
        onClick={(e) => {
          e.stopPropagation();
          setOpen(true);
        }}
      >
        Re-run from here
      </button>
      {/* On the body, not inside a canvas node: the canvas's drag and keys stay out of the form. */}
      {open && createPortal(<ForkDialog run={run} at={at} onClose={() => setOpen(false)} />, document.body)}
    </>
  );
}
