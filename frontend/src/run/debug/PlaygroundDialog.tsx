// "Try this step alone": a step execution of a finished run with its real inputs (the prompt as it was assembled,
// its tools, its model), tried again with edits as often as wanted, each try beside the original; "Apply" saves the
// changed instructions, model or temperature as a new version of the workflow. The run itself is never touched.
import { useEffect, useState } from 'react';
import { createPortal } from 'react-dom';
import { api, errorText, type PlaygroundEdits } from '../../api/client';
import type { PlaygroundInputs, PlaygroundTry } from '../../api/types';
import { Modal } from '../../components/Modal';
import { useEditor } from '../../store/context';
import { useWorkspace } from '../../workspaces/current';
import { cannotEditReason, cannotRunReason } from '../../workspaces/roles';
import { Pre } from '../Pre';
import { isTerminal } from '../socket';
import './debug.css';

export function PlaygroundButton({ stepId }: { stepId: string }) {
  const run = useEditor((s) => s.run);
  const workspace = useWorkspace(run?.workspace_id);
  const [open, setOpen] = useState(false);
  if (!run || !isTerminal(run.status)) return null;
  const denied = cannotRunReason(workspace?.role, workspace?.name);
  return (
    <>
      <button
        type="button"
        className="btn ghost small nodrag"
        disabled={!!denied}
        title={denied ?? 'Run only this agent turn again, with changed instructions, model or temperature'}
        data-testid={`playground-${stepId}`}
        onClick={(e) => {
          e.stopPropagation();
          setOpen(true);
        }}
      >
        Try alone
      </button>
      {open &&
        createPortal(
          <PlaygroundDialog runId={run.id} stepId={stepId} editDenied={cannotEditReason(workspace?.role, workspace?.name)} onClose={() => setOpen(false)} />,
          document.body,
        )}
    </>
  );
}

/** Only what differs from the recorded inputs is sent; an empty temperature keeps the agent's. */
export function playgroundEdits(inputs: PlaygroundInputs, form: { instructions: string; model: string; temperature: string; system: string; user: string }): PlaygroundEdits {
  const edits: PlaygroundEdits = {};
  if (inputs.instructions !== null && form.instructions !== inputs.instructions) edits.instructions = form.instructions;
  if (form.model.trim() && form.model.trim() !== inputs.model) edits.model = form.model.trim();
  const recorded = inputs.temperature === null || inputs.temperature === undefined ? '' : String(inputs.temperature);
  if (form.temperature.trim() !== '' && form.temperature.trim() !== recorded) edits.temperature = Number(form.temperature);
  if (form.system !== inputs.system) edits.system = form.system;
  if (form.user !== inputs.user) edits.user = form.user;
  return edits;
}

function PlaygroundDialog({ runId, stepId, editDenied, onClose }: { runId: string; stepId: string; editDenied: string | null; onClose: () => void }) {
  const [inputs, setInputs] = useState<PlaygroundInputs | null>(null);
  const [form, setForm] = useState({ instructions: '', model: '', temperature: '', system: '', user: '' });
  const [tries, setTries] = useState<PlaygroundTry[]>([]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [applied, setApplied] = useState<string | null>(null);
  useEffect(() => {
    api.playgroundInputs(runId, stepId).then(
      (found) => {
        setInputs(found);
        setForm({
          instructions: found.instructions ?? '',
          model: found.model,
          temperature: found.temperature === null || found.temperature === undefined ? '' : String(found.temperature),
          system: found.system,
          user: found.user,
        });
      },
      (e: unknown) => setError(errorText(e)),
    );
  }, [runId, stepId]);
  const title = `Try ${stepId} alone`;
  const edits = inputs ? playgroundEdits(inputs, form) : {};
  const tryIt = async () => {
    setBusy(true);
    setError(null);
    try {
      const answer = await api.playgroundTry(runId, stepId, edits);
      setTries([answer, ...tries]);
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };
  const apply = async () => {
    setError(null);
    try {
      const { instructions, model, temperature } = edits;
      const saved = await api.playgroundApply(runId, stepId, { instructions, model, temperature });
      setApplied(`Saved as version ${saved.version} (${saved.applied.join(', ')}).`);
    } catch (e) {
      setError(errorText(e));
    }
  };
  const latest = tries[0];
  const canApply = edits.instructions !== undefined || edits.model !== undefined || edits.temperature !== undefined;
  return (
    <Modal onClose={onClose} label={title}>
      <form
        className="modal modal-wide playground"
        data-testid="playground-dialog"
        onSubmit={(e) => {
          e.preventDefault();
          void tryIt();
        }}
      >
        <h2>{title}</h2>
        {inputs && (
          <p className="muted small">
            {inputs.kind === 'judge' ? 'A judge call' : 'A step execution'} of agent <code>{inputs.agent}</code>, model <code>{inputs.model || inputs.provider}</code>
            {inputs.tools.length > 0 && <> · tools {inputs.tools.join(', ')}</>}. The run is not changed; each try calls the model once more.
          </p>
        )}
        {inputs && inputs.instructions !== null && (
          <label className="pg-field">
            <span className="field-label">Instructions</span>
            <textarea rows={3} value={form.instructions} data-autofocus data-testid="playground-instructions" onChange={(e) => setForm({ ...form, instructions: e.target.value })} />
          </label>
        )}
        {inputs && (
          <div className="pg-row">
            <label>
              <span className="field-label">Model</span>
              <input type="text" value={form.model} data-testid="playground-model" onChange={(e) => setForm({ ...form, model: e.target.value })} />
            </label>
            <label>
              <span className="field-label">Temperature (empty: the agent’s)</span>
              <input type="text" inputMode="decimal" value={form.temperature} data-testid="playground-temperature" onChange={(e) => setForm({ ...form, temperature: e.target.value })} />
            </label>
          </div>
        )}
        {inputs && (
          <details>
            <summary>The whole prompt, as assembled (edit to try it; not saved by Apply)</summary>
            <label className="pg-field">
              <span className="field-label">System</span>
              <textarea rows={4} className="mono" value={form.system} data-testid="playground-system" onChange={(e) => setForm({ ...form, system: e.target.value })} />
            </label>
            <label className="pg-field">
              <span className="field-label">User</span>
              <textarea rows={8} className="mono" value={form.user} data-testid="playground-user" onChange={(e) => setForm({ ...form, user: e.target.value })} />
            </label>
          </details>
        )}
        {inputs && (
          <div className="pg-sides">
            <div>
              <h4 className="side-title">Original</h4>
              <div className="muted small">
                {inputs.original.status} · {inputs.original.tokens} tokens{inputs.original.pinned ? ' · pinned' : ''}
              </div>
              <Pre text={inputs.original.content ?? ''} testId="playground-original" empty="It gave nothing." />
              {inputs.original.result !== null && inputs.original.result !== undefined && <Pre text={JSON.stringify(inputs.original.result, null, 2)} />}
            </div>
            <div>
              <h4 className="side-title">{latest ? `Try ${tries.length}` : 'No try yet'}</h4>
              {latest && (
                <>
                  <div className="muted small">
                    {latest.status} · {latest.tokens} tokens · model {latest.model}
                    {latest.temperature !== null && latest.temperature !== undefined ? ` · temperature ${latest.temperature}` : ''}
                  </div>
                  {latest.error && <div className="field-problem error">{latest.error}</div>}
                  <Pre text={latest.content} testId="playground-result" empty="It gave nothing." />
                  {latest.result !== null && latest.result !== undefined && <Pre text={JSON.stringify(latest.result, null, 2)} />}
                  {latest.notes.map((n) => (
                    <div key={n} className="muted small">
                      {n}
                    </div>
                  ))}
                </>
              )}
            </div>
          </div>
        )}
        {applied && (
          <p className="muted small" data-testid="playground-applied">
            {applied}
          </p>
        )}
        {error && (
          <p role="alert" className="field-problem error" data-testid="playground-error">
            {error}
          </p>
        )}
        <div className="modal-actions">
          <button type="button" className="btn" onClick={onClose}>
            Close
          </button>
          <button
            type="button"
            className="btn"
            disabled={!canApply || !!editDenied}
            title={editDenied ?? 'Save the changed instructions, model or temperature as a new version of the workflow'}
            data-testid="playground-apply"
            onClick={() => void apply()}
          >
            Apply to the workflow
          </button>
          <button type="submit" className="btn primary" disabled={busy || !inputs} data-testid="playground-try">
            {busy ? 'Running…' : 'Run this step'}
          </button>
        </div>
      </form>
    </Modal>
  );
}
