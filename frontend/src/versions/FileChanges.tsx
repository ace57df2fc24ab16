// The folder files two versions hold differently (prompts, included workflows, context files): each
// named with what happened to it and drawn as a line diff. The main document has its own views above.
import { useEffect, useState } from 'react';
import { errorText } from '../api/client';
import { Banner } from '../components/Banner';
import { folderApi, type FolderFileChange } from '../nodes/folder/folderApi';
import type { Loading } from './useVersions';
import { YamlDiffView } from './YamlDiffView';

/** The folder changes from version `a` to `b` (null numbers: nothing to load yet). */
export function useFileChanges(workflowId: number, a: number | null, b: number | null): Loading<FolderFileChange[]> {
  const [state, setState] = useState<Loading<FolderFileChange[]> & { key: string }>({ data: null, error: null, key: '' });
  const key = a && b ? `${workflowId}/${a}:${b}` : '';
  useEffect(() => {
    if (!a || !b) return;
    let live = true;
    const k = `${workflowId}/${a}:${b}`;
    folderApi.changes(workflowId, a, b).then(
      (list) => live && setState({ data: list, error: null, key: k }),
      (e) => live && setState({ data: null, error: `Could not compare the folder's files: ${errorText(e)}`, key: k }),
    );
    return () => {
      live = false;
    };
  }, [workflowId, a, b]);
  return state.key === key ? state : { data: null, error: null };
}

function sizeText(n: number | null): string {
  return n === null ? 'absent' : `${n.toLocaleString('en')} bytes`;
}

function OneFile({ change, labels }: { change: FolderFileChange; labels: [string, string] }) {
  return (
    <li className={`vc-file vc-change-${change.change}`} data-testid="file-change" data-path={change.path} data-change={change.change}>
      <p className="vc-file-head">
        <span className={`diff-word diff-word-${change.change}`}>{change.change}</span> <code className="vc-file-path">{change.path}</code>
      </p>
      {change.binary ? (
        <p className="muted small">
          A binary file: {sizeText(change.size_before)} before, {sizeText(change.size_after)} after. No line diff to show.
        </p>
      ) : (
        <>
          {change.truncated && <p className="muted small">A long file: the diff covers its first 256 KiB.</p>}
          <YamlDiffView before={change.before ?? ''} after={change.after ?? ''} labels={labels} title={change.path} testId="file-diff" />
        </>
      )}
    </li>
  );
}

export function FileChanges({ changes, error, labels }: { changes: FolderFileChange[] | null; error: string | null; labels: [string, string] }) {
  if (error) return <Banner>{error}</Banner>;
  if (!changes) return <p className="muted">Loading the folder’s files…</p>;
  if (!changes.length) return null;
  return (
    <section className="vc-files" aria-label="Folder file changes" data-testid="file-changes">
      <h3>
        Folder files: {changes.length} file{changes.length === 1 ? '' : 's'} differ
      </h3>
      <ul className="vc-file-list">
        {changes.map((c) => (
          <OneFile key={c.path} change={c} labels={labels} />
        ))}
      </ul>
    </section>
  );
}
