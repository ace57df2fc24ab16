import type { RunWorkspace } from '../api/types';

/** Said on the run page itself, not only in the Workspace tab: the agents' commands ran on the server unconfined. */
export function SandboxWarning({ info }: { info: RunWorkspace | null }) {
  if (!info || info.sandbox !== 'off' || !info.uses_tools) return null;
  return (
    <div className="banner banner-warning sandbox-off" role="status" data-testid="sandbox-off">
      <div className="banner-body">
        <strong>Commands in this run are NOT sandboxed (AGENT_SANDBOX=off)</strong>: the agents’ bash commands run on the server with its permissions.
      </div>
    </div>
  );
}
