import { useMemo } from 'react';
import { when } from '../format/dates';
import { useEditor } from '../store/context';
import { EventLog } from './EventLog';
import { eventRows } from './eventRows';
import { plural } from './labels';

/** The run's events as rows (streamed text joined per turn), newest last, following the newest while the reader is at the bottom. */
export function EventsPanel() {
  const log = useEditor((s) => s.runState.log);
  const superseded = useEditor((s) => s.runState.superseded);
  const rows = useMemo(() => eventRows(log, superseded), [log, superseded]);
  const run = useEditor((s) => s.run);
  return (
    <div>
      <p className="muted small">
        {plural(log.length, 'event')}{run?.created_at ? ` · created ${when(run.created_at)}` : ''}
      </p>
      <EventLog rows={rows} followEnd />
    </div>
  );
}
