// The workspace's name (admins and owners rename it).
import { useId, useState } from 'react';
import { api } from '../../api/client';
import { useAction, type SectionProps } from './common';
import { FormError, SavedNote, SettingsSection } from './SettingsSection';

export function NameSection({ detail, onDetail }: Pick<SectionProps, 'detail' | 'onDetail'>) {
  const [name, setName] = useState(detail.name);
  const [saved, setSaved] = useState(false);
  const action = useAction();
  const id = useId();
  return (
    <SettingsSection title="Name" testId="ws-name-section">
      <form
        className="ws-form"
        onSubmit={(e) => {
          e.preventDefault();
          setSaved(false);
          if (!name.trim()) {
            action.setError('Name: it cannot be empty.');
            return;
          }
          void action.run(async () => {
            onDetail(await api.renameWorkspace(detail.id, name.trim()));
            setSaved(true);
          });
        }}
      >
        <label className="mini-field ws-grow">
          <span className="field-label">Workspace name</span>
          <input
            className="input"
            value={name}
            maxLength={100}
            onChange={(e) => setName(e.target.value)}
            aria-describedby={action.error ? `${id}-error` : undefined}
            data-testid="ws-name-input"
          />
        </label>
        <button type="submit" className="btn" disabled={action.busy || name.trim() === detail.name} data-testid="ws-rename">
          {action.busy ? 'Renaming…' : 'Rename'}
        </button>
      </form>
      <FormError error={action.error} id={`${id}-error`} testId="ws-name-error" />
      <SavedNote text={saved && !action.error ? 'Renamed.' : null} />
    </SettingsSection>
  );
}
