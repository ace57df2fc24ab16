import { useMemo } from 'react';
import { when } from '../format/dates';
import { useEditor } from '../store/context';
import { eventRows } from './eventRows';
import { plural } from './labels';

/** The run's events as rows (streamed text joined per turn); the latest 300. */
export function EventsPanel() {
  const log = useEditor((s) => s.runState.log);
  const rows = useMemo(() => eventRows(log), [log]);
  const run = useEditor((s) => s.run);
  return (
    <div>
      <p className="muted small">
        {plural(log.length, 'event')}{run?.created_at ? ` · created ${when(run.created_at)}` : ''}
      </p>
      <ol className="event-log" data-testid="event-log">
        {rows.slice(-300).map((r) => (
          <li key={r.seq} className={`event-row event-${r.tone}`} data-type={r.type}>
            <span className="mono muted">{r.seq === r.lastSeq ? r.seq : `${r.seq}–${r.lastSeq}`}</span>{' '}
            <time className="mono muted small">{r.time}</time> <strong>{r.type}</strong> <span className="mono">{r.stepId}</span>{' '}
            <span className={r.tone === 'plain' ? 'muted' : undefined}>{r.text}</span>
          </li>
        ))}
      </ol>
    </div>
  );
}
