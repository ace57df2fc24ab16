// The run dialog's line about a workspace's limits: what is used and left, only for limits that are set.
import type { UsageRow, WorkspaceUsage } from '../api/types';

/** "5 h 10 min", "12 min", "40 s": a wait in words (rounded up to the minute past a minute). */
export function waitWords(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds <= 0) return '0 min';
  if (seconds < 60) return `${Math.ceil(seconds)} s`;
  let hours = Math.floor(seconds / 3600);
  let minutes = Math.ceil((seconds - hours * 3600) / 60);
  if (minutes === 60) {
    hours += 1;
    minutes = 0;
  }
  if (!hours) return `${minutes} min`;
  return minutes ? `${hours} h ${minutes} min` : `${hours} h`;
}

const whole = (n: number) => Math.round(n).toLocaleString('en-US');
const dollars = (n: number) => `$${n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

function isSet(row: UsageRow | undefined): row is UsageRow & { limit: number } {
  return !!row && typeof row.limit === 'number';
}

function left(row: UsageRow & { limit: number }): number {
  return typeof row.left === 'number' ? row.left : Math.max(0, row.limit - row.used - (row.reserved ?? 0));
}

/** ", 900 held by running runs": what the day's active runs hold beyond what they spent (nothing when none). */
function held(row: UsageRow, amount: (n: number) => string): string {
  return row.reserved ? ` (${amount(row.reserved)} held by running runs)` : '';
}

export interface UsagePart {
  key: string;
  text: string;
  /** Nothing left of this limit: a run will be refused until it frees up. */
  exhausted: boolean;
}

/** One phrase per limit that is set, in the order the dialog shows them. */
export function usageParts(usage: WorkspaceUsage): UsagePart[] {
  const parts: UsagePart[] = [];
  const { concurrent_runs: concurrent, runs_per_day: runs, tokens_per_day: tokens, cost_usd_per_day: cost } = usage.limits;
  if (isSet(concurrent)) parts.push({ key: 'concurrent_runs', text: `${whole(concurrent.used)} of ${whole(concurrent.limit)} runs at once`, exhausted: left(concurrent) <= 0 });
  if (isSet(runs)) parts.push({ key: 'runs_per_day', text: `${whole(runs.used)} of ${whole(runs.limit)} runs today`, exhausted: left(runs) <= 0 });
  if (isSet(tokens)) parts.push({ key: 'tokens_per_day', text: `${whole(left(tokens))} tokens left today${held(tokens, whole)}`, exhausted: left(tokens) <= 0 });
  if (isSet(cost)) parts.push({ key: 'cost_usd_per_day', text: `${dollars(left(cost))} left today${held(cost, dollars)}`, exhausted: left(cost) <= 0 });
  return parts;
}

/**
 * "This workspace: 2 of 3 runs at once · 40 of 50 runs today · 120,000 tokens left today (resets in 5 h 10 min)";
 * null when the workspace has no limits.
 */
export function usageLine(usage: WorkspaceUsage): string | null {
  const parts = usageParts(usage);
  if (!parts.length) return null;
  const daily = parts.some((p) => p.key !== 'concurrent_runs');
  const resets = daily && usage.resets_in_s > 0 ? ` (resets in ${waitWords(usage.resets_in_s)})` : '';
  return `This workspace: ${parts.map((p) => p.text).join(' · ')}${resets}`;
}

/**
 * "A run holds its token and cost budget of the day while it runs; without one, 100,000 tokens and $1.00 (at most
 * what is left), and it stops there." Null when the workspace has no daily token or cost limit.
 */
export function reserveLine(usage: WorkspaceUsage): string | null {
  const { tokens_per_day: tokens, cost_usd_per_day: cost } = usage.limits;
  const reserve = usage.reserve_without_budget;
  const what = [isSet(tokens) && 'token', isSet(cost) && 'cost'].filter(Boolean).join(' and ');
  if (!what || !reserve) return null;
  const estimate = [isSet(tokens) && `${whole(reserve.max_tokens)} tokens`, isSet(cost) && dollars(reserve.max_cost_usd)].filter(Boolean).join(' and ');
  return `A run holds its ${what} budget of the day while it runs; without one, ${estimate} (at most what is left), and it stops there.`;
}

/** A refused start (429): the server's words, and how long to wait when it said. */
export function limitMessage(detail: string, retryAfterSeconds: number | null): string {
  const text = detail.trim().replace(/[.\s]+$/, '');
  const sentence = text ? text[0].toUpperCase() + text.slice(1) + '.' : 'A limit of this workspace is reached.';
  return retryAfterSeconds && retryAfterSeconds > 0 ? `${sentence} You can start a run again in ${waitWords(retryAfterSeconds)}.` : sentence;
}
