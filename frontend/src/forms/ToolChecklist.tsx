import { toolGroups } from './mcpTools';
import type { ToolChoice } from './toolChoices';

type Servers = ReadonlyMap<string, { server: string; mcpName: string }>;

const NO_SERVERS: Servers = new Map();

/**
 * A checkbox per tool, its description as a hint; a name this server lacks is flagged, never dropped.
 * With `servers`, MCP tools are listed apart ("From your MCP servers"), each with its server's name.
 */
export function ToolChecklist({
  choices,
  onToggle,
  testIdPrefix,
  label,
  disabled,
  compact,
  servers = NO_SERVERS,
}: {
  choices: ToolChoice[];
  onToggle: (name: string, on: boolean) => void;
  /** data-testid of each checkbox: `${testIdPrefix}-${name}`. */
  testIdPrefix: string;
  /** The group's name for assistive technology. */
  label: string;
  disabled?: boolean;
  /** On one wrapping line, the descriptions as tooltips only. */
  compact?: boolean;
  /** The MCP tools' servers by tool name (mcpServers()). */
  servers?: Servers;
}) {
  const row = (c: ToolChoice) => {
    const from = servers.get(c.name);
    return (
      <li key={c.name} className={c.known ? undefined : 'tool-unknown'}>
        <label className="check" title={c.description || undefined}>
          <input type="checkbox" checked={c.checked} disabled={disabled} onChange={(e) => onToggle(c.name, e.target.checked)} data-testid={`${testIdPrefix}-${c.name}`} />
          <span className="mono">{c.name}</span>
          {from ? (
            <span className="pill small" title={`Tool “${from.mcpName}” of MCP server “${from.server}”`} data-testid={`${testIdPrefix}-server-${c.name}`}>
              {from.server}
            </span>
          ) : (
            c.ours && (
              <span className="pill small tool-ours" title={c.note || 'This server’s own tool: other runners of the format may not have it'} data-testid={`${testIdPrefix}-ours-${c.name}`}>
                ours
              </span>
            )
          )}
        </label>
        {c.description && !compact && <div className="field-help">{c.description}</div>}
        {c.note && !compact && (
          <div className="field-help tool-note" data-testid={`${testIdPrefix}-note-${c.name}`}>
            {c.note}
          </div>
        )}
        {!c.known && <div className="field-problem warning">not provided by this server</div>}
      </li>
    );
  };
  const list = (rows: ToolChoice[], key?: string) => (
    <ul key={key} className={`tool-checklist${compact ? ' compact' : ''}`}>
      {rows.map(row)}
    </ul>
  );
  return (
    // The group wraps the list: a role on the <ul> itself would stop its items counting as list items.
    <div role="group" aria-label={label}>
      {toolGroups(choices, servers).map((g) =>
        g.title === null ? (
          list(g.choices, 'builtin')
        ) : (
          <div key="mcp" role="group" aria-label={`${label}: ${g.title}`} data-testid={`${testIdPrefix}-mcp-group`}>
            <div className="field-label">{g.title}</div>
            {list(g.choices)}
          </div>
        ),
      )}
    </div>
  );
}
