// The calls that wait for a person ("ask before" tools), at the top of the run page: whoever may
// control the run (a runner or more, as the API checks) approves or denies; a viewer sees why not.
// A call leaves this list when the run says it was decided.
import { useId, useState } from 'react';
import { api } from '../api/client';
import type { ToolDecision } from '../api/types';
import { useEditor } from '../store/context';
import { plural } from './labels';
import { isTerminal } from './socket';
import { ToolArguments } from './ToolCallList';
import { decisionErrorText, type PendingApproval } from './toolCalls';
import { useShownStatus } from './useShownStatus';
import { useWorkspace } from '../workspaces/current';
import { cannotRunReason } from '../workspaces/roles';

export function PendingApprovals({ runId }: { runId: string }) {
  const pending = useEditor((s) => s.runState.tools.pending);
  const { status } = useShownStatus();
  const headingId = useId();
  const workspaceId = useEditor((s) => s.run?.workspace_id);
  const workspace = useWorkspace(workspaceId);
  const denied = cannotRunReason(workspace?.role, workspace?.name);
  if (!pending.length || isTerminal(status)) return null;
  return (
    <section className="approvals" aria-labelledby={headingId} data-testid="pending-approvals">
      <h3 id={headingId}>
        Waiting for you <span className="pill small">{plural(pending.length, 'call')}</span>
      </h3>
      <p className="muted small" data-testid="approvals-who">
        {denied ? `An agent asked to run these tools and waits for an answer. ${denied}` : 'An agent asked to run these tools and waits for an answer. Anyone who may control this run can answer.'}
      </p>
      <ul className="approval-list">
        {pending.map((p) => (
          <PendingCall key={p.callId} runId={runId} call={p} denied={denied} />
        ))}
      </ul>
    </section>
  );
}

function PendingCall({ runId, call, denied }: { runId: string; call: PendingApproval; denied: string | null }) {
  const [denying, setDenying] = useState(false);
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState<ToolDecision | null>(null);
  const [error, setError] = useState<string | null>(null);
  const reasonId = useId();

  const decide = async (verb: 'approve' | 'deny') => {
    setBusy(true);
    setError(null);
    try {
      const answer = verb === 'approve' ? await api.approveToolCall(runId, call.callId) : await api.denyToolCall(runId, call.callId, reason.trim());
      setSent(answer?.status ?? (verb === 'approve' ? 'approved' : 'denied'));
      setDenying(false);
    } catch (e) {
      setError(decisionErrorText(e, verb));
    } finally {
      setBusy(false);
    }
  };

  return (
    <li className="approval" data-testid="pending-approval" data-call-id={call.callId} data-tool={call.toolName}>
      <div className="approval-head">
        <span>
          <span className="mono">{call.agentId}</span> wants to run <strong className="mono">{call.toolName}</strong>
        </span>
        <span className="spacer" />
        {sent ? (
          <span className="muted small" role="status">
            {sent === 'approved' ? 'Approved' : 'Denied'}: waiting for the run to go on…
          </span>
        ) : (
          <>
            <button className="btn small primary" disabled={busy || !!denied} title={denied ?? undefined} onClick={() => void decide('approve')} data-testid="approve-call">
              Approve
            </button>
            <button className="btn small danger" disabled={busy || !!denied} title={denied ?? undefined} aria-expanded={denying} onClick={() => setDenying(!denying)} data-testid="deny-call">
              Deny…
            </button>
          </>
        )}
      </div>
      <ToolArguments input={call.input} />
      {denying && !sent && (
        <form
          className="approval-deny"
          onSubmit={(e) => {
            e.preventDefault();
            void decide('deny');
          }}
          onKeyDown={(e) => e.key === 'Escape' && setDenying(false)}
        >
          <label className="field-label" htmlFor={reasonId}>
            Reason (the model reads it)
          </label>
          <input
            id={reasonId}
            className="input"
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            placeholder="Why not, and what to do instead"
            autoFocus
            data-testid="deny-reason"
          />
          <div className="row">
            <button type="submit" className="btn small danger" disabled={busy} data-testid="deny-confirm">
              Deny the call
            </button>
            <button type="button" className="btn small ghost" onClick={() => setDenying(false)}>
              Cancel
            </button>
          </div>
        </form>
      )}
      {error && (
        <div className="field-problem error" role="alert" data-testid="approval-error">
          {error}
        </div>
      )}
    </li>
  );
}
