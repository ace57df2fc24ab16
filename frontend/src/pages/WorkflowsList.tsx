import { Fragment, useMemo, useRef, useState } from 'react';
import { api, errorText } from '../api/client';
import type { WorkflowSummary } from '../api/types';
import { Banner } from '../components/Banner';
import { Link } from '../components/Link';
import { navigate } from '../router';
import { TemplateGallery } from '../gallery/TemplateGallery';
import { OtherSystemImportDialog } from '../importers/OtherSystemImportDialog';
import { when } from '../format/dates';
import { Modal } from '../components/Modal';
import { useCurrentWorkspace, useWorkspaceScope } from '../workspaces/current';
import { capabilities, cannotEditReason } from '../workspaces/roles';
import { NO_WORKFLOW_FILTERS, readWorkflowFilters, withWorkflowFilters, workflowQuery, workflowsFiltered, type WorkflowFilters } from './listFilters';
import { replaceSearch, useLocationSearch } from './useLocationSearch';
import { usePagedList } from './usePagedList';
import { WorkflowFilterBar } from './WorkflowFilterBar';
import { LoadMore } from './LoadMore';
import { VersionHistory } from '../versions/VersionHistory';
import { BundleImportDialog } from '../editor/files/BundleImportDialog';

/** Rows asked for at a time (the server allows up to 200). */
const PAGE_SIZE = 50;

export function WorkflowsList() {
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [open, setOpen] = useState<number | null>(null);
  const [otherImport, setOtherImport] = useState(false);
  // A folder (or a .zip of one) to import: the dialog asks for its main workflow.
  const [bundle, setBundle] = useState<{ initial?: File } | null>(null);
  const file = useRef<HTMLInputElement>(null);
  // The current workspace's workflows (every workspace's on a server without workspaces).
  const scope = useWorkspaceScope();
  const workspace = useCurrentWorkspace();
  // The search and filters live in the address: a reload or Back shows the same list.
  const search = useLocationSearch();
  const filters = useMemo(() => readWorkflowFilters(search), [search]);
  const filtered = workflowsFiltered(filters);
  const setFilters = (f: WorkflowFilters) => replaceSearch(withWorkflowFilters(window.location.search, f));
  // The list with the workspace and filters it was asked for: never shown under others.
  const list = usePagedList<WorkflowSummary>(scope.ready ? String(scope.id) : null, withWorkflowFilters('', filters), 'offset', (start) =>
    api.workflowPage({ ...workflowQuery(filters, new Date()), workspace: scope.id, limit: PAGE_SIZE, offset: start?.offset ?? 0 }),
  );
  const items = list.rows;
  const caps = capabilities(workspace?.role);
  const blocked = cannotEditReason(workspace?.role, workspace?.name);
  // Shown only when the list mixes workspaces (not filtered to one).
  const showWorkspace = !!items && new Set(items.map((w) => w.workspace_id ?? null)).size > 1;

  const act = async (fn: () => Promise<unknown>) => {
    setError(null);
    try {
      await fn();
      list.reload();
    } catch (e) {
      setError(errorText(e));
    }
  };

  const importFile = async (f: File | undefined, into?: number) => {
    if (!f) return;
    setError(null);
    try {
      const wf = await api.importFile(f, into, scope.id);
      navigate(`/workflows/${wf.id}`);
    } catch (e) {
      setError(`Could not import ${f.name}: ${errorText(e)}`);
    }
  };

  // A file whose workflow name is taken: ask whether it is a new version of that one or another workflow.
  const [clash, setClash] = useState<{ file: File; existing: WorkflowSummary } | null>(null);
  const chooseImport = async (f: File | undefined) => {
    if (!f) return;
    if (f.name.toLowerCase().endsWith('.zip')) {
      setBundle({ initial: f });
      return;
    }
    let name: unknown = null;
    try {
      const checked = await api.validate({ source: await f.text() });
      name = checked.document?.name;
    } catch {
      name = null; // the import itself reports what is wrong with the file
    }
    // Asked of the server: the page shows one page of the list, perhaps filtered.
    const same = typeof name === 'string' && name.trim() ? await api.workflowPage({ workspace: scope.id, q: name, limit: 200 }).catch(() => null) : null;
    const existing = same?.items.find((w) => w.name === name);
    if (existing) setClash({ file: f, existing });
    else await importFile(f);
  };

  return (
    // data-list: whether the rows drawn are the current filters' (idle) or the last ones while those load.
    <div className="page" data-list={list.loading ? 'loading' : 'idle'}>
      <div className="page-head">
        <div>
          <h1>Workflows</h1>
          <p className="muted">Agent-loop workflows in the zenflow v1 format. Draw them, check them, run them, export YAML.</p>
        </div>
        <div className="row">
          <input ref={file} type="file" hidden accept=".yaml,.yml,.json,.zip" onChange={(e) => {
              void chooseImport(e.target.files?.[0]);
              e.target.value = '';
            }} data-testid="list-import-file" />
          <button className="btn ghost" onClick={() => file.current?.click()} disabled={!caps.edit} title={blocked ?? undefined}>
            Import a file…
          </button>
          <button className="btn ghost" onClick={() => setBundle({})} disabled={!caps.edit} title={blocked ?? undefined} data-testid="import-folder">
            Import a folder…
          </button>
          <button className="btn ghost" onClick={() => setOtherImport(true)} disabled={!caps.edit} title={blocked ?? undefined} data-testid="import-other">
            From Runsight or Coqui…
          </button>
          {caps.edit ? (
            <Link to="/workflows/new" className="btn primary">
              + New workflow
            </Link>
          ) : (
            <button className="btn primary" disabled title={blocked ?? undefined} data-testid="new-workflow-disabled">
              + New workflow
            </button>
          )}
        </div>
      </div>
      {blocked && (
        <Banner kind="info">
          <span data-testid="workspace-read-only">
            {blocked} You can open its workflows{caps.run ? ' and run them' : ''}; Duplicate makes a copy in your personal workspace.
          </span>
        </Banner>
      )}
      {error && (
        <Banner kind="error" onClose={() => setError(null)}>
          {error}
        </Banner>
      )}
      {notice && (
        <Banner kind="info" onClose={() => setNotice(null)}>
          <span data-testid="list-notice">{notice}</span>
        </Banner>
      )}
      {list.error && <Banner kind="error">{list.error}</Banner>}
      {items !== null && (items.length > 0 || filtered || list.loading) && <WorkflowFilterBar filters={filters} onChange={setFilters} shown={items.length} total={list.total} />}
      {items === null && !error && !list.error && <p className="muted">Loading…</p>}
      {list.items && list.items.length === 0 && filtered && (
        <div className="empty" data-testid="workflows-no-match">
          <h2>No workflows match</h2>
          <p className="muted">Nothing{workspace && !workspace.personal ? ` in ${workspace.name}` : ''} has that name, validity and update time together.</p>
          <button className="btn" onClick={() => setFilters(NO_WORKFLOW_FILTERS)} data-testid="clear-filters-empty">
            Clear filters
          </button>
        </div>
      )}
      {list.items && list.items.length === 0 && !filtered && (
        <div className="empty">
          <div className="empty-icon" aria-hidden>
            ⟳
          </div>
          <h2>No workflows yet{workspace && !workspace.personal ? ` in ${workspace.name}` : ''}</h2>
          <p className="muted">
            Start with a blank canvas and add steps and loops from the palette, or import an existing zenflow YAML file.
          </p>
          {caps.edit && (
            <div className="row center">
              <Link to="/workflows/new" className="btn primary">
                Create your first workflow
              </Link>
              <button className="btn ghost" onClick={() => file.current?.click()}>
                Import a file…
              </button>
            </div>
          )}
        </div>
      )}
      {items && items.length > 0 && (
        <table className="table" data-testid="workflow-table" aria-busy={list.loading} data-state={list.loading ? 'loading' : 'idle'}>
          <thead>
            <tr>
              <th>Name</th>
              {showWorkspace && <th>Workspace</th>}
              <th>Version</th>
              <th>Status</th>
              <th>Updated</th>
              <th>
                <span className="visually-hidden">Actions</span>
              </th>
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
                    <button className="btn ghost small" onClick={() => setOpen(open === w.id ? null : w.id)} aria-expanded={open === w.id}>
                      History
                    </button>
                    <button
                      className="btn ghost small"
                      onClick={() =>
                        void act(async () => {
                          const copy = await api.duplicateWorkflow(w.id);
                          // Without the right to edit here, the copy goes to the personal workspace: say where it is.
                          if (scope.id && copy.workspace_id && copy.workspace_id !== scope.id) {
                            setNotice(`Copied to ${copy.workspace_name ?? 'your personal workspace'}: switch workspace to open “${copy.name}”.`);
                          }
                        })
                      }
                    >
                      Duplicate
                    </button>
                    <button
                      className="btn ghost small danger"
                      disabled={!caps.edit}
                      title={blocked ?? undefined}
                      onClick={() => window.confirm(`Delete “${w.name}” and all its versions?`) && void act(() => api.deleteWorkflow(w.id))}
                    >
                      Delete
                    </button>
                  </td>
                </tr>
                {open === w.id && (
                  <tr className="versions-row">
                    <td colSpan={showWorkspace ? 6 : 5}>
                      <VersionHistory id={w.id} onRestored={() => list.reload()} />
                    </td>
                  </tr>
                )}
              </Fragment>
            ))}
          </tbody>
        </table>
      )}
      <LoadMore list={list} pageSize={PAGE_SIZE} />
      {items !== null && (
        <section className="gallery-section">
          <TemplateGallery compact={items.length > 0 || filtered} workspaceId={scope.id} blocked={blocked} />
        </section>
      )}
      <OtherSystemImportDialog open={otherImport} onClose={() => setOtherImport(false)} />
      {bundle && (
        <BundleImportDialog
          workspace={scope.id}
          initial={bundle.initial}
          onClose={() => {
            setBundle(null);
            list.reload();
          }}
        />
      )}
      {clash && (
        <Modal onClose={() => setClash(null)} label="This workflow already exists">
          <div className="modal modal-narrow" data-testid="import-clash">
            <header className="modal-head">
              <h3>“{clash.existing.name}” already exists</h3>
            </header>
            <p>
              {clash.file.name} holds a workflow with the same name as one of yours. Add it as the next version of that workflow (its history
              keeps the earlier versions), or import it as a separate workflow?
            </p>
            <footer className="modal-foot">
              <button className="btn ghost" onClick={() => setClash(null)}>
                Cancel
              </button>
              <span className="spacer" />
              <button
                className="btn"
                data-testid="import-separate"
                onClick={() => {
                  const f = clash.file;
                  setClash(null);
                  void importFile(f);
                }}
              >
                Import as another workflow
              </button>
              <button
                className="btn primary"
                data-autofocus
                data-testid="import-as-version"
                onClick={() => {
                  const { file: f, existing } = clash;
                  setClash(null);
                  void importFile(f, existing.id);
                }}
              >
                Add as a new version
              </button>
            </footer>
          </div>
        </Modal>
      )}
    </div>
  );
}
