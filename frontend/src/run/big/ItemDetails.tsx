import { useEffect, useState } from 'react';
import { api, errorText, type LoopPosition } from '../../api/client';
import type { Iteration } from '../../api/types';
import { formatIterationId, iterationTitle } from '../labels';
import { Pre } from '../Pre';
import { formatMs } from '../reduce';
import { letterStatus, statusWord } from './bigLabels';
import type { LoopVerdict } from '../view/merge';

/** A JSON value as text to read: a string as it is, anything else indented. */
function valueText(value: unknown): string | undefined {
  if (value === null || value === undefined) return undefined;
  return typeof value === 'string' ? value : JSON.stringify(value, null, 2);
}

type Load = { key: string; rows: Iteration[] | null; error: string | null };

export interface ItemDetailsProps {
  runId: string;
  loopId: string;
  at: LoopPosition;
  /** The item's letter now: when it changes, the details are asked for again. */
  letter: string | undefined;
  /** Why it failed (the view keeps the first hundred failures). */
  error?: string | null;
  verdict?: LoopVerdict;
  onClose(): void;
  /** The run has ended: an item never started will not be, and says "not run". */
  ended?: boolean;
}

/** One item or round, asked of the server when chosen: its value, status, time, tokens and output. */
export function ItemDetails({ runId, loopId, at, letter, error, verdict, onClose, ended = false }: ItemDetailsProps) {
  const round = 'iteration' in at;
  const n = round ? at.iteration : at.index;
  const key = `${loopId}/${round ? 'round' : 'item'}/${n}/${letter ?? ''}`;
  const [load, setLoad] = useState<Load>({ key: '', rows: null, error: null });

  useEffect(() => {
    const abort = new AbortController();
    const position: LoopPosition = round ? { iteration: n } : { index: n };
    api.loopIteration(runId, loopId, position, abort.signal).then(
      (rows) => setLoad({ key, rows, error: null }),
      (e: unknown) => {
        if (!abort.signal.aborted) setLoad({ key, rows: null, error: errorText(e) });
      },
    );
    return () => abort.abort();
  }, [runId, loopId, round, n, key]);

  const current = load.key === key ? load : null;
  // Several rows for one item are its tries: the last says how it ended.
  const row = current?.rows?.[current.rows.length - 1] ?? null;
  const status = row?.status ?? letterStatus(letter);
  const kind = round ? 'round' : 'item';
  const label = iterationTitle(kind, n);
  return (
    <section
      className="item-details"
      data-testid="item-details"
      data-kind={round ? 'round' : 'item'}
      data-index={n}
      data-iteration={round ? n : undefined}
      data-status={status}
      aria-label={`${label} of ${loopId}`}
    >
      <div className="item-details-head">
        <h4>
          {label}{' '}
          <span className="mono muted small" title="The id its events carry (counted from 0)" data-testid="item-id">
            {formatIterationId(loopId, n, kind)}
          </span>{' '}
          <span className={`status status-${status}`} data-testid="item-status">
            {status === 'queued' ? statusWord('queued', ended) : status}
          </span>
        </h4>
        <button className="icon-btn" aria-label={`Close the details of ${label.toLowerCase()}`} onClick={onClose}>
          ×
        </button>
      </div>
      {!current && <p className="muted small">Loading…</p>}
      {current?.error && <p className="field-problem error">Could not load the details: {current.error}</p>}
      {current && !current.error && !row && (
        <p className="muted small">{status === 'queued' ? (ended ? 'Never started: the run ended first.' : 'Not started yet.') : 'Nothing recorded for it yet.'}</p>
      )}
      {row && (
        <dl className="item-facts small">
          <dt>Time</dt>
          <dd>{row.duration_ms !== null ? formatMs(row.duration_ms) : status === 'running' ? 'running' : '—'}</dd>
          <dt>Tokens</dt>
          <dd>{typeof row.tokens === 'number' ? row.tokens.toLocaleString() : '—'}</dd>
        </dl>
      )}
      {error && (
        <p className="field-problem error" data-testid="item-error">
          {error}
        </p>
      )}
      {verdict && (
        <p className={`verdict ${verdict.failed_open ? 'failed-open' : verdict.done ? 'done' : 'not-done'}`}>
          <strong>{verdict.failed_open ? 'judge failed open' : verdict.done ? 'judge said done' : 'judge said not done'}</strong>
          {verdict.reason && <span className="verdict-reason">{verdict.reason}</span>}
        </p>
      )}
      {row && row.item !== null && row.item !== undefined && (
        <>
          <h5 className="item-part">Its value</h5>
          <Pre text={valueText(row.item)} testId="item-value" />
        </>
      )}
      {row && (
        <>
          <h5 className="item-part">Output</h5>
          <Pre text={row.content ?? undefined} testId="item-content" empty={status === 'running' ? 'Appears when it finishes.' : 'No output.'} />
        </>
      )}
      {row && row.result !== null && row.result !== undefined && valueText(row.result) !== row.content && (
        <>
          <h5 className="item-part">Result</h5>
          <Pre text={valueText(row.result)} testId="item-result" />
        </>
      )}
    </section>
  );
}
