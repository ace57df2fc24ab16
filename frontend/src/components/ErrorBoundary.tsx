import { Component, type ReactNode } from 'react';

interface State {
  error: Error | null;
}

/** Never a blank screen: a crash in a page shows what happened and a way out. */
export class ErrorBoundary extends Component<{ children: ReactNode }, State> {
  state: State = { error: null };

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  render() {
    if (!this.state.error) return this.props.children;
    return (
      <div className="page-message" data-testid="error-boundary" role="alert">
        <h2>Something went wrong on this page</h2>
        <p className="muted">{this.state.error.message}</p>
        <p>Unsaved edits in the editor are kept in this browser: reload to get them back.</p>
        <p>
          <button className="btn" onClick={() => window.location.reload()}>
            Reload
          </button>{' '}
          <a className="btn ghost" href="/">
            Back to workflows
          </a>
        </p>
      </div>
    );
  }
}
