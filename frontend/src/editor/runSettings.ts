// What the run dialog remembers per workflow: the last settings typed (kept in this browser), else the
// settings of the workflow's latest run (from the server), else a starter script.
import { stringify } from 'yaml';
import type { StartRunBody } from '../api/client';
import type { Budgets, Run } from '../api/types';
import { EMPTY_POLICIES, type RunPolicies } from '../run/policies';

export interface RunSettings {
  provider: StartRunBody['provider'];
  model: string;
  script: string;
  budgets: Record<keyof Budgets, string>;
  policies: RunPolicies;
  /** Tools whose calls wait for approval; absent: not known (a run record does not say). */
  askBefore?: string[];
}

export const DEFAULT_BUDGETS: Record<keyof Budgets, string> = { max_tokens: '', max_cost_usd: '', max_duration_s: '600', max_steps: '' };
const PREFIX = 'ld:run-settings:';

export function rememberRunSettings(workflowId: number | null, settings: RunSettings): void {
  if (workflowId === null) return;
  try {
    window.localStorage.setItem(PREFIX + workflowId, JSON.stringify(settings));
  } catch {
    // not remembered in this browser; the latest run still is on the server
  }
}

export function recalledRunSettings(workflowId: number | null): RunSettings | null {
  if (workflowId === null) return null;
  try {
    const raw = window.localStorage.getItem(PREFIX + workflowId);
    const s = raw ? (JSON.parse(raw) as RunSettings) : null;
    if (!s || typeof s.provider !== 'string' || typeof s.script !== 'string' || !s.budgets) return null;
    const askBefore = Array.isArray(s.askBefore) ? s.askBefore.filter((n): n is string => typeof n === 'string') : undefined;
    return { ...s, askBefore };
  } catch {
    return null;
  }
}

function isProvider(p: string): p is StartRunBody['provider'] {
  return p === 'simulated' || p === 'openai' || p === 'anthropic';
}

/** The settings a run was started with, as the dialog shows them. */
export function settingsFromRun(run: Run): RunSettings {
  const budgets = { ...DEFAULT_BUDGETS, max_duration_s: '' };
  for (const key of Object.keys(budgets) as (keyof Budgets)[]) {
    const v = run.budgets?.[key];
    if (typeof v === 'number') budgets[key] = String(v);
  }
  const script = run.script == null ? '' : typeof run.script === 'string' ? run.script : stringify(run.script);
  return {
    provider: isProvider(run.provider) ? run.provider : 'simulated',
    model: run.model ?? '',
    script,
    budgets,
    policies: run.policies ? { ...EMPTY_POLICIES, ...run.policies } : EMPTY_POLICIES,
  };
}
