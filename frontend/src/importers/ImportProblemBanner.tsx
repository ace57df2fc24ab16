// The problem with the source, next to the form: the message, the field and line it names, and for a
// missing parameter a button that adds it.
import type { ImportProblem } from './problem';

export function ImportProblemBanner({ problem, onAddMissing }: { problem: ImportProblem; onAddMissing(name: string): void }) {
  const missingName = problem.missing;
  return (
    <div className="banner banner-error" role="alert" data-testid="other-import-error">
      <div className="banner-body">
        {missingName ? (
          <>
            <strong>Missing parameter: {missingName}</strong>
            <div>{problem.message}</div>
          </>
        ) : (
          <div>{problem.message}</div>
        )}
        {(problem.field || problem.line !== null) && (
          <dl className="error-where">
            {problem.field && (
              <div>
                <dt className="muted" style={{ display: 'inline' }}>
                  Field{' '}
                </dt>
                <dd className="mono" style={{ display: 'inline', margin: 0 }} data-testid="other-import-error-field">
                  {problem.field}
                </dd>
              </div>
            )}
            {problem.line !== null && (
              <div>
                <dt className="muted" style={{ display: 'inline' }}>
                  Line{' '}
                </dt>
                <dd style={{ display: 'inline', margin: 0 }} data-testid="other-import-error-line">
                  {problem.line}
                </dd>
              </div>
            )}
          </dl>
        )}
        {missingName && (
          <button className="btn small" style={{ marginTop: 6 }} onClick={() => onAddMissing(missingName)}>
            Give “{missingName}” a value
          </button>
        )}
      </div>
    </div>
  );
}
