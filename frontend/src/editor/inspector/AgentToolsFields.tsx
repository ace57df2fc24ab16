import type { Diag } from '../../api/types';
import type { Json, JsonObject } from '../../doc/types';
import { Field } from '../../forms/fields';
import { HELP } from '../../forms/help';
import { ToolChecklist } from '../../forms/ToolChecklist';
import { mcpServers, withoutProvided } from '../../forms/mcpTools';
import { namesOf, toggled, toolChoices } from '../../forms/toolChoices';
import { useRegisteredTools } from '../../forms/useRegisteredTools';

/**
 * An agent's `tools` (absent: every registered tool) and `disallowedTools`, as checkboxes of the
 * server's tools. Names in the document that the server lacks stay listed, flagged. The user's MCP
 * tools are listed apart, and the validator's `unknown_tool` is not shown for them (it knows built-ins only).
 */
export function AgentToolsFields({
  agent,
  set,
  problems,
}: {
  agent: JsonObject;
  set: (field: string) => (v: Json | undefined) => void;
  problems: (field: string) => Diag[];
}) {
  const { tools: registered, error } = useRegisteredTools();
  const all = agent.tools === undefined;
  // The run gives send_message (and shared memory's pair when on) by itself: leaving "all" does not list them,
  // which would turn shared memory on for this agent without anyone asking.
  const allNames = (registered ?? []).filter((t) => !t.automatic).map((t) => t.name);
  // "All tools" shows every registered tool checked; unchecking one turns it into a list of the others.
  const listed = all ? (registered ?? []).map((t) => t.name) : namesOf(agent.tools);
  const denied = namesOf(agent.disallowedTools);
  const servers = mcpServers(registered);
  return (
    <>
      <Field field="tools" label="Tools" help={HELP['agent.tools']} problems={withoutProvided(problems('tools'), agent.tools, registered)}>
        {error && <div className="field-problem warning">Could not load this server’s tools: {error}</div>}
        <label className="check tool-all">
          {/* Leaving "all" makes a list of the registered tools: not before they are known. */}
          <input id="f-tools" type="checkbox" checked={all} disabled={all && !registered} onChange={(e) => set('tools')(e.target.checked ? undefined : allNames)} data-testid="agent-tools-all" />
          All tools (no list)
        </label>
        <ToolChecklist
          choices={toolChoices(registered, listed)}
          onToggle={(name, on) => set('tools')(toggled(listed, name, on))}
          testIdPrefix="agent-tool"
          servers={servers}
          label="Tools this agent may call"
        />
      </Field>
      <Field field="disallowedTools" label="Disallowed tools" help={HELP['agent.disallowedTools']} problems={problems('disallowedTools')}>
        <ToolChecklist
          choices={toolChoices(registered, denied)}
          onToggle={(name, on) => {
            const next = toggled(denied, name, on);
            set('disallowedTools')(next.length ? next : undefined);
          }}
          testIdPrefix="agent-disallowed"
          servers={servers}
          label="Tools taken from this agent"
        />
      </Field>
    </>
  );
}
