// Labelling a run's judged rounds quickly: y (good enough), n (not), j or → (next round), k or ← (previous);
// beside them, the judge's agreement with the labels over the experiment's runs.
import { useCallback, useEffect, useState } from 'react';
import { errorText, requestJson } from '../../api/client';

interface RoundRow {
  step_id: string;
  iteration: number;
  done: boolean | null;
  tokens: number;
  content: string;
  good: boolean | null;
}

interface AgreementRow {
  labelled: number;
  right: number;
  too_early: number;
  too_late: number;
  wasted_tokens: number;
  agreement: number | null;
}

/** `experimentId` null: the agreement over all the workflow's labelled runs (the run page's); `hideEmpty`: nothing
 * drawn for a run without judged rounds; `onLabelled`: told after each label the server took; `denied`: why the
 * user's role cannot label (the buttons and keys are off, the reason in their title). */
export function RoundLabels({
  runId,
  workflowId,
  experimentId,
  hideEmpty = false,
  onLabelled,
  denied = null,
}: {
  runId: string;
  workflowId: number;
  experimentId: number | null;
  hideEmpty?: boolean;
  onLabelled?: () => void;
  denied?: string | null;
}) {
  const [rounds, setRounds] = useState<RoundRow[]>([]);
  const [at, setAt] = useState(0);
  const [agreement, setAgreement] = useState<AgreementRow | null>(null);
  const [error, setError] = useState<string | null>(null);

  const loadAgreement = useCallback(() => {
    const scope = experimentId === null ? '' : `?experiment=${experimentId}`;
    requestJson<{ all: AgreementRow }>('GET', `/workflows/${workflowId}/judge-agreement${scope}`).then(
      (a) => setAgreement(a.all),
      (e) => setError(errorText(e)),
    );
  }, [workflowId, experimentId]);

  useEffect(() => {
    requestJson<RoundRow[]>('GET', `/runs/${runId}/rounds`).then(setRounds, (e) => setError(errorText(e)));
    loadAgreement();
  }, [runId, loadAgreement]);

  const label = useCallback(
    (good: boolean) => {
      const round = rounds[at];
      if (!round || denied) return;
      requestJson<RoundRow[]>('PUT', `/runs/${runId}/rounds/${encodeURIComponent(round.step_id)}/${round.iteration}/label`, { good }).then(
        (next) => {
          setRounds(next);
          setAt((i) => Math.min(i + 1, next.length - 1));
          loadAgreement();
          onLabelled?.();
        },
        (e) => setError(errorText(e)),
      );
    },
    [rounds, at, runId, loadAgreement, onLabelled, denied],
  );

  const onKey = (e: React.KeyboardEvent) => {
    if (e.key === 'y') label(true);
    else if (e.key === 'n') label(false);
    else if (e.key === 'j' || e.key === 'ArrowRight') setAt((i) => Math.min(i + 1, rounds.length - 1));
    else if (e.key === 'k' || e.key === 'ArrowLeft') setAt((i) => Math.max(i - 1, 0));
    else return;
    e.preventDefault();
  };

  const round = rounds[at];
  if (hideEmpty && !rounds.length) return null;
  return (
    <section aria-labelledby="labels-head" data-testid="round-labels">
      <h3 id="labels-head">Label rounds of run {runId.slice(0, 8)}</h3>
      {error && <p role="alert">{error}</p>}
      {!rounds.length && <p className="muted">This run has no judged rounds.</p>}
      {round && (
        <div tabIndex={0} onKeyDown={onKey} data-testid="round-focus" aria-keyshortcuts="y n j k">
          <p>
            Round {round.iteration + 1} of {rounds.length} ({round.step_id}): the judge said{' '}
            <strong>{round.done ? 'done' : 'not done'}</strong>; your label:{' '}
            <strong data-testid="round-label">{round.good === null ? 'none' : round.good ? 'good enough' : 'not good enough'}</strong>
          </p>
          <pre className="mono">{round.content}</pre>
          <p className="muted">{denied ?? 'y: good enough · n: not good enough · j / →: next · k / ←: previous'}</p>
          <button type="button" className="btn small" disabled={!!denied} title={denied ?? undefined} onClick={() => label(true)}>
            Good enough (y)
          </button>{' '}
          <button type="button" className="btn small" disabled={!!denied} title={denied ?? undefined} onClick={() => label(false)}>
            Not good enough (n)
          </button>
        </div>
      )}
      {agreement && (
        <p data-testid="judge-agreement">
          Judge agreement {agreement.agreement === null ? '–' : `${Math.round(agreement.agreement * 100)} %`} over {agreement.labelled} labelled
          rounds: {agreement.right} right, {agreement.too_early} too early, {agreement.too_late} too late ({agreement.wasted_tokens} tokens
          wasted)
        </p>
      )}
    </section>
  );
}
