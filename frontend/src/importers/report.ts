// Pure helpers of the "import from another system" dialog: the report grouped
// and counted by outcome, parameter rows, and the 422 answer made readable.
import type { ImportKind, Outcome, ReportEntry } from './api';

/** What needs attention first: dropped, then approximated, then carried. */
export const OUTCOME_ORDER: readonly Outcome[] = ['dropped', 'approximated', 'carried'];

export const OUTCOME_LABEL: Record<Outcome, string> = {
  dropped: 'Dropped',
  approximated: 'Approximated',
  carried: 'Carried',
};

export const OUTCOME_HELP: Record<Outcome, string> = {
  dropped: 'nothing in the zenflow document says this; the note says why',
  approximated: 'the document says something close; the note says how it differs',
  carried: 'the document says the same thing',
};

export type OutcomeCounts = Record<Outcome, number>;

export interface ReportGroup {
  outcome: Outcome;
  entries: ReportEntry[];
}

function isOutcome(v: unknown): v is Outcome {
  return v === 'carried' || v === 'approximated' || v === 'dropped';
}

/** Entries per outcome, counted from the report itself (unknown outcomes are not counted). */
export function countReport(report: readonly ReportEntry[]): OutcomeCounts {
  const counts: OutcomeCounts = { carried: 0, approximated: 0, dropped: 0 };
  for (const e of report) if (isOutcome(e.outcome)) counts[e.outcome] += 1;
  return counts;
}

/** The report in groups (OUTCOME_ORDER), each keeping the server's order; empty groups left out. */
export function groupReport(report: readonly ReportEntry[]): ReportGroup[] {
  return OUTCOME_ORDER.map((outcome) => ({ outcome, entries: report.filter((e) => e.outcome === outcome) })).filter(
    (g) => g.entries.length > 0,
  );
}

/** "9 carried · 7 approximated · 0 dropped" */
export function countsSummary(counts: OutcomeCounts): string {
  return `${counts.carried} carried · ${counts.approximated} approximated · ${counts.dropped} dropped`;
}

export interface ParamRow {
  name: string;
  value: string;
}

/** The request's `parameters`: rows with a name (trimmed); a later row with the same name wins. */
export function parametersOf(rows: readonly ParamRow[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const r of rows) {
    const name = r.name.trim();
    if (name) out[name] = r.value;
  }
  return out;
}

/** The parameter a 422 answer says is missing ("parameter 'subject' is required"), or null. */
export function missingParameter(detail: string): string | null {
  const m = /parameter ['"‘“]([^'"’”]+)['"’”] is required/i.exec(detail);
  return m ? m[1] : null;
}

/** The 422 message without the field prefix and line suffix the server adds (they are shown apart). */
export function bareMessage(detail: string, field: string | null, line: number | null): string {
  let text = detail;
  if (field && text.startsWith(field + ': ')) text = text.slice(field.length + 2);
  if (line !== null) {
    const suffix = ` (line ${line})`;
    if (text.endsWith(suffix)) text = text.slice(0, -suffix.length);
  }
  return text;
}

/** A guess of the kind from a file name (the user can still change it): .json is Coqui, .yaml/.yml Runsight. */
export function kindFromFileName(name: string): ImportKind | null {
  if (/\.json$/i.test(name)) return 'coqui';
  if (/\.ya?ml$/i.test(name)) return 'runsight';
  return null;
}
