// A row of the workflows list, and under it (while open) the workflow's version history.
import type { WorkflowSummary } from '../../api/types';
import { Link } from '../../components/Link';
import { when } from '../../format/dates';
import { VersionHistory } from '../../versions/VersionHistory';

/** The header cells over WorkflowRow's. */
export function WorkflowColumns({ showWorkspace }: { showWorkspace: boolean }) {
  return (
    <>
      <th>Name</th>
      {showWorkspace && <th>Workspace</th>}
      <th>Version</th>
      <th>Status</th>
      <th>Updated</th>
      <th>
        <span className="visually-hidden">Actions</span>
      </th>
    </>
  );
}

interface Props {
  w: WorkflowSummary;
  showWorkspace: boolean;
  /** Another workflow in the list has the same name: its number tells them apart. */
  twin?: boolean;
  /** Its version history shows under it. */
  open: boolean;
  onToggleHistory(): void;
  onDuplicate(): void;
  onDelete(): void;
  /** The user may delete it; when not, `blocked` says why. */
  canEdit: boolean;
  blocked: string | null;
  onRestored(): void;
}

export function WorkflowRow({ w, showWorkspace, twin = false, open, onToggleHistory, onDuplicate, onDelete, canEdit, blocked, onRestored }: Props) {
  return (
    <>
      <tr>
        <td className="cell-name">
          <Link to={`/workflows/${w.id}`} className="strong ellipsis" title={w.name || 'Untitled'}>
            {w.name || 'Untitled'}
          </Link>
          {twin && (
            <span className="muted small mono twin-id" title={`Another workflow here is also named “${w.name}”: this one is workflow #${w.id}`} data-testid="workflow-twin-id">
              {' '}#{w.id}
            </span>
          )}
        </td>
        {showWorkspace && (
          <td className="muted nowrap" data-testid="workflow-workspace">
            {w.workspace_name ?? ''}
          </td>
        )}
        <td>v{w.version}</td>
        <td>
          <span className={`pill ${w.valid ? 'pill-ok' : 'pill-bad'}`}>{w.valid ? 'valid' : 'draft with errors'}</span>
        </td>
        <td className="muted nowrap">{when(w.updated_at)}</td>
        <td className="actions">
          <button className="btn ghost small" onClick={onToggleHistory} aria-expanded={open}>
            History
          </button>
          <button className="btn ghost small" onClick={onDuplicate}>
            Duplicate
          </button>
          <button className="btn ghost small danger" disabled={!canEdit} title={blocked ?? undefined} onClick={onDelete}>
            Delete
          </button>
        </td>
      </tr>
      {open && (
        <tr className="versions-row">
          <td colSpan={showWorkspace ? 6 : 5}>
            <VersionHistory id={w.id} onRestored={onRestored} blocked={canEdit ? null : blocked} />
          </td>
        </tr>
      )}
    </>
  );
}
