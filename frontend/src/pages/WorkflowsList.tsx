import { useMemo, useRef, useState } from 'react';
import { api, errorText } from '../api/client';
import type { WorkflowSummary } from '../api/types';
import { Banner } from '../components/Banner';
import { Link } from '../components/Link';
import { TemplateGallery } from '../gallery/TemplateGallery';
import { OtherSystemImportDialog } from '../importers/OtherSystemImportDialog';
import { useCurrentWorkspace, useWorkspaceScope } from '../workspaces/current';
import { capabilities, cannotEditReason } from '../workspaces/roles';
import { NO_WORKFLOW_FILTERS, readWorkflowFilters, withWorkflowFilters, workflowQuery, workflowsFiltered, type WorkflowFilters } from './listFilters';
import { replaceSearch, useLocationSearch } from './useLocationSearch';
import { usePagedList } from './usePagedList';
import { WorkflowFilterBar } from './WorkflowFilterBar';
import { ImportClashDialog } from './lists/ImportClashDialog';
import { ListTable } from './lists/ListTable';
import { useWorkflowImport } from './lists/useWorkflowImport';
import { WorkflowColumns, WorkflowRow } from './lists/WorkflowRow';
import { BundleImportDialog } from '../editor/files/BundleImportDialog';

/** Rows asked for at a time (the server allows up to 200). */
const PAGE_SIZE = 50;

export function WorkflowsList() {
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [open, setOpen] = useState<number | null>(null);
  const [otherImport, setOtherImport] = useState(false);
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
  // Two workflows of one name are told apart by their number (their names stay as their authors wrote them).
  const twins = useMemo(() => namesSeenTwice(items ?? []), [items]);
  const { chooseImport, clash, resolveClash, bundle, openBundle } = useWorkflowImport(scope.id, setError);
  const where = workspace && !workspace.personal ? ` in ${workspace.name}` : '';

  const act = async (fn: () => Promise<unknown>) => {
    setError(null);
    try {
      await fn();
      list.reload();
    } catch (e) {
      setError(errorText(e));
    }
  };

  const duplicate = (w: WorkflowSummary) =>
    void act(async () => {
      const copy = await api.duplicateWorkflow(w.id);
      // Without the right to edit here, the copy goes to the personal workspace: say where it is.
      if (scope.id && copy.workspace_id && copy.workspace_id !== scope.id) {
        setNotice(`Copied to ${copy.workspace_name ?? 'your personal workspace'}: switch workspace to open “${copy.name}”.`);
      }
    });

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
          <button className="btn ghost" onClick={() => openBundle({})} disabled={!caps.edit} title={blocked ?? undefined} data-testid="import-folder">
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
      <ListTable
        list={list}
        pageSize={PAGE_SIZE}
        filtered={filtered}
        onClearFilters={() => setFilters(NO_WORKFLOW_FILTERS)}
        filterBar={(shown) => <WorkflowFilterBar filters={filters} onChange={setFilters} shown={shown} total={list.total} />}
        pageError={!!error}
        noMatch={{ testId: 'workflows-no-match', title: 'No workflows match', text: `Nothing${where} has that name, validity and update time together.` }}
        empty={{
          icon: '⟳',
          title: `No workflows yet${where}`,
          body: (
            <>
              <p className="muted">Start with a blank canvas and add steps and loops from the palette, or import an existing zenflow YAML file.</p>
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
            </>
          ),
        }}
        testId="workflow-table"
        head={<WorkflowColumns showWorkspace={showWorkspace} />}
        row={(w) => (
          <WorkflowRow
            w={w}
            showWorkspace={showWorkspace}
            twin={twins.has(w.name)}
            open={open === w.id}
            onToggleHistory={() => setOpen(open === w.id ? null : w.id)}
            onDuplicate={() => duplicate(w)}
            onDelete={() => window.confirm(`Delete “${w.name}” and all its versions?`) && void act(() => api.deleteWorkflow(w.id))}
            canEdit={caps.edit}
            blocked={blocked}
            onRestored={() => list.reload()}
          />
        )}
      />
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
            openBundle(null);
            list.reload();
          }}
        />
      )}
      {clash && <ImportClashDialog clash={clash} onCancel={() => resolveClash()} onSeparate={(f) => resolveClash(f)} onNewVersion={(f, into) => resolveClash(f, into)} />}
    </div>
  );
}

function namesSeenTwice(items: { name: string }[]): Set<string> {
  const seen = new Set<string>();
  const twice = new Set<string>();
  for (const { name } of items) (seen.has(name) ? twice : seen).add(name);
  return twice;
}
