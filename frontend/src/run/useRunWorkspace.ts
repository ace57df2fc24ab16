import { useEffect, useState } from 'react';
import { ApiError, api, errorText } from '../api/client';
import type { RunWorkspace } from '../api/types';
import { useEditor } from '../store/context';
import { isTerminal } from './socket';
import { useShownStatus } from './useShownStatus';

export interface WorkspaceLoad {
  info: RunWorkspace | null;
  /** Why it could not be read, in words. */
  error: string | null;
  /** The server keeps no workspace for this run (404). */
  missing: boolean;
}

/**
 * The run's workspace: how its tools were confined and its snapshots. Read again when a
 * workspace_snapshot event announces a new one, and when the run ends.
 */
export function useRunWorkspace(runId: string): WorkspaceLoad {
  const announced = useEditor((s) => s.runState.snapshots);
  const over = isTerminal(useShownStatus().status);
  const [load, setLoad] = useState<WorkspaceLoad>({ info: null, error: null, missing: false });
  useEffect(() => {
    let live = true;
    // A replay announces many snapshots in a burst: read the list once it settles.
    const timer = setTimeout(
      () => {
        api.runWorkspace(runId).then(
          (info) => live && setLoad({ info, error: null, missing: false }),
          (e) => {
            if (!live) return;
            const missing = e instanceof ApiError && e.status === 404;
            setLoad((prev) => ({ info: prev.info, error: missing ? null : errorText(e), missing }));
          },
        );
      },
      announced ? 300 : 0,
    );
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [runId, announced, over]);
  return load;
}
