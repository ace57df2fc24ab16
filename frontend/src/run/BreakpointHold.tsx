// A run held at a breakpoint, at the top of the run page: where it holds, what its next agent turn will receive
// (the prompt as assembled, the previous round's output, the item, the context files, the tools, the CEL scope),
// edits of those inputs for this run only, and Continue, Step and Skip. Whoever may control the run (a runner or more) acts;
// a viewer reads why not. The hold is asked of the server while the run is paused (GET /runs/{id}/debug).
import { useEffect, useId, useState } from 'react';
import { api } from '../api/client';
import type { DebugIn, DebugOut } from '../api/openapi.gen';
import { useEditor } from '../store/context';
import { useWorkspace } from '../workspaces/current';
import { cannotRunReason } from '../workspaces/roles';
import { HoldContextFiles, contextFilesOf } from './debug/HoldContextFiles';
import { formatIterationId, iterationName, type IterationKind } from './labels';
import { useShownStatus } from './useShownStatus';

const POLL_MS = 750;

type Hold = NonNullable<DebugOut['hold']>;

function text(value: unknown): string {
  if (value === null || value === undefined) return '';
  return typeof value === 'string' ? value : JSON.stringify(value, null, 2);
}

/** "round 3 of write (write.2)": 1-based words, the format's 0-based id beside (docs/format.md "Numbering"). */
function placeWords(where: Record<string, unknown> | undefined, kind: IterationKind): string {
  const loop = text(where?.loop);
  const n = typeof where?.round === 'number' ? where.round : null;
  return n === null ? `a ${kind} of ${loop}` : `${iterationName(kind, n)} of ${loop} (${formatIterationId(loop, n, kind)})`;
}

/** Where a hold is, in words. */
export function holdWords(where: Record<string, unknown> | undefined): string {
  const kind = where?.kind;
  if (kind === 'round') return `before ${placeWords(where, where?.item ? 'item' : 'round')}`;
  if (kind === 'judge') return `after the judge of ${placeWords(where, 'round')}`;
  if (kind === 'tool') return `before the ${text(where?.tool)} call of ${text(where?.step)}`;
  return `before step ${text(where?.step)}`;
}

function useHold(runId: string, paused: boolean): [DebugOut | null, () => void] {
  const [hold, setHold] = useState<DebugOut | null>(null);
  const [tick, setTick] = useState(0);
  useEffect(() => {
    if (!paused) return;
    const ctrl = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const ask = async () => {
      try {
        setHold(await api.runHold(runId, ctrl.signal));
      } catch {
        // a refused or aborted read: asked again at the next poll
      }
      if (!ctrl.signal.aborted) timer = setTimeout(() => void ask(), POLL_MS);
    };
    void ask();
    return () => {
      ctrl.abort();
      if (timer) clearTimeout(timer);
    };
  }, [runId, paused, tick]);
  return [paused ? hold : null, () => setTick((t) => t + 1)];
}

export function BreakpointHold({ runId }: { runId: string }) {
  const { status } = useShownStatus();
  const [answer, refresh] = useHold(runId, status === 'paused');
  const workspaceId = useEditor((s) => s.run?.workspace_id);
  const workspace = useWorkspace(workspaceId);
  const denied = cannotRunReason(workspace?.role, workspace?.name);
  const hold = answer?.holding ? answer.hold : null;
  if (!hold) return null;
  return <HoldPanel key={String(hold.key)} runId={runId} hold={hold} denied={denied} onSent={refresh} />;
}

function HoldPanel({ runId, hold, denied, onSent }: { runId: string; hold: Hold; denied: string | null; onSent(): void }) {
  const headingId = useId();
  const previousId = useId();
  const instructionsId = useId();
  const inputs = (hold.inputs ?? {}) as Record<string, unknown>;
  const editable = (hold.editable ?? []) as string[];
  const where = hold.where as Record<string, unknown> | undefined;
  const breakpoint = hold.breakpoint as Record<string, unknown> | undefined;
  const prompt = inputs.prompt as { system?: string; user?: string } | undefined;
  const [previous, setPrevious] = useState(text(inputs.previous_output));
  const [instructions, setInstructions] = useState(text(inputs.instructions));
  const [skipping, setSkipping] = useState(false);
  const [output, setOutput] = useState('');
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const send = async (body: DebugIn, done: string) => {
    setBusy(true);
    setError(null);
    try {
      await api.debugRun(runId, { ...body, key: String(hold.key) });
      setSent(done);
      onSent();
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };
  const off = busy || !!denied;
  const stepId = (breakpoint?.id as string) === 'step' ? 'a step' : `breakpoint ${text(breakpoint?.id)}`;

  return (
    <section className="approvals breakpoint-hold" aria-labelledby={headingId} data-testid="breakpoint-hold" data-key={String(hold.key)}>
      <h3 id={headingId}>
        Held at {stepId} <span className="muted small">{holdWords(where)}</span>
      </h3>
      {denied && <p className="muted small">{denied}</p>}
      {'previous_output' in inputs && (
        <div className="field">
          <label htmlFor={previousId}>Previous round's output{editable.includes('previous_output') ? ' (edit it for this run only)' : ''}</label>
          <textarea id={previousId} rows={4} value={previous} readOnly={!editable.includes('previous_output')} onChange={(e) => setPrevious(e.target.value)} data-testid="hold-previous" />
          {editable.includes('previous_output') && (
            <button className="btn small" disabled={off || previous === text(inputs.previous_output)} onClick={() => void send({ action: 'edit', field: 'previous_output', value: previous }, 'Edit sent')} data-testid="hold-save-previous">
              Use this output
            </button>
          )}
        </div>
      )}
      {editable.includes('instructions') && (
        <div className="field">
          <label htmlFor={instructionsId}>Instructions of the pending step (this execution only)</label>
          <textarea id={instructionsId} rows={3} value={instructions} onChange={(e) => setInstructions(e.target.value)} data-testid="hold-instructions" />
          <button className="btn small" disabled={off || instructions === text(inputs.instructions)} onClick={() => void send({ action: 'edit', field: 'instructions', value: instructions }, 'Edit sent')} data-testid="hold-save-instructions">
            Use these instructions
          </button>
        </div>
      )}
      {'item' in inputs && (
        <div className="field">
          <span>Item</span>
          <pre className="mono small" data-testid="hold-item">{text(inputs.item)}</pre>
        </div>
      )}
      <HoldContextFiles files={contextFilesOf(inputs)} editable={editable.includes('context_file')} off={off} send={(body, done) => void send(body, done)} />
      {prompt && (
        <details open>
          <summary>The prompt the next turn will be sent</summary>
          <pre className="mono small hold-prompt" data-testid="hold-prompt">{prompt.user ?? ''}</pre>
          {prompt.system && <pre className="mono small muted">{prompt.system}</pre>}
        </details>
      )}
      {Array.isArray(inputs.tools) && <p className="small">Tools offered: {(inputs.tools as string[]).join(', ') || 'none'}</p>}
      {'arguments' in inputs && <pre className="mono small">{text(inputs.arguments)}</pre>}
      {'verdict' in inputs && <pre className="mono small">{text(inputs.verdict)}</pre>}
      {'scope' in inputs && (
        <details>
          <summary>CEL scope</summary>
          <pre className="mono small">{text(inputs.scope)}</pre>
        </details>
      )}
      <div className="approval-head">
        <button className="btn small primary" disabled={off} title={denied ?? undefined} onClick={() => void send({ action: 'continue' }, 'Going on…')} data-testid="hold-continue">
          Continue
        </button>
        <button className="btn small" disabled={off} title={denied ?? undefined} onClick={() => void send({ action: 'step' }, 'Stepping to the next boundary…')} data-testid="hold-step">
          Step
        </button>
        {hold.skippable === true && (
          <button className="btn small" disabled={off} aria-expanded={skipping} onClick={() => setSkipping(!skipping)} data-testid="hold-skip">
            Skip this step…
          </button>
        )}
        {sent && (
          <span className="muted small" role="status">
            {sent}
          </span>
        )}
      </div>
      {skipping && (
        <form
          className="approval-deny"
          onSubmit={(e) => {
            e.preventDefault();
            void send({ action: 'skip', output }, 'Skipped');
          }}
        >
          <label className="field">
            <span>The output it ends with instead</span>
            <textarea rows={3} value={output} onChange={(e) => setOutput(e.target.value)} data-testid="hold-skip-output" />
          </label>
          <button className="btn small danger" type="submit" disabled={off}>
            Skip with this output
          </button>
        </form>
      )}
      {error && (
        <p className="error small" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
