import type { Run } from '../api/types';
import { permissionsWords, thinkingWords } from './permissions';

/** The header's note of how a run was told to use tools and to reason, when it was told anything (none: nothing shown). */
export function RunOptionsNote({ run }: { run: Run | null }) {
  if (!run) return null;
  const thinking = thinkingWords(run.thinking);
  const permissions = permissionsWords(run.permissions);
  if (!thinking && !permissions) return null;
  return (
    <span className="muted small run-options">
      {thinking && (
        <span className="pill small" data-testid="run-thinking" title="The reasoning level asked of every agent and judge (as zenflow's --thinking)">
          {thinking}
        </span>
      )}
      {permissions && (
        <span className="pill small" data-testid="run-permissions" title="This run's tool permissions (as zenflow's --allow, --deny, --strict, --sandbox, --yolo)">
          tools: {permissions}
        </span>
      )}
    </span>
  );
}
