import { nodeHintId, nodeNameId, type StepNodeData } from '../../graph/mapping';
import { useEditor } from '../../store/context';
import { nodeKeysHint, nodeName } from './accessibleNames';
import { useShownStepStatus, useStepRun } from './parts';
import { useProblemCount } from './problemCounts';

/**
 * A node's name and keys, kept current (problems, run status), for the node's
 * frame to point at (the mapping sets aria-labelledby and aria-describedby).
 * Hidden: a referenced hidden element still names, and is not read twice.
 */
export function NodeLabels({ data }: { data: StepNodeData }) {
  const problems = useProblemCount(data.key);
  const status = useShownStepStatus(data.key);
  const duration = useStepRun(data.key)?.duration;
  const readOnly = useEditor((s) => s.readOnly);
  const name = nodeName(data, { errors: problems?.errors, warnings: problems?.warnings, status, duration });
  return (
    <>
      <span id={nodeNameId(data.key)} hidden>
        {name}
      </span>
      <span id={nodeHintId(data.key)} hidden>
        {nodeKeysHint(readOnly)}
      </span>
    </>
  );
}
