// The workflows list's search and filters; the page keeps them in the address.
import { useId } from 'react';
import { NO_WORKFLOW_FILTERS, workflowsFiltered, type UpdatedWithin, type Validity, type WorkflowFilters } from './listFilters';
import { SearchBox } from './SearchBox';

const VALIDITY: [Validity, string][] = [
  ['all', 'All'],
  ['valid', 'Valid'],
  ['invalid', 'With errors'],
];
const UPDATED: [UpdatedWithin, string][] = [
  ['any', 'Any time'],
  ['today', 'Today'],
  ['7d', 'Last 7 days'],
  ['30d', 'Last 30 days'],
];

interface Props {
  filters: WorkflowFilters;
  onChange: (f: WorkflowFilters) => void;
  shown: number;
  total: number | null;
}

export function WorkflowFilterBar({ filters, onChange, shown, total }: Props) {
  const searchId = useId();
  const validId = useId();
  const updatedId = useId();
  return (
    <div className="row list-filters" role="search" aria-label="Search and filter workflows" data-testid="workflows-filters" style={{ marginBottom: 'var(--s3)' }}>
      <div className="mini-field" style={{ flex: '1 1 220px', maxWidth: 320 }}>
        <label className="muted small" htmlFor={searchId}>
          Name
        </label>
        <SearchBox id={searchId} value={filters.q} onCommit={(q) => onChange({ ...filters, q })} label="Search workflows by name" placeholder="Search by name" testId="workflows-search" />
      </div>
      <div className="mini-field">
        <label className="muted small" htmlFor={validId}>
          Validity
        </label>
        <select id={validId} className="input" value={filters.valid} onChange={(e) => onChange({ ...filters, valid: e.target.value as Validity })} data-testid="workflows-valid-filter">
          {VALIDITY.map(([value, text]) => (
            <option key={value} value={value}>
              {text}
            </option>
          ))}
        </select>
      </div>
      <div className="mini-field">
        <label className="muted small" htmlFor={updatedId}>
          Updated
        </label>
        <select id={updatedId} className="input" value={filters.updated} onChange={(e) => onChange({ ...filters, updated: e.target.value as UpdatedWithin })} data-testid="workflows-updated-filter">
          {UPDATED.map(([value, text]) => (
            <option key={value} value={value}>
              {text}
            </option>
          ))}
        </select>
      </div>
      {workflowsFiltered(filters) && (
        <button className="btn ghost small" onClick={() => onChange(NO_WORKFLOW_FILTERS)} data-testid="clear-filters">
          Clear filters
        </button>
      )}
      <span className="spacer" />
      <span className="muted small" role="status" data-testid="workflows-count">
        {total === null ? `${shown} shown` : `${shown} of ${total}`}
      </span>
    </div>
  );
}
