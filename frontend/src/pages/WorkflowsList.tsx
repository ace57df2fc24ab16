import { Fragment, useCallback, useEffect, useRef, useState } from 'react';
import { api, errorText } from '../api/client';
import type { VersionInfo, WorkflowSummary } from '../api/types';
import { Banner } from '../components/Banner';
import { Link } from '../components/Link';
import { navigate } from '../router';
import { TemplateGallery } from '../gallery/TemplateGallery';
import { OtherSystemImportDialog } from '../importers/OtherSystemImportDialog';

export function when(iso: string | null | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return d.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

function Versions({ id }: { id: number }) {
  const [list, setList] = useState<VersionInfo[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    api.versions(id).then(setList, (e) => setError(errorText(e)));
  }, [id]);
  if (error) return <div className="versions muted">{error}</div>;
  if (!list) return <div className="versions muted">Loading versions…</div>;
  return (
    <ul className="versions" data-testid="versions">
      {[...list].reverse().map((v) => (
        <li key={v.version}>
          <Link to={`/workflows/${id}?version=${v.version}`}>Version {v.version}</Link>
          <span className="muted small">{when(v.created_at)}</span>
          <span className={`pill small ${v.valid ? 'pill-ok' : 'pill-bad'}`}>{v.valid ? 'valid' : 'draft'}</span>
        </li>
      ))}
    </ul>
  );
}

export function WorkflowsList() {
  const [items, setItems] = useState<WorkflowSummary[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [open, setOpen] = useState<number | null>(null);
  const [otherImport, setOtherImport] = useState(false);
  const file = useRef<HTMLInputElement>(null);

  const load = useCallback(() => {
    api.listWorkflows().then(setItems, (e) => setError(errorText(e)));
  }, []);
  useEffect(load, [load]);

  const act = async (fn: () => Promise<unknown>) => {
    setError(null);
    try {
      await fn();
      load();
    } catch (e) {
      setError(errorText(e));
    }
  };

  const importFile = async (f: File | undefined) => {
    if (!f) return;
    setError(null);
    try {
      const wf = await api.importFile(f);
      navigate(`/workflows/${wf.id}`);
    } catch (e) {
      setError(`Could not import ${f.name}: ${errorText(e)}`);
    }
  };

  return (
    <div className="page">
      <div className="page-head">
        <div>
          <h1>Workflows</h1>
          <p className="muted">Agent-loop workflows in the zenflow v1 format. Draw them, check them, run them, export YAML.</p>
        </div>
        <div className="row">
          <input ref={file} type="file" hidden accept=".yaml,.yml,.json" onChange={(e) => void importFile(e.target.files?.[0])} data-testid="list-import-file" />
          <button className="btn ghost" onClick={() => file.current?.click()}>
            Import a file…
          </button>
          <button className="btn ghost" onClick={() => setOtherImport(true)} data-testid="import-other">
            From Runsight or Coqui…
          </button>
          <Link to="/workflows/new" className="btn primary">
            + New workflow
          </Link>
        </div>
      </div>
      {error && (
        <Banner kind="error" onClose={() => setError(null)}>
          {error}
        </Banner>
      )}
      {items === null && !error && <p className="muted">Loading…</p>}
      {items && items.length === 0 && (
        <div className="empty">
          <div className="empty-icon" aria-hidden>
            ⟳
          </div>
          <h2>No workflows yet</h2>
          <p className="muted">
            Start with a blank canvas and add steps and loops from the palette, or import an existing zenflow YAML file.
          </p>
          <div className="row center">
            <Link to="/workflows/new" className="btn primary">
              Create your first workflow
            </Link>
            <button className="btn ghost" onClick={() => file.current?.click()}>
              Import a file…
            </button>
          </div>
        </div>
      )}
      {items && items.length > 0 && (
        <table className="table" data-testid="workflow-table">
          <thead>
            <tr>
              <th>Name</th>
              <th>Version</th>
              <th>Status</th>
              <th>Updated</th>
              <th aria-label="Actions" />
            </tr>
          </thead>
          <tbody>
            {items.map((w) => (
              <Fragment key={w.id}>
                <tr>
                  <td className="cell-name">
                    <Link to={`/workflows/${w.id}`} className="strong ellipsis" title={w.name || 'Untitled'}>
                      {w.name || 'Untitled'}
                    </Link>
                  </td>
                  <td>v{w.version}</td>
                  <td>
                    <span className={`pill ${w.valid ? 'pill-ok' : 'pill-bad'}`}>{w.valid ? 'valid' : 'draft with errors'}</span>
                  </td>
                  <td className="muted nowrap">{when(w.updated_at)}</td>
                  <td className="actions">
                    <button className="btn ghost small" onClick={() => setOpen(open === w.id ? null : w.id)} aria-expanded={open === w.id}>
                      History
                    </button>
                    <button className="btn ghost small" onClick={() => void act(() => api.duplicateWorkflow(w.id))}>
                      Duplicate
                    </button>
                    <button
                      className="btn ghost small danger"
                      onClick={() => window.confirm(`Delete “${w.name}” and all its versions?`) && void act(() => api.deleteWorkflow(w.id))}
                    >
                      Delete
                    </button>
                  </td>
                </tr>
                {open === w.id && (
                  <tr className="versions-row">
                    <td colSpan={5}>
                      <Versions id={w.id} />
                    </td>
                  </tr>
                )}
              </Fragment>
            ))}
          </tbody>
        </table>
      )}
      {items !== null && (
        <section className="gallery-section">
          <TemplateGallery compact={items.length > 0} />
        </section>
      )}
      <OtherSystemImportDialog open={otherImport} onClose={() => setOtherImport(false)} />
    </div>
  );
}
