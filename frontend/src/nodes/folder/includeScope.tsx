// Where the include nodes of a canvas look their workflows up, and how they open one: the editor provides it for
// its own canvas and inspector, the opened-include view for the canvas it draws. Canvases without it (a diff, a
// run) draw include nodes without the lookup.
import { createContext, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import type { Step } from '../../doc/types';
import { useEditor, useEditorStore } from '../../store/context';
import type { DrillLevel } from '../../store/types';
import { includedDoc, resolveInclude, stepsSummary, type LookupScope, type Resolved } from './includeLookup';

export interface IncludeScope extends LookupScope {
  open(level: DrillLevel): void;
}

export const IncludeScopeContext = createContext<IncludeScope | null>(null);

export interface IncludeLook {
  resolved: Resolved;
  /** The included workflow's steps in one line ("3 steps: build, test, ship"), or why it cannot be shown. */
  summary: string;
}

/** What an include step runs, looked up in the canvas's scope; null while looking, or with no scope. */
export function useIncludeLook(step: Step): { look: IncludeLook | null; scope: IncludeScope | null } {
  const scope = useContext(IncludeScopeContext);
  const [look, setLook] = useState<IncludeLook | null>(null);
  const workflowId = scope?.workflowId ?? null;
  const version = scope?.version ?? null;
  const baseFile = scope?.baseFile ?? null;
  const includes = scope?.includes;
  const name = typeof step.include === 'string' ? step.include : '';
  const id = step.id;
  useEffect(() => {
    if (workflowId === null) return;
    let live = true;
    const where: LookupScope = { workflowId, version, baseFile, includes };
    resolveInclude(where, { id, include: name })
      .then(async (resolved): Promise<IncludeLook> => {
        if (resolved.kind === 'saved') return { resolved, summary: `the saved workflow ${resolved.name}` };
        if (resolved.kind === 'missing') return { resolved, summary: resolved.message };
        const found = await includedDoc(workflowId, version, resolved.file);
        return { resolved, summary: found.doc ? stepsSummary(found.doc) : (found.problem ?? 'cannot be read') };
      })
      .then(
        (l) => live && setLook(l),
        () => live && setLook(null),
      );
    return () => {
      live = false;
    };
  }, [workflowId, version, baseFile, includes, name, id]);
  return { look: workflowId === null ? null : look, scope };
}

/** The editor's own scope: includes seen from the main file, at the saved version; opening one drills in. */
export function MainIncludeScope({ children }: { children: ReactNode }) {
  const store = useEditorStore();
  const workflowId = useEditor((s) => s.workflowId);
  const version = useEditor((s) => s.savedVersion);
  const includes = useEditor((s) => s.doc.includes);
  const scope = useMemo<IncludeScope | null>(
    () => (workflowId === null ? null : { workflowId, version, baseFile: null, includes, open: (level) => store.getState().openInclude(level) }),
    [workflowId, version, includes, store],
  );
  return <IncludeScopeContext.Provider value={scope}>{children}</IncludeScopeContext.Provider>;
}
