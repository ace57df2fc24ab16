// The run's summary: its coordinator's synthesis. The run record holds it once the run has ended
// (Run.summary); until the record catches up, the synthesis event says it first.
import { useEditor } from '../store/context';

export function RunSummary() {
  const stored = useEditor((s) => s.run?.summary ?? '');
  const said = useEditor((s) => s.runState.mail.synthesis?.summary ?? '');
  const summary = stored || said;
  if (!summary) return null;
  return <SummaryBlock summary={summary} />;
}

/** A summary under a run's header (the normal and the big-run page). */
export function SummaryBlock({ summary }: { summary: string }) {
  return (
    <section className="run-summary" aria-label="Run summary" data-testid="run-summary">
      <span className="run-summary-label">Summary</span>
      <p className="run-summary-text">{summary}</p>
    </section>
  );
}
