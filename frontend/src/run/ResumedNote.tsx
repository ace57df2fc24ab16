import type { Run } from '../api/types';
import { useEditor } from '../store/context';
import { pointWords, resumeWords } from './labels';
import type { ResumeNotice } from './reduce';

/** What the page knows of the run's last resume: its record's, else what its resume message said (a page watching live). */
export function useResumed(run: Pick<Run, 'resumed'> | null): Parameters<typeof resumeWords>[0] | null {
  const seen: ResumeNotice | null = useEditor((s) => s.runState.resumed);
  if (run?.resumed) return run.resumed;
  return seen ? { reason: seen.reason, attempt: seen.attempt, of: seen.of, after: seen.after } : null;
}

/**
 * "resumed after round 3 of write: worker lost (resume 1 of 3)": in the run's header and its details, so a run
 * that went on after losing its worker says so where people look, not only in the events.
 */
export function ResumedNote({ run, testId = 'run-resumed' }: { run: Pick<Run, 'resumed'> | null; testId?: string }) {
  const info = useResumed(run);
  return info ? <ResumedPill info={info} testId={testId} /> : null;
}

/** The pill itself, for pages that know the resume from the run's record alone (the big-run page). */
export function ResumedPill({ info, testId = 'run-resumed' }: { info: Parameters<typeof resumeWords>[0]; testId?: string }) {
  const words = resumeWords(info);
  // Short in the header (it shares a line at 1280 px); the whole story in the title and in Details.
  return (
    <span
      className="pill small pill-warn"
      title={`This run lost its worker and ${words}. Nothing finished before that ran again; the lost attempt's events after it are kept in Events, marked superseded.`}
      data-testid={testId}
      data-words={words}
    >
      resumed after {pointWords(info.after)}
    </span>
  );
}
