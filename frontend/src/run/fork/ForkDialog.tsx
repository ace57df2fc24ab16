// "Re-run from here": a dialog showing just what matters at a step, a round or an item, editable;
// submitting starts the fork (POST /runs/{id}/fork) and opens it.
import { useEffect, useMemo, useState } from 'react';
import { api, errorText } from '../../api/client';
import type { ProviderInfo, Run } from '../../api/types';
import { Modal } from '../../components/Modal';
import { ScriptField } from '../../forms/ScriptField';
import { navigate } from '../../router';
import { useEditor } from '../../store/context';
import { formatIterationId, ordinal } from '../labels';
import {
  buildInput,
  buildPatch,
  docFields,
  forkBody,
  forkKind,
  forkTitle,
  inheritedWords,
  inputText,
  scriptText,
  type ForkAt,
} from './forkEdits';
import './fork.css';

export interface ForkDialogProps {
  run: Pick<Run, 'id' | 'provider' | 'model' | 'workspace_id' | 'script'>;
  at: ForkAt;
  onClose: () => void;
}

export function ForkDialog({ run, at, onClose }: ForkDialogProps) {
  const doc = useEditor((s) => s.doc);
  const loop = useEditor((s) => s.runState.loops[at.step]);
  const kind = forkKind(doc, at);
  const fields = useMemo(() => docFields(doc, at, kind), [doc, at, kind]);
  const previous = at.iteration !== undefined ? loop?.iterations.find((it) => it.iteration === at.iteration! - 1) : undefined;
  const current = at.iteration !== undefined ? loop?.iterations.find((it) => it.iteration === at.iteration) : undefined;
  const originalInput = inputText(kind, { previousOutput: previous?.content, item: current?.item });
  const [edited, setEdited] = useState<Record<string, string>>(() => Object.fromEntries(fields.map((f) => [f.key, f.value])));
  const [input, setInput] = useState(originalInput);
  const [provider, setProvider] = useState(run.provider);
  const [model, setModel] = useState(run.model ?? '');
  const originalScript = useMemo(() => scriptText(run.script), [run.script]);
  const [script, setScript] = useState(originalScript);
  const [providers, setProviders] = useState<ProviderInfo[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    api.providers(run.workspace_id).then(setProviders, () => setProviders([]));
  }, [run.workspace_id]);
  const showsInput = kind === 'item' || (kind === 'round' && (at.iteration ?? 0) > 0);

  const submit = async () => {
    setError(null);
    let body;
    try {
      const patch = buildPatch(fields, edited);
      const newScript = provider === 'simulated' && script.trim() && script !== originalScript ? script : undefined;
      body = forkBody(at, { patch, input: showsInput ? buildInput(kind, originalInput, input) : undefined, provider, model, script: newScript }, run);
    } catch (e) {
      setError(errorText(e));
      return;
    }
    setBusy(true);
    try {
      const fork = await api.forkRun(run.id, body);
      onClose();
      void navigate(`/runs/${fork.id}`);
    } catch (e) {
      setError(`Could not start the new run: ${errorText(e)}`);
    } finally {
      setBusy(false);
    }
  };

  const title = forkTitle(at, kind);
  return (
    <Modal onClose={onClose} label={title}>
      <form
        className="modal modal-wide fork-dialog"
        data-testid="fork-dialog"
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <h2>{title}</h2>
        <p className="muted small">
          {at.iteration !== undefined && kind !== 'step' && (
            <>
              Its events carry the id <code data-testid="fork-at-id">{formatIterationId(at.step, at.iteration, kind === 'item' ? 'item' : 'round')}</code>.{' '}
            </>
          )}
          {inheritedWords(at, kind)} Changes to the workflow are saved as a new version.
        </p>
        {fields.map((f, n) => (
          <label key={f.key} className="fork-field">
            <span className="field-label">{f.label}</span>
            {f.kind === 'text' ? (
              <textarea
                rows={4}
                value={edited[f.key] ?? ''}
                data-autofocus={n === 0 ? true : undefined}
                data-testid={`fork-field-${f.key}`}
                onChange={(e) => setEdited({ ...edited, [f.key]: e.target.value })}
              />
            ) : (
              <input
                type="text"
                inputMode={f.kind === 'count' ? 'numeric' : undefined}
                value={edited[f.key] ?? ''}
                data-testid={`fork-field-${f.key}`}
                onChange={(e) => setEdited({ ...edited, [f.key]: e.target.value })}
              />
            )}
          </label>
        ))}
        {showsInput && (
          <label className="fork-field">
            <span className="field-label">
              {kind === 'item'
                ? `Item ${ordinal(at.iteration ?? 0)} (JSON)`
                : `Output of round ${ordinal((at.iteration ?? 1) - 1)}, as round ${ordinal(at.iteration ?? 0)} will see it`}
            </span>
            <textarea rows={6} className="mono" value={input} data-testid="fork-input" onChange={(e) => setInput(e.target.value)} />
          </label>
        )}
        <div className="fork-row">
          <label className="fork-field">
            <span className="field-label">Provider</span>
            <select value={provider} data-testid="fork-provider" onChange={(e) => setProvider(e.target.value)}>
              {(providers.length ? providers.map((p) => p.name as string) : [run.provider]).map((name) => (
                <option key={name} value={name}>
                  {name}
                </option>
              ))}
            </select>
          </label>
          <label className="fork-field">
            <span className="field-label">Model (empty: each agent's own)</span>
            <input type="text" value={model} data-testid="fork-model" onChange={(e) => setModel(e.target.value)} />
          </label>
        </div>
        {provider === 'simulated' && (
          <ScriptField value={script} onChange={setScript} document={doc} testId="fork-script">
            {originalScript && script !== originalScript && (
              <button type="button" className="btn small ghost" onClick={() => setScript(originalScript)}>
                Back to the parent run’s script
              </button>
            )}
          </ScriptField>
        )}
        {error && (
          <p role="alert" className="field-problem error" data-testid="fork-error">
            {error}
          </p>
        )}
        <div className="modal-actions">
          <button type="button" className="btn" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="btn primary" disabled={busy} data-testid="fork-start">
            {busy ? 'Starting…' : 'Start the new run'}
          </button>
        </div>
      </form>
    </Modal>
  );
}
