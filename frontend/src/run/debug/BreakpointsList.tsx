// The breakpoints in the run dialog: the workflow's (from the editor's store, the list the canvas's margin dots and
// the step inspector set), in words, with the switch that lets this run go past them (POST /runs
// `breakpoints_off`); and "Add a breakpoint for this run": breakpoints for this run only, checked by the server as
// they are added, sent in POST /runs' `breakpoints`, never saved with the workflow (marked "this run only").
import { useState } from 'react';
import { api, errorText } from '../../api/client';
import { breakpointWords, type Breakpoint } from '../../breakpoints/rules';
import { atWord, EMPTY_FORM, formBreakpoint, freeRunId, refusalWords, stepChoices, stepsFor, type RunBreakpointForm, type RunBreakpointKind } from '../../breakpoints/runOnly';
import type { WorkflowDoc } from '../../doc/types';
import { useEditor } from '../../store/context';
import './debug.css';

const KINDS: [RunBreakpointKind, string][] = [
  ['step', 'Before a step'],
  ['round', 'Before a round or item of a loop'],
  ['judge', 'When a judge has answered'],
  ['condition', 'When a condition holds (CEL)'],
  ['tool', 'Before a tool call'],
];

export function BreakpointsList({
  workflowId,
  doc,
  hold,
  onHold,
  added,
  onAdded,
}: {
  workflowId: number | null;
  /** The document the run starts from (the editor's, saved first when changed): the steps the form offers. */
  doc: WorkflowDoc;
  hold: boolean;
  onHold: (hold: boolean) => void;
  /** This run's own breakpoints, as the server checked them. */
  added: Breakpoint[];
  onAdded: (added: Breakpoint[]) => void;
}) {
  const saved = useEditor((s) => s.breakpoints) ?? [];
  if (workflowId === null) return null;
  return (
    <div className="field" data-testid="run-breakpoints">
      <span className="field-label">Breakpoints</span>
      {saved.length > 0 && (
        <span className="check">
          <input type="checkbox" checked={hold} onChange={(e) => onHold(e.target.checked)} data-testid="run-hold-at-breakpoints" />
          Pause at {saved.length === 1 ? 'this breakpoint' : `these ${saved.length} breakpoints`} of the workflow (set on the canvas or in the step inspector)
        </span>
      )}
      {(saved.length > 0 || added.length > 0) && (
        <ul className="pins-list">
          {saved.map((bp) => (
            <li key={bp.id} data-testid="run-breakpoint">
              {breakpointWords(bp)}
            </li>
          ))}
          {added.map((bp) => (
            <li key={bp.id} data-testid="run-breakpoint-added">
              <span className="pin-text" title={breakpointWords(bp)}>
                {breakpointWords(bp)}
              </span>
              <span className="pin-mark" data-testid="run-breakpoint-run-only">
                this run only
              </span>
              <button
                type="button"
                className="btn ghost small"
                aria-label={`Remove the breakpoint ${breakpointWords(bp)}`}
                onClick={() => onAdded(added.filter((b) => b.id !== bp.id))}
                data-testid="run-breakpoint-remove"
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      <AddRunBreakpoint workflowId={workflowId} doc={doc} taken={[...saved, ...added].map((b) => b.id)} onAdd={(bp) => onAdded([...added, bp])} />
    </div>
  );
}

function AddRunBreakpoint({ workflowId, doc, taken, onAdd }: { workflowId: number; doc: WorkflowDoc; taken: string[]; onAdd: (bp: Breakpoint) => void }) {
  const [form, setForm] = useState<RunBreakpointForm>(EMPTY_FORM);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const choices = stepChoices(doc);
  const kinds = KINDS.filter(([kind]) => kind === 'condition' || kind === 'tool' || stepsFor(kind, choices).length > 0);
  const steps = stepsFor(form.kind, choices);
  const word = atWord(form, choices);
  const change = (patch: Partial<RunBreakpointForm>) => {
    setError(null);
    setForm({ ...form, ...patch });
  };

  const add = async () => {
    const made = formBreakpoint(form, choices, freeRunId(taken));
    if ('error' in made) return setError(made.error);
    setBusy(true);
    setError(null);
    try {
      const [checked] = (await api.checkBreakpoints(workflowId, [made.breakpoint], doc)).breakpoints as Breakpoint[];
      onAdd(checked);
      setForm({ ...EMPTY_FORM, kind: form.kind, step: form.step });
    } catch (e) {
      setError(refusalWords(errorText(e)));
    } finally {
      setBusy(false);
    }
  };

  return (
    <details className="run-advanced" data-testid="run-breakpoint-add">
      <summary>Add a breakpoint for this run</summary>
      <div className="grid2">
        <label className="mini-field">
          <span className="muted small">Holds</span>
          <select className="input" value={form.kind} onChange={(e) => change({ kind: e.target.value as RunBreakpointKind, step: '', at: '' })} data-testid="run-breakpoint-kind">
            {kinds.map(([kind, label]) => (
              <option key={kind} value={kind}>
                {label}
              </option>
            ))}
          </select>
        </label>
        {steps.length > 0 && (
          <label className="mini-field">
            <span className="muted small">{form.kind === 'step' ? 'Step' : 'Loop'}</span>
            <select className="input" value={form.step} onChange={(e) => change({ step: e.target.value, at: '' })} data-testid="run-breakpoint-step">
              <option value="">Choose…</option>
              {steps.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.id}
                </option>
              ))}
            </select>
          </label>
        )}
        {word && (
          <label className="mini-field">
            <span className="muted small">Only {word} (1 is the first; empty: every one)</span>
            <input className="input" type="number" min={1} value={form.at} onChange={(e) => change({ at: e.target.value })} data-testid="run-breakpoint-at" />
          </label>
        )}
        {form.kind === 'judge' && (
          <label className="mini-field">
            <span className="muted small">When the judge says</span>
            <select className="input" value={form.done} onChange={(e) => change({ done: e.target.value as RunBreakpointForm['done'] })} data-testid="run-breakpoint-done">
              <option value="either">done or not done</option>
              <option value="done">done</option>
              <option value="not-done">not done</option>
            </select>
          </label>
        )}
        {form.kind === 'condition' && (
          <label className="mini-field">
            <span className="muted small">Condition (CEL over the run’s state)</span>
            <input
              className="input mono"
              value={form.condition}
              placeholder="steps.review.content.contains('TODO')"
              onChange={(e) => change({ condition: e.target.value })}
              data-testid="run-breakpoint-condition"
            />
          </label>
        )}
        {form.kind === 'tool' && (
          <label className="mini-field">
            <span className="muted small">Tool</span>
            <input className="input mono" value={form.tool} placeholder="bash" onChange={(e) => change({ tool: e.target.value })} data-testid="run-breakpoint-tool" />
          </label>
        )}
      </div>
      <button type="button" className="btn small" disabled={busy} onClick={() => void add()} data-testid="run-breakpoint-add-button">
        {busy ? 'Checking…' : 'Add for this run'}
      </button>
      {error && (
        <p role="alert" className="field-problem error" data-testid="run-breakpoint-error">
          {error}
        </p>
      )}
    </details>
  );
}
