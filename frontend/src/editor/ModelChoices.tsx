// The models the editor's workspace can run (GET /models), fetched once per workspace for the agent inspector's
// model picker. Without it (a read-only canvas) the picker is a plain text field.
import { createContext, useEffect, useState, type ReactNode } from 'react';
import { api } from '../api/client';
import type { ModelChoice } from '../api/types';

export const ModelChoicesContext = createContext<ModelChoice[]>([]);

export function ModelChoicesProvider({ workspaceId, children }: { workspaceId: number | null; children: ReactNode }) {
  const [choices, setChoices] = useState<ModelChoice[]>([]);
  useEffect(() => {
    let live = true;
    api.models(workspaceId).then(
      (found) => live && setChoices(found),
      () => live && setChoices([]), // the picker is a help, not a gate: any model can still be typed in
    );
    return () => {
      live = false;
    };
  }, [workspaceId]);
  return <ModelChoicesContext.Provider value={choices}>{children}</ModelChoicesContext.Provider>;
}
