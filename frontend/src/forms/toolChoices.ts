// Choosing tools by name (an agent's tools and disallowedTools, the run dialog's "ask before"):
// the server's registered tools in its order, then names the list has that no registered tool
// has, so that a name the server lacks is shown (and can be removed), never silently dropped.
import type { ToolInfo } from '../api/types';

export interface ToolChoice {
  name: string;
  description: string;
  upstream: boolean;
  /** A registered tool that is this server's own, not upstream's: a workflow naming it may not run elsewhere. */
  ours: boolean;
  /** Why an own tool runs only here (the server's words: zenflow's runner refuses it); '' for the others. */
  note: string;
  /** A registered tool (or the engine's own submit_result); false: this server does not provide it. */
  known: boolean;
  checked: boolean;
}

/** The engine's own tool, given to agents with a resultSchema: never registered, never unknown. */
const ENGINE_TOOLS = new Set(['submit_result']);

/** The choices for a list: every registered tool, then the list's other names. `registered` null: not known (yet). */
export function toolChoices(registered: readonly ToolInfo[] | null, listed: readonly string[]): ToolChoice[] {
  const chosen = new Set(listed);
  const rows: ToolChoice[] = (registered ?? []).map((t) => ({ name: t.name, description: t.description, upstream: t.upstream, ours: !t.upstream, note: t.note ?? '', known: true, checked: chosen.has(t.name) }));
  const seen = new Set(rows.map((r) => r.name));
  for (const name of listed) {
    if (seen.has(name)) continue;
    seen.add(name);
    rows.push({ name, description: '', upstream: false, ours: false, note: '', known: registered === null || ENGINE_TOOLS.has(name), checked: true });
  }
  return rows;
}

/** The list with `name` checked or not: its order is kept, a new name goes last. */
export function toggled(list: readonly string[], name: string, on: boolean): string[] {
  if (on) return list.includes(name) ? [...list] : [...list, name];
  return list.filter((n) => n !== name);
}

/** A document's tool list as names (anything that is not a string is not a name). */
export function namesOf(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}
