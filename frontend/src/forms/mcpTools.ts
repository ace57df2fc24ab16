// MCP tools in the tool picker: grouped apart from the built-in tools, and not called unknown.
// The validator (POST /validate, no user) knows only the built-in tools, so it warns `unknown_tool`
// for a name only the user's MCP servers provide; GET /tools (signed in) is what a run will have.
import type { Diag, ToolInfo } from '../api/types';
import type { ToolChoice } from './toolChoices';

export interface ToolGroup {
  /** null: the server's own tools (and names it lacks), listed without a heading. */
  title: string | null;
  choices: ToolChoice[];
}

export const MCP_GROUP_TITLE = 'From your MCP servers';

/** Where each MCP tool comes from, by the name a run offers it under. */
export function mcpServers(registered: readonly ToolInfo[] | null): Map<string, { server: string; mcpName: string }> {
  const out = new Map<string, { server: string; mcpName: string }>();
  for (const t of registered ?? []) if (t.mcp_server) out.set(t.name, { server: t.mcp_server, mcpName: t.mcp_name ?? t.name });
  return out;
}

/** The choices as groups, their order kept: the built-in tools and unknown names, then MCP tools (when there are any). */
export function toolGroups(choices: readonly ToolChoice[], servers: ReadonlyMap<string, unknown>): ToolGroup[] {
  const builtIn = choices.filter((c) => !servers.has(c.name));
  const mcp = choices.filter((c) => servers.has(c.name));
  return mcp.length ? [{ title: null, choices: builtIn }, { title: MCP_GROUP_TITLE, choices: mcp }] : [{ title: null, choices: builtIn }];
}

/** The diagnostics without `unknown_tool` for a name the server does provide (an MCP tool), `tools` being the agent's list. */
export function withoutProvided(diags: readonly Diag[], tools: unknown, registered: readonly ToolInfo[] | null): Diag[] {
  if (!registered || !Array.isArray(tools)) return [...diags];
  const known = new Set(registered.map((t) => t.name));
  return diags.filter((d) => {
    if (d.code !== 'unknown_tool') return true;
    const index = /\/tools\/(\d+)$/.exec(d.path);
    const name: unknown = index ? tools[Number(index[1])] : undefined;
    return !(typeof name === 'string' && known.has(name));
  });
}
