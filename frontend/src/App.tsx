import { ErrorBoundary } from './components/ErrorBoundary';
import { LeaveConfirm } from './components/LeaveConfirm';
import { Link } from './components/Link';
import { EditorPage } from './editor/EditorPage';
import { RunsList } from './pages/RunsList';
import { WorkflowsList } from './pages/WorkflowsList';
import { EvaluationsPage } from './pages/EvaluationsPage';
import { WorkspaceSettings } from './pages/WorkspaceSettings';
import { match, usePath } from './router';
import { RunPage } from './run/RunPage';
import { RunComparePage } from './run/compare/RunComparePage';
import { ThemeToggle } from './theme/ThemeToggle';
import { ComparePage } from './versions/ComparePage';
import { useWorkspaces } from './workspaces/current';
import { WorkspaceSwitcher } from './workspaces/WorkspaceSwitcher';

function csrf(): string {
  const found = document.cookie.split('; ').find((c) => c.startsWith('csrftoken='));
  return found ? decodeURIComponent(found.slice('csrftoken='.length)) : '';
}

function TopBar({ page }: { page: string }) {
  // The switcher loads the user's workspaces and who they are (GET /workspaces, GET /me).
  const user = useWorkspaces((s) => s.username);
  return (
    <header className="topbar">
      <Link to="/" className="brand">
        <span className="brand-mark" aria-hidden>
          ⟳
        </span>
        Loop Designer
      </Link>
      <WorkspaceSwitcher page={page} />
      <nav className="topnav">
        <Link to="/" className={page === 'workflows' || page === 'editor' || page === 'compare' ? 'active' : ''}>
          Workflows
        </Link>
        <Link to="/runs" className={page === 'runs' || page === 'run' || page === 'runCompare' ? 'active' : ''}>
          Runs
        </Link>
        <a href="/account/">Account</a>
      </nav>
      <div className="topbar-right">
        <ThemeToggle />
        {user && <span className="muted">{user}</span>}
        <form method="post" action="/logout/">
          <input type="hidden" name="csrfmiddlewaretoken" value={csrf()} />
          <button className="btn ghost small" type="submit">
            Sign out
          </button>
        </form>
      </div>
    </header>
  );
}

export function App() {
  const route = match(usePath());
  let body;
  switch (route.page) {
    case 'workflows':
      body = <WorkflowsList />;
      break;
    case 'editor':
      body = <EditorPage key="editor" workflowId={route.id} />;
      break;
    case 'compare':
      body = <ComparePage key={route.id} workflowId={route.id} />;
      break;
    case 'evaluations':
      body = <EvaluationsPage key={route.id} workflowId={route.id} />;
      break;
    case 'runCompare':
      body = <RunComparePage key={`${route.a}/${route.b}`} a={route.a} b={route.b} />;
      break;
    case 'runs':
      body = <RunsList />;
      break;
    case 'run':
      body = <RunPage key={route.id} runId={route.id} />;
      break;
    case 'workspace':
      body = <WorkspaceSettings key={route.id ?? 'current'} workspaceId={route.id} />;
      break;
    default:
      body = (
        <div className="page-message">
          <h2>Page not found</h2>
          <p>
            <Link to="/" className="btn">
              Go to your workflows
            </Link>
          </p>
        </div>
      );
  }
  return (
    <div className="app">
      <TopBar page={route.page} />
      <main className="app-main">
        <ErrorBoundary key={route.page}>{body}</ErrorBoundary>
      </main>
      <LeaveConfirm />
    </div>
  );
}
