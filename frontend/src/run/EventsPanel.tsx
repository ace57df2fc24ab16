import { useMemo } from 'react';
import { VirtualRows } from '../components/VirtualRows';
import { when } from '../format/dates';
import { useEditor } from '../store/context';
import { eventRows } from './eventRows';
import { plural } from './labels';

/** A one-line event row (12 px text, its padding and rule), in pixels: the first guess, before rows are measured. */
const ROW_PX = 22;

/** The run's events as rows (streamed text joined per turn), newest last, following the newest while the reader is at the bottom. */
export function EventsPanel() {
  const log = useEditor((s) => s.runState.log);
  const rows = useMemo(() => eventRows(log), [log]);
  const run = useEditor((s) => s.run);
  return (
    <div>
      <p className="muted small">
        {plural(log.length, 'event')}{run?.created_at ? ` · created ${when(run.created_at)}` : ''}
      </p>
      <VirtualRows
        as="ol"
        className="event-log"
        testId="event-log"
        label="Events"
        count={rows.length}
        estimateSize={ROW_PX}
        followEnd
        renderRow={(i, props) => {
          const r = rows[i];
          return (
            <li key={r.seq} {...props} className={`event-row event-${r.tone}`} data-type={r.type}>
              <span className="mono muted">{r.seq === r.lastSeq ? r.seq : `${r.seq}–${r.lastSeq}`}</span>{' '}
              <time className="mono muted small">{r.time}</time> <strong>{r.type}</strong> <span className="mono">{r.stepId}</span>{' '}
              <span className={r.tone === 'plain' ? 'muted' : undefined}>{r.text}</span>
            </li>
          );
        }}
      />
    </div>
  );
}
