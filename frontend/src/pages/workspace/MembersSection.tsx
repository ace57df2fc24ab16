// Who is in the workspace and with which role; admins and owners change roles and take people out.
import { api } from '../../api/client';
import type { Role, WorkspaceMember } from '../../api/types';
import { navigate } from '../../router';
import { refreshWorkspaces } from '../../workspaces/current';
import { assignableRoles, canRemove, capabilities, isRole, ROLE_WORDS } from '../../workspaces/roles';
import { useAction, type SectionProps } from './common';
import { FormError, SettingsSection } from './SettingsSection';

export function MembersSection({ detail, me, onDetail }: SectionProps) {
  const { busy, error, run } = useAction();
  const mine = isRole(detail.role) ? detail.role : null;
  const caps = capabilities(detail.role);
  const owners = detail.members.filter((m) => m.role === 'owner').length;

  const changeRole = (m: WorkspaceMember, role: Role) =>
    void run(async () => {
      onDetail(await api.setMemberRole(detail.id, m.user_id, role));
      if (m.username === me) refreshWorkspaces(); // one's own role changed what the app offers
    });

  const remove = (m: WorkspaceMember) => {
    const self = m.username === me;
    const question = self ? `Leave ${detail.name}? You lose access to its workflows and runs.` : `Remove ${m.username} from ${detail.name}?`;
    if (!window.confirm(question)) return;
    void run(async () => {
      await api.removeMember(detail.id, m.user_id);
      if (self) {
        refreshWorkspaces();
        void navigate('/', { force: true });
        return;
      }
      onDetail(await api.workspace(detail.id));
    });
  };

  return (
    <SettingsSection
      title="Members"
      testId="ws-members-section"
      intro={
        detail.personal
          ? 'A personal workspace is yours alone. To share workflows and runs, create a team workspace (in the workspace menu) and invite people to it.'
          : caps.manage
            ? 'Owners manage everyone; admins manage editors, runners and viewers. Editors design and run; runners run and watch; viewers watch, read and export.'
            : 'Ask an admin or an owner of this workspace to change roles.'
      }
    >
      <table className="table compact" data-testid="ws-members" aria-label="Members">
        <thead>
          <tr>
            <th>Member</th>
            <th>Role</th>
            <th>
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {detail.members.map((m) => {
            const self = m.username === me;
            const options = assignableRoles(mine, m.role, owners);
            const removable = canRemove(mine, m.role, { self, personal: detail.personal, owners });
            return (
              <tr key={m.user_id} data-testid="ws-member-row" data-username={m.username} data-role={m.role}>
                <td className="strong">
                  {m.username}
                  {self && <span className="muted small"> (you)</span>}
                </td>
                <td>
                  <select
                    className="input ws-role-select"
                    value={m.role}
                    disabled={busy || options.length <= 1}
                    aria-label={`Role of ${m.username}`}
                    title={options.length <= 1 ? (caps.manage ? 'Your role cannot change this member’s role' : 'Only admins and owners change roles') : undefined}
                    onChange={(e) => isRole(e.target.value) && changeRole(m, e.target.value)}
                    data-testid="ws-member-role"
                  >
                    {options.map((r) => (
                      <option key={r} value={r}>
                        {r} — {ROLE_WORDS[r]}
                      </option>
                    ))}
                  </select>
                </td>
                <td className="actions">
                  {removable && (
                    <button
                      className="btn ghost small danger"
                      disabled={busy}
                      onClick={() => remove(m)}
                      aria-label={self ? `Leave ${detail.name}` : `Remove ${m.username}`}
                      data-testid="ws-member-remove"
                    >
                      {self ? 'Leave' : 'Remove'}
                    </button>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <FormError error={error} testId="ws-members-error" />
    </SettingsSection>
  );
}
