// The workspace settings page's pure parts: the limits form (text in, numbers or null out) and the
// audit log's words.
import type { WorkspaceLimits } from '../api/types';

export type LimitKey = keyof WorkspaceLimits;

export const LIMIT_FIELDS: readonly { key: LimitKey; label: string; help: string; integer: boolean }[] = [
  { key: 'max_concurrent_runs', label: 'Runs at once', help: 'Runs queued, running or paused at the same time', integer: true },
  { key: 'max_runs_per_day', label: 'Runs a day', help: 'Runs started since midnight UTC', integer: true },
  { key: 'max_tokens_per_day', label: 'Tokens a day', help: 'Prompt and completion tokens since midnight UTC', integer: true },
  { key: 'max_cost_usd_per_day', label: 'Cost a day (USD)', help: 'Spent since midnight UTC; also caps each run’s budget', integer: false },
];

export type LimitsText = Record<LimitKey, string>;

/** The form's text for the limits the server holds (blank: no limit). */
export function limitsText(limits: Partial<WorkspaceLimits> | null | undefined): LimitsText {
  const out = {} as LimitsText;
  for (const { key } of LIMIT_FIELDS) {
    const v = limits?.[key];
    out[key] = typeof v === 'number' ? String(v) : '';
  }
  return out;
}

/** The limits to send (blank: null, no limit), or which field is wrong and why. */
export function parseLimits(text: LimitsText): { limits: WorkspaceLimits } | { field: LimitKey; error: string } {
  const limits = {} as WorkspaceLimits;
  for (const { key, label, integer } of LIMIT_FIELDS) {
    const raw = (text[key] ?? '').trim().replace(/[,_\s]/g, '');
    if (raw === '') {
      limits[key] = null;
      continue;
    }
    const n = Number(raw.replace(/^\$/, ''));
    if (!Number.isFinite(n) || n < 0) return { field: key, error: `${label}: type a number of 0 or more, or leave it blank for no limit.` };
    if (integer && !Number.isInteger(n)) return { field: key, error: `${label}: type a whole number, or leave it blank for no limit.` };
    limits[key] = n;
  }
  return { limits };
}

const ACTION_WORDS: Record<string, string> = {
  workspace_created: 'Workspace created',
  member_added: 'Member joined',
  member_removed: 'Member removed',
  role_changed: 'Role changed',
  invitation_created: 'Invitation created',
  invitation_used: 'Invitation used',
  key_stored: 'Provider key stored',
  key_deleted: 'Provider key deleted',
  limits_changed: 'Limits changed',
  server_keys_granted: 'Server keys granted',
  server_keys_revoked: 'Server keys withdrawn',
  tracing_changed: 'Tracing changed',
  run_started: 'Run started',
  run_refused: 'Run refused (a limit or no key)',
  action_refused: 'Refused (role too low)',
  run_paused: 'Run paused',
  run_resumed: 'Run resumed',
  run_stopped: 'Run stopped',
  workflow_moved: 'Workflow moved',
  signed_in: 'Signed in',
};

/** An audit action in words ("role_changed" → "Role changed"). */
export function actionWords(action: string): string {
  if (ACTION_WORDS[action]) return ACTION_WORDS[action];
  const words = action.replace(/[_-]+/g, ' ').trim();
  return words ? words[0].toUpperCase() + words.slice(1) : action;
}

function value(v: unknown): string {
  if (v === null || v === undefined) return 'none';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return JSON.stringify(v);
}

/** An audit entry's detail as one line: "user: bob · viewer → editor". */
export function detailWords(detail: unknown): string {
  if (detail === null || detail === undefined) return '';
  if (typeof detail !== 'object' || Array.isArray(detail)) return value(detail);
  const d = detail as Record<string, unknown>;
  const change = 'before' in d && 'after' in d ? `${value(d.before)} → ${value(d.after)}` : null;
  const rest = Object.entries(d)
    .filter(([k]) => !change || (k !== 'before' && k !== 'after'))
    .map(([k, v]) => `${k.replace(/_/g, ' ')}: ${value(v)}`);
  return [...rest, ...(change ? [change] : [])].join(' · ');
}
