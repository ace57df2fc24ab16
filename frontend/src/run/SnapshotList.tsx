import type { WorkspaceSnapshot } from '../api/types';
import { when } from '../format/dates';
import { changeCounts, copyWords, snapshotWords } from './snapshotLabels';

/** The run's workspace snapshots, oldest first; choosing one shows its files and changes. */
export function SnapshotList({ snapshots, chosen, onChoose }: { snapshots: WorkspaceSnapshot[]; chosen: number | null; onChoose: (n: number) => void }) {
  if (!snapshots.length) return <p className="muted small">No snapshot yet: one is taken at the start, after each step or iteration, and at the end.</p>;
  return (
    <ol className="snapshot-list" data-testid="snapshot-list" aria-label="Workspace snapshots">
      {snapshots.map((s) => {
        const counts = changeCounts(s);
        const copy = copyWords(s.workspace);
        const active = s.number === chosen;
        return (
          <li key={s.number}>
            <button
              className={`snapshot-item${active ? ' active' : ''}`}
              aria-pressed={active}
              onClick={() => onChoose(s.number)}
              title={`${s.label} · ${s.files} files · ${when(s.created)}`}
              data-testid="snapshot-item"
              data-snapshot={s.number}
              data-label={s.label}
            >
              <span className="mono muted small">#{s.number}</span>
              <span className="snapshot-words">{snapshotWords(s)}</span>
              {copy && <span className="pill small">{copy}</span>}
              {s.superseded && (
                <span className="pill small muted" title="Taken by an attempt a resume went on past: kept, but not the run's files">
                  superseded
                </span>
              )}
              <span className="snapshot-counts mono small" aria-label={`${s.added} added, ${s.modified} modified, ${s.removed} removed`}>
                <span className="change-added">{counts.added}</span> <span className="change-modified">{counts.modified}</span>{' '}
                <span className="change-removed">{counts.removed}</span>
              </span>
            </button>
          </li>
        );
      })}
    </ol>
  );
}
