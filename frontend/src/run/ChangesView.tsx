import { useMemo } from 'react';
import { api } from '../api/client';
import type { FileChange, SnapshotDiff } from '../api/types';
import { diffLines } from './diffLines';
import { plural } from './labels';
import { useSnapshotData } from './useSnapshotData';

/** Diff lines drawn per file at most; the server already caps long diffs. */
const SHOWN_LINES = 3000;
/** Files unfolded at first when a snapshot changed this few. */
const OPEN_UP_TO = 8;

/** What changed since the snapshot before it in the same workspace, file by file. */
export function ChangesView({ runId, snapshot }: { runId: string; snapshot: number }) {
  const diff = useSnapshotData<SnapshotDiff>(`${runId}/${snapshot}/diff`, () => api.snapshotDiff(runId, snapshot));
  if (diff.loading) return <p className="muted small">Loading…</p>;
  if (diff.error) return <div className="field-problem error">{diff.error}</div>;
  if (!diff.data) return null;
  const { base, changes } = diff.data;
  return (
    <div className="changes" data-testid="diff-view">
      <p className="muted small">
        {base === null ? 'The first snapshot of this workspace: every file in it counts as added.' : `Since snapshot #${base}: ${plural(changes.length, 'file')} changed.`}
      </p>
      {!changes.length && <p className="muted small">Nothing changed.</p>}
      {changes.map((c) => (
        <FileDiff key={c.path} change={c} open={changes.length <= OPEN_UP_TO} />
      ))}
    </div>
  );
}

function FileDiff({ change, open }: { change: FileChange; open: boolean }) {
  return (
    <details className="file-diff" open={open} data-testid="diff-file" data-path={change.path} data-change={change.change}>
      <summary>
        <span className={`change-kind change-${change.change}`}>{change.change}</span> <span className="mono">{change.path}</span>
      </summary>
      {change.diff === null ? <p className="muted small">Binary, or too big to keep: no diff to show.</p> : <DiffText text={change.diff} />}
      {change.truncated && <p className="muted small">The diff is cut short: the change is longer.</p>}
    </details>
  );
}

/** A unified diff as text, each line classed as added, removed, context or header. */
export function DiffText({ text }: { text: string }) {
  const lines = useMemo(() => diffLines(text), [text]);
  const shown = lines.slice(0, SHOWN_LINES);
  return (
    <>
      <pre className="diff" data-testid="diff-text">
        {shown.map((l, i) => (
          <span key={i} className={`diff-line diff-${l.kind}`}>
            {l.text}
            {'\n'}
          </span>
        ))}
      </pre>
      {lines.length > shown.length && <p className="muted small">{plural(lines.length - shown.length, 'more line')} not shown.</p>}
    </>
  );
}
