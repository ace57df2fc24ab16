import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { api, errorText } from '../../api/client';
import type { RunEvent } from '../../api/events.gen';
import { EventLog } from '../EventLog';
import { eventRows } from '../eventRows';
import { EVENT_TYPES, pageEnds, pageQuery, stepFrom, type EventFilter, type PageAt } from './eventPages';

interface Page {
  events: RunEvent[];
  atOldest: boolean;
  atNewest: boolean;
}

/** How often the newest page is asked for again while the run goes. */
const FOLLOW_MS = 2000;

/**
 * The run's events a page at a time, asked of the server (200 to a page, newest first): older and
 * newer pages, a filter by type and by step. The newest page follows the run while it goes.
 */
export function BigEventsPanel({ runId, latestSeq, stepIds, live }: { runId: string; latestSeq: number; stepIds: string[]; live: boolean }) {
  const [at, setAt] = useState<PageAt>({ kind: 'newest' });
  const [filter, setFilter] = useState<EventFilter>({ type: '', step: '' });
  const [page, setPage] = useState<Page | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [asked, setAsked] = useState(0);
  const latest = useRef(latestSeq);
  const typeId = useId();
  const stepId = useId();
  useEffect(() => {
    latest.current = latestSeq;
  }, [latestSeq]);

  useEffect(() => {
    const abort = new AbortController();
    api.eventPage(runId, pageQuery(at, latest.current, filter), abort.signal).then(
      (events) => {
        setError(null);
        setPage((shown) => {
          // Paging past the end finds nothing: the page shown stays, now known to be the last that way.
          if (!events.length && at.kind !== 'newest' && shown) return at.kind === 'older' ? { ...shown, atOldest: true } : { ...shown, atNewest: true };
          return { events, ...pageEnds(at, events.length) };
        });
      },
      (e: unknown) => {
        if (!abort.signal.aborted) setError(errorText(e));
      },
    );
    return () => abort.abort();
    // `live`: the run's end asks for the newest page once more, with the events that ended it.
  }, [runId, at, filter, asked, live]);

  const following = at.kind === 'newest' && live;
  useEffect(() => {
    if (!following) return;
    let seen = latest.current;
    const timer = setInterval(() => {
      if (latest.current === seen) return;
      seen = latest.current;
      setAsked((n) => n + 1);
    }, FOLLOW_MS);
    return () => clearInterval(timer);
  }, [following]);

  const rows = useMemo(() => (page ? eventRows(page.events).reverse() : []), [page]);
  const go = (direction: 'older' | 'newer') => {
    const next = page && stepFrom(page.events, direction);
    if (next) setAt(next);
  };
  const first = page?.events[0]?.seq;
  const last = page?.events[page.events.length - 1]?.seq;
  return (
    <div className="big-events" data-testid="big-events" data-page={at.kind}>
      <div className="big-events-filters">
        <label className="mini-field small" htmlFor={typeId}>
          Type
          <select
            id={typeId}
            className="input"
            value={filter.type}
            onChange={(e) => {
              setFilter((f) => ({ ...f, type: e.target.value }));
              setAt({ kind: 'newest' });
            }}
            data-testid="events-type"
          >
            <option value="">All types</option>
            {EVENT_TYPES.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        </label>
        <label className="mini-field small" htmlFor={stepId}>
          Step
          <select
            id={stepId}
            className="input"
            value={filter.step}
            onChange={(e) => {
              setFilter((f) => ({ ...f, step: e.target.value }));
              setAt({ kind: 'newest' });
            }}
            data-testid="events-step"
          >
            <option value="">All steps</option>
            {stepIds.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
      </div>
      <div className="big-events-nav">
        <button className="btn ghost small" disabled={at.kind === 'newest'} onClick={() => setAt({ kind: 'newest' })} data-testid="events-newest">
          Newest
        </button>
        <button className="btn ghost small" disabled={!page || page.atNewest} onClick={() => go('newer')} data-testid="events-newer">
          ‹ Newer
        </button>
        <button className="btn ghost small" disabled={!page || page.atOldest} onClick={() => go('older')} data-testid="events-older">
          Older ›
        </button>
      </div>
      <p className="muted small" aria-live="polite" data-testid="events-range">
        {page === null
          ? 'Loading events…'
          : page.events.length
            ? `Events ${first?.toLocaleString()}–${last?.toLocaleString()}, newest first${following ? ' · following the run' : ''}`
            : 'No events match.'}
      </p>
      {error && <p className="field-problem error">Could not load events: {error}</p>}
      {/* Another page or filter opens at its top; the newest page asked again keeps the reader's place. */}
      <EventLog key={JSON.stringify([at, filter])} rows={rows} />
    </div>
  );
}
