// What each include step runs, as a run looks it up: a file of this workflow's folder, else the newest saved
// workflow of that name (at its latest version), else nothing yet (GET /workflows/{id}/includes).
import { useEffect, useState } from 'react';
import { errorText } from '../../api/client';
import { Link } from '../../components/Link';
import type { IncludeTarget } from '../../nodes/folder/folderApi';
import { includeTargets } from '../../nodes/folder/includeLookup';
import { useEditor } from '../../store/context';

export function IncludeTargets() {
  const workflowId = useEditor((s) => s.workflowId);
  // Looked up again after each save: a save may add the file or the saved workflow an include names.
  const savedVersion = useEditor((s) => s.savedVersion);
  const [targets, setTargets] = useState<IncludeTarget[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (workflowId === null) return;
    includeTargets(workflowId, savedVersion).then(setTargets, (e) => setError(errorText(e)));
  }, [workflowId, savedVersion]);
  if (workflowId === null) return <p className="muted small">Save the workflow to see what its include steps run.</p>;
  if (error) return <p className="small" role="alert">{error}</p>;
  if (!targets) return null;
  if (!targets.length) return <p className="muted small">No step includes a workflow yet.</p>;
  return (
    <ul className="include-targets" data-testid="include-targets" aria-label="What each include step runs (as last saved)">
      {targets.map((t) => (
        <li key={t.path} data-kind={t.kind}>
          <code>{t.step ?? t.path}</code> runs{' '}
          {t.kind === 'file' && (
            <>
              <code>{t.file}</code> from this workflow's folder
            </>
          )}
          {t.kind === 'saved' && (
            <>
              the saved workflow <Link to={`/workflows/${t.workflow_id}`}>{t.name}</Link> at version {t.version}, its latest
              {t.valid ? '' : ' (it has errors: a run would stop there)'}
            </>
          )}
          {t.kind === 'missing' && <span className="folder-error">nothing yet: {t.message}</span>}
        </li>
      ))}
    </ul>
  );
}
