// The workspace's run limits: four numbers, blank for none; with what is used today.
import { useEffect, useId, useState } from 'react';
import { api } from '../../api/client';
import type { WorkspaceUsage } from '../../api/types';
import { capabilities } from '../../workspaces/roles';
import { LIMIT_FIELDS, limitsText, parseLimits, type LimitKey, type LimitsText } from '../../workspaces/settingsForms';
import { usageLine } from '../../workspaces/usage';
import { useAction, type SectionProps } from './common';
import { FormError, SavedNote, SettingsSection } from './SettingsSection';

export function LimitsSection({ detail, onDetail }: SectionProps) {
  const caps = capabilities(detail.role);
  const [text, setText] = useState<LimitsText>(() => limitsText(detail.limits));
  const [badField, setBadField] = useState<LimitKey | null>(null);
  const [saved, setSaved] = useState(false);
  const [usage, setUsage] = useState<WorkspaceUsage | null>(null);
  const action = useAction();
  const errorId = useId();
  const workspaceId = detail.id;

  useEffect(() => {
    let live = true;
    api.usage(workspaceId).then(
      (u) => live && setUsage(u),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [workspaceId, detail.limits]);

  const submit = () => {
    setSaved(false);
    const parsed = parseLimits(text);
    if ('error' in parsed) {
      setBadField(parsed.field);
      action.setError(parsed.error);
      return;
    }
    setBadField(null);
    void action.run(async () => {
      const d = await api.setLimits(workspaceId, parsed.limits);
      onDetail(d);
      setText(limitsText(d.limits));
      setSaved(true);
    });
  };

  const line = usage ? usageLine(usage) : null;

  return (
    <SettingsSection
      title="Limits"
      testId="ws-limits-section"
      intro="A run that would go past a limit is refused until it frees up; the daily ones reset at midnight UTC. Leave a field blank for no limit."
    >
      <form
        className="ws-form ws-limits"
        data-testid="ws-limits-form"
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        {LIMIT_FIELDS.map((f) => (
          <label key={f.key} className="mini-field" title={f.help}>
            <span className="field-label">{f.label}</span>
            <input
              className={`input${badField === f.key ? ' input-bad' : ''}`}
              inputMode={f.integer ? 'numeric' : 'decimal'}
              value={text[f.key]}
              placeholder="no limit"
              readOnly={!caps.manage}
              aria-invalid={badField === f.key}
              aria-describedby={action.error ? errorId : undefined}
              onChange={(e) => setText({ ...text, [f.key]: e.target.value })}
              data-testid={`ws-limit-${f.key}`}
            />
          </label>
        ))}
        {caps.manage && (
          <button type="submit" className="btn primary" disabled={action.busy} data-testid="ws-limits-save">
            {action.busy ? 'Saving…' : 'Save limits'}
          </button>
        )}
      </form>
      {!caps.manage && <p className="muted small">Only admins and owners change the limits.</p>}
      <FormError error={action.error} id={errorId} testId="ws-limits-error" />
      <SavedNote text={saved && !action.error ? 'Limits saved.' : null} />
      {line && (
        <p className="muted small" data-testid="ws-usage">
          {line.replace(/^This workspace: /, 'Used now and today: ')}
        </p>
      )}
    </SettingsSection>
  );
}
