// The runs list's filters: the workflow's name, statuses, provider, and a range of days.
import { useId } from 'react';
import { RUN_STATUSES } from '../api/events.gen';
import { NO_RUN_FILTERS, runsFiltered, type RunFilters } from './listFilters';
import { SearchBox } from './SearchBox';

interface Props {
  filters: RunFilters;
  onChange: (f: RunFilters) => void;
  /** The providers to offer: [name, label]. */
  providers: readonly (readonly [string, string])[];
  shown: number;
  total: number | null;
}

export function RunFilterBar({ filters, onChange, providers, shown, total }: Props) {
  const searchId = useId();
  const providerId = useId();
  const fromId = useId();
  const toId = useId();
  const statusId = useId();
  // A provider named in the address but not offered here still shows as chosen.
  const offered = providers.some(([name]) => name === filters.provider) || !filters.provider ? providers : [...providers, [filters.provider, filters.provider] as const];
  return (
    <div className="list-filters" role="search" aria-label="Filter runs" data-testid="runs-filters" style={{ marginBottom: 'var(--s3)' }}>
      <div className="row">
        <div className="mini-field" style={{ flex: '1 1 220px', maxWidth: 320 }}>
          <label className="muted small" htmlFor={searchId}>
            Workflow
          </label>
          <SearchBox id={searchId} value={filters.q} onCommit={(q) => onChange({ ...filters, q })} label="Search runs by workflow name" placeholder="Search by workflow name" testId="runs-search" />
        </div>
        <div className="mini-field">
          <label className="muted small" htmlFor={providerId}>
            Provider
          </label>
          <select id={providerId} className="input" value={filters.provider} onChange={(e) => onChange({ ...filters, provider: e.target.value })} data-testid="runs-provider-filter">
            <option value="">Any provider</option>
            {offered.map(([name, label]) => (
              <option key={name} value={name}>
                {label}
              </option>
            ))}
          </select>
        </div>
        <div className="mini-field">
          <label className="muted small" htmlFor={fromId}>
            From
          </label>
          <input id={fromId} className="input" type="date" value={filters.from} max={filters.to || undefined} onChange={(e) => onChange({ ...filters, from: e.target.value })} data-testid="runs-from" />
        </div>
        <div className="mini-field">
          <label className="muted small" htmlFor={toId}>
            To
          </label>
          <input id={toId} className="input" type="date" value={filters.to} min={filters.from || undefined} onChange={(e) => onChange({ ...filters, to: e.target.value })} data-testid="runs-to" />
        </div>
      </div>
      <div className="row">
        <div className="row" role="group" aria-labelledby={statusId} data-testid="runs-status-filter">
          <span id={statusId} className="muted small">
            Status
          </span>
          {RUN_STATUSES.map((status) => (
            <label key={status} className="check">
              <input
                type="checkbox"
                checked={filters.statuses.includes(status)}
                onChange={(e) => onChange({ ...filters, statuses: e.target.checked ? [...filters.statuses, status] : filters.statuses.filter((s) => s !== status) })}
                data-testid={`runs-status-${status}`}
              />
              {status}
            </label>
          ))}
        </div>
        {runsFiltered(filters) && (
          <button className="btn ghost small" onClick={() => onChange(NO_RUN_FILTERS)} data-testid="clear-filters">
            Clear filters
          </button>
        )}
        <span className="spacer" />
        <span className="muted small" role="status" data-testid="runs-count">
          {total === null ? `${shown} shown` : `${shown} of ${total}`}
        </span>
      </div>
    </div>
  );
}
