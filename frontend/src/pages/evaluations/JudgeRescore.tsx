// The judge on trial, on the Evaluations page: its agreement with people's labels (over the shown experiment's
// rounds, or the workflow's), and "Re-score": the judge alone asked again on the labelled rounds with new
// instructions or another model (POST /workflows/{id}/judge-agreement/rescore), the new agreement beside the old.
// Only editors and above are offered it, as the server allows; what the server refuses is shown in its words,
// under the field it names.
import { useEffect, useState } from 'react';
import { api, errorText } from '../../api/client';
import type { JudgeAgreement, ModelChoice, Rescored } from '../../api/types';
import { capabilities } from '../../workspaces/roles';
import { agreementWords, fieldOf, judgeOf, percent, rescoreEdits, type JudgeNow } from './rescore';

const FIELDS = ['prompt', 'model'] as const;

const ROWS: { key: 'agreement' | 'right' | 'too_early' | 'too_late' | 'wasted_tokens' | 'wasted_cost_usd'; label: string }[] = [
  { key: 'agreement', label: 'Agreement' },
  { key: 'right', label: 'Right' },
  { key: 'too_early', label: 'Too early' },
  { key: 'too_late', label: 'Too late' },
  { key: 'wasted_tokens', label: 'Wasted tokens' },
  { key: 'wasted_cost_usd', label: 'Wasted cost' },
];

function cell(row: Rescored['before']['all'], key: (typeof ROWS)[number]['key']): string {
  if (key === 'agreement') return percent(row.agreement);
  if (key === 'wasted_cost_usd') return `$${Number(row.wasted_cost_usd).toFixed(4)}`;
  return String(row[key]);
}

/** `experimentId` null: every labelled run of the workflow; `refreshKey` changes when a label does. Keyed by the
 * experiment where it is used: a result belongs to the scope it was asked for. */
export function JudgeRescore({ workflowId, experimentId, refreshKey }: { workflowId: number; experimentId: number | null; refreshKey: number }) {
  const [role, setRole] = useState<string | null>(null);
  const [judge, setJudge] = useState<JudgeNow | null>(null);
  const [choices, setChoices] = useState<ModelChoice[]>([]);
  const [form, setForm] = useState({ prompt: '', model: '' });
  const [agreement, setAgreement] = useState<JudgeAgreement | null>(null);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [result, setResult] = useState<Rescored | null>(null);

  // The judge as the workflow's current version has it: the form starts from it.
  useEffect(() => {
    let live = true;
    api.getWorkflow(workflowId).then(
      (wf) => {
        if (!live) return;
        const now = judgeOf(wf.document);
        setRole(wf.role);
        setJudge(now);
        setForm({ prompt: now?.prompt ?? '', model: now?.model ?? '' });
        api.models(wf.workspace_id).then(
          (found) => live && setChoices(found),
          () => live && setChoices([]), // the picker is a help: any model can still be typed
        );
      },
      (e: unknown) => live && setError(errorText(e)),
    );
    return () => {
      live = false;
    };
  }, [workflowId]);

  useEffect(() => {
    let live = true;
    api.judgeAgreement(workflowId, experimentId).then(
      (found) => live && setAgreement(found),
      (e: unknown) => live && setError(errorText(e)),
    );
    return () => {
      live = false;
    };
  }, [workflowId, experimentId, refreshKey]);

  const rescore = async () => {
    setPending(true);
    setError(null);
    setResult(null);
    try {
      setResult(await api.rescoreJudge(workflowId, { experiment: experimentId, edits: rescoreEdits(judge, form) }));
    } catch (e) {
      setError(errorText(e));
    } finally {
      setPending(false);
    }
  };

  const caps = capabilities(role);
  const field = error ? fieldOf(error, FIELDS) : null;
  const problem = (name: (typeof FIELDS)[number]) =>
    field === name ? (
      <span id={`rescore-${name}-problem`} role="alert" className="field-problem error" data-testid="rescore-error">
        {error}
      </span>
    ) : null;
  const scope = experimentId === null ? 'the workflow’s labelled runs' : `experiment #${experimentId}’s labelled rounds`;
  return (
    <section aria-labelledby="judge-head" data-testid="judge-rescore" data-role={role ?? undefined}>
      <h2 id="judge-head">Judge agreement</h2>
      {agreement && (
        <p data-testid="judge-agreement-now">
          Over {scope}: {agreementWords(agreement.all)}
        </p>
      )}
      {!caps.run && caps.known && (
        <p className="muted small" data-testid="rescore-needs-runner">
          Re-scoring the judge needs the runner role or above (yours is {caps.role}).
        </p>
      )}
      {caps.run && (
        <form
          className="rescore-form"
          aria-busy={pending}
          onSubmit={(e) => {
            e.preventDefault();
            void rescore();
          }}
        >
          <p className="muted small">
            Ask the judge{judge ? ` (${judge.name})` : ''} again on every labelled round, with the prompt it was sent and these changes; the
            workers are not run again and the runs are left as they are. Each round is one call to its model.
          </p>
          <label className="pg-field">
            <span className="field-label">Judge instructions (its prompt)</span>
            <textarea
              rows={4}
              value={form.prompt}
              onChange={(e) => setForm({ ...form, prompt: e.target.value })}
              aria-invalid={field === 'prompt'}
              aria-describedby={field === 'prompt' ? 'rescore-prompt-problem' : undefined}
              data-testid="rescore-prompt"
            />
            {problem('prompt')}
          </label>
          <label className="pg-field">
            <span className="field-label">Model</span>
            <input
              type="text"
              className="mono"
              value={form.model}
              placeholder="the judge’s own (the run’s default when it names none)"
              list={choices.length ? 'rescore-model-choices' : undefined}
              onChange={(e) => setForm({ ...form, model: e.target.value })}
              aria-invalid={field === 'model'}
              aria-describedby={field === 'model' ? 'rescore-model-problem' : undefined}
              data-testid="rescore-model"
            />
            {choices.length > 0 && (
              <datalist id="rescore-model-choices">
                {choices.map((c) => (
                  <option key={c.model} value={c.model} />
                ))}
              </datalist>
            )}
            {problem('model')}
          </label>
          <div className="row">
            <button type="submit" className="btn primary small" disabled={pending} data-testid="rescore">
              {pending ? 'Re-scoring…' : 'Re-score'}
            </button>
            {pending && (
              <span role="status" data-testid="rescore-pending">
                <progress aria-label="Asking the judge again" />{' '}
                Asking the judge again on {agreement ? agreement.all.labelled : 'the'} labelled rounds…
              </span>
            )}
          </div>
        </form>
      )}
      {error && !field && (
        <p role="alert" className="error" data-testid="rescore-error">
          {error}
        </p>
      )}
      {result && (
        <div data-testid="rescore-result">
          <table className="table compact">
            <caption>
              The judge before and after: {result.calls} calls, {result.tokens} tokens, ${Number(result.cost_usd).toFixed(4)}
            </caption>
            <thead>
              <tr>
                <th scope="col" />
                <th scope="col">Before</th>
                <th scope="col">After</th>
              </tr>
            </thead>
            <tbody>
              {ROWS.map((r) => (
                <tr key={r.key}>
                  <th scope="row">{r.label}</th>
                  <td data-testid={`rescore-before-${r.key}`}>{cell(result.before.all, r.key)}</td>
                  <td data-testid={`rescore-after-${r.key}`}>{cell(result.after.all, r.key)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <p data-testid="rescore-before">Before: {agreementWords(result.before.all)}</p>
          <p data-testid="rescore-after">After: {agreementWords(result.after.all)}</p>
          <details>
            <summary>Each round</summary>
            <table className="table compact" data-testid="rescore-rounds">
              <thead>
                <tr>
                  <th>Run</th>
                  <th>Round</th>
                  <th>Label</th>
                  <th>Judge then</th>
                  <th>Judge now</th>
                  <th>Why</th>
                </tr>
              </thead>
              <tbody>
                {result.rounds.map((r) => (
                  <tr key={`${r.run_id}/${r.step_id}/${r.iteration}`} data-changed={r.was !== r.now ? '1' : '0'}>
                    <td className="mono">{r.run_id.slice(0, 8)}</td>
                    <td>
                      {r.step_id} {r.iteration + 1}
                    </td>
                    <td>{r.good ? 'good enough' : 'not good enough'}</td>
                    <td>{verdictWord(r.was)}</td>
                    <td>{verdictWord(r.now)}</td>
                    <td>{r.error ? <span className="error">{r.error}</span> : r.reason}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </details>
        </div>
      )}
    </section>
  );
}

function verdictWord(done: boolean | null | undefined): string {
  return done === null || done === undefined ? 'no verdict' : done ? 'done' : 'not done';
}
