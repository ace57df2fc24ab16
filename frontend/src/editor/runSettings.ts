// What the run dialog remembers per workflow: the last settings typed (kept in this browser), else the
// settings of the workflow's latest run (from the server), else a starter script.
import { stringify } from 'yaml';
import type { CoordinatorMode, StartRunBody } from '../api/client';
import type { Budgets, Run } from '../api/types';
import { EMPTY_POLICIES, type RunPolicies } from '../run/policies';
import { DEFAULT_PERMISSIONS, isPermissionMode, isThinkingLevel, permissionsFromRun, type RunPermissions, type ThinkingLevel } from '../run/permissions';

export interface RunSettings {
  provider: StartRunBody['provider'];
  model: string;
  /** The model replaces every agent's own (upstream's --model), not only a default; absent: false. */
  overrideModel?: boolean;
  script: string;
  budgets: Record<keyof Budgets, string>;
  policies: RunPolicies;
  /** Tools whose calls wait for approval; absent: not known (a run record does not say). */
  askBefore?: string[];
  /** The run's coordinator; absent (settings remembered before it was offered): the default, narrate. */
  coordinator?: CoordinatorMode;
  sharedMemory?: boolean;
  /** The permission mode and tool lists (upstream's --allow, --deny, --strict, --sandbox, --yolo); absent: the default. */
  permissions?: RunPermissions;
  /** The reasoning level (upstream's --thinking); absent or null: nothing asked. */
  thinking?: ThinkingLevel | null;
}

export const DEFAULT_COORDINATOR: CoordinatorMode = 'narrate';

export function isCoordinatorMode(v: unknown): v is CoordinatorMode {
  return v === 'narrate' || v === 'summary-only' || v === 'off';
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
    const coordinator = isCoordinatorMode(s.coordinator) ? s.coordinator : undefined;
    return { ...s, askBefore, coordinator, sharedMemory: s.sharedMemory === true, permissions: recalledPermissions(s.permissions), thinking: isThinkingLevel(s.thinking) ? s.thinking : null };
  } catch {
    return null;
  }
}

/** Permissions as a browser kept them, each part checked (an older or edited entry falls back to the default). */
function recalledPermissions(p: unknown): RunPermissions {
  if (typeof p !== 'object' || p === null) return DEFAULT_PERMISSIONS;
  const r = p as Record<string, unknown>;
  const list = (v: unknown) => (Array.isArray(v) ? v.filter((n): n is string => typeof n === 'string') : []);
  return { mode: isPermissionMode(r.mode) ? r.mode : 'ask', allow: list(r.allow), deny: list(r.deny) };
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
    overrideModel: run.model_override,
    script,
    budgets,
    policies: run.policies ? { ...EMPTY_POLICIES, ...run.policies } : EMPTY_POLICIES,
    coordinator: isCoordinatorMode(run.coordinator) ? run.coordinator : DEFAULT_COORDINATOR,
    sharedMemory: run.shared_memory,
    permissions: permissionsFromRun(run.permissions),
    thinking: isThinkingLevel(run.thinking) ? run.thinking : null,
  };
}
