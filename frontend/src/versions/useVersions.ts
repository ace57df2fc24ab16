// What the version pages load: a workflow's list of versions, one version, and the YAML of two.
import { useCallback, useEffect, useState } from 'react';
import { api, errorText } from '../api/client';
import type { VersionInfo, Workflow } from '../api/types';

export interface Loading<T> {
  data: T | null;
  error: string | null;
}

function newestFirst(list: VersionInfo[]): VersionInfo[] {
  return [...list].sort((x, y) => y.version - x.version);
}

/** The workflow's versions, newest first; `reload` (after a restore) resolves once the new list is in. */
export function useVersionList(workflowId: number): Loading<VersionInfo[]> & { reload: () => Promise<void> } {
  const [state, setState] = useState<Loading<VersionInfo[]>>({ data: null, error: null });
  useEffect(() => {
    let live = true;
    api.versions(workflowId).then(
      (list) => live && setState({ data: newestFirst(list), error: null }),
      (e) => live && setState({ data: null, error: errorText(e) }),
    );
    return () => {
      live = false;
    };
  }, [workflowId]);
  const reload = useCallback(
    () =>
      api.versions(workflowId).then(
        (list) => setState({ data: newestFirst(list), error: null }),
        (e) => setState((s) => ({ ...s, error: errorText(e) })),
      ),
    [workflowId],
  );
  return { ...state, reload };
}

/** One saved version (null number: nothing to load yet). */
export function useVersion(workflowId: number, number: number | null): Loading<Workflow> {
  const [state, setState] = useState<Loading<Workflow> & { key: string }>({ data: null, error: null, key: '' });
  const key = number === null ? '' : `${workflowId}/${number}`;
  useEffect(() => {
    if (number === null) return;
    let live = true;
    api.version(workflowId, number).then(
      (wf) => live && setState({ data: wf, error: null, key: `${workflowId}/${number}` }),
      (e) => live && setState({ data: null, error: `Could not load version ${number}: ${errorText(e)}`, key: `${workflowId}/${number}` }),
    );
    return () => {
      live = false;
    };
  }, [workflowId, number]);
  // Never the last version's answer under another number.
  return state.key === key ? state : { data: null, error: null };
}

/** What a version's YAML view shows: its saved text, or the document rendered when it was saved as data. */
async function yamlOf(wf: Workflow, signal: AbortSignal): Promise<string> {
  if (wf.source.trim()) return wf.source;
  if (!wf.document) return '';
  return (await api.render({ document: wf.document, format: 'yaml' }, signal)).text;
}

/**
 * The two versions' YAML. Both saved texts when both have one (comments and all, as written); when one
 * was saved as data, both are rendered the same canonical way so that formatting alone shows no change.
 */
export function useYamlPair(a: Workflow | null, b: Workflow | null): Loading<[string, string]> {
  const [state, setState] = useState<Loading<[string, string]> & { key: string }>({ data: null, error: null, key: '' });
  const key = a && b ? `${a.id}/${a.version}:${b.id}/${b.version}` : '';
  useEffect(() => {
    if (!a || !b) return;
    const ctl = new AbortController();
    const k = `${a.id}/${a.version}:${b.id}/${b.version}`;
    const both = a.source.trim() && b.source.trim();
    const asData = (wf: Workflow): Workflow => ({ ...wf, source: '' });
    Promise.all(both ? [yamlOf(a, ctl.signal), yamlOf(b, ctl.signal)] : [yamlOf(asData(a), ctl.signal), yamlOf(asData(b), ctl.signal)]).then(
      ([x, y]) => setState({ data: [x, y], error: null, key: k }),
      (e) => {
        if (!ctl.signal.aborted) setState({ data: null, error: `Could not show the YAML: ${errorText(e)}`, key: k });
      },
    );
    return () => ctl.abort();
  }, [a, b]);
  return state.key === key ? state : { data: null, error: null };
}
