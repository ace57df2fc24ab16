// A workspace's settings (/workspaces/:id): its name, members and roles, invitations, provider keys,
// the server's keys, limits, where its traces go and the audit log. Everyone in it may look; admins and owners change things.
import { useCallback, useEffect, useState } from 'react';
import { api, errorText } from '../api/client';
import type { WorkspaceDetail } from '../api/types';
import { Banner } from '../components/Banner';
import { Link } from '../components/Link';
import { followWorkspace, useWorkspaces, workspacesStore } from '../workspaces/current';
import { capabilities, ROLE_WORDS, isRole } from '../workspaces/roles';
import { AuditSection } from './workspace/AuditSection';
import { InvitationsSection } from './workspace/InvitationsSection';
import { KeysSection } from './workspace/KeysSection';
import { LimitsSection } from './workspace/LimitsSection';
import { MembersSection } from './workspace/MembersSection';
import { NameSection } from './workspace/NameSection';
import { TracingSection } from './workspace/TracingSection';

export function WorkspaceSettings({ workspaceId }: { workspaceId: number | null }) {
  const status = useWorkspaces((s) => s.status);
  const current = useWorkspaces((s) => s.current);
  const me = useWorkspaces((s) => s.username);
  // `/workspaces` alone: the current workspace's settings.
  const id = workspaceId ?? (status === 'ready' ? current : null);
  const [loaded, setLoaded] = useState<WorkspaceDetail | null>(null);
  const [error, setError] = useState<string | null>(null);
  const detail = loaded && loaded.id === id ? loaded : null;

  useEffect(() => {
    if (!id) return;
    let live = true;
    followWorkspace(id);
    api.workspace(id).then(
      (d) => live && setLoaded(d),
      (e) => live && setError(errorText(e)),
    );
    return () => {
      live = false;
    };
  }, [id]);

  const onDetail = useCallback((d: WorkspaceDetail) => {
    setLoaded(d);
    // The switcher shows the name and the role: keep them in step.
    workspacesStore.getState().upsert({ id: d.id, name: d.name, role: d.role, personal: d.personal });
  }, []);

  if (status === 'failed' && !workspaceId) {
    return (
      <div className="page-message">
        <h2>No workspaces here</h2>
        <p className="muted">This server does not have workspaces.</p>
      </div>
    );
  }
  if (error && !detail) {
    return (
      <div className="page-message" data-testid="ws-settings-error">
        <h2>Could not open this workspace</h2>
        <p className="muted">{error}</p>
        <Link to="/" className="btn">
          Go to your workflows
        </Link>
      </div>
    );
  }
  if (!detail) {
    return (
      <div className="page">
        <p className="muted">Loading…</p>
      </div>
    );
  }

  const caps = capabilities(detail.role);
  const props = { detail, me, onDetail };
  return (
    <div className="page ws-settings" data-testid="ws-settings" data-workspace-id={detail.id}>
      <div className="page-head">
        <div>
          <h1 data-testid="ws-settings-name">{detail.name}</h1>
          <p className="muted">
            {detail.personal ? 'Your personal workspace. ' : 'A team workspace. '}
            Your role: <strong data-testid="ws-my-role">{detail.role}</strong>
            {isRole(detail.role) ? ` (${ROLE_WORDS[detail.role]})` : ''}.
          </p>
        </div>
        <div className="row">
          <Link to="/" className="btn ghost">
            Its workflows
          </Link>
          <Link to="/runs" className="btn ghost">
            Its runs
          </Link>
        </div>
      </div>
      {caps.manage && <NameSection detail={detail} onDetail={onDetail} />}
      <MembersSection {...props} />
      {caps.manage && !detail.personal && <InvitationsSection {...props} />}
      <KeysSection {...props} />
      <LimitsSection {...props} />
      <TracingSection {...props} />
      {caps.manage ? (
        <AuditSection {...props} />
      ) : (
        <Banner kind="info">The audit log of this workspace is for its admins and owners.</Banner>
      )}
    </div>
  );
}
