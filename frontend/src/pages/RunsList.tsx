import { useEffect, useEffectEvent, useMemo, useState } from 'react';
import { api } from '../api/client';
import type { Run, SocketMessage } from '../api/types';
import { Link } from '../components/Link';
import { navigate } from '../router';
import '../run/compare/compare.css';
import { useCurrentWorkspace, useWorkspaces, useWorkspaceScope } from '../workspaces/current';
import { NO_RUN_FILTERS, readRunFilters, runMatches, runQuery, runsFiltered, withRunFilters, type RunFilters } from './listFilters';
import { RunFilterBar } from './RunFilterBar';
import { replaceSearch, useLocationSearch } from './useLocationSearch';
import { usePagedList } from './usePagedList';
import { ListTable } from './lists/ListTable';
import { RunColumns, RunRow } from './lists/RunRow';

/** Rows asked for at a time (the server allows up to 200). */
const PAGE_SIZE = 50;
/** Offered before the server says which providers there are (or when it cannot). */
const KNOWN_PROVIDERS: readonly (readonly [string, string])[] = [
  ['simulated', 'simulated'],
  ['openai', 'openai'],
  ['anthropic', 'anthropic'],
];

/** Two runs picked in the list: compared (the older as A) when they are of one workflow. */
function ComparePicked({ picked, runs, onClear }: { picked: string[]; runs: Run[]; onClear: () => void }) {
  const chosen = picked.map((id) => runs.find((r) => r.id === id)).filter((r): r is Run => !!r);
  const [a, b] = [...chosen].sort((x, y) => x.created_at.localeCompare(y.created_at));
  const why =
    chosen.length < 2 ? 'Pick one more run of the same workflow.' : a.workflow_id !== b.workflow_id ? 'These two runs are of different workflows: pick two of the same one.' : null;
  return (
    <div className="compare-bar" role="region" aria-label="Compare runs" data-testid="compare-bar">
      <span>
        {chosen.length} of 2 runs picked. {why}
      </span>
      <button type="button" className="btn primary small" disabled={!!why} onClick={() => a && b && void navigate(`/runs/${a.id}/compare/${b.id}`)} data-testid="compare-picked">
        Compare
      </button>
      <button type="button" className="btn ghost small" onClick={onClear}>
        Clear
      </button>
    </div>
  );
}

export function RunsList() {
  const scope = useWorkspaceScope();
  // Runs picked to compare: at most two, the earliest pick dropped for a third.
  const [picked, setPicked] = useState<string[]>([]);
  const pick = (id: string) => setPicked((p) => (p.includes(id) ? p.filter((x) => x !== id) : [...p, id].slice(-2)));
  const workspace = useCurrentWorkspace();
  const me = useWorkspaces((s) => s.username);
  // The filters live in the address: a reload or Back shows the same list.
  const search = useLocationSearch();
  const filters = useMemo(() => readRunFilters(search), [search]);
  const filtered = runsFiltered(filters);
  const setFilters = (f: RunFilters) => replaceSearch(withRunFilters(window.location.search, f));
  // The runs with the workspace and filters they were asked for: never shown under others.
  const list = usePagedList<Run>(scope.ready ? String(scope.id) : null, withRunFilters('', filters), 'cursor', (start) =>
    api.runPage({ ...runQuery(filters), workspace: scope.id, limit: PAGE_SIZE, before: start?.next }),
  );
  const runs = list.rows;
  const [providers, setProviders] = useState<{ scope: number | null; list: readonly (readonly [string, string])[] } | null>(null);
  // Who started the runs: a column when the workspace is shared (or not known).
  const showStarter = !!runs && (!workspace || !workspace.personal || runs.some((r) => r.started_by && r.started_by !== me));

  useEffect(() => {
    if (!scope.ready) return;
    let live = true;
    const id = scope.id;
    api.providers(id).then(
      (found) => live && found.length > 0 && setProviders({ scope: id, list: found.map((p) => [p.name, p.label || p.name] as const) }),
      () => undefined, // the known names stay offered
    );
    return () => {
      live = false;
    };
  }, [scope.ready, scope.id]);

  // A run that changed, live: updated in place; a new one joins the top when the filters would list it.
  const onRun = useEffectEvent((run: Run) =>
    list.update((page) => {
      const i = page.items.findIndex((r) => r.id === run.id);
      if (i < 0) return runMatches(run, filters) ? { ...page, items: [run, ...page.items], total: page.total === null ? null : page.total + 1 } : page;
      const items = [...page.items];
      items[i] = run;
      return { ...page, items };
    }),
  );

  useEffect(() => {
    if (!scope.ready) return;
    const id = scope.id;
    // Live status changes of the runs the user may see (this workspace's only).
    const proto = window.location.protocol === 'https:' ? 'wss' : 'ws';
    let ws: WebSocket | null = null;
    try {
      ws = new WebSocket(`${proto}://${window.location.host}/ws/runs/`);
      ws.onmessage = (m) => {
        try {
          const msg = JSON.parse(String(m.data)) as SocketMessage;
          if (msg.kind !== 'run') return;
          if (id !== null && msg.run.workspace_id !== undefined && msg.run.workspace_id !== id) return;
          onRun(msg.run);
        } catch {
          /* ignore malformed messages */
        }
      };
    } catch {
      ws = null;
    }
    return () => ws?.close();
  }, [scope.ready, scope.id]);

  return (
    // data-list: whether the rows drawn are the current filters' (idle) or the last ones while those load.
    <div className="page" data-list={list.loading ? 'loading' : 'idle'}>
      <div className="page-head">
        <div>
          <h1>Runs</h1>
          <p className="muted">
            Every run of {workspace && !workspace.personal ? `the workflows in ${workspace.name}` : 'your workflows'}, live or finished. Open one to watch it or
            replay it.
          </p>
        </div>
      </div>
      <ListTable
        list={list}
        pageSize={PAGE_SIZE}
        filtered={filtered}
        onClearFilters={() => setFilters(NO_RUN_FILTERS)}
        filterBar={(shown) => (
          <RunFilterBar
            filters={filters}
            onChange={setFilters}
            providers={providers && providers.scope === scope.id ? providers.list : KNOWN_PROVIDERS}
            shown={shown}
            total={list.total}
          />
        )}
        noMatch={{ testId: 'runs-no-match', title: 'No runs match', text: 'No run has that workflow, status, provider and date together.' }}
        empty={{
          icon: '▶',
          title: 'No runs yet',
          body: (
            <>
              <p className="muted">Open a workflow and press Run. A simulated run costs nothing and shows every iteration live.</p>
              <Link to="/" className="btn primary">
                Go to workflows
              </Link>
            </>
          ),
        }}
        testId="run-table"
        head={<RunColumns showStarter={showStarter} />}
        row={(r) => <RunRow r={r} showStarter={showStarter} me={me} picked={picked.includes(r.id)} onPick={() => pick(r.id)} />}
      >
        {picked.length > 0 && runs && <ComparePicked picked={picked} runs={runs} onClear={() => setPicked([])} />}
      </ListTable>
    </div>
  );
}
