// Who may do what in the editor: a saved workflow's workspace and role come with it; a new one is made in
// the current workspace. The reasons edits or runs are refused are shown by the toolbar and the banners.
import { useCallback, useState } from 'react';
import type { Workflow } from '../../api/types';
import { useCurrentWorkspace } from '../../workspaces/current';
import { cannotEditReason, cannotRunReason, capabilities, readOnlyReason } from '../../workspaces/roles';

/** The workspace a workflow lives in and the user's role there (role null: unknown, nothing held back). */
interface Access {
  workspaceId: number | null;
  workspaceName: string;
  role: string | null;
}

function accessOf(wf: Workflow): Access {
  return { workspaceId: wf.workspace_id ?? null, workspaceName: wf.workspace_name ?? '', role: wf.role || null };
}

export interface EditorAccess {
  /** The workspace the workflow is saved in (null: the personal one, or not known yet). */
  workspaceId: number | null;
  /** Why the user cannot change this workflow, or null. */
  editDenied: string | null;
  /** Why the user cannot run this workflow, or null. */
  runDenied: string | null;
  /** The read-only banner's text, or null. */
  readOnlyBanner: string | null;
  /** A new workflow in a workspace where the role cannot create one. */
  newReadOnly: boolean;
  /** The server answered with the workflow (loaded or saved): its workspace and role are now known. */
  took(wf: Workflow): void;
}

export function useEditorAccess(workflowId: number | null): EditorAccess {
  const [loadedAccess, setLoadedAccess] = useState<Access | null>(null);
  const current = useCurrentWorkspace();
  const access: Access | null =
    workflowId === null ? (current ? { workspaceId: current.id, workspaceName: current.name, role: current.role } : null) : loadedAccess;
  const caps = capabilities(access?.role);
  const took = useCallback((wf: Workflow) => setLoadedAccess(accessOf(wf)), []);
  return {
    workspaceId: access?.workspaceId ?? null,
    editDenied: cannotEditReason(access?.role, access?.workspaceName),
    runDenied: cannotRunReason(access?.role, access?.workspaceName),
    readOnlyBanner: readOnlyReason(access?.role, access?.workspaceName ?? ''),
    newReadOnly: workflowId === null && !caps.edit,
    took,
  };
}
