import { memo } from 'react';
import { VirtualRows } from '../components/VirtualRows';
import type { EventRow } from './eventRows';

/** A one-line event row (12 px text, its padding and rule), in pixels: the first guess, before rows are measured. */
const ROW_PX = 22;

/** Event rows, oldest first, a window at a time; `followEnd` keeps the newest in view while the reader is at the bottom. */
export const EventLog = memo(function EventLog({ rows, followEnd = false }: { rows: EventRow[]; followEnd?: boolean }) {
  return (
    <VirtualRows
      as="ol"
      className="event-log"
      testId="event-log"
      label="Events"
      count={rows.length}
      estimateSize={ROW_PX}
      followEnd={followEnd}
      renderRow={(i, props) => {
        const r = rows[i];
        return (
          <li key={r.seq} {...props} className={`event-row event-${r.tone}${r.superseded ? ' event-superseded' : ''}`} data-testid="event-row" data-seq={r.seq} data-type={r.type}
            data-superseded={r.superseded ? '1' : undefined}
            // One line per event, cut at the panel's edge: the whole line is one hover away. A resume's row wraps: it is the one to read.
            title={`${r.seq === r.lastSeq ? r.seq : `${r.seq}–${r.lastSeq}`} ${r.time} ${r.type} ${r.stepId} ${r.text}${r.superseded ? ' (superseded: done again after the resume)' : ''}`}>
            <span className="mono muted">{r.seq === r.lastSeq ? r.seq : `${r.seq}–${r.lastSeq}`}</span> <time className="mono muted small">{r.time}</time>{' '}
            {r.superseded && <span className="pill small muted">superseded</span>}{' '}
            <strong>{r.type}</strong> <span className="mono">{r.stepId}</span> <span className={r.tone === 'plain' ? 'muted' : undefined}>{r.text}</span>
          </li>
        );
      }}
    />
  );
});
