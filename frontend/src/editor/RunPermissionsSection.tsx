// The run dialog's Permissions part (upstream's --allow, --deny, --strict, --sandbox, --yolo): one mode, and the
// tools allowed and denied, picked from the server's tools (GET /tools).
import { useId } from 'react';
import { mcpServers } from '../forms/mcpTools';
import { ToolChecklist } from '../forms/ToolChecklist';
import { toggled, toolChoices } from '../forms/toolChoices';
import { useRegisteredTools } from '../forms/useRegisteredTools';
import { MODE_HELP, PERMISSION_MODES, permissionsBlock, permissionsProblem, type RunPermissions } from '../run/permissions';

export function RunPermissionsSection({ value, onChange }: { value: RunPermissions; onChange: (next: RunPermissions) => void }) {
  const { tools, error } = useRegisteredTools();
  const name = useId();
  const problem = permissionsProblem(value);
  const servers = mcpServers(tools);
  return (
    <fieldset className="run-permissions" data-testid="run-permissions">
      <legend className="field-label">Permissions</legend>
      <div className="field" role="radiogroup" aria-label="Permission mode">
        <div className="checks">
          {PERMISSION_MODES.map((mode) => (
            <label key={mode} className="check" title={MODE_HELP[mode].help}>
              <input type="radio" name={name} checked={value.mode === mode} onChange={() => onChange({ ...value, mode })} data-testid={`perm-mode-${mode}`} />
              {MODE_HELP[mode].label}
            </label>
          ))}
        </div>
        <span className="field-help" data-testid="perm-mode-help">
          {MODE_HELP[value.mode].help}
        </span>
      </div>
      {error && <div className="field-problem warning">Could not load this server’s tools: {error}</div>}
      <div className="field">
        <span className="muted small">{value.mode === 'strict' ? 'Allow (the only tools that run)' : 'Allow (run without asking)'}</span>
        <ToolChecklist
          choices={toolChoices(tools, value.allow)}
          onToggle={(tool, on) => onChange({ ...value, allow: toggled(value.allow, tool, on) })}
          testIdPrefix="perm-allow"
          label="Allowed tools"
          servers={servers}
          disabled={value.mode === 'yolo'}
          compact
        />
      </div>
      <div className="field">
        <span className="muted small">Deny (never run, in every mode)</span>
        <ToolChecklist
          choices={toolChoices(tools, value.deny)}
          onToggle={(tool, on) => onChange({ ...value, deny: toggled(value.deny, tool, on) })}
          testIdPrefix="perm-deny"
          label="Denied tools"
          servers={servers}
          compact
        />
      </div>
      {problem && (
        <div className={`field-problem ${permissionsBlock(value) ? 'error' : 'warning'}`} role="status" data-testid="perm-problem">
          {problem}
        </div>
      )}
    </fieldset>
  );
}
