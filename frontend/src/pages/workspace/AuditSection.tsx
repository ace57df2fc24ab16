// What happened in the workspace, newest first (admins and owners).
import { useCallback, useEffect, useState } from 'react';
import { api, errorText } from '../../api/client';
import type { AuditEntry } from '../../api/types';
import { when } from '../../format/dates';
import { actionWords, detailWords } from '../../workspaces/settingsForms';
import type { SectionProps } from './common';
import { FormError, SettingsSection } from './SettingsSection';

export function AuditSection({ detail }: SectionProps) {
  const [entries, setEntries] = useState<AuditEntry[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const workspaceId = detail.id;

  const load = useCallback(() => {
    api.audit(workspaceId).then(
      (list) => {
        setEntries(list);
        setError(null);
      },
      (e) => setError(errorText(e)),
    );
  }, [workspaceId]);
  // Reloaded when the workspace changes (a role, a key, a limit ...): those are entries too.
  useEffect(load, [load, detail]);

  return (
    <SettingsSection title="Audit log" testId="ws-audit-section" intro="Who did what in this workspace, newest first.">
      <div className="row ws-audit-head">
        <button className="btn ghost small" onClick={load} data-testid="ws-audit-refresh">
          Refresh
        </button>
      </div>
      <FormError error={error} />
      {entries && entries.length === 0 && <p className="muted small">Nothing yet.</p>}
      {entries && entries.length > 0 && (
        <table className="table compact" data-testid="ws-audit" aria-label="Audit log">
          <thead>
            <tr>
              <th>When</th>
              <th>Who</th>
              <th>What</th>
              <th>Detail</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((e) => (
              <tr key={e.id} data-testid="ws-audit-row" data-action={e.action}>
                <td className="nowrap muted">
                  <time dateTime={e.at}>{when(e.at)}</time>
                </td>
                <td>{e.actor || <span className="muted">the server</span>}</td>
                <td>{actionWords(e.action)}</td>
                <td className="small ws-audit-detail">{detailWords(e.detail)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </SettingsSection>
  );
}
