// The server's translation of a file from another system: whether the document is valid, the importer's
// notes, the document's errors and warnings, the field-by-field report by outcome, and the YAML.
import type { Diag } from '../api/types';
import type { ImportAnswer } from './api';
import { countReport, countsSummary, groupReport, OUTCOME_HELP, OUTCOME_LABEL, OUTCOME_ORDER } from './report';

function diagWhere(d: Diag): string {
  const parts: string[] = [];
  if (d.path) parts.push(d.path);
  if (d.line) parts.push(`line ${d.line}`);
  return parts.join(', ');
}

function DiagList({ items, label }: { items: Diag[]; label: string }) {
  return (
    <ul className="plain-list" aria-label={label}>
      {items.map((d, i) => (
        <li key={i}>
          {d.message}
          {diagWhere(d) && <span className="muted small"> ({diagWhere(d)})</span>}
          {d.hint && <span className="muted small"> {d.hint}</span>}
        </li>
      ))}
    </ul>
  );
}

export function ImportReport({ answer }: { answer: ImportAnswer }) {
  const counts = countReport(answer.report);
  const groups = groupReport(answer.report);
  return (
    <section aria-label="Import result" data-testid="other-import-result">
      <div className="import-summary">
        <span className={`pill ${answer.valid ? 'pill-ok' : 'pill-bad'}`} data-testid="other-import-validity">
          {answer.valid ? 'valid zenflow document' : `${answer.errors.length} error${answer.errors.length === 1 ? '' : 's'}: opens as a draft`}
        </span>
        {OUTCOME_ORDER.map((o) => (
          <span key={o} className={`outcome-pill outcome-${o}${counts[o] === 0 ? ' zero' : ''}`} title={OUTCOME_HELP[o]} data-testid={`count-${o}`}>
            {counts[o]} {o}
          </span>
        ))}
        <span className="sr-only">{countsSummary(counts)}</span>
      </div>
      {answer.notes.length > 0 && (
        <div className="banner banner-warning" role="status">
          <div className="banner-body">
            <strong>Behaves differently after import</strong>
            <ul className="plain-list" aria-label="Import notes">
              {answer.notes.map((n, i) => (
                <li key={i}>{n}</li>
              ))}
            </ul>
          </div>
        </div>
      )}
      {answer.errors.length > 0 && (
        <div className="banner banner-error" role="status">
          <div className="banner-body">
            <strong>Errors in the translated document</strong> (fix them in the editor)
            <DiagList items={answer.errors} label="Document errors" />
          </div>
        </div>
      )}
      {answer.warnings.length > 0 && (
        <div className="banner banner-warning" role="status">
          <div className="banner-body">
            <strong>Warnings</strong>
            <DiagList items={answer.warnings} label="Document warnings" />
          </div>
        </div>
      )}
      {groups.length === 0 ? (
        <p className="muted">The report is empty: the importer read no fields.</p>
      ) : (
        <div className="report-scroll">
          <table className="table compact report-table" aria-label="Import report" data-testid="import-report">
            <thead>
              <tr>
                <th>Source field</th>
                <th>Outcome</th>
                <th>In the zenflow document</th>
                <th>Note</th>
              </tr>
            </thead>
            {groups.map((g) => (
              <tbody key={g.outcome} data-outcome={g.outcome}>
                <tr className={`group-head outcome-${g.outcome}`}>
                  <td colSpan={4}>
                    {OUTCOME_LABEL[g.outcome]} ({g.entries.length})
                    <span className="small group-help"> · {OUTCOME_HELP[g.outcome]}</span>
                  </td>
                </tr>
                {g.entries.map((e, i) => (
                  <tr key={`${e.field}-${i}`} className={`row-${e.outcome}`} data-testid="report-row">
                    <td className="mono">{e.field}</td>
                    <td>
                      <span className={`outcome-pill outcome-${e.outcome}`}>{e.outcome}</span>
                    </td>
                    <td className="mono">{e.target ?? <span className="muted">nowhere</span>}</td>
                    <td className="note">{e.note || <span className="muted">same meaning</span>}</td>
                  </tr>
                ))}
              </tbody>
            ))}
          </table>
        </div>
      )}
      <details className="yaml-preview">
        <summary>Show the zenflow YAML</summary>
        <pre className="output" data-testid="other-import-yaml">
          {answer.yaml}
        </pre>
      </details>
    </section>
  );
}
