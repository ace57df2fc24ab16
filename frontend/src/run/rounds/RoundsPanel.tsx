// The run page's rounds: each loop of the run with its chart.
import { RoundLabels } from './RoundLabels';
import { useEditor } from '../../store/context';
import { isTerminal } from '../socket';
import type { RunState } from '../reduce';
import { useWorkspace } from '../../workspaces/current';
import { roleFallsShort } from '../../workspaces/roles';
import { RoundsChart } from './RoundsChart';

export interface RoundsPanelProps {
  /** The run's reduced state, or the part of it the charts read. */
  state: Pick<RunState, 'loops' | 'tools'>;
}

export function RoundsPanel({ state }: RoundsPanelProps) {
  const keys = Object.keys(state.loops);
  if (!keys.length) {
    return (
      <p className="muted" data-testid="rounds-none">
        This run has no loop rounds yet. Each loop gets a chart of its rounds here once it starts.
      </p>
    );
  }
  return (
    <div className="rounds-panel" data-testid="rounds-panel">
      {keys.map((key) => (
        <RoundsChart key={key} loopKey={key} loop={state.loops[key]} tools={state.tools} />
      ))}
    </div>
  );
}

/** The panel fed from the run page's store: what a "Rounds" tab renders. */
export function RoundsTab() {
  const loops = useEditor((s) => s.runState.loops);
  const tools = useEditor((s) => s.runState.tools);
  const run = useEditor((s) => s.run);
  const workspace = useWorkspace(run?.workspace_id);
  // A finished run's judged rounds can be labelled here too (the judge on trial, runtime/evals/judging.py), by a
  // runner or above: a viewer sees them with the labels off, saying why.
  const labelling = run && isTerminal(run.status) && Object.values(loops).some((l) => l.iterations.some((it) => it.verdict));
  const denied = roleFallsShort(workspace?.role, workspace?.name ?? '', 'run', 'labelling rounds');
  return (
    <>
      <RoundsPanel state={{ loops, tools }} />
      {labelling && <RoundLabels key={run.id} runId={run.id} workflowId={run.workflow_id} experimentId={null} hideEmpty denied={denied} />}
    </>
  );
}
