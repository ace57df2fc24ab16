// A run's permission mode and reasoning level (POST /runs `permissions` and `thinking`; runtime/tools/permissions.py
// and runtime/providers/thinking.py), as upstream zenflow's CLI flags: --allow, --deny, --strict, --sandbox, --yolo
// and --thinking. The dialog offers one mode at a time; the server judges the request. Pure: these helpers shape the
// request, read a run record back, and say in words what a run used.
import type { PermissionsBody, ThinkingLevel } from '../api/types';

export type { PermissionsBody, ThinkingLevel } from '../api/types';

/** ask: today's gate (a tool on the ask-before list, or off a given allow list, waits for a person). */
export type PermissionMode = 'ask' | 'strict' | 'sandbox' | 'yolo';

export const PERMISSION_MODES: readonly PermissionMode[] = ['ask', 'strict', 'sandbox', 'yolo'];

export interface RunPermissions {
  mode: PermissionMode;
  /** Tools that run without asking (--allow); with strict, the only ones that run. */
  allow: string[];
  /** Tools that never run, whatever the mode (--deny). */
  deny: string[];
}


export const DEFAULT_PERMISSIONS: RunPermissions = { mode: 'ask', allow: [], deny: [] };

/** The tools sandbox mode runs (upstream's --sandbox): never bash, edit or an MCP tool. */
export const SANDBOX_TOOLS: readonly string[] = ['read', 'write', 'grep', 'glob'];

export function isPermissionMode(v: unknown): v is PermissionMode {
  return v === 'ask' || v === 'strict' || v === 'sandbox' || v === 'yolo';
}

function names(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((n): n is string => typeof n === 'string') : [];
}

/** What is wrong before the server is asked, in words naming the tools; null when nothing is. */
export function permissionsProblem(p: RunPermissions): string | null {
  const both = p.allow.filter((t) => p.deny.includes(t));
  if (both.length) return `${both.join(', ')} cannot be both allowed and denied.`;
  if (p.mode === 'strict' && p.allow.length === 0) return 'Strict mode runs only the allowed tools: allow at least one, or no tool call will run.';
  return null;
}

/** Whether the problem stops the start (a tool both allowed and denied) or is only a warning (strict with none). */
export function permissionsBlock(p: RunPermissions): boolean {
  return p.allow.some((t) => p.deny.includes(t));
}

/** The request's `permissions`, or undefined for the default (no list, ask mode). */
export function permissionsForRequest(p: RunPermissions | null | undefined): PermissionsBody | undefined {
  if (!p) return undefined;
  const out: PermissionsBody = {};
  // yolo runs every tool that is not denied: an allow list says nothing there, and is not sent.
  if (p.allow.length && p.mode !== 'yolo') out.allow = [...p.allow];
  if (p.deny.length) out.deny = [...p.deny];
  if (p.mode === 'strict') out.strict = true;
  if (p.mode === 'sandbox') out.sandbox = true;
  if (p.mode === 'yolo') out.yolo = true;
  return Object.keys(out).length ? out : undefined;
}

/** A run record's `permissions` as the dialog shows them (sandbox and yolo before strict: the wider rule shows). */
export function permissionsFromRun(raw: unknown): RunPermissions {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return DEFAULT_PERMISSIONS;
  const r = raw as Record<string, unknown>;
  const mode: PermissionMode = r.sandbox === true ? 'sandbox' : r.yolo === true ? 'yolo' : r.strict === true ? 'strict' : 'ask';
  return { mode, allow: names(r.allow), deny: names(r.deny) };
}

/** Whether the settings differ from the default. */
export function permissionsSet(p: RunPermissions): boolean {
  return p.mode !== 'ask' || p.allow.length > 0 || p.deny.length > 0;
}

const MODE_WORDS: Record<PermissionMode, string> = {
  ask: 'asks as set',
  strict: 'strict',
  sandbox: 'sandbox',
  yolo: 'approves every tool',
};

/** A run record's permissions in a few words for the run page ("strict · allows read · denies bash"); null: default. */
export function permissionsWords(raw: unknown): string | null {
  const r = typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
  const parts: string[] = [];
  for (const flag of ['strict', 'sandbox', 'yolo'] as const) if (r[flag] === true) parts.push(MODE_WORDS[flag]);
  const allow = names(r.allow);
  const deny = names(r.deny);
  if (allow.length) parts.push(`allows ${allow.join(', ')}`);
  if (deny.length) parts.push(`denies ${deny.join(', ')}`);
  return parts.length ? parts.join(' · ') : null;
}

/** A permission mode's explanation, as the dialog shows it beside the choice. */
export const MODE_HELP: Record<PermissionMode, { label: string; help: string }> = {
  ask: { label: 'Ask as set', help: 'Tools run unless denied; a tool on the ask-before list, or off a given allow list, waits for a person.' },
  strict: { label: 'Strict', help: 'Only the allowed tools run; any other call fails (--strict).' },
  sandbox: { label: 'Sandbox (read-only tools)', help: `Only ${SANDBOX_TOOLS.join(', ')} run; never bash, edit or an MCP tool (--sandbox).` },
  yolo: { label: 'Approve all', help: 'Every tool that is not denied runs without asking, the ask-before list included (--yolo).' },
};

// ---- reasoning level --------------------------------------------------------------------------


export const THINKING_LEVELS: readonly ThinkingLevel[] = ['off', 'low', 'medium', 'high'];

export function isThinkingLevel(v: unknown): v is ThinkingLevel {
  return v === 'off' || v === 'low' || v === 'medium' || v === 'high';
}

/** A run's reasoning level in words for the run page; null when none was asked (the provider's default). */
export function thinkingWords(level: unknown): string | null {
  return isThinkingLevel(level) ? (level === 'off' ? 'reasoning off' : `reasoning ${level}`) : null;
}
