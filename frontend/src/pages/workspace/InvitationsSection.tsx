// Invitations: a single-use link that lets one person join with a role. The link is shown once, when
// made (the server keeps only its digest); pending ones can be revoked.
import { useCallback, useId, useRef, useState } from 'react';
import { api } from '../../api/client';
import type { Invitation, NewInvitation, Role } from '../../api/types';
import { when } from '../../format/dates';
import { invitableRoles, isRole, ROLE_WORDS } from '../../workspaces/roles';
import { useAction, useServerList, type SectionProps } from './common';
import { FormError, SettingsSection } from './SettingsSection';

const MAX_DAYS = 30;

export function InvitationsSection({ detail }: SectionProps) {
  const roles = invitableRoles(isRole(detail.role) ? detail.role : null);
  const [role, setRole] = useState<Role>('editor');
  const [email, setEmail] = useState('');
  const [days, setDays] = useState('7');
  const [made, setMade] = useState<NewInvitation | null>(null);
  const [copied, setCopied] = useState<string | null>(null);
  const create = useAction();
  const revoke = useAction();
  const linkRef = useRef<HTMLInputElement>(null);
  const errorId = useId();
  const workspaceId = detail.id;

  const { items: pending, error: listError, load } = useServerList<Invitation>(
    useCallback(() => api.invitations(workspaceId), [workspaceId]),
  );

  const submit = () => {
    const n = Number(days.trim() || '7');
    if (!Number.isFinite(n) || n <= 0 || n > MAX_DAYS) {
      create.setError(`Valid for: type a number of days from 1 to ${MAX_DAYS}.`);
      return;
    }
    setMade(null);
    setCopied(null);
    void create.run(async () => {
      const answer = await api.invite(workspaceId, { role, days: n, ...(email.trim() ? { email: email.trim() } : {}) });
      setMade(answer);
      setEmail('');
      load();
    });
  };

  const copy = async () => {
    if (!made) return;
    try {
      await navigator.clipboard.writeText(made.url);
      setCopied('Copied to the clipboard.');
    } catch {
      // No clipboard (an insecure page, or refused): select the text so Ctrl+C copies it.
      linkRef.current?.select();
      setCopied('Selected: press Ctrl+C (⌘C) to copy it.');
    }
  };

  return (
    <SettingsSection
      title="Invitations"
      testId="ws-invitations-section"
      intro="An invitation is a link that one person opens to join this workspace with the role you choose (they sign up or sign in first). It is shown once: copy it and send it to them."
    >
      <form
        className="ws-form ws-invite-form"
        data-testid="ws-invite-form"
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <label className="mini-field">
          <span className="field-label">Role</span>
          <select className="input" value={role} onChange={(e) => isRole(e.target.value) && setRole(e.target.value)} data-testid="ws-invite-role">
            {roles.map((r) => (
              <option key={r} value={r}>
                {r} — {ROLE_WORDS[r]}
              </option>
            ))}
          </select>
        </label>
        <label className="mini-field">
          <span className="field-label">Email (optional)</span>
          <input
            className="input"
            type="email"
            value={email}
            maxLength={254}
            placeholder="only this address may use it"
            onChange={(e) => setEmail(e.target.value)}
            aria-describedby={create.error ? errorId : undefined}
            data-testid="ws-invite-email"
          />
        </label>
        <label className="mini-field ws-days">
          <span className="field-label">Valid for (days)</span>
          <input
            className="input"
            inputMode="numeric"
            value={days}
            onChange={(e) => setDays(e.target.value)}
            aria-describedby={create.error ? errorId : undefined}
            data-testid="ws-invite-days"
          />
        </label>
        <button type="submit" className="btn primary" disabled={create.busy} data-testid="ws-invite-create">
          {create.busy ? 'Creating…' : 'Create invitation link'}
        </button>
      </form>
      <FormError error={create.error} id={errorId} testId="ws-invite-error" />
      {made && (
        <div className="ws-invite-made" role="status" data-testid="ws-invite-made">
          <p>
            <strong>Invitation link for a new {made.role}</strong>
            {made.email ? ` (${made.email})` : ''}, valid until {when(made.expires_at)}. It is shown only now: copy it and send it.
          </p>
          <div className="ws-copy-row">
            <label className="sr-only" htmlFor={`${errorId}-link`}>
              Invitation link
            </label>
            <input
              id={`${errorId}-link`}
              ref={linkRef}
              className="input mono"
              readOnly
              value={made.url}
              onFocus={(e) => e.currentTarget.select()}
              data-testid="ws-invite-link"
            />
            <button type="button" className="btn" onClick={() => void copy()} data-testid="ws-invite-copy">
              Copy
            </button>
          </div>
          {copied && <p className="muted small">{copied}</p>}
        </div>
      )}
      <h3 className="ws-subhead">Pending invitations</h3>
      <FormError error={listError} />
      {pending && pending.length === 0 && <p className="muted small">No pending invitations.</p>}
      {pending && pending.length > 0 && (
        <table className="table compact" data-testid="ws-invitations" aria-label="Pending invitations">
          <thead>
            <tr>
              <th>For</th>
              <th>Role</th>
              <th>Expires</th>
              <th>Made by</th>
              <th>
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {pending.map((inv) => (
              <tr key={inv.id} data-testid="ws-invitation-row" data-invitation-id={inv.id}>
                <td>{inv.email || <span className="muted">anyone with the link</span>}</td>
                <td>{inv.role}</td>
                <td className="nowrap">{when(inv.expires_at)}</td>
                <td>{inv.created_by}</td>
                <td className="actions">
                  <button
                    className="btn ghost small danger"
                    disabled={revoke.busy}
                    aria-label={`Revoke the invitation ${inv.email ? `for ${inv.email}` : `as ${inv.role}`}`}
                    onClick={() =>
                      void revoke.run(async () => {
                        await api.revokeInvitation(workspaceId, inv.id);
                        if (made?.id === inv.id) setMade(null);
                        load();
                      })
                    }
                    data-testid="ws-invitation-revoke"
                  >
                    Revoke
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <FormError error={revoke.error} testId="ws-invitations-error" />
    </SettingsSection>
  );
}
